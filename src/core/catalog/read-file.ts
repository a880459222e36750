import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { ConversationFileError } from '../formats/errors.js';
import { NotReadHereError } from '../formats/containers/unread-stores.js';
import { parseDocumentBytes, readDocumentFile, type OpenedFile } from '../formats/document-file.js';
import { readFileBytes } from '../formats/read.js';
import { DEFAULT_MAX_FILE_BYTES } from '../formats/types.js';
import { candidates } from '../formats/registry.js';
import { containerOf } from '../formats/containers/index.js';
import { filePartsOf, readPart } from '../storage/file-parts.js';
import { factsOf, lineBytesOf, type FileFacts } from './facts.js';
import { withDayAndCost } from './calls.js';

/** How much of the bytes before a file's known end is hashed to tell an append from a rewrite. */
const END_HASH_BYTES = 4096;
/** Files past this are read a part at a time (each part a file of whole lines), as the app reads them. */
export const PART_BYTES = 96 * 1024 * 1024;

export interface FileFailure {
  error: string;
  line?: number;
  column?: number;
  /** What the file is where that is known though it is not read (a database of a tool not read here: unread-stores.ts). */
  format?: string;
}

/** What reading a file gave the catalog: its facts (or why it cannot be read) and the hash of its end. */
export interface CatalogRead {
  facts?: FileFacts;
  failure?: FileFailure;
  /** How many bytes were read, and a hash of the last of them (an append is told from a rewrite by it). */
  bytes: number;
  endHash?: string;
  /** The parsed file (only where asked for: the next append to it reads from there). */
  opened?: OpenedFile;
  /** Read for the session list alone (quick-read.ts): its figures are made exact, and its messages indexed, by a whole read. */
  partial?: true;
  /** Read whole, its messages written by its reader thread into a shard of the index (shards.ts) at this slot. */
  slot?: number;
}

export function readRange(file: string, start: number, end: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const out = Buffer.allocUnsafe(Math.max(0, end - start));
    let off = 0;
    while (off < out.length) {
      const n = readSync(fd, out, off, out.length - off, start + off);
      if (n === 0) break;
      off += n;
    }
    return out.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

export const hashEnd = (bytes: Uint8Array): string => createHash('sha1').update(bytes.subarray(Math.max(0, bytes.length - END_HASH_BYTES))).digest('hex');

/** A hash of the bytes just before `end` of a file: the same hash later says those bytes were not rewritten. */
export const endHashOf = (file: string, end: number): string => hashEnd(readRange(file, Math.max(0, end - END_HASH_BYTES), end));

export function failureOf(e: unknown): FileFailure {
  if (e instanceof NotReadHereError) return { error: e.reason, format: e.store.id };
  if (e instanceof ConversationFileError) return { error: e.reason, line: e.line, column: e.column };
  return { error: (e as Error).message };
}

/** Facts of several parts of one file, as one file's: each part's rows after the ones before. */
function mergeParts(parts: FileFacts[]): FileFacts {
  const first = parts[0];
  const out: FileFacts = { ...first, sessions: [], calls: [], messages: [], otherRecords: 0 };
  let offset = 0;
  for (const p of parts) {
    const s = p.sessions[0];
    if (s) {
      const kept = out.sessions[0];
      if (!kept) out.sessions.push({ ...s });
      else {
        kept.messages += s.messages;
        kept.prompts += s.prompts;
        kept.title ??= s.title;
        if (s.firstAt && (!kept.firstAt || s.firstAt < kept.firstAt)) kept.firstAt = s.firstAt;
        if (s.lastAt && (!kept.lastAt || s.lastAt > kept.lastAt)) kept.lastAt = s.lastAt;
        kept.models = [...new Set([...kept.models, ...s.models])].sort();
      }
    }
    for (const c of p.calls) out.calls.push({ ...c, conversation: 0, index: c.index + offset });
    for (const m of p.messages) out.messages.push({ ...m, conversation: 0, index: m.index + offset });
    out.otherRecords += p.otherRecords;
    offset += s?.messages ?? 0;
  }
  return out;
}

/** A file too big for one string: a line-based log read a part at a time, each part a file of its own lines. */
function readInParts(file: string, size: number): CatalogRead {
  const head = readRange(file, 0, 64 * 1024).toString('latin1');
  const codec = candidates(file, head)[0];
  if (!codec || codec.syntax !== 'jsonl' || codec.capabilities.conversations !== 'one') throw new ConversationFileError(file, `the file is ${Math.round(size / 2 ** 20)} MB, too big to read whole, and not a log read a part at a time`);
  let endHash: string | undefined;
  const parts = filePartsOf(file, size, PART_BYTES).map((part) => {
    const bytes = readPart(file, part);
    if (part.end === size) endHash = hashEnd(bytes);
    const opened = parseDocumentBytes(bytes, file, codec.id);
    return factsOf(file, opened, undefined, { lines: lineBytesOf(bytes, part.start + (opened.bom ? 3 : 0)) });
  });
  const facts = mergeParts(parts);
  withDayAndCost(facts.calls);
  return { facts, bytes: size, endHash };
}

/**
 * Reads a file for the catalog: its sessions, calls and messages, each message with its line's bytes where the
 * file is a log of a record per line (a hit is then read from its line alone). Never throws: a file that cannot
 * be read gives why.
 */
export function readForCatalog(file: string, size: number, keepOpened = false): CatalogRead {
  try {
    if (size > DEFAULT_MAX_FILE_BYTES) return readInParts(file, size);
    const bytes = readFileBytes(file);
    const opened = readDocumentFile(file, { bytes });
    // A container's text is not the file's bytes: its hits are read by opening it.
    const lines = containerOf(file, bytes.subarray(0, 64)) ? undefined : lineBytesOf(bytes.subarray(opened.bom ? 3 : 0), opened.bom ? 3 : 0);
    const facts = factsOf(file, opened, undefined, { lines });
    withDayAndCost(facts.calls);
    return { facts, bytes: bytes.length, endHash: hashEnd(bytes), ...(keepOpened ? { opened } : {}) };
  } catch (e) {
    return { failure: failureOf(e), bytes: size };
  }
}
