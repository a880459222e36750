import { isPlainObject } from '../message.js';
import type { MessageView } from './model.js';

/** How deep a record is looked into for text its reader did not see (a message is rarely deeper). */
const MAX_DEPTH = 6;

// A date or time with a space in it is a field, not prose.
const DATE_LIKE = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d/;

/** Whether a string reads as words someone wrote (two words at least), not an id, a path, a time or an enum. */
function prose(s: string): boolean {
  return /\S\s+\S/.test(s) && !DATE_LIKE.test(s.trimStart());
}

/** Whether the value holds prose anywhere (strings in objects and lists, to MAX_DEPTH). */
function holdsProse(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return prose(value);
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.some((v) => holdsProse(v, depth + 1));
  if (isPlainObject(value)) return Object.values(value).some((v) => holdsProse(v, depth + 1));
  return false;
}

/** The fields the formats read here keep a message's words under. */
const CONTENT_KEYS = ['content', 'text', 'parts', 'message', 'value', 'body', 'display', 'input', 'thread_name'];

const blank = (v: unknown) => v === '' || v === null || (Array.isArray(v) && v.length === 0);

/**
 * Whether the record says its content is empty: it has a content field (its own, or its message's), and every
 * such field it has is empty. Its role, its name and its metadata can hold words; the message still says nothing.
 */
function saysEmpty(record: unknown): boolean {
  if (!isPlainObject(record)) return false;
  let fields = 0;
  for (const holder of [record, record.message, record.data, record.payload]) {
    if (!isPlainObject(holder)) continue;
    for (const k of CONTENT_KEYS) {
      if (!(k in holder) || (holder === record && isPlainObject(holder[k]) && k === 'message')) continue;
      if (!blank(holder[k])) return false;
      fields++;
    }
  }
  return fields > 0;
}

/**
 * A record its reader found nothing in, though it holds words: shown as an unread part with its raw JSON,
 * never as a silently empty message with 0 tokens (a shape the codec was not written for). A record whose content
 * is empty is an empty message, whatever words its role or metadata hold.
 */
export function withUnreadPart(record: unknown, view: MessageView): MessageView {
  if (view.parts.length > 0 || view.compaction || saysEmpty(record) || !holdsProse(record)) return view;
  return { ...view, parts: [{ kind: 'unknown', type: 'unread record', text: JSON.stringify(record) }] };
}

/** Whether a message has a part its reader does not know (an unread part, or a part type of no known kind). */
export function hasUnreadPart(view: Pick<MessageView, 'parts'>): boolean {
  return view.parts.some((p) => p.kind === 'unknown');
}
