import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine } from '../../src/core/util/one-line.js';
import { edgeString } from '../support/edge-arbitraries.js';

const reference = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // Never half an astral character: the cut steps back over the first half of one.
  const cut = flat.slice(0, max - 1);
  return (/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut) + '…';
};

describe('oneLine', () => {
  it('is the text with its whitespace folded and trimmed, cut with "…", for every kind of space (property)', () => {
    const spaces = fc.constantFrom(' ', '\t', '\n', '\r\n', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u200b', '\u0085');
    const text = fc.array(fc.oneof(edgeString, spaces, fc.string()), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 80 }), (t, max) => {
        expect(oneLine(t, max)).toBe(reference(t, max));
      }),
      { numRuns: 2000 },
    );
  });

  it('never leaves half of an astral character before the "…"', () => {
    expect(oneLine('ab𝔘cd', 4)).toBe('ab…');
    expect(oneLine('a😀😀😀', 5)).toBe('a😀…');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 40 }), (t, max) => {
        expect(oneLine(t, max)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      }),
    );
  });

  it('reads only as far as the cut', () => {
    expect(oneLine('  a\n\n b ' + 'c'.repeat(10_000_000), 6)).toBe('a b c…');
  });
});
