import type { Codec, ConversationDocument } from '../formats/codec.js';
import { deepEqual } from '../message.js';
import { placeholderOf } from './redact.js';

/**
 * A file's text with these values (each with its rule) replaced wherever the text holds them as a JSON string's
 * characters: how secrets redacted from the messages are taken out of the records that are not messages too
 * (a Codex rollout repeats what the user typed in its event lines; a session's metadata holds a repository
 * URL). Only for JSON and JSONL files, whose strings hold any placeholder as it is; the text is read back and
 * kept only if every message reads as before. Undefined when nothing was replaced or the check failed.
 */
export function scrubFileText(codec: Codec, body: string, values: ReadonlyMap<string, string>, before: ConversationDocument | undefined): { body: string; again: ConversationDocument; replaced: number } | undefined {
  if (codec.syntax !== 'json' && codec.syntax !== 'jsonl') return undefined;
  let out = body;
  let replaced = 0;
  // Longest first: a value inside another is not left half replaced.
  for (const [value, rule] of [...values].sort((a, b) => b[0].length - a[0].length)) {
    if (value.length < 4) continue;
    const escaped = JSON.stringify(value).slice(1, -1);
    const parts = out.split(escaped);
    if (parts.length === 1) continue;
    replaced += parts.length - 1;
    out = parts.join(placeholderOf(rule));
  }
  if (replaced === 0) return undefined;
  let again: ConversationDocument;
  let was: ConversationDocument;
  try {
    again = codec.parse(out, '(output)');
    was = before ?? codec.parse(body, '(output)');
  } catch {
    return undefined;
  }
  if (again.conversations.length !== was.conversations.length) return undefined;
  for (let c = 0; c < was.conversations.length; c++) {
    const a = again.conversations[c].records;
    const b = was.conversations[c].records;
    if (a.length !== b.length) return undefined;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return undefined;
  }
  return { body: out, again, replaced };
}
