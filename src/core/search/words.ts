/**
 * The words search sees: runs of letters, digits and marks, lowercased, each cut to its first
 * {@link MAX_WORD} characters (hashes and base64 runs would otherwise fill the index). The index and the
 * scan both match through this one function, so they find the same messages. `_` separates words, as `-` and
 * `.` do: `weather` finds the tool `get_weather`, and `get_weather` finds it as two words.
 */
export const MAX_WORD = 64;

const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
// 0: not looked at yet, 1: a word's character, 2: not.
const BMP = new Uint8Array(65536);
const LETTERISH = /[\p{L}\p{N}\p{M}]/u;

export function isWordUnit(c: number): boolean {
  if (c < 128) return ASCII[c] === 1;
  // Surrogates: astral letters (and emoji) stay inside the word they are written in.
  if (c >= 0xd800 && c <= 0xdfff) return true;
  let v = BMP[c];
  if (v === 0) BMP[c] = v = LETTERISH.test(String.fromCharCode(c)) ? 1 : 2;
  return v === 1;
}

/** Calls `each` with every word of `text` (lowercased, cut to MAX_WORD) in order. */
export function forEachWord(text: string, each: (word: string) => void): void {
  const lower = text.toLowerCase();
  const n = lower.length;
  let i = 0;
  while (i < n) {
    while (i < n && !isWordUnit(lower.charCodeAt(i))) i++;
    if (i >= n) return;
    const start = i;
    while (i < n && isWordUnit(lower.charCodeAt(i))) i++;
    each(i - start > MAX_WORD ? lower.slice(start, start + MAX_WORD) : lower.slice(start, i));
  }
}

export function wordsOf(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (w) => out.push(w));
  return out;
}

/** A query's terms: its words, each of which a message must hold as a word or the start of one. */
export function queryTerms(query: string): string[] {
  return [...new Set(wordsOf(query))];
}

/** Whether the text holds every term as a word or a word's beginning (what the index answers, by a scan). */
export function textMatches(text: string, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const left = new Set(terms);
  forEachWord(text, (w) => {
    if (left.size === 0) return;
    for (const t of left) if (w.startsWith(t)) left.delete(t);
  });
  return left.size === 0;
}
