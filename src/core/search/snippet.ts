import { foldCase, isWordUnitAt, MAX_WORD, wordEndAt } from './words.js';

/** The line a match is on, cut around it, and where the match is in that text. */
export interface Snippet {
  text: string;
  /** [start, end) of the match in `text`. */
  match: [number, number];
}

/** Text is lowercased this many units at a time (up to a space or newline, where no word runs on). */
const PIECE = 1 << 14;
const PIECE_END = /[ \n]/g;

/**
 * Where the first word beginning with one of the terms is, in the text as written. Words are found in the
 * lowercased text as `forEachWord` finds them: a word lowercased alone can differ (a Σ before an apostrophe is
 * σ in the text, ς alone), and a message `textMatches` accepts must have its match found.
 */
export function firstTermMatch(text: string, terms: readonly string[]): [number, number] | undefined {
  return termMatches(text, terms, 1)[0];
}

/** How near the other words of a query must be for a place to show them together (a snippet's reach). */
const TOGETHER = 80;

/**
 * Where a snippet of the text best shows why it matched: at the query's rarest word (`137` of `marker 137`,
 * not the first of many `Marker`s), the first place where every other word is near it, else its first place.
 */
export function bestTermMatch(text: string, terms: readonly string[]): [number, number] | undefined {
  if (terms.length <= 1) return firstTermMatch(text, terms);
  const all = termMatches(text, terms, 20_000);
  if (all.length === 0) return undefined;
  const termOf = ([a, b]: [number, number]) => {
    const word = foldCase(text.slice(a, b));
    return terms.reduce((best, t) => (word.startsWith(t) && t.length > best.length ? t : best), '');
  };
  const byTerm = new Map<string, Array<[number, number]>>();
  for (const m of all) {
    const t = termOf(m);
    const list = byTerm.get(t);
    if (list) list.push(m);
    else byTerm.set(t, [m]);
  }
  let rarest: Array<[number, number]> | undefined;
  for (const [t, list] of byTerm) if (!rarest || list.length < rarest.length || (list.length === rarest.length && t.length > termOf(rarest[0]).length)) rarest = list;
  const others = [...byTerm.values()].filter((l) => l !== rarest);
  for (const m of rarest!) if (others.every((l) => l.some(([a]) => Math.abs(a - m[0]) <= TOGETHER))) return m;
  return rarest![0];
}

/**
 * Every word beginning with one of the terms, as [start, end) of the text as written, in order (at most
 * `limit`): what a search marks in the text it found, by the same rule that found it.
 */
export function termMatches(text: string, terms: readonly string[], limit = Infinity): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (terms.length === 0) return out;
  const n = text.length;
  let base = 0;
  while (base < n && out.length < limit) {
    // Lowercased a piece at a time, each ending after a space or newline: case mapping looks across neither,
    // and a long message whose match is near its start is not lowercased whole.
    let cut = n;
    if (n - base > PIECE) {
      PIECE_END.lastIndex = base + PIECE;
      const m = PIECE_END.exec(text);
      if (m) cut = m.index + 1;
    }
    const piece = base === 0 && cut === n ? text : text.slice(base, cut);
    for (const [a, b] of matchesIn(piece, terms, limit - out.length)) out.push([base + a, base + b]);
    base = cut;
  }
  return out;
}

function matchesIn(text: string, terms: readonly string[], limit: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const lower = foldCase(text);
  const n = lower.length;
  let origin: Int32Array | undefined;
  let i = 0;
  while (i < n && out.length < limit) {
    while (i < n && !isWordUnitAt(lower, i)) i++;
    const start = i;
    if (i >= n) break;
    i = wordEndAt(lower, start);
    const word = lower.slice(start, Math.min(i, start + MAX_WORD));
    // The longest term the word begins with is marked (`inv invoice` marks all of "invoice").
    let len = 0;
    for (const t of terms) if (t.length > len && word.startsWith(t)) len = t.length;
    if (len === 0) continue;
    const end = start + len;
    if (lower.length === text.length) {
      out.push([start, end]);
      continue;
    }
    // Some letters lowercase longer (İ is i and a dot): back to the text as written.
    origin ??= originsOf(text, lower);
    let k = end;
    while (k < n && origin[k] === origin[end - 1]) k++;
    out.push([origin[start], origin[k]]);
  }
  return out;
}

/** For each unit of `lower` (`text` lowercased), where its character is in `text`; `text.length` after the last. */
function originsOf(text: string, lower: string): Int32Array {
  const origin = new Int32Array(lower.length + 1).fill(text.length);
  let k = 0;
  for (let i = 0; i < text.length && k < lower.length; ) {
    const cp = text.codePointAt(i)!;
    const units = String.fromCodePoint(cp).toLowerCase().length;
    for (let j = 0; j < units && k < lower.length; j++) origin[k++] = i;
    i += cp > 0xffff ? 2 : 1;
  }
  return origin;
}

export function firstRegexMatch(text: string, re: RegExp): [number, number] | undefined {
  re.lastIndex = 0;
  const m = re.exec(text);
  return m ? [m.index, m.index + m[0].length] : undefined;
}

const WIDTH = 160;
/** Line breaks of every kind JavaScript knows: a lone CR too (progress bars redraw their line with one). */
const BREAKS = /[\n\r\u2028\u2029]/g;
const isBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
const isSpace = (ch: string) => /\s/.test(ch);
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** Whether a cut before text[at] falls between the halves of a surrogate pair. */
const splitsPair = (text: string, at: number) => at > 0 && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1));

/**
 * The line the match starts on, cut to about 160 characters around the match, with … where the line goes on
 * (white space at the ends is dropped, with no …); a match running onto the next line keeps its first line.
 */
export function snippetAround(text: string, [start, end]: [number, number], width = WIDTH): Snippet {
  // Back no further than a snippet reaches.
  const reach = Math.max(0, start - width);
  let lineStart = start;
  while (lineStart > reach && !isBreak(text.charCodeAt(lineStart - 1))) lineStart--;
  BREAKS.lastIndex = start;
  const lineEnd = BREAKS.exec(text)?.index ?? text.length;
  // A match longer than a snippet (a pattern that takes a whole 50,000-character line) is shown up to its width.
  let stop = Math.min(end, lineEnd, start + width);
  if (stop < end && stop > start && splitsPair(text, stop)) stop--;
  const room = Math.max(0, width - (stop - start));
  let from = Math.max(lineStart, start - Math.floor(room / 3));
  let to = Math.min(lineEnd, stop + room - (start - from));
  if (to - from < width) from = Math.max(lineStart, to - width);
  // A cut never splits a surrogate pair.
  if (from < start && splitsPair(text, from)) from++;
  if (to > stop && splitsPair(text, to)) to--;
  // An ellipsis says there is more of the line to see: white space cut off is not.
  let k = from;
  while (k > 0 && isSpace(text[k - 1]) && !isBreak(text.charCodeAt(k - 1))) k--;
  const head = k > 0 && !isBreak(text.charCodeAt(k - 1)) ? '…' : '';
  k = to;
  while (k < lineEnd && isSpace(text[k])) k++;
  const tail = k < lineEnd ? '…' : '';
  while (from < start && isSpace(text[from])) from++;
  while (to > stop && isSpace(text[to - 1])) to--;
  return { text: head + text.slice(from, to).replace(/\t/g, ' ') + tail, match: [head.length + start - from, head.length + stop - from] };
}
