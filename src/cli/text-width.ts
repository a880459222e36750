import { eastAsianWidth } from 'get-east-asian-width';

// Made when first needed: ICU's first segmenter costs a command 14 ms, and an ASCII text that fits needs none.
let graphemeSegmenter: Intl.Segmenter | undefined;
let wordSegmenter: Intl.Segmenter | undefined;
const graphemes = () => (graphemeSegmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' }));
const words = () => (wordSegmenter ??= new Intl.Segmenter('en', { granularity: 'word' }));

/**
 * The columns a character as people see it (a grapheme: 👩‍💻, é written as e and its accent) takes in a terminal:
 * 2 for CJK and emoji, 0 for what draws nothing on its own (a control, a joiner, a mark), 1 for the rest.
 */
function graphemeWidth(g: string): number {
  const first = g.codePointAt(0)!;
  if (first < 0x20 || (first >= 0x7f && first < 0xa0) || /^[\p{Cf}\p{Mn}\p{Me}]+$/u.test(g)) return 0;
  if (/\p{Extended_Pictographic}/u.test(g) && (/\p{Emoji_Presentation}/u.test(g) || g.includes('\ufe0f'))) return 2;
  return eastAsianWidth(first);
}

/** How many terminal columns a text takes: what a table pads by (its length counts 𝔘 twice and 字 once). */
export function displayWidth(text: string): number {
  // Plain ASCII, most cells of a table: its length.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes().segment(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` padded with spaces to `width` columns, at its end or (for a number) at its start. */
export function padToWidth(text: string, width: number, start = false): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return start ? fill + text : text + fill;
}

/** A word boundary is taken over a grapheme one when it keeps at least this share of the columns. */
const WORD_SHARE = 2 / 3;

/**
 * A text on one line in at most `max` columns: whole when it fits, else cut with "…" after the last word that
 * fits, or after the last character that fits when that would leave too little (a path, one long word), never
 * inside a character as people see it (an astral one, an emoji with its modifiers, a letter with its accent).
 * Words are where ICU finds them: between CJK words too, which no space parts.
 */
export function cutToWidth(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (displayWidth(flat) <= max) return flat;
  const room = max - 1;
  // The columns up to each grapheme boundary that fits beside the "…"; `end` the last of them.
  const widthAt = new Map<number, number>([[0, 0]]);
  let end = 0;
  let used = 0;
  for (const { segment, index } of graphemes().segment(flat)) {
    const w = graphemeWidth(segment);
    if (used + w > room) break;
    used += w;
    end = index + segment.length;
    widthAt.set(end, used);
  }
  // Back to the last word boundary when the cut is not on one (what follows `end` says whether it is).
  let cut = end;
  const boundaries: number[] = [];
  for (const { index } of words().segment(flat.slice(0, end + 64))) if (index > 0 && index <= end && widthAt.has(index)) boundaries.push(index);
  if (!boundaries.includes(end)) {
    const word = boundaries.reverse().find((b) => widthAt.get(b)! >= room * WORD_SHARE);
    if (word !== undefined) cut = word;
  }
  // Not on a space or a separator left hanging ("Fix the tax, …").
  const kept = flat.slice(0, cut).replace(/[\s,;:([{"'“‘–—-]+$/u, '');
  return `${kept === '' ? flat.slice(0, end) : kept}…`;
}
