import type { Codec } from '../formats/codec.js';
import type { MessageView, NormalRole } from '../formats/model.js';
import { isPlainObject } from '../message.js';

const NORMAL: readonly NormalRole[] = ['system', 'user', 'assistant', 'tool'];

/**
 * A new record of the codec's format for a message typed in the app (`{role, content}`): complete as the
 * format's tool writes its own (a Claude Code line with its session fields and a fresh uuid, a Codex item),
 * with session fields copied from `near`, a record of the same conversation. The writer then links it into the
 * file (a Claude Code line is spliced into the parentUuid chain where it lands).
 */
export function recordForMessage(codec: Codec, message: { role?: unknown; content?: unknown }, near: unknown, timestamp?: string): unknown {
  const role = typeof message.role === 'string' && message.role !== '' ? message.role : 'user';
  const text = typeof message.content === 'string' ? message.content : message.content === undefined || message.content === null ? '' : JSON.stringify(message.content);
  const normalRole = (NORMAL as readonly string[]).includes(role) ? (role as NormalRole) : codec.view(near ?? {}).normalRole;
  const view: MessageView = { role, normalRole, parts: text ? [{ kind: 'text', text }] : [], ...(timestamp !== undefined ? { timestamp } : {}) };
  return codec.fromView(view, near);
}

/** A copy of a record that can stand beside it in the file: the same message, ids of its own where the format has them. */
export function duplicateRecord(codec: Codec, record: unknown): unknown {
  const copy = structuredClone(record);
  if (codec.freshIds) return codec.freshIds(copy);
  return isPlainObject(copy) && typeof copy.message_id === 'string' ? { ...copy, message_id: crypto.randomUUID() } : copy;
}
