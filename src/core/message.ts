/**
 * The stored message shape. Files keep snake_case keys because Python tools read and write the same files.
 * Keys the engine does not know (`turn`, `visible_to`, `name`, `tool_calls`, ...) are kept as they are.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface Message {
  role: string;
  content?: unknown;
  timestamp?: string;
  message_id?: string;
  category?: string;
  metadata?: Record<string, unknown>;
  token_count?: number;
  [key: string]: unknown;
}

/** The order in which known keys are written for new messages. */
export const KNOWN_KEY_ORDER = ['role', 'content', 'timestamp', 'message_id', 'category', 'metadata', 'token_count'] as const;

/** The text used for rendering, searching and counting: strings as is, anything else as compact JSON. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === undefined) return '';
  const text = JSON.stringify(content);
  return text === undefined ? String(content) : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Builds a message with the known keys in their canonical order, leaving out the absent ones. */
export function orderedMessage(fields: Partial<Message> & { role: string }): Message {
  const out: Message = { role: fields.role };
  for (const key of KNOWN_KEY_ORDER) {
    if (key === 'role') continue;
    const value = fields[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  for (const [key, value] of Object.entries(fields)) {
    if (!(KNOWN_KEY_ORDER as readonly string[]).includes(key) && value !== undefined) out[key] = value;
  }
  return out;
}

const derivedFrom = new WeakMap<object, object[]>();

/**
 * Records that `next` is an edited copy of `from`. A save uses it to find the text `from` had in the file, so an
 * edit rewrites only the keys it changed. Only a hint: the writer still compares every value before reusing text.
 * A record can stand for several (an edit merged onto the file read again stands for what it edited and for
 * that record as read again): the latest comes first, none is forgotten.
 */
export function markDerived(next: object, from: object): void {
  if (next === from) return;
  const before = derivedFrom.get(next) ?? [];
  derivedFrom.set(next, [from, ...before.filter((x) => x !== from)]);
}

const readAgainAs = new WeakMap<object, object>();

/**
 * Records that `fresh` (read again from the file after a save) stands where `old` stood: an undo that puts
 * `old` back is then written into that place, keeping what did not change.
 */
export function markReadAgain(old: object, fresh: object): void {
  if (old !== fresh) readAgainAs.set(old, fresh);
}

/** `m`, then what it was edited from and what was read again in its place, and so on (bounded: no cycle hangs a save). */
export function* lineage(m: object): Generator<object> {
  const seen = new Set<object>();
  const queue: object[] = [m];
  while (queue.length > 0 && seen.size < 1000) {
    const current = queue.shift()!;
    if (seen.has(current)) continue;
    seen.add(current);
    yield current;
    const fresh = readAgainAs.get(current);
    if (fresh) queue.push(fresh);
    for (const from of derivedFrom.get(current) ?? []) queue.push(from);
  }
}

/** Python-style index: negative counts from the end. Returns -1 when out of range. */
export function resolveIndex(index: number, length: number): number {
  if (!Number.isInteger(index)) return -1;
  const i = index < 0 ? length + index : index;
  return i >= 0 && i < length ? i : -1;
}

/** Structural equality of parsed JSON/YAML values (key order ignored, as JSON.parse would see them). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) {
    if (!Object.prototype.hasOwnProperty.call(bo, k) || !deepEqual(ao[k], bo[k])) return false;
  }
  return true;
}

/** Same keys in the same order, and equal values: a message that can keep its original text. */
export function sameKeyOrder(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  return ak.length === bk.length && ak.every((k, i) => k === bk[i]);
}
