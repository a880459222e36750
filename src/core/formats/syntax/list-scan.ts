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
  return finish(scanList(bytes, 0, Infinity));
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

function* scanList(bytes: Buffer, keep: number, step: number): Generator<void, ListTail | undefined> {
  let pause = step;
  const stack: number[] = [];
  let listDepth = -1;
  let open = -1;
  let count = 0;
  let end = 0;
  let closers = '';
  // A ring of the last `keep` elements' bounds.
  const starts: number[] = [];
  const ends: number[] = [];
  let start = 0;
  const result = (closed: boolean): ListTail => {
    const last: ListTail['last'] = [];
    for (let k = Math.max(0, count - keep); k < count; k++) last.push({ start: starts[k % keep], end: ends[k % keep] });
    return { count, end, closers, closed, open, last };
  };
  for (let i = 0; i < bytes.length; i++) {
    if (i >= pause) {
      yield;
      pause = i + step;
    }
    const c = bytes[i];
    if (c === QUOTE) {
      const q = stringEnd(bytes, i + 1);
      if (q === -1) break;
      i = q;
    } else if (c === 0x5b || c === 0x7b) {
      if (c === 0x5b && listDepth === -1 && stack.length <= 1) {
        listDepth = stack.length + 1;
        open = i;
      }
      stack.push(c);
      if (stack.length === listDepth + 1) start = i;
    } else if (c === 0x5d || c === 0x7d) {
      stack.pop();
      if (stack.length === listDepth && listDepth !== -1) {
        if (keep > 0) {
          starts[count % keep] = start;
          ends[count % keep] = i + 1;
        }
        count++;
        end = i + 1;
        closers = '';
        for (let k = stack.length - 1; k >= 0; k--) closers += stack[k] === 0x5b ? ']' : '}';
      }
      if (listDepth !== -1 && stack.length < listDepth) return result(true);
    }
  }
  return count > 0 ? result(false) : undefined;
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
