import { closeSync, openSync, readSync } from 'node:fs';
import { ConversationFileError } from '../../src/core/formats/errors.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { candidates } from '../../src/core/formats/registry.js';
import type { DirEntry } from '../shared/contract.js';
import type { Codec, ConversationDocument } from '../../src/core/formats/codec.js';

/** How much of a file the listing reads to tell its format (and, for a file this small, everything). */
export const HEAD_BYTES = 64 * 1024;

export type Summary = Pick<DirEntry, 'format' | 'formatLabel' | 'conversations' | 'titles' | 'messages' | 'other' | 'error' | 'errorLine' | 'errorColumn'>;

function readHead(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function failed(e: unknown): Summary {
  if (e instanceof ConversationFileError) return { error: e.reason, errorLine: e.line, errorColumn: e.column };
  return { error: (e as Error).message };
}

/** What the listing shows of a parsed file. */
export function summaryOf(codec: Codec, doc: ConversationDocument): Summary {
  return {
    format: codec.id,
    formatLabel: codec.label,
    conversations: doc.conversations.length,
    titles: doc.conversations.length > 1 ? doc.conversations.map((c, i) => c.title ?? `conversation ${i + 1}`) : undefined,
    messages: doc.conversations.reduce((n, c) => n + c.records.length, 0),
    other: doc.otherRecords,
  };
}

/** Everything the listing shows, from a whole read of the file: exact counts, or the error with its position. */
export function summarizeWhole(file: string): Summary {
  try {
    const { codec, doc } = readDocumentFile(file);
    return summaryOf(codec, doc);
  } catch (e) {
    return failed(e);
  }
}

/**
 * What the first 64 KB say: a file that fits is read whole; a bigger one gets the format its head sniffs as
 * (counts come from a whole read later, or when it is opened).
 */
export function summarizeHead(file: string, bytes: number): { summary: Summary; whole: boolean } {
  if (bytes <= HEAD_BYTES) return { summary: summarizeWhole(file), whole: true };
  try {
    const head = readHead(file).toString('utf8').replace(/^\uFEFF/, '');
    const best = candidates(file, head)[0];
    return { summary: best ? { format: best.id, formatLabel: best.label } : {}, whole: false };
  } catch (e) {
    return { summary: failed(e), whole: false };
  }
}
