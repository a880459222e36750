/**
 * Finds where each element of a JSON array starts and ends in the text, so unchanged messages can be written
 * back byte for byte. It runs on text that JSON.parse has already accepted, so it only tracks strings and
 * nesting depth; far cheaper than a full parse tree for a 100k-message file.
 */
export interface Span {
  start: number;
  end: number;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  return i;
}

/** Offset just after the string that starts at `i` (which must be a quote). */
function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q === -1) return text.length;
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Offset just after the JSON value that starts at `i`. */
export function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c === 0x5b || c === 0x7b) {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const d = text.charCodeAt(j);
      if (d === 0x22) {
        j = skipString(text, j);
        continue;
      }
      if (d === 0x5b || d === 0x7b) depth++;
      else if (d === 0x5d || d === 0x7d) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return text.length;
  }
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 0x2c || d === 0x5d || d === 0x7d || WS.has(d)) break;
    j++;
  }
  return j;
}

/** Spans of the elements of the array that starts at `open` (the '['), and the offset after its ']'. */
export function arrayElementSpans(text: string, open: number): { elements: Span[]; close: number } {
  const elements: Span[] = [];
  let i = skipWs(text, open + 1);
  if (text.charCodeAt(i) === 0x5d) return { elements, close: i + 1 };
  for (;;) {
    const end = skipValue(text, i);
    elements.push({ start: i, end });
    i = skipWs(text, end);
    if (text.charCodeAt(i) === 0x2c) {
      i = skipWs(text, i + 1);
      continue;
    }
    return { elements, close: i + 1 };
  }
}

/** Key and value spans of the members of the object that starts at `open` (the '{'). */
export function objectMemberSpans(text: string, open: number): Array<{ key: string; keySpan: Span; value: Span }> {
  const out: Array<{ key: string; keySpan: Span; value: Span }> = [];
  let i = skipWs(text, open + 1);
  if (text.charCodeAt(i) === 0x7d) return out;
  for (;;) {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    let j = skipWs(text, keyEnd);
    j = skipWs(text, j + 1); // past ':'
    const valueEnd = skipValue(text, j);
    out.push({ key, keySpan: { start: i, end: keyEnd }, value: { start: j, end: valueEnd } });
    i = skipWs(text, valueEnd);
    if (text.charCodeAt(i) === 0x2c) {
      i = skipWs(text, i + 1);
      continue;
    }
    return out;
  }
}

export function firstNonWs(text: string, from = 0): number {
  return skipWs(text, from);
}
