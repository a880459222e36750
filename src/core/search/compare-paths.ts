// Made at the first comparison of a path the table below cannot order: ICU's collator takes 8 ms to make.
let collator: Intl.Collator | undefined;
const icu = () => (collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' }));

/**
 * Printable ASCII in the order of ICU's root collation at its first strength, as the collator below sorts it
 * (test/core/compare-paths.test.ts checks every character against it): punctuation and symbols, then digits (a run
 * of them as one number), then letters, each the same in either case.
 */
const PUNCTUATION = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$';
const DIGIT_RANK = PUNCTUATION.length + 1;
/** Each character's rank; 0 for one outside printable ASCII (such a path is left to ICU). */
const RANK = new Uint8Array(128);
for (let k = 0; k < PUNCTUATION.length; k++) RANK[PUNCTUATION.charCodeAt(k)] = k + 1;
for (let c = 48; c <= 57; c++) RANK[c] = DIGIT_RANK;
for (let c = 0; c < 26; c++) RANK[65 + c] = RANK[97 + c] = DIGIT_RANK + 1 + c;

const isDigit = (c: number) => c >= 48 && c <= 57;
const LONGEST_NUMBER = 200;

/** Whether every character of `s` from `from` on is printable ASCII. */
function ranked(s: string, from: number): boolean {
  for (let k = from; k < s.length; k++) if (s.charCodeAt(k) >= 128 || RANK[s.charCodeAt(k)] === 0) return false;
  return true;
}

/** The sign ICU's numeric, base-strength collation gives two printable-ASCII strings; undefined for any other. */
function asciiOrder(a: string, b: string): number | undefined {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    const ra = ca < 128 ? RANK[ca] : 0;
    const rb = cb < 128 ? RANK[cb] : 0;
    if (ra === 0 || rb === 0) return undefined;
    if (ra === DIGIT_RANK && rb === DIGIT_RANK) {
      // Two numbers: by their value (leading zeros are not counted), digit by digit once their lengths agree.
      let ie = i;
      while (ie < a.length && isDigit(a.charCodeAt(ie))) ie++;
      let je = j;
      while (je < b.length && isDigit(b.charCodeAt(je))) je++;
      // ICU cuts a number of 254 digits into several: left to it.
      if (ie - i > LONGEST_NUMBER || je - j > LONGEST_NUMBER) return undefined;
      while (i < ie - 1 && a.charCodeAt(i) === 48) i++;
      while (j < je - 1 && b.charCodeAt(j) === 48) j++;
      if (ie - i !== je - j) return ie - i < je - j ? -1 : 1;
      for (; i < ie; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return a.charCodeAt(i) < b.charCodeAt(j) ? -1 : 1;
      continue;
    }
    if (ra !== rb) return ra < rb ? -1 : 1;
    i++;
    j++;
  }
  if (!ranked(a, i) || !ranked(b, j)) return undefined;
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

/** Results' order: paths as people sort them (run2 before run10), ties by code units. */
export const comparePaths = (a: string, b: string): number =>
  (asciiOrder(a, b) ?? icu().compare(a, b)) || (a < b ? -1 : a > b ? 1 : 0);

/** ICU's own order, for the tests that hold the table to it. */
export const collatorOrder = (a: string, b: string): number => icu().compare(a, b);
