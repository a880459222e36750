/**
 * Structure counted from the bytes of a JSON (or JSONL) head without decoding or parsing it: what a folder
 * listing and a first screen of rows need from files they do not read whole. UTF-8 never puts an ASCII byte
 * inside a multi-byte character, so quotes, brackets and backslashes can be found byte by byte.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote that closes the string whose content starts at `from` (-1 when it does not close). */
function stringEnd(bytes: Buffer, from: number): number {
  let q = bytes.indexOf(QUOTE, from);
  while (q !== -1) {
    let slashes = 0;
    for (let k = q - 1; k >= from && bytes[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
    q = bytes.indexOf(QUOTE, q + 1);
  }
  return -1;
}

export interface ListElements {
  /** Elements the bytes complete. */
  count: number;
  /** The byte just after the last complete element. */
  end: number;
  /** What closes the brackets still open after that element (`]}` for a list one key down). */
  closers: string;
  /** The list itself closes within the bytes: `count` is all of it. */
  closed: boolean;
}

/**
 * How many elements of the first list (at the top, or one key down: a wrapper) the bytes complete. Most of a
 * conversation is inside strings, so the scan jumps from quote to quote (a native search), not byte by byte.
 */
export function completedListElements(bytes: Buffer): ListElements | undefined {
  const s = scanState(0);
  scanRange(s, bytes, bytes.length);
  return scanResult(s);
}

export interface ListTail extends ListElements {
  /** Where the list's own `[` is. */
  open: number;
  /** The byte ranges of the last elements (up to the number asked for), in order. */
  last: Array<{ start: number; end: number }>;
}

/**
 * The first list's elements, and where the last `keep` of them are (a file's end read without parsing the
 * rest). A generator that pauses after each `step` bytes, so that a caller can let other work in between (a
 * scan of 100 MB takes a tenth of a second); `finish` runs it through.
 */
export function lastListElements(bytes: Buffer, keep: number, step = Infinity): Generator<void, ListTail | undefined> {
  return scanList(bytes, keep, step);
}

export function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

interface ScanState {
  stack: number[];
  listDepth: number;
  open: number;
  count: number;
  end: number;
  /** What closes the brackets around the list, fixed once it opens. */
  closers: string;
  keep: number;
  /** A ring of the last `keep` elements' bounds. */
  starts: number[];
  ends: number[];
  start: number;
  /** The next byte to look at. */
  at: number;
  /** The list closed, or a string ran past the bytes: nothing more to scan. */
  done: boolean;
  closed: boolean;
  /** Where a string that ran past the bytes began (its quote), or -1: a chunk read after starts there. */
  cut: number;
}

/**
 * Scans `bytes` from `s.at` up to `until`; a listing calls this for thousands of heads, so no generator here.
 * `bytes` holds the file from `base` on (a chunk of it): positions kept are the file's.
 */
function scanRange(s: ScanState, bytes: Buffer, until: number, base = 0): void {
  const stack = s.stack;
  const keep = s.keep;
  let i = s.at - base;
  for (; i < until; i++) {
    const c = bytes[i];
    // Whitespace, commas and colons are most of what lies between strings.
    if (c <= 0x20 || c === 0x2c || c === 0x3a) continue;
    if (c === QUOTE) {
      const q = stringEnd(bytes, i + 1);
      if (q === -1) {
        s.done = true;
        s.cut = base + i;
        break;
      }
      i = q;
    } else if (c === 0x5b || c === 0x7b) {
      const opensList = c === 0x5b && s.listDepth === -1 && stack.length <= 1;
      stack.push(c);
      if (opensList) {
        s.listDepth = stack.length;
        s.open = base + i;
        s.closers = '';
        for (let k = stack.length - 1; k >= 0; k--) s.closers += stack[k] === 0x5b ? ']' : '}';
      } else if (stack.length === s.listDepth + 1) s.start = base + i;
    } else if (c === 0x5d || c === 0x7d) {
      stack.pop();
      if (stack.length === s.listDepth) {
        if (keep > 0) {
          s.starts[s.count % keep] = s.start;
          s.ends[s.count % keep] = base + i + 1;
        }
        s.count++;
        s.end = base + i + 1;
      } else if (s.listDepth !== -1 && stack.length < s.listDepth) {
        s.done = true;
        s.closed = true;
        break;
      }
    }
  }
  // Past a break the scan is done; otherwise `i` is the next byte to look at.
  s.at = base + i;
  if (i >= bytes.length) s.done = true;
}

function scanResult(s: ScanState): ListTail | undefined {
  if (s.count === 0 && !s.closed) return undefined;
  const last: ListTail['last'] = [];
  for (let k = Math.max(0, s.count - s.keep); k < s.count; k++) last.push({ start: s.starts[k % s.keep], end: s.ends[k % s.keep] });
  return { count: s.count, end: s.end, closers: s.count > 0 ? s.closers : '', closed: s.closed, open: s.open, last };
}

function scanState(keep: number): ScanState {
  return { stack: [], listDepth: -1, open: -1, count: 0, end: 0, closers: '', keep, starts: [], ends: [], start: 0, at: 0, done: false, closed: false, cut: -1 };
}

/** Reads `length` bytes of a file at `position` into `into` (fewer at its end): how many it read. */
export type ReadAt = (into: Buffer, length: number, position: number) => Promise<number>;

/**
 * lastListElements over a file read a chunk at a time into one buffer (a 100 MB file is not held whole: reading it
 * into a fresh buffer cost as much as scanning it). A string that runs past a chunk is read again from its quote
 * with the next one; a string longer than the buffer doubles it.
 */
export async function lastListElementsOfFile(read: ReadAt, size: number, keep: number, chunk = 8 * 1024 * 1024): Promise<ListTail | undefined> {
  const s = scanState(keep);
  let buf = Buffer.allocUnsafe(Math.max(1, Math.min(chunk, size)));
  while (s.at < size) {
    const base = s.at;
    const n = await read(buf, Math.min(buf.length, size - base), base);
    if (n <= 0) break;
    s.done = false;
    s.cut = -1;
    scanRange(s, buf.subarray(0, n), n, base);
    if (s.closed || base + n >= size) break;
    if (s.cut !== -1) {
      // The string starts the chunk and does not end in it: a bigger buffer.
      if (s.cut === base) buf = Buffer.allocUnsafe(buf.length * 2);
      s.at = s.cut;
    }
  }
  return scanResult(s);
}

function* scanList(bytes: Buffer, keep: number, step: number): Generator<void, ListTail | undefined> {
  const s = scanState(keep);
  for (;;) {
    scanRange(s, bytes, Math.min(bytes.length, s.at + step));
    if (s.done || s.at >= bytes.length) return scanResult(s);
    yield;
  }
}

/** Lines that hold something (not only whitespace), and the byte just after the last complete one. */
export function completeLines(bytes: Buffer): { lines: number; end: number } {
  let lines = 0;
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    if (!blank(bytes, start, nl)) lines++;
    start = nl + 1;
  }
  return { lines, end: start };
}

function blank(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
