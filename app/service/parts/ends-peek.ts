import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Codec, ConversationDocument } from '../../../src/core/formats/codec.js';
import { completedListElements, lastListElementsOfFile, type ReadAt } from '../../../src/core/formats/syntax/list-scan.js';
import { peekHead } from '../listing/head-peek.js';

/** How many of a file's last records its end shows while the whole file is read (two pages of rows and more). */
export const TAIL_RECORDS = 600;
/** How much of the file is read and scanned between the turns other requests get (some 5 ms of work). */
const SCAN_CHUNK = 4 * 1024 * 1024;
/** A wrapper's keys before its list are read with the tail; past this the end is not peeked at. */
const MAX_PREFIX = 1024 * 1024;

export interface EndsPeek {
  codec: Codec;
  /** The first records, as the head peek reads them. */
  head: ConversationDocument;
  /** The last records, read as a file of their own (the list's last elements). */
  tail: ConversationDocument;
  /** The index among all records of the tail's first one, and how many records the file holds. */
  from: number;
  count: number;
  size: number;
}

const decoded = (bytes: Buffer) => bytes.toString('utf8').replace(/^\uFEFF/, '');

const records = (doc: ConversationDocument) => doc.conversations[0]?.records.length ?? 0;

/**
 * A big file's first and last records and how many it holds, from one pass over its bytes (a count of the
 * list's elements, with no parse): what lets End, the scrollbar and "go to" land where asked while the whole
 * file is still being parsed. Only where a record is an element of the file's list, as both ends confirm: a
 * one-conversation JSON file that is no tree. Undefined for anything else.
 */
export async function peekEnds(file: string, maxBytes: number, keep = TAIL_RECORDS): Promise<EndsPeek | undefined> {
  // A file the app does not read whole is not read whole for its ends either.
  if (statSync(file).size > maxBytes) return undefined;
  const head = peekHead(file);
  if (!head) return undefined;
  const { codec, doc } = head;
  // A log's lines are records only in flat formats with no header line, and every such log here is a tree.
  if (codec.syntax !== 'json' || codec.capabilities.conversations !== 'one' || codec.tree || doc.conversations.length !== 1 || doc.otherRecords !== 0) return undefined;
  // Read a chunk at a time off this thread (the service answers other requests between chunks), never held whole.
  const handle = await open(file, 'r');
  let text: string;
  let seen;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const read: ReadAt = async (into, length, position) => (await handle.read(into, 0, length, position)).bytesRead;
    const bytesAt = async (from: number, to: number) => {
      const b = Buffer.allocUnsafe(Math.max(0, to - from));
      return b.subarray(0, await read(b, b.length, from));
    };
    // Every element the head completes is a record: the rule the count of the whole list relies on.
    if (records(doc) !== completedListElements(await bytesAt(0, head.limit))?.count) return undefined;
    seen = await lastListElementsOfFile(read, size, keep, SCAN_CHUNK);
    if (!seen?.closed || seen.last.length === 0 || seen.open > MAX_PREFIX) return undefined;
    // The wrapper's keys before the list, the last elements, and what closes them: a small file of the same shape.
    text = decoded(await bytesAt(0, seen.open + 1)) + (await bytesAt(seen.last[0].start, seen.end)).toString('utf8') + seen.closers;
  } finally {
    await handle.close();
  }
  const { count } = seen;
  const elements = seen.last.length;
  let tail: ConversationDocument;
  try {
    tail = codec.parse(text, file);
  } catch {
    return undefined;
  }
  if (tail.conversations.length !== 1 || tail.otherRecords !== 0 || records(tail) !== elements || count < records(doc)) return undefined;
  return { codec, head: doc, tail, from: count - elements, count, size };
}
