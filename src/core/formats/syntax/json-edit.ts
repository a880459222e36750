import { deepEqual, isPlainObject, lineage } from '../../message.js';
import { arrayElementSpans, objectMemberSpans, type Span } from '../json-spans.js';
import { stringifyJson, stringifyString } from '../json-writer.js';
import type { JsonStyle } from '../types.js';

function sameKeyOrder(a: unknown, b: unknown): boolean {
  if (!isPlainObject(a) || !isPlainObject(b)) return true;
  const ak = Object.keys(a);
  const bk = Object.keys(b).filter((k) => b[k] !== undefined);
  return ak.length === bk.length && ak.every((k, i) => k === bk[i]);
}

/**
 * The JSON text of `next` where `original` stood at `span` of `text`: the original bytes when nothing changed,
 * and otherwise a rewrite that keeps the exact text of every member (at any depth) whose value did not change
 * (so editing `message.content` leaves `message.usage`, with its spacing and escapes, as it was). New values
 * follow `style` at `depth`.
 */
export function rewriteJsonValue(text: string, span: Span, original: unknown, next: unknown, style: JsonStyle, depth: number): string {
  if (deepEqual(original, next) && sameKeyOrder(original, next)) return text.slice(span.start, span.end);
  if (Array.isArray(original) && Array.isArray(next) && text.charCodeAt(span.start) === 0x5b) return rewriteArray(text, span, original, next, style, depth);
  if (!isPlainObject(original) || !isPlainObject(next) || text.charCodeAt(span.start) !== 0x7b) return stringifyJson(next, style, depth);
  const members = objectMemberSpans(text, span.start);
  if (members.length === 0) return stringifyJson(next, style, depth);
  const byKey = new Map(members.map((m) => [m.key, m]));
  const open = text.slice(span.start + 1, members[0].keySpan.start);
  const between = members.length > 1 ? text.slice(members[0].value.end, members[1].keySpan.start) : undefined;
  const close = text.slice(members[members.length - 1].value.end, span.end - 1);
  const keySep = text.slice(members[0].keySpan.end, members[0].value.start);
  const sep = between ?? (style.indent === null ? style.itemSep : ',' + open);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) continue;
    const old = byKey.get(key);
    const valueText =
      old && Object.prototype.hasOwnProperty.call(original, key)
        ? rewriteJsonValue(text, old.value, original[key], value, style, depth + 1)
        : stringifyJson(value, style, depth + 1);
    const keyText = old ? text.slice(old.keySpan.start, old.keySpan.end) : stringifyString(key, style);
    parts.push(keyText + keySep + valueText);
  }
  if (parts.length === 0) return '{}';
  return '{' + open + parts.join(sep) + close + '}';
}

const LOOKAHEAD = 64;

function same(a: unknown, b: unknown): boolean {
  return a === b || (deepEqual(a, b) && sameKeyOrder(a, b));
}

/** Where `value` (or what it was edited from) stood among `original`, by identity. */
function identityIndex(byObject: Map<object, number>, value: unknown): number | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const v of lineage(value)) {
    const k = byObject.get(v);
    if (k !== undefined) return k;
  }
  return undefined;
}

/**
 * An array rewritten so that its unchanged elements keep their text. The common head and tail are kept as
 * they are; in the changed middle each new element is matched to the original it is (by identity, or what it
 * was edited from) or equals, nearby and in order: matched ones keep their text (an edited one keeps what it
 * did not change), the rest are written anew.
 */
function rewriteArray(text: string, span: Span, original: unknown[], next: unknown[], style: JsonStyle, depth: number): string {
  const { elements } = arrayElementSpans(text, span.start);
  if (elements.length !== original.length || elements.length === 0) return stringifyJson(next, style, depth);
  let head = 0;
  while (head < original.length && head < next.length && same(original[head], next[head])) head++;
  let tail = 0;
  while (tail < original.length - head && tail < next.length - head && same(original[original.length - 1 - tail], next[next.length - 1 - tail])) tail++;
  const byObject = new Map<object, number>();
  original.forEach((v, i) => v !== null && typeof v === 'object' && byObject.set(v as object, i));
  const oldEnd = original.length - tail;
  const newEnd = next.length - tail;
  const keep = (i: number) => text.slice(elements[i].start, elements[i].end);
  const out: string[] = [];
  for (let i = 0; i < head; i++) out.push(keep(i));
  let j = head;
  for (let k = head; k < newEnd; k++) {
    const e = next[k];
    const known = identityIndex(byObject, e);
    if (known !== undefined && known >= j && known < oldEnd) {
      out.push(rewriteJsonValue(text, elements[known], original[known], e, style, depth + 1));
      j = known + 1;
      continue;
    }
    let m = -1;
    for (let x = j; x < Math.min(oldEnd, j + LOOKAHEAD); x++) {
      if (same(original[x], e)) {
        m = x;
        break;
      }
    }
    if (m !== -1) {
      out.push(keep(m));
      j = m + 1;
      continue;
    }
    // The original in this place is not among the next few new elements: this one replaces it (an edit).
    let laterUse = false;
    for (let y = k + 1; y < Math.min(newEnd, k + 1 + LOOKAHEAD) && j < oldEnd; y++) if (same(original[j], next[y])) laterUse = true;
    if (j < oldEnd && !laterUse && identityIndex(byObject, e) === undefined) {
      out.push(rewriteJsonValue(text, elements[j], original[j], e, style, depth + 1));
      j++;
      continue;
    }
    out.push(stringifyJson(e, style, depth + 1));
  }
  for (let i = oldEnd; i < original.length; i++) out.push(keep(i));
  if (out.length === 0) return '[]';
  const lead = text.slice(span.start + 1, elements[0].start);
  const sep = elements.length > 1 ? text.slice(elements[0].end, elements[1].start) : style.indent === null ? style.itemSep : ',' + lead;
  const end = arrayEnd(text, elements[elements.length - 1].end);
  return '[' + lead + out.join(sep) + text.slice(elements[elements.length - 1].end, end) + ']';
}

/** Offset of the ']' that closes an array whose last element ends at `from`. */
function arrayEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && text.charCodeAt(i) !== 0x5d) i++;
  return i;
}
