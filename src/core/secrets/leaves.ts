import { isPlainObject } from '../message.js';

export type JsonPath = Array<string | number>;

/** Every string a value holds, with its path. */
export function stringLeaves(value: unknown, path: JsonPath = [], out: Array<{ path: JsonPath; text: string }> = [], depth = 0): Array<{ path: JsonPath; text: string }> {
  if (depth > 64) return out;
  if (typeof value === 'string') out.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, [...path, i], out, depth + 1));
  else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) stringLeaves(v, [...path, k], out, depth + 1);
  return out;
}

/**
 * Keys whose values are the file's own structure: ids and the links between records (a session's parent
 * uuids, a ChatGPT export's children, OASST's replies), signatures, roles and types. Never a secret anyone
 * pasted, and never to be changed by a redaction: a chain of parents would break.
 */
const STRUCTURAL = new Set(['uuid', 'parentUuid', 'leafUuid', 'logicalParentUuid', 'id', 'parent', 'children', 'childrenIds', 'replies', 'current_node', 'signature', 'encrypted_content', 'type', 'role', 'content_type', 'mime_type', 'mimeType']);
/** Any other id: a key named …Id, …_id, …ID or …uuid (tool_use_id, call_id, sessionId, parent_response_id). */
const ID_KEY = /(?:^|[a-z_])(?:Id|_id|ID|[Uu]uid|Ids|_ids)$/;

/** Whether a string at this path is part of the file's structure (by the last key on its path). */
export function structuralPath(path: JsonPath): boolean {
  for (let i = path.length - 1; i >= 0; i--) {
    const key = path[i];
    if (typeof key === 'number') continue;
    return STRUCTURAL.has(key) || ID_KEY.test(key);
  }
  return false;
}

/**
 * The strings of a record worth looking into: every one, but for the data of inline images and files (base64
 * says nothing anyone typed) and the record's structure.
 */
export function scannedLeaves(record: unknown): Array<{ path: JsonPath; text: string }> {
  return stringLeaves(record).filter((l) => !structuralPath(l.path) && !/^data:[\w/+.-]+;base64,/.test(l.text) && !(l.text.length > 2000 && /^[A-Za-z0-9+/=\s]+$/.test(l.text.slice(0, 2000))));
}
