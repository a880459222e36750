import { closeSync, openSync, readSync } from 'node:fs';
import { ConversationFileError } from '../../src/core/formats/errors.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { candidates } from '../../src/core/formats/registry.js';
import type { DirEntry } from '../shared/contract.js';
import type { Codec, ConversationDocument } from '../../src/core/formats/codec.js';

/** How much of a file the listing reads to tell its format (and, for a file this small, everything). */
export const HEAD_BYTES = 64 * 1024;

export type Summary = Pick<DirEntry, 'format' | 'formatLabel' | 'conversations' | 'titles' | 'messages' | 'other' | 'error' | 'errorLine' | 'errorColumn' | 'estimated'>;

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
    if (!best) return { summary: {}, whole: false };
    const summary: Summary = { format: best.id, formatLabel: best.label };
    // Lines are whole records: the complete lines of the head, read, give a count to scale by the size.
    if (best.syntax === 'jsonl') {
      const cut = head.lastIndexOf('\n') + 1;
      try {
        const doc = best.parse(head.slice(0, cut), file);
        const seen = doc.conversations.reduce((n, c) => n + c.records.length, 0);
        if (cut > 0 && seen > 0) {
          const scale = bytes / Buffer.byteLength(head.slice(0, cut));
          summary.messages = Math.round(seen * scale);
          if (doc.conversations.length > 1) summary.conversations = Math.round(doc.conversations.length * scale);
          summary.estimated = true;
        }
      } catch {
        // the head alone does not read: the whole read says why
      }
    }
    // A JSON list of messages: the elements the head completes, scaled by the size.
    if (best.syntax === 'json' && best.capabilities.conversations === 'one') {
      const seen = completedListElements(head);
      if (seen) {
        summary.messages = Math.round(seen.count * (bytes / Buffer.byteLength(head.slice(0, seen.end))));
        summary.estimated = true;
      }
    }
    return { summary, whole: false };
  } catch (e) {
    return { summary: failed(e), whole: false };
  }
}

/** The index of the quote that closes the string whose content starts at `from` (-1 when it does not close). */
export function stringEnd(text: string, from: number): number {
  let q = text.indexOf('"', from);
  while (q !== -1) {
    let slashes = 0;
    for (let k = q - 1; k >= from && text.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

/**
 * How many elements of the first list (at the top, or one key down: a wrapper) the text completes, where the
 * last one ends, and what closes the brackets still open there (`]}` for a wrapper). Strings and escapes are
 * skipped; nothing is parsed.
 */
export function completedListElements(text: string): { count: number; end: number; closers: string } | undefined {
  const stack: number[] = [];
  let listDepth = -1;
  let count = 0;
  let end = 0;
  let closers = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // Most of the text is inside strings: jump to the closing quote (native search), not a char at a time.
      const q = stringEnd(text, i);
      if (q === -1) break;
      i = q;
      inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (c === 0x5b && listDepth === -1 && stack.length <= 1) listDepth = stack.length + 1;
      stack.push(c);
    } else if (c === 0x5d || c === 0x7d) {
      stack.pop();
      if (stack.length === listDepth && listDepth !== -1) {
        count++;
        end = i + 1;
        closers = '';
        for (let k = stack.length - 1; k >= 0; k--) closers += stack[k] === 0x5b ? ']' : '}';
      }
      if (listDepth !== -1 && stack.length < listDepth) break;
    }
  }
  return count > 0 ? { count, end, closers } : undefined;
}
