import { isPlainObject, lineage } from '../../message.js';

/** A line of a text file: where it starts, where the next one starts, and its text without the line break. */
export interface Line {
  start: number;
  end: number;
  text: string;
}

/**
 * The lines of `text`, split at "\n" only (a lone "\r", U+2028 and the like stay inside a line). With `crlf`, a
 * "\r" right before the "\n" is part of the break, so a file written with Windows line endings (or mixed ones,
 * as a history appended to from two systems is) reads the same as one written with "\n".
 */
export function splitLines(text: string, crlf: boolean): Line[] {
  const lines: Line[] = [];
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const stop = nl === -1 ? text.length : nl;
    const cut = crlf && nl !== -1 && stop > at && text[stop - 1] === '\r' ? stop - 1 : stop;
    lines.push({ start: at, end: nl === -1 ? text.length : nl + 1, text: text.slice(at, cut) });
    at = nl === -1 ? text.length : nl + 1;
  }
  return lines;
}

/** The file's line break: the one its first line ends with. */
export function newlineOf(text: string): '\n' | '\r\n' {
  const first = text.indexOf('\n');
  return first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n';
}

/** `out` ending at the start of a line: a break added when its last line is not ended. */
export function atLineStart(out: string, nl: string): string {
  return out === '' || out.endsWith('\n') ? out : out + nl;
}

/** Whether `out` ends with a blank line (or is empty): what follows starts a block of its own. */
export function endsBlank(out: string): boolean {
  if (out === '') return true;
  if (!out.endsWith('\n')) return false;
  let k = out.length - 2;
  if (k >= 0 && out[k] === '\r') k--;
  while (k >= 0 && (out[k] === ' ' || out[k] === '\t')) k--;
  return k < 0 || out[k] === '\n';
}

/** A local time as Aider and prompt_toolkit write it: `2025-03-14 09:12:07` (and `.123456` with `micro`). */
export function localStamp(date = new Date(), micro = false): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const s = `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
  return micro ? `${s}.${p(date.getMilliseconds() * 1000, 6)}` : s;
}

/** Where a record, or the one it was edited from, was read in the file. */
export function spanOf<T>(spans: WeakMap<object, T>, record: unknown): T | undefined {
  if (!isPlainObject(record)) return undefined;
  for (const m of lineage(record)) {
    const span = spans.get(m);
    if (span) return span;
  }
  return undefined;
}
