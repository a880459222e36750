import { isWordUnit, MAX_WORD } from './words.js';

/** The line a match is on, cut around it, and where the match is in that text. */
export interface Snippet {
  text: string;
  /** [start, end) of the match in `text`. */
  match: [number, number];
}

/** Where the first word beginning with one of the terms is, in the text as written. */
export function firstTermMatch(text: string, terms: readonly string[]): [number, number] | undefined {
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && !isWordUnit(text.charCodeAt(i))) i++;
    const start = i;
    while (i < n && isWordUnit(text.charCodeAt(i))) i++;
    if (i === start) break;
    const word = text.slice(start, Math.min(i, start + MAX_WORD * 2)).toLowerCase().slice(0, MAX_WORD);
    for (const t of terms) if (word.startsWith(t)) return [start, Math.min(i, start + t.length)];
  }
  return undefined;
}

export function firstRegexMatch(text: string, re: RegExp): [number, number] | undefined {
  re.lastIndex = 0;
  const m = re.exec(text);
  return m ? [m.index, m.index + m[0].length] : undefined;
}

const WIDTH = 160;

/** The line holding [start, end), cut to about 160 characters around the match, with … where cut. */
export function snippetAround(text: string, [start, end]: [number, number], width = WIDTH): Snippet {
  let lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let lineEnd = text.indexOf('\n', end);
  if (lineEnd === -1) lineEnd = text.length;
  // A match that spans lines (a regex) keeps its first line.
  const stop = Math.min(end, lineEnd);
  const room = Math.max(0, width - (stop - start));
  let from = Math.max(lineStart, start - Math.floor(room / 3));
  let to = Math.min(lineEnd, stop + room - (start - from));
  if (to - from < width) from = Math.max(lineStart, to - width);
  // Whitespace at the ends says nothing; a cut never splits a surrogate pair.
  while (from < start && /\s/.test(text[from])) from++;
  while (to > stop && /\s/.test(text[to - 1])) to--;
  if (from > lineStart && from < start && isLowSurrogate(text.charCodeAt(from))) from++;
  if (to < lineEnd && to > stop && isLowSurrogate(text.charCodeAt(to))) to--;
  const head = from > lineStart ? '…' : '';
  const tail = to < lineEnd ? '…' : '';
  lineStart = from;
  return { text: head + text.slice(from, to).replace(/\t/g, ' ') + tail, match: [head.length + start - lineStart, head.length + stop - lineStart] };
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;
