import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nameOf } from '../../src/core/util/file-name.js';

// The walk's file name, held to what it replaced: path.basename of the path with "/" for "\".
describe('nameOf', () => {
  it('is path.basename of the path with either separator, trailing separators and all (property)', () => {
    const part = fc.constantFrom('/', '\\', 'a', '.', 'b.jsonl', ' ', '\t', '\u2028', '\u{1F600}', 'C:', '..');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 10 }), (parts) => {
        const file = parts.join('');
        expect(nameOf(file)).toBe(basename(file.replace(/\\/g, '/')));
      }),
      { numRuns: 20_000 },
    );
    expect(nameOf('C:\\Users\\a\\.claude\\projects\\x.jsonl')).toBe('x.jsonl');
  });
});
