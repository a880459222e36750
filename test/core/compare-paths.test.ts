import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { collatorOrder, comparePaths } from '../../src/core/search/compare-paths.js';

// The order of results is ICU's numeric, case-blind collation; printable ASCII is ordered by a table without
// making the collator. Both must agree on every pair, ties broken by code units alike.
const byIcu = (a: string, b: string) => collatorOrder(a, b) || (a < b ? -1 : a > b ? 1 : 0);
const printable = Array.from({ length: 95 }, (_, k) => String.fromCharCode(32 + k));
const pathChars = [...'aAzZ09150-_. /\\~$', '\t', '\u00e9', '\u2028', '\u{1F600}', '\u0000'];

describe('comparePaths', () => {
  it('orders every printable ASCII character as ICU does, alone and after a common prefix', () => {
    for (const a of printable) for (const b of printable) {
      expect(Math.sign(comparePaths(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(byIcu(a, b)));
      expect(Math.sign(comparePaths(`run${a}1`, `run${b}10`))).toBe(Math.sign(byIcu(`run${a}1`, `run${b}10`)));
    }
  });

  it('agrees with ICU on paths of digits, letters, separators and characters outside ASCII', () => {
    const path = fc.array(fc.oneof(fc.constantFrom(...pathChars), fc.constantFrom(...printable), fc.stringMatching(/^0*[0-9]{1,12}$/)), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(path, path, fc.boolean(), (a, b, prefixed) => {
        const [x, y] = prefixed ? [a, a + b] : [a, b];
        expect(Math.sign(comparePaths(x, y))).toBe(Math.sign(byIcu(x, y)));
        expect(Math.sign(comparePaths(y, x)) + 0).toBe(-Math.sign(comparePaths(x, y)) + 0);
      }),
      { numRuns: 20_000 },
    );
  });

  it('numbers by value, leading zeros aside, and long numbers as ICU cuts them', () => {
    expect(['run10', 'run2', 'Run1', 'run02', 'run-1'].sort(comparePaths)).toEqual(['run-1', 'Run1', 'run02', 'run2', 'run10']);
    const long = (n: number, last: string) => `x${'9'.repeat(n)}${last}`;
    for (const n of [199, 200, 201, 253, 254, 255, 300]) {
      expect(Math.sign(comparePaths(long(n, '1'), long(n, '0') + '5'))).toBe(Math.sign(byIcu(long(n, '1'), long(n, '0') + '5')));
      expect(Math.sign(comparePaths(long(n, ''), long(n - 1, '')))).toBe(Math.sign(byIcu(long(n, ''), long(n - 1, ''))));
    }
  });
});
