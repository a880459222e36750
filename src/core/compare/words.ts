import { alignSequences, Keys } from './align.js';

/** A range of a text, [start, end) in UTF-16 units. */
export type Range = [number, number];

export interface WordDiff {
  /** What the left text has that the right has not, and the other way round: ranges of each text. */
  left: Range[];
  right: Range[];
  /** Every difference is white space (line endings, indentation, spaces at the ends): the words are the same. */
  whitespaceOnly: boolean;
}

/**
 * A text's words as a diff reads them: runs of letters and digits (any script), runs of white space, and each
 * other character alone (punctuation, an emoji: a whole code point, never half a surrogate pair).
 */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{M}\p{N}_]+|\s+|[^]/gu) ?? [];
}

const isSpace = (w: string) => /^\s+$/u.test(w);

/**
 * Past this many characters on a side, a text is compared in full but marked by lines: a word diff of two
 * long tool outputs costs more than it tells.
 */
export const WORD_DIFF_MAX = 200_000;

/** A piece of a word diff: text both have, or only the left (removed) or the right (added). */
export interface WordPiece {
  op: 'same' | 'removed' | 'added';
  text: string;
}

/** The two texts as pieces, in order: the same and removed ones make the left text, the same and added ones the right. */
export function wordPieces(left: string, right: string): WordPiece[] {
  const { lw, rw, common } = commonWords(left, right);
  const out: WordPiece[] = [];
  const push = (op: WordPiece['op'], text: string) => {
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < lw.length || j < rw.length) {
    if (i < lw.length && common.left[i] === 0) push('removed', lw[i++]);
    else if (j < rw.length && common.right[j] === 0) push('added', rw[j++]);
    else {
      push('same', lw[i]);
      i++;
      j++;
    }
  }
  return out;
}

function commonWords(left: string, right: string) {
  const long = left.length > WORD_DIFF_MAX || right.length > WORD_DIFF_MAX;
  const lw = long ? linesOf(left) : wordsOf(left);
  const rw = long ? linesOf(right) : wordsOf(right);
  const keys = new Keys<string>();
  const runs = alignSequences(
    lw.map((w) => keys.of(w)),
    rw.map((w) => keys.of(w)),
  );
  const common = { left: new Uint8Array(lw.length), right: new Uint8Array(rw.length) };
  for (const r of runs) for (let k = 0; k < r.length; k++) {
    common.left[r.a + k] = 1;
    common.right[r.b + k] = 1;
  }
  return { lw, rw, common };
}

/** The words that differ between two texts, as ranges of each (runs of changed words joined across white space). */
export function wordDiff(left: string, right: string): WordDiff {
  if (left === right) return { left: [], right: [], whitespaceOnly: false };
  const { lw, rw, common } = commonWords(left, right);
  const spaceOnly = (words: string[], same: Uint8Array) => words.every((w, i) => same[i] === 1 || isSpace(w));
  return { left: rangesOf(lw, common.left), right: rangesOf(rw, common.right), whitespaceOnly: spaceOnly(lw, common.left) && spaceOnly(rw, common.right) };
}

function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Ranges of the words not in common, a run of them (and the white space between two of them) one range. */
function rangesOf(words: readonly string[], common: Uint8Array): Range[] {
  const out: Range[] = [];
  let at = 0;
  // Since the last changed word: only white space (the next change joins its range).
  let joinable = false;
  for (let i = 0; i < words.length; i++) {
    const end = at + words[i].length;
    if (common[i] === 0) {
      if (joinable) out[out.length - 1][1] = end;
      else out.push([at, end]);
      joinable = true;
    } else if (!isSpace(words[i])) joinable = false;
    at = end;
  }
  return out;
}

/** Words looked at for how alike two texts are. */
const SIMILARITY_WORDS = 4000;

/** A text's words (not white space) with how often each comes, as far as tells an edit from another message. */
export function wordBag(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let n = 0;
  for (const w of text.matchAll(/[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}_]/gu)) {
    out.set(w[0], (out.get(w[0]) ?? 0) + 1);
    if (++n >= SIMILARITY_WORDS) break;
  }
  return out;
}

/**
 * How alike two texts are, 0 to 1, from their word bags: the words they share, counted with repeats, over all
 * their words (Dice's coefficient). Two texts without words are alike.
 */
export function bagSimilarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  let total = 0;
  for (const [w, n] of a) {
    total += n;
    shared += Math.min(n, b.get(w) ?? 0);
  }
  for (const n of b.values()) total += n;
  return total === 0 ? 0 : (2 * shared) / total;
}

export function similarity(a: string, b: string): number {
  return a === b ? 1 : bagSimilarity(wordBag(a), wordBag(b));
}
