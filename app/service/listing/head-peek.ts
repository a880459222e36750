import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Codec, ConversationDocument } from '../../../src/core/formats/codec.js';
import { candidates } from '../../../src/core/formats/registry.js';
import { completedListElements, completeLines } from '../../../src/core/formats/syntax/list-scan.js';

/** How much of a big file is read for its first screen of rows, while the whole file is read after it. */
export const PEEK_BYTES = 512 * 1024;
/**
 * What is read first: a few hundred rows of most files, read, parsed and drawn in a fraction of the time half a
 * megabyte takes (the first rows of a 100 MB history came after 0.7 s). A head holding fewer than a screen of
 * records (long lines) grows to PEEK_BYTES.
 */
export const FIRST_PEEK_BYTES = 128 * 1024;
const FIRST_SCREEN = 100;

export interface HeadPeek {
  codec: Codec;
  /** The records the head completes, read as the file's format would read them. */
  doc: ConversationDocument;
  /** The file's size, and how much of it the head is (bytes). */
  size: number;
  read: number;
  /** How many bytes of the file (from where it was read) the head was cut from. */
  limit: number;
}

/** A file's first `limit` bytes (all of a smaller one), with its size. */
export function readHead(file: string, limit = PEEK_BYTES, from = 0): { bytes: Buffer; size: number } {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, Math.min(size - from, limit)));
    const n = readSync(fd, buf, 0, buf.length, from);
    return { bytes: buf.subarray(0, n), size };
  } finally {
    closeSync(fd);
  }
}

const decoded = (bytes: Buffer) => bytes.toString('utf8').replace(/^\uFEFF/, '');

/**
 * The head of a JSON file up to the last element its first list completes, closed as the brackets then open
 * require: a smaller file of the same shape holding the first elements.
 */
export function closedHead(bytes: Buffer): string | undefined {
  const seen = completedListElements(bytes);
  return seen && decoded(bytes.subarray(0, seen.end)) + seen.closers;
}

/**
 * The first records of a big file, from its first half megabyte alone: complete lines of a JSONL file, the
 * elements a JSON file's list completes. Undefined for what a head cannot tell (YAML, Markdown, a head that
 * completes nothing).
 */
export function peekHead(file: string, codecId?: string, from = 0, to = Infinity): HeadPeek | undefined {
  let peek: HeadPeek | undefined;
  for (const limit of [FIRST_PEEK_BYTES, PEEK_BYTES]) {
    peek = peekHeadOf(file, codecId, from, to, limit);
    // A dataset's first conversation is whole once a second one begins.
    const enough = peek !== undefined && (peek.doc.conversations.length > 1 || (peek.doc.conversations[0]?.records.length ?? 0) >= FIRST_SCREEN);
    if (enough || (peek !== undefined && peek.limit < limit)) return peek;
  }
  return peek;
}

function peekHeadOf(file: string, codecId: string | undefined, from: number, to: number, limit: number): HeadPeek | undefined {
  // From `from` to `to`: a part of a file read a part at a time begins where a line does, as a file of its own.
  const { bytes, size } = readHead(file, Math.min(limit, to - from), from);
  // A character cut at the end of the head only reaches the sniffers (the records before it are what is read).
  const codec = candidates(file, decoded(bytes)).find((c) => codecId === undefined || c.id === codecId);
  if (!codec) return undefined;
  let head: string | undefined;
  if (codec.syntax === 'jsonl') head = decoded(bytes.subarray(0, completeLines(bytes).end));
  else if (codec.syntax === 'json') head = closedHead(bytes);
  if (!head) return undefined;
  try {
    return { codec, doc: codec.parse(head, file), size, read: Buffer.byteLength(head), limit: bytes.length };
  } catch {
    return undefined;
  }
}
