import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Codec, ConversationDocument } from '../../src/core/formats/codec.js';
import { candidates } from '../../src/core/formats/registry.js';
import { completedListElements } from './file-summary.js';

/** How much of a big file is read for its first screen of rows, while the whole file is read after it. */
export const PEEK_BYTES = 512 * 1024;

export interface HeadPeek {
  codec: Codec;
  /** The records the head completes, read as the file's format would read them. */
  doc: ConversationDocument;
  /** The file's size, and how much of it the head is (bytes). */
  size: number;
  read: number;
}

function readHead(file: string): { text: string; size: number } {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, PEEK_BYTES));
    const n = readSync(fd, buf, 0, buf.length, 0);
    // A character cut at the end of the head is left out (the records before it are what is read).
    return { text: buf.subarray(0, n).toString('utf8').replace(/^\uFEFF/, '').replace(/\uFFFD$/, ''), size };
  } finally {
    closeSync(fd);
  }
}

/**
 * The head of a JSON text up to the last element its first list completes, closed as the brackets then open
 * require: a smaller file of the same shape holding the first elements.
 */
export function closedHead(text: string): string | undefined {
  const seen = completedListElements(text);
  return seen && text.slice(0, seen.end) + seen.closers;
}

/**
 * The first records of a big file, from its first half megabyte alone: complete lines of a JSONL file, the
 * elements a JSON file's list completes. Undefined for what a head cannot tell (YAML, Markdown, a head that
 * completes nothing).
 */
export function peekHead(file: string, codecId?: string): HeadPeek | undefined {
  const { text, size } = readHead(file);
  const codec = candidates(file, text).find((c) => codecId === undefined || c.id === codecId);
  if (!codec) return undefined;
  let head: string | undefined;
  if (codec.syntax === 'jsonl') head = text.slice(0, text.lastIndexOf('\n') + 1);
  else if (codec.syntax === 'json') head = closedHead(text);
  if (!head) return undefined;
  try {
    return { codec, doc: codec.parse(head, file), size, read: Buffer.byteLength(head) };
  } catch {
    return undefined;
  }
}
