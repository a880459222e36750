import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { partPath, splitPartPath } from '../../../src/core/storage/file-parts.js';
import { HandlerError } from '../../shared/errors.js';
import { conversationsOf, type DocumentStore, type OpenConversation } from '../documents/documents.js';
import { headFormat, readPartDocument } from './parted-files.js';

/** Where a message of a file read a part at a time is: its part (1 for the first), and its place there. */
export type MessagePlace = { found: true; part: number; parts: number; path: string; index: number; first: number } | { found: false; count: number; parts: number };

/** Each part's message count, while its file is as it was counted (a part is read whole to count it). */
const counted = new Map<string, { size: number; mtimeMs: number; counts: number[] }>();

/**
 * Where message `index` of a session read a part at a time is (0 for its first message, numbered across the
 * parts in file order), from the path of the file or of any of its parts: the part that holds it and its place
 * there, or, past the session's last message, how many the session holds. The parts before it are read once
 * each (only their counts are kept while the file is unchanged): End needs none of them, "go to" does. The
 * service answers other requests between two parts (the rows of the part on screen, while it counts).
 */
export async function locateMessage(documents: DocumentStore, path: string, index: number): Promise<MessagePlace> {
  const file = documents.fileOf(path);
  const stat = statSync(file);
  const format = documents.partRange(path)?.codec ?? headFormat(file, stat.size);
  const parts = documents.partsOf(file, stat.size, stat.mtimeMs, format);
  const name = basename(file);
  if (!parts || !format) throw new HandlerError('BAD_INPUT', `${splitPartPath(path) ? name : basename(path)} is read whole, not a part at a time: its messages are all in it`);
  let known = counted.get(file);
  if (!known || known.size !== stat.size || known.mtimeMs !== stat.mtimeMs) counted.set(file, (known = { size: stat.size, mtimeMs: stat.mtimeMs, counts: [] }));
  let first = 0;
  for (let k = 0; k < parts.length; k++) {
    const at = partPath(file, k + 1);
    // A part open here counts as it is shown (its unsaved edits too); another is read for its count alone (kept,
    // not the part: the renderer opens the one asked for in a service of its own).
    const open = documents.peek(at);
    if (!open && known.counts[k] === undefined) await new Promise((r) => setImmediate(r));
    const count = open ? messagesOf(open.conversations) : (known.counts[k] ??= messagesOf(conversationsOf(readPartDocument(file, parts[k], format))));
    if (index < first + count) return { found: true, part: k + 1, parts: parts.length, path: at, index: index - first, first };
    first += count;
  }
  return { found: false, count: first, parts: parts.length };
}

/** The messages a part shows: its first conversation's, as the renderer opens it (a thread's path, for a tree). */
const messagesOf = (conversations: readonly OpenConversation[]) => conversations[0]?.records.length ?? 0;
