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
 * Keys whose values are the file's own structure (ids that link records, signatures, roles): never a secret
 * anyone pasted, and never to be changed by a redaction (a session's chain of parent ids would break).
 */
const STRUCTURAL = new Set(['uuid', 'parentUuid', 'leafUuid', 'logicalParentUuid', 'id', 'tool_use_id', 'tool_call_id', 'call_id', 'callID', 'sessionId', 'session_id', 'requestId', 'message_id', 'messageID', 'parentID', 'signature', 'encrypted_content', 'type', 'role']);

/**
 * The strings of a record worth looking into: every one, but for the data of inline images and files (base64
 * says nothing anyone typed) and the record's structural ids.
 */
export function scannedLeaves(record: unknown): Array<{ path: JsonPath; text: string }> {
  return stringLeaves(record).filter((l) => {
    const key = l.path[l.path.length - 1];
    if (typeof key === 'string' && STRUCTURAL.has(key)) return false;
    return !/^data:[\w/+.-]+;base64,/.test(l.text) && !(l.text.length > 2000 && /^[A-Za-z0-9+/=\s]+$/.test(l.text.slice(0, 2000)));
  });
}
