import { diffLines, diffWordsWithSpace } from 'diff';

export interface DiffLine {
  kind: 'same' | 'added' | 'removed' | 'folded';
  text: string;
  /** For `folded`: how many unchanged lines it stands for. */
  count?: number;
  /** For a line changed in place (a removed line and the added line that replaced it): where it changed, as [start, end) ranges of `text`. */
  changed?: Array<[number, number]>;
}

/** Lines longer than this are marked whole (a word diff of two long JSONL lines is slow and says little more). */
const WORD_DIFF_MAX = 20_000;

/** The removed and added line of a change in place, each with the ranges of it that differ. */
function wordRanges(removed: string, added: string): { removed: Array<[number, number]>; added: Array<[number, number]> } {
  const out = { removed: [] as Array<[number, number]>, added: [] as Array<[number, number]> };
  let a = 0;
  let b = 0;
  for (const part of diffWordsWithSpace(removed, added)) {
    const n = part.value.length;
    if (part.removed) {
      out.removed.push([a, a + n]);
      a += n;
    } else if (part.added) {
      out.added.push([b, b + n]);
      b += n;
    } else {
      a += n;
      b += n;
    }
  }
  return out;
}

/** Files past this are not diffed here (a line diff of two 100 MB texts takes too long to wait for). */
export const DIFF_LIMIT_BYTES = 4 * 1024 * 1024;
const CONTEXT = 3;

/**
 * The lines from `before` to `after`: added and removed lines, each change with three unchanged lines
 * around it, and the unchanged runs between changes folded into one line that says how many.
 */
export function versionDiff(before: string, after: string): { lines: DiffLine[]; added: number; removed: number } {
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  const parts = diffLines(before, after);
  parts.forEach((part, k) => {
    const text = part.value.endsWith('\n') ? part.value.slice(0, -1) : part.value;
    const rows = text.split('\n');
    if (part.added || part.removed) {
      // Lines replaced one for one (a removed block then an added one of as many lines): marked by word.
      const prev = parts[k - 1];
      const paired = part.added && prev?.removed ? lines.slice(lines.length - rows.length) : undefined;
      const inPlace = paired !== undefined && paired.length === rows.length && paired.every((l) => l.kind === 'removed');
      rows.forEach((row, r) => {
        const line: DiffLine = { kind: part.added ? 'added' : 'removed', text: row };
        if (inPlace && row.length <= WORD_DIFF_MAX && paired![r].text.length <= WORD_DIFF_MAX) {
          const ranges = wordRanges(paired![r].text, row);
          paired![r].changed = ranges.removed;
          line.changed = ranges.added;
        }
        lines.push(line);
      });
      if (part.added) added += rows.length;
      else removed += rows.length;
      return;
    }
    const head = k === 0 ? 0 : CONTEXT;
    const tail = k === parts.length - 1 ? 0 : CONTEXT;
    if (rows.length <= head + tail + 1) {
      for (const row of rows) lines.push({ kind: 'same', text: row });
      return;
    }
    for (const row of rows.slice(0, head)) lines.push({ kind: 'same', text: row });
    lines.push({ kind: 'folded', text: '', count: rows.length - head - tail });
    for (const row of rows.slice(rows.length - tail)) lines.push({ kind: 'same', text: row });
  });
  return { lines, added, removed };
}
