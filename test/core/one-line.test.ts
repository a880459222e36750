import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine } from '../../src/core/util/one-line.js';
import { edgeString } from '../support/edge-arbitraries.js';

const reference = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
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

  it('reads only as far as the cut', () => {
    expect(oneLine('  a\n\n b ' + 'c'.repeat(10_000_000), 6)).toBe('a b c…');
  });
});
