import type { Message } from '../../../src/core/message.js';
import { scrubFileText } from '../../../src/core/secrets/scrub-text.js';
import type { ConversationDocument } from '../../../src/core/formats/codec.js';
import type { OpenDocument } from '../documents/documents.js';

/**
 * Secrets a "redact all" took out of the messages, to be taken out of the file's other records too when it is
 * saved. Kept with the records the redaction made (so an undo, which puts the records before it back, takes
 * them away, and a redo brings them back), never as a flag of the document.
 */
const carried = new WeakMap<object, ReadonlyMap<string, string>>();

/** The records a redaction made carry what it redacted (value → rule). */
export function carryRedaction(records: readonly Message[], values: ReadonlyMap<string, string>): void {
  if (values.size === 0) return;
  for (const r of records) if (r !== null && typeof r === 'object') carried.set(r, values);
}

/** The values to take out of the records that are not messages: those carried by records still in the file, not in a message any more. */
export function pendingScrub(records: ReadonlyArray<readonly Message[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const list of records) for (const r of list) for (const [v, rule] of carried.get(r as object) ?? []) out.set(v, rule);
  if (out.size === 0) return out;
  // A value a message still holds (an edit put it back) stays everywhere: the messages are the user's to change.
  const messages = JSON.stringify(records);
  for (const v of [...out.keys()]) if (messages.includes(JSON.stringify(v).slice(1, -1))) out.delete(v);
  return out;
}

/** The text a save writes, with the pending values taken out of the records that are not messages (when it can be done safely). */
export function scrubbedForSave(doc: OpenDocument, records: ReadonlyArray<readonly Message[]>, text: string, again: ConversationDocument | undefined): { text: string; again: ConversationDocument | undefined } {
  const values = pendingScrub(records);
  if (values.size === 0) return { text, again };
  const bom = doc.file.bom ? '\ufeff' : '';
  const body = bom ? text.slice(1) : text;
  const done = scrubFileText(doc.codec, body, values, again);
  return done ? { text: bom + done.body, again: again ? done.again : undefined } : { text, again };
}
