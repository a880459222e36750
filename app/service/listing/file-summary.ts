import { sessionModel } from '../../../src/core/models.js';
import { closeSync, openSync, readSync } from 'node:fs';
import { ConversationFileError } from '../../../src/core/formats/errors.js';
import { NotReadHereError } from '../../../src/core/formats/containers/unread-stores.js';
import { readDocumentFile } from '../../../src/core/formats/document-file.js';
import { candidates, codecById } from '../../../src/core/formats/registry.js';
import { TooBigError } from '../../../src/core/formats/errors.js';
import { LISTING_READ_BYTES } from '../../../src/core/limits.js';
import { containerOf, type Container } from '../../../src/core/formats/containers/index.js';
import { inflatedHead } from '../../../src/core/formats/containers/inflate.js';
import { compressedInnerName } from '../../../src/core/formats/containers/compressed.js';
import type { DirEntry } from '../../shared/contract.js';
import type { Codec, ConversationDocument } from '../../../src/core/formats/codec.js';
import { completedListElements, completeLines } from '../../../src/core/formats/syntax/list-scan.js';
import { conversationTitles } from '../../../src/core/catalog/titles.js';

/** How much of a file the listing reads for its format and a first count. */
export const HEAD_BYTES = 64 * 1024;
/**
 * Files up to this size get exact counts from a whole read after their head; bigger ones when they are opened.
 * A container is read whole for its counts only as far as it unpacks to this much.
 */
export const WHOLE_READ_LIMIT = LISTING_READ_BYTES;
/**
 * What is read of a file a whole read follows (up to 8 MB): enough for its format and a rough count, soon
 * replaced. 16 KB holds most files whole, so their counts are exact at once (a 4 KB head made the fill a fifth
 * faster and its estimates up to two thirds off). Files past the limit keep their head's estimate, so they get
 * all 64 KB.
 */
const ROUGH_HEAD_BYTES = 16 * 1024;

/** How much of a file of this size its listing's first pass reads. */
export const headLength = (bytes: number): number => (bytes <= WHOLE_READ_LIMIT ? ROUGH_HEAD_BYTES : HEAD_BYTES);

export type Summary = Pick<DirEntry, 'format' | 'formatLabel' | 'conversations' | 'titles' | 'conversationMessages' | 'title' | 'model' | 'messages' | 'other' | 'error' | 'errorLine' | 'errorColumn' | 'notRead' | 'estimated'>;

// One buffer for every head a listing reads (a listing reads them one after another).
const headBuffer = Buffer.allocUnsafe(HEAD_BYTES);

/** The file's first bytes (64 KB at most), in a buffer the next call reuses. */
function readHead(file: string, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const n = readSync(fd, headBuffer, 0, length, 0);
    return headBuffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function failed(e: unknown): Summary {
  if (e instanceof NotReadHereError) return { error: e.reason, notRead: e.store.label };
  if (e instanceof ConversationFileError) return { error: e.reason, errorLine: e.line, errorColumn: e.column };
  return { error: (e as Error).message };
}

/** A one-conversation file's title as the session list gives it (catalog/titles.ts): the file's own, else its first prompt. */
function titled(codec: Codec, doc: ConversationDocument): Pick<Summary, 'title'> {
  if (doc.conversations.length !== 1) return {};
  const title = conversationTitles(codec, doc)[0];
  return title ? { title } : {};
}

/** The conversations' titles in a file of several, as the session list gives them; a conversation of none by its number. */
function titlesOf(codec: Codec, doc: ConversationDocument): string[] {
  return conversationTitles(codec, doc).map((t, i) => t ?? `conversation ${i + 1}`);
}

/** What the listing shows of a parsed file. */
export function summaryOf(codec: Codec, doc: ConversationDocument): Summary {
  return {
    format: codec.id,
    formatLabel: codec.label,
    conversations: doc.conversations.length,
    titles: doc.conversations.length > 1 ? titlesOf(codec, doc) : undefined,
    conversationMessages: doc.conversations.length > 1 ? doc.conversations.map((c) => c.records.length) : undefined,
    ...titled(codec, doc),
    ...modelOf(codec, doc),
    messages: doc.conversations.reduce((n, c) => n + c.records.length, 0),
    other: doc.otherRecords,
  };
}

/** The model the file's session ran on, where it names one (a file of several: the one most of them name). */
function modelOf(codec: Codec, doc: ConversationDocument): Pick<Summary, 'model'> {
  const model = sessionModel(doc.conversations.flatMap((c) => c.records.map((r) => codec.view(r))));
  return model ? { model } : {};
}

/**
 * Everything the listing shows, from a whole read of the file: exact counts, or the error with its position. A
 * compressed file or an archive is unpacked no further than the listing's budget: past it, the listing says
 * what format it holds, and its counts come when it is opened (where the cap on what it may unpack to is met).
 */
export function summarizeWhole(file: string): Summary {
  try {
    const { codec, doc } = readListed(file);
    return summaryOf(codec, doc);
  } catch (e) {
    if (e instanceof TooBigError && e.cap === LISTING_READ_BYTES) {
      const head = readHead(file, HEAD_BYTES);
      const container = containerOf(file, head);
      if (container) return containerSummary(file, head, container);
    }
    return failed(e);
  }
}

/** A file read whole for the listing: a container unpacked no further than the listing's budget (TooBigError past it). */
export function readListed(file: string) {
  return readDocumentFile(file, { maxInflatedBytes: LISTING_READ_BYTES });
}

/**
 * The format a container holds, from its first bytes: the one its kind always holds (an .eval, a database), or
 * what the first kilobytes of a compressed file unpack to sniff as. Nothing counted: that needs it unpacked.
 */
function containerSummary(file: string, head: Buffer, container: Container): Summary {
  let format = container.format;
  const inner = compressedInnerName(file);
  if (!format && inner) {
    const text = inflatedHead(head, SNIFF_BYTES);
    format = text && candidates(inner, Buffer.from(text).toString('latin1'))[0]?.id;
  }
  const codec = format ? codecById(format) : undefined;
  return codec ? { format: codec.id, formatLabel: codec.label } : {};
}

/** How much of a file's head the codecs' sniffers see in a listing, where a whole read (which sees 64 KB) follows. */
const SNIFF_BYTES = 4 * 1024;
/** Complete JSONL lines of a small file parsed to learn how many messages a line holds. */
const SAMPLE_BYTES = 16 * 1024;

/**
 * What a file's head says without parsing it: the format the head sniffs as, and a count from its bytes
 * (the elements of a JSON list, or the lines of a JSONL file scaled by what a sample of them holds). A count
 * is exact only for a JSON list the head holds whole; the rest are marked estimated. A whole read follows
 * for files up to 8 MB.
 */
export function summarizeHead(file: string, bytes: number): Summary {
  try {
    const later = bytes <= WHOLE_READ_LIMIT;
    const head = readHead(file, headLength(bytes));
    // A container's counts need it unpacked: its head says what format it holds, the whole read the rest.
    const container = containerOf(file, head);
    if (container) return containerSummary(file, head, container);
    // Sniffers look for keys and brackets, all ASCII: a byte per character is enough, and cheap.
    const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    const sniffed = head.subarray(bom, later ? SNIFF_BYTES : HEAD_BYTES).toString('latin1');
    const best = candidates(file, sniffed)[0];
    if (!best) return {};
    const summary: Summary = { format: best.id, formatLabel: best.label };
    const whole = head.length >= bytes;
    if (best.syntax === 'jsonl') Object.assign(summary, jsonlCount(best, file, head, bytes, whole));
    if (best.syntax === 'json' && best.capabilities.conversations === 'one') {
      const seen = completedListElements(head);
      if (seen?.closed && whole) summary.messages = seen.count;
      else if (seen) Object.assign(summary, { messages: Math.round(seen.count * (bytes / seen.end)), estimated: true });
    }
    return summary;
  } catch (e) {
    return failed(e);
  }
}

/** A JSONL file's messages (and conversations, where a line is one): a sample of lines read, scaled. */
function jsonlCount(codec: Codec, file: string, head: Buffer, bytes: number, whole: boolean): Summary {
  // A head read whole is a small file: a sample of it is enough. Otherwise every line read counts.
  let sample = completeLines(whole ? head.subarray(0, SAMPLE_BYTES) : head);
  if (sample.lines === 0) sample = completeLines(head);
  if (sample.lines === 0) return {};
  let doc: ConversationDocument;
  try {
    doc = codec.parse(head.subarray(0, sample.end).toString('utf8').replace(/^\uFEFF/, ''), file);
  } catch {
    return {}; // the sample alone does not read: the whole read says why
  }
  const messages = doc.conversations.reduce((n, c) => n + c.records.length, 0);
  // A file read whole is scaled by its lines (the last one may lack its newline); a bigger one by its size.
  let scale = bytes / sample.end;
  if (whole) {
    const all = completeLines(head);
    const last = head.subarray(all.end).toString('latin1').trim() ? 1 : 0;
    scale = (all.lines + last) / sample.lines;
  }
  const out: Summary = { messages: Math.round(messages * scale), ...titled(codec, doc), ...modelOf(codec, doc) };
  if (doc.conversations.length > 1) out.conversations = Math.round(doc.conversations.length * scale);
  if (scale !== 1) out.estimated = true;
  return out;
}
