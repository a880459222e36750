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

/** Astral code points looked at so far: a letter (𝔘, 𠀀) is part of a word, a symbol (an emoji) is not. */
const ASTRAL = new Map<number, boolean>();

/**
 * Whether the unit at `i` of `s` is part of a word: letters, digits and marks, by their Unicode category (the
 * rule SQLite's full-text index tokenises by, with categories L* N* M*, so that both find the same messages).
 * A surrogate half goes with its pair's code point.
 */
export function isWordUnitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return isBmpWordUnit(c);
  const high = c <= 0xdbff ? i : i - 1;
  const h = s.charCodeAt(high);
  const l = s.charCodeAt(high + 1);
  // A lone half is no character at all.
  if (!(h >= 0xd800 && h <= 0xdbff && l >= 0xdc00 && l <= 0xdfff)) return false;
  const cp = (h - 0xd800) * 0x400 + (l - 0xdc00) + 0x10000;
  let v = ASTRAL.get(cp);
  if (v === undefined) ASTRAL.set(cp, (v = LETTERISH.test(String.fromCodePoint(cp))));
  return v;
}

function isBmpWordUnit(c: number): boolean {
  if (c < 128) return ASCII[c] === 1;
  let v = BMP[c];
  if (v === 0) BMP[c] = v = LETTERISH.test(String.fromCharCode(c)) ? 1 : 2;
  return v === 1;
}

/**
 * Letters whose lowercase is not their case fold (final sigma, long s, the Greek symbol forms): folded as the
 * full-text index folds them, so that "ΟΔΟΣ" and "οδος" find each other. Each is one unit and stays one.
 */
const FOLD: Record<string, string> = { '\u03c2': '\u03c3', '\u017f': 's', '\u03d0': '\u03b2', '\u03d1': '\u03b8', '\u03d5': '\u03c6', '\u03d6': '\u03c0', '\u03f0': '\u03ba', '\u03f1': '\u03c1', '\u03f5': '\u03b5', '\u1e9b': '\u1e61', '\u0345': '\u03b9', '\u1fbe': '\u03b9' };
// An alternation, not a class: U+0345 is a combining mark, which a class would read as joined to its neighbour.
const HAS_FOLDED = /\u03c2|\u017f|\u03d0|\u03d1|\u03d5|\u03d6|\u03f0|\u03f1|\u03f5|\u1e9b|\u0345|\u1fbe/;
const FOLDED = new RegExp(HAS_FOLDED.source, 'g');

/** Text as search compares it: lowercased, and the few letters whose fold differs folded. Same length. */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  return HAS_FOLDED.test(lower) ? lower.replace(FOLDED, (c) => FOLD[c]) : lower;
}

/** Calls `each` with every word of `text` (lowercased, cut to MAX_WORD) in order. */
export function forEachWord(text: string, each: (word: string) => void): void {
  const lower = foldCase(text);
  const n = lower.length;
  let i = 0;
  while (i < n) {
    while (i < n && !isWordUnitAt(lower, i)) i++;
    if (i >= n) return;
    const start = i;
    while (i < n && isWordUnitAt(lower, i)) i++;
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
