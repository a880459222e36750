import { closeSync, openSync, readSync } from 'node:fs';

/**
 * A line-based file too big to read whole (a JavaScript string holds some 512 million characters; a session of
 * 2 GB is several times that) is read a part at a time: parts of about `partBytes`, each cut where a line
 * starts, so that each is a file of whole lines of its own. A part's bounds depend only on the bytes before its
 * end: a file that grows keeps its earlier parts as they were.
 */
export interface FilePart {
  /** 1 for the first part. */
  number: number;
  /** Byte offsets, [start, end). */
  start: number;
  end: number;
}

/** What a part is called as a path: `<file>#part-<n>`. */
const PART = /^(.*)#part-([1-9]\d{0,5})$/s;

export function partPath(path: string, number: number): string {
  return `${path}#part-${number}`;
}

/** The file and the part a part's path names; undefined for any other path. */
export function splitPartPath(path: string): { file: string; number: number } | undefined {
  const m = PART.exec(path);
  return m ? { file: m[1], number: Number(m[2]) } : undefined;
}

const SCAN = 1 << 16;

/** The offset just after the first line break at or after `from` (the file's size when there is none). */
function nextLineStart(fd: number, from: number, size: number, buffer: Buffer): number {
  for (let at = from; at < size; at += SCAN) {
    const n = readSync(fd, buffer, 0, Math.min(SCAN, size - at), at);
    if (n <= 0) break;
    const nl = buffer.subarray(0, n).indexOf(0x0a);
    if (nl !== -1) return at + nl + 1;
  }
  return size;
}

/**
 * The parts of a file of `size` bytes: one per `partBytes`, each ending after the first line break at or past
 * its nominal end (a line longer than a part makes its part longer, never splits). Reads a few kilobytes
 * around each cut, not the file.
 */
export function filePartsOf(file: string, size: number, partBytes: number): FilePart[] {
  const parts: FilePart[] = [];
  const fd = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(SCAN);
  try {
    let start = 0;
    while (start < size) {
      // The nominal cut is a multiple of partBytes: the same bytes before it give the same parts.
      const nominal = (Math.floor(start / partBytes) + 1) * partBytes;
      const end = nominal >= size ? size : nextLineStart(fd, nominal - 1, size, buffer);
      parts.push({ number: parts.length + 1, start, end });
      start = end;
    }
  } finally {
    closeSync(fd);
  }
  return parts;
}

/** The bytes of one part. */
export function readPart(file: string, part: FilePart): Buffer {
  const length = part.end - part.start;
  const out = Buffer.allocUnsafe(length);
  const fd = openSync(file, 'r');
  try {
    let got = 0;
    while (got < length) {
      const n = readSync(fd, out, got, length - got, part.start + got);
      if (n <= 0) break;
      got += n;
    }
    return got === length ? out : out.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

const MB = 1024 * 1024;
// Binary units, as the app gives sizes everywhere (MiB): a part of "96 MB" would be 100 MB by the decimal unit.
const size = (bytes: number) => (bytes >= 1024 * MB ? `${(bytes / (1024 * MB)).toFixed(1)} GiB` : `${Math.round(bytes / MB)} MiB`);

/** How a part is named in the sidebar: `part 3 of 19 · 192 MiB–288 MiB`. */
export function partTitle(part: FilePart, of: number): string {
  return `part ${part.number} of ${of} · ${size(part.start)}–${size(part.end)}`;
}
