/**
 * The words search sees: runs of letters, digits and marks, lowercased, each cut to its first
 * {@link MAX_WORD} characters (hashes and base64 runs would otherwise fill the index). The index and the
 * scan both match through this one function, so they find the same messages. `_` separates words, as `-` and
 * `.` do: `weather` finds the tool `get_weather`, and `get_weather` finds it as two words.
 */
export const MAX_WORD = 64;

const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
// 0: not looked at yet, 1: a word's character, 2: not, 3: a word by itself (UNSPACED).
const BMP = new Uint8Array(65536);
const LETTERISH = /[\p{L}\p{N}\p{M}]/u;
/**
 * Characters of writing that parts no words by spaces (Chinese, Japanese): each is a word of its own, so that
 * 失败原因 is found inside 你能看到失败原因吗 (a run of them is no word whose start a query could name).
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const UNSPACED_ALL = new RegExp(UNSPACED.source, 'gu');

/** Astral code points looked at so far: a letter (𝔘, 𠀀) is part of a word (𠀀 one by itself), a symbol (an emoji) is not. */
const ASTRAL = new Map<number, number>();

const kindOf = (ch: string): number => (UNSPACED.test(ch) ? 3 : LETTERISH.test(ch) ? 1 : 2);

/**
 * Whether the unit at `i` of `s` is part of a word: letters, digits and marks, by their Unicode category (the
 * rule SQLite's full-text index tokenises by, with categories L* N* M*, so that both find the same messages).
 * A surrogate half goes with its pair's code point.
 */
export function isWordUnitAt(s: string, i: number): boolean {
  const k = unitKind(s, i);
  return k === 1 || k === 3;
}

/** 1: the unit at `i` is part of a word, 3: of a word of one character, 2: of none. */
function unitKind(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return bmpKind(c);
  const high = c <= 0xdbff ? i : i - 1;
  const h = s.charCodeAt(high);
  const l = s.charCodeAt(high + 1);
  // A lone half is no character at all.
  if (!(h >= 0xd800 && h <= 0xdbff && l >= 0xdc00 && l <= 0xdfff)) return 2;
  const cp = (h - 0xd800) * 0x400 + (l - 0xdc00) + 0x10000;
  let v = ASTRAL.get(cp);
  if (v === undefined) ASTRAL.set(cp, (v = kindOf(String.fromCodePoint(cp))));
  return v;
}

function bmpKind(c: number): number {
  if (c < 128) return ASCII[c] === 1 ? 1 : 2;
  let v = BMP[c];
  if (v === 0) BMP[c] = v = kindOf(String.fromCharCode(c));
  return v;
}

/**
 * Where the word that starts at `start` (a word unit) ends: after its one character where that is Chinese or
 * Japanese, else at the first unit that is no part of a word or begins a word of its own. Every scanner of words
 * (forEachWord, the dictionary, the snippets) and the index's text (indexText) part words so.
 */
export function wordEndAt(s: string, start: number): number {
  if (unitKind(s, start) === 3) return start + (s.charCodeAt(start) >= 0xd800 && s.charCodeAt(start) <= 0xdbff ? 2 : 1);
  let i = start + 1;
  const n = s.length;
  while (i < n && unitKind(s, i) === 1) i++;
  return i;
}

/**
 * The runs of two or more Chinese or Japanese characters a query holds, folded: each a word of its own to the
 * index (which finds them apart), together to what a hit must say (matcherOf).
 */
export function unspacedRuns(query: string): string[] {
  return [...new Set(foldCase(query).match(UNSPACED_RUNS) ?? [])];
}
const UNSPACED_RUNS = new RegExp(`(?:${UNSPACED.source}){2,}`, 'gu');

/** Text as the full-text index is given it: folded as search folds it, each Chinese or Japanese character a word apart. */
export function indexText(text: string): string {
  const folded = foldCase(text);
  return UNSPACED.test(folded) ? folded.replace(UNSPACED_ALL, ' $& ') : folded;
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

/** Calls `each` with every word of `text` (lowercased, cut to MAX_WORD) in order, until it returns true. */
export function forEachWord(text: string, each: (word: string) => boolean | void): void {
  const lower = foldCase(text);
  const n = lower.length;
  let i = 0;
  while (i < n) {
    while (i < n && !isWordUnitAt(lower, i)) i++;
    if (i >= n) return;
    const start = i;
    i = wordEndAt(lower, start);
    if (each(i - start > MAX_WORD ? lower.slice(start, start + MAX_WORD) : lower.slice(start, i)) === true) return;
  }
}

export function wordsOf(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (w) => void out.push(w));
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
  // Read only as far as the last term's first word (a message of 20,000 words was read whole for each hit).
  forEachWord(text, (w) => {
    for (const t of left) if (w.startsWith(t)) left.delete(t);
    return left.size === 0;
  });
  return left.size === 0;
}
