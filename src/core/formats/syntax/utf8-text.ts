import { isAscii } from 'node:buffer';

/**
 * A file's UTF-8 text still as its bytes: decoded whole only when the whole text is asked for. Node 20 decodes a
 * text holding any non-ASCII character into a two-byte string at about 140 MB/s; a log read a line at a time,
 * each ASCII line as a one-byte string, reads 3–4× faster and gives the same values (bench/catalog.ts).
 */
export interface Utf8Text {
  /** The text's bytes, after any byte order mark. */
  readonly bytes: Buffer;
  /** The whole text, decoded on the first call. */
  text(): string;
  /** Its first `n` UTF-16 units, as `text().slice(0, n)` gives them, without decoding the rest. */
  head(n: number): string;
}

/** Valid UTF-8 only (the caller checks): the text of `bytes`. */
export function utf8Text(bytes: Buffer): Utf8Text {
  let whole: string | undefined;
  return {
    bytes,
    text: () => (whole ??= bytes.toString('utf8')),
    head(n) {
      if (whole !== undefined || bytes.length <= n) return this.text().slice(0, n);
      // A UTF-16 unit is at most 3 bytes: the units before a character the cut splits are more than n.
      return bytes.toString('utf8', 0, Math.min(bytes.length, 3 * n + 4)).slice(0, n);
    },
  };
}

/** The line's text from its bytes: an ASCII line as a one-byte string (cheap to make and to JSON.parse). */
export const lineString = (bytes: Buffer, start: number, end: number): string => (isAscii(bytes.subarray(start, end)) ? bytes.toString('latin1', start, end) : bytes.toString('utf8', start, end));

const isHex = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/** Whether the text spells a character as `\uXXXX` (as `/\\u[0-9a-fA-F]{4}/` finds it), read from its bytes. */
export function hasUnicodeEscape(bytes: Buffer): boolean {
  for (let at = bytes.indexOf('\\u'); at !== -1; at = bytes.indexOf('\\u', at + 1)) {
    if (at + 6 <= bytes.length && isHex(bytes[at + 2]) && isHex(bytes[at + 3]) && isHex(bytes[at + 4]) && isHex(bytes[at + 5])) return true;
  }
  return false;
}

export { isAscii };
