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

/**
 * Text of one column per UTF-16 unit and no characters joined (ASCII, Latin-1 but its soft hyphen, Latin Extended,
 * general punctuation such as "…" and "—"): measured and cut without ICU, whose first segmenter costs a command
 * 14 ms and whose segmenting cost `search` 70 ms for a hundred long titles.
 */
const SIMPLE = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e]*$/;

/**
 * What can join characters into one as people see it (UAX #29): marks, joiners and format characters, Thai and
 * Lao's spacing vowels, Hangul jamo, the prepended signs (Arabic's number signs, Malayalam's dot reph, those of
 * Kaithi, Sharada, Dives Akuru, Soyombo, Masaram Gondi, Kawi…), halfwidth kana's sound marks, Kirat Rai's vowel
 * signs, regional indicators, skin tones, variation selectors, tags, CR: every code point ICU joins to another
 * that no \p{M} or \p{Cf} names (a test walks all of them). A text without any is a grapheme per code point
 * (Cyrillic, Greek, CJK, a lone emoji): measured and cut by code points, without ICU.
 */
const CLUSTERED = /[\p{M}\p{Cf}\u0e33\u0eb3\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u{110bd}\u{110cd}\u{111c2}\u{111c3}\u{113d1}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}\uff9e\uff9f\u{16d63}-\u{16d6a}\r]|[\u{1f1e6}-\u{1f1ff}]|[\u{1f3fb}-\u{1f3ff}]|[\ufe00-\ufe0f]|[\u{e0000}-\u{e0fff}]/u;
/** Scripts whose words no space parts: their words are where ICU's dictionaries find them. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** The graphemes of a text and where each starts: its code points where none join, else ICU's. */
function* graphemesOf(text: string): Generator<{ segment: string; index: number }> {
  if (CLUSTERED.test(text)) {
    yield* graphemes().segment(text);
    return;
  }
  let index = 0;
  for (const segment of text) {
    yield { segment, index };
    index += segment.length;
  }
}

/** How many terminal columns a text takes: what a table pads by (its length counts 𝔘 twice and 字 once). */
export function displayWidth(text: string): number {
  // Plain text, most cells of a table: its length.
  if (SIMPLE.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemesOf(text)) width += graphemeWidth(segment);
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
  // Only the head of a long text is looked at: what fits, and a word's worth after it to see where words end.
  const head = headOf(text, max);
  const flat = head.text;
  if (!head.cut && displayWidth(flat) <= max) return flat;
  const room = max - 1;
  const simple = SIMPLE.test(flat);
  // The columns up to each grapheme boundary that fits beside the "…"; `end` the last of them.
  const widthAt = new Map<number, number>([[0, 0]]);
  let end = 0;
  if (simple) {
    end = room;
    for (let i = 1; i <= end; i++) widthAt.set(i, i);
  } else {
    let used = 0;
    for (const { segment, index } of graphemesOf(flat)) {
      const w = graphemeWidth(segment);
      if (used + w > room) break;
      used += w;
      end = index + segment.length;
      widthAt.set(end, used);
    }
  }
  // Back to the last word boundary when the cut is not on one (what follows `end` says whether it is).
  let cut = end;
  const boundaries = wordBoundaries(flat.slice(0, end + 64), simple).filter((i) => i > 0 && i <= end && widthAt.has(i));
  if (!boundaries.includes(end)) {
    const word = boundaries.reverse().find((b) => widthAt.get(b)! >= room * WORD_SHARE);
    if (word !== undefined) cut = word;
  }
  // Not on a space or a separator left hanging ("Fix the tax, …").
  const kept = flat.slice(0, cut).replace(/[\s,;:([{"'“‘–—-]+$/u, '');
  return `${kept === '' ? flat.slice(0, end) : kept}…`;
}

/** Units a head is read with per column it may need: a joined emoji takes up to 5.5 units a column, spaces fold. */
const UNITS_PER_COLUMN = 8;
const FOLDED_UNITS_PER_COLUMN = 6;

/**
 * The text on one line (its spaces folded), or only its head where it is long: enough units for `max` columns and
 * the word after them. `cut` when more followed.
 */
function headOf(text: string, max: number): { text: string; cut: boolean } {
  let units = (max + 64) * UNITS_PER_COLUMN;
  for (;;) {
    if (text.length <= units) return { text: text.replace(/\s+/g, ' ').trim(), cut: false };
    const flat = text.slice(0, units).replace(/\s+/g, ' ').trimStart();
    // Folded spaces can leave a head too short to fill the columns: a longer one.
    if (flat.length >= (max + 64) * FOLDED_UNITS_PER_COLUMN) return { text: flat, cut: true };
    units *= 4;
  }
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * A letter, digit or underscore, by the code unit: ASCII told by its code (2,000 titles of 60 columns ask this
 * 500,000 times).
 */
function isWordUnit(k: number): boolean {
  if (k < 0x80) return (k >= 0x30 && k <= 0x39) || (k >= 0x41 && k <= 0x5a) || (k >= 0x61 && k <= 0x7a) || k === 0x5f;
  return WORD_CHAR.test(String.fromCharCode(k));
}

/** An apostrophe, a dot or a colon: joins the letters on either side into one word. */
const joinsWord = (k: number) => k === 0x27 || k === 0x2e || k === 0x2019 || k === 0x3a;

/**
 * Where words start and end in a text: ICU's boundaries where it holds words no space parts or characters joined,
 * else the same found by its letters.
 */
function wordBoundaries(text: string, simple: boolean): number[] {
  if (!simple && (CLUSTERED.test(text) || UNSPACED.test(text))) return [...words().segment(text)].map((s) => s.index);
  const out: number[] = [];
  const word = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) word[i] = isWordUnit(text.charCodeAt(i)) ? 1 : 0;
  for (let i = 1; i < text.length; i++) {
    // A word goes on through an apostrophe or a dot between letters or digits ("don't", "e.g", "3.5").
    if (word[i - 1] && word[i]) continue;
    if (word[i - 1] && joinsWord(text.charCodeAt(i)) && i + 1 < text.length && word[i + 1]) continue;
    if (word[i] && joinsWord(text.charCodeAt(i - 1)) && i > 1 && word[i - 2]) continue;
    out.push(i);
  }
  return out;
}
