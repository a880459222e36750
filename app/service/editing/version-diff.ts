import { diffLines } from 'diff';

export interface DiffLine {
  kind: 'same' | 'added' | 'removed' | 'folded';
  text: string;
  /** For `folded`: how many unchanged lines it stands for. */
  count?: number;
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
      for (const row of rows) lines.push({ kind: part.added ? 'added' : 'removed', text: row });
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
