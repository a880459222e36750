import { maxOf } from '../core/util/numbers.js';
import { displayWidth, padToWidth } from './text-width.js';

/** Formats rows as a left/right-aligned text table (numbers right-aligned). */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((r) => r.map((c) => String(c)));
  // Columns as a terminal draws them: a CJK title or an emoji in a cell does not push the cells after it.
  const widths = headers.map((h, i) => maxOf(cells.map((r) => displayWidth(r[i] ?? '')), h.length));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || r[i] === ''));
  const line = (r: string[]) =>
    r
      .map((c, i) => padToWidth(c, widths[i], numeric[i]))
      .join('  ')
      .trimEnd();
  return [line(headers)].concat(cells.map(line)).join('\n');
}

export function humanBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** The note of a walk that came upon links leading out of the folder it walks: they are named, never read. */
export function outsideLinksNote(n: number, dir: string): void {
  if (n > 0) process.stderr.write(`note: ${n} symbolic link${n === 1 ? '' : 's'} lead${n === 1 ? 's' : ''} outside ${dir}: listed by name, not read (open the folder they lead to, or the file itself, to read it)\n`);
}
