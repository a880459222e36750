import { deepEqual, isPlainObject } from '../message.js';
import './all.js';
import type { Codec, ConversationDocument, WriteOptions } from './codec.js';
import { ConversationFileError, TooBigError } from './errors.js';
import { readFileBytes, textOfBytes } from './read.js';
import { utf8Text, type Utf8Text } from './syntax/utf8-text.js';
import { containerOf, listContainers } from './containers/index.js';
import { NotReadHereError, unreadStoreOf } from './containers/unread-stores.js';
import { conversationExtensions } from './registry.js';
import { parseWithCodecs, type ParsedFile } from './registry.js';
import { DEFAULT_MAX_FILE_BYTES } from './types.js';
import { MAX_INFLATED_BYTES, sizeText } from '../limits.js';
import { UnsafeWriteError } from './write.js';
import { codecWithRoles } from './roles.js';
import { convert } from './convert.js';
import { createDocument } from './create.js';

export interface ReadDocumentOptions {
  /** A codec id instead of detection. */
  format?: string;
  maxFileBytes?: number;
  /** The most a container (compressed, an archive, a database) may unpack to: MAX_INFLATED_BYTES unless given. */
  maxInflatedBytes?: number;
  /** The file's bytes, when the caller read them already. */
  bytes?: Buffer;
}

export interface OpenedFile extends ParsedFile {
  /** The file started with a byte order mark: it is written back with one. */
  bom: boolean;
  /**
   * Why this file is not saved in place (a compressed copy, an archive, another app's database): shown before
   * any edit; a conversion or Save As writes an editable copy.
   */
  readOnly?: string;
  /** A part of a file read a part at a time: how many of the file's bytes it holds (the file's size is the file's). */
  partBytes?: number;
  /**
   * The same for every version of a file read by appends from one read: a version read by an append is that
   * read's with records after, its first records the very same objects.
   */
  lineage?: object;
}

/** Parses file text (a leading byte order mark is set aside and kept); `name` is what detection goes by. */
export function parseDocumentText(text: string, file: string, format?: string, name = file): OpenedFile {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  // A search for the first non-blank character, not a trim: a trim copies a 100 MB text.
  if (!/\S/.test(body)) throw new ConversationFileError(file, 'the file is empty (expected a conversation)');
  return opened(parseWithCodecs(body, file, format, name), bom);
}

/** parseDocumentText of a file's bytes: a format read a line at a time never decodes the whole text. */
export function parseDocumentBytes(bytes: Buffer, file: string, format?: string): OpenedFile {
  const source = textOfBytes(bytes, file);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? utf8Text(bytes.subarray(3)) : source;
  if (isBlank(body)) throw new ConversationFileError(file, 'the file is empty (expected a conversation)');
  return opened(parseWithCodecs(body, file, format), bom);
}

/** Whether the text is all white space (as /\S/ sees it), looking at bytes until a character past ASCII. */
function isBlank(text: Utf8Text): boolean {
  for (const b of text.bytes) {
    if (b === 0x20 || (b >= 0x09 && b <= 0x0d)) continue;
    return b < 0x80 ? false : !/\S/.test(text.text());
  }
  return true;
}

function opened(parsed: ParsedFile, bom: boolean): OpenedFile {
  return { ...parsed, codec: codecWithRoles(parsed.codec, parsed.doc.roles), bom, lineage: {}, ...(parsed.codec.readOnly ? { readOnly: parsed.codec.readOnly } : {}) };
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const isSqlite = (bytes: Uint8Array) => bytes.length >= 16 && [...SQLITE_MAGIC].every((c, i) => bytes[i] === c.charCodeAt(0));

/** Reads and parses a conversation file of any known format. Errors name the file (and line, column). */
export function readDocumentFile(file: string, options: ReadDocumentOptions = {}): OpenedFile {
  const bytes = options.bytes ?? readFileBytes(file, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  const container = containerOf(file, bytes.subarray(0, 64));
  if (!container) {
    // A name a container reads, but not its bytes: said as such (not "unsupported file type").
    const named = listContainers().find((c) => c.extensions.some((e) => file.toLowerCase().endsWith(e)) && c.extensions.some((e) => !conversationExtensions().includes(e)));
    if (named && !options.format) {
      // A database of another tool (Zed's threads.db, Goose's sessions.db) is said as one, with those read here.
      if (isSqlite(bytes)) {
        const sqlite = listContainers().filter((c) => / database/.test(c.label)).map((c) => c.label);
        const unread = unreadStoreOf(file, bytes);
        if (unread) throw new NotReadHereError(file, unread, sqlite);
        throw new ConversationFileError(file, `a SQLite database of no tool read here (its tables are not those of ${sqlite.join(', ')})`);
      }
      const what = /file|database|archive|log/.test(named.label) ? named.label : `${named.label} file`;
      throw new ConversationFileError(file, `not ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}: its first bytes are not those of one`);
    }
    return parseDocumentBytes(bytes, file, options.format);
  }
  const cap = options.maxInflatedBytes ?? MAX_INFLATED_BYTES;
  const inside = container.open(file, bytes, { maxInflatedBytes: cap });
  // What a container assembles (a database's rows, a log replayed) is held to the same cap as what it inflates.
  if (inside.text.length > cap) throw new TooBigError(file, `its text comes to ${sizeText(inside.text.length)}, more than the ${sizeText(cap)} read here of what a container holds: it is not read`, cap);
  const opened = parseDocumentText(inside.text, file, inside.format ?? options.format, inside.name);
  return { ...opened, readOnly: inside.readOnly };
}

/**
 * The file once `added` was appended to it (what an agent writing its session does), read as an append: only the
 * added text is parsed and the records read before stay the same objects. Undefined when the format cannot
 * read an append apart (the file is then read again whole).
 */
export function appendToFile(opened: OpenedFile, added: string, file: string): OpenedFile | undefined {
  const append = opened.codec.append;
  if (!append) return undefined;
  const doc = append(opened.doc, added, file);
  return { ...opened, doc };
}

/** Values as a file holds them: keys holding undefined are absent; `links` (top level) are the writer's to set. */
function sameRecord(read: unknown, written: unknown, links: readonly string[] = []): boolean {
  if (links.length === 0 && deepEqual(read, written)) return true;
  if (isPlainObject(read) && isPlainObject(written)) {
    const keys = Object.keys(written).filter((k) => written[k] !== undefined && !links.includes(k));
    const readKeys = Object.keys(read).filter((k) => !links.includes(k));
    return keys.length === readKeys.length && keys.every((k) => sameRecord(read[k], written[k]));
  }
  if (Array.isArray(read) && Array.isArray(written)) return read.length === written.length && read.every((v, i) => sameRecord(v, written[i]));
  return false;
}

/**
 * The file's text holding these records, in its own style, checked by reading it back with the same codec:
 * text that would not read back as the records it came from is never returned.
 */
export function serializeDocument(codec: Codec, doc: ConversationDocument, conversations: readonly (readonly unknown[])[], bom = false, options: WriteOptions = {}): string {
  return writeDocument(codec, doc, conversations, bom, options).text;
}

/** serializeDocument, with the document the text reads back as (undefined for the swarms writers, which check their own). */
export function writeDocument(codec: Codec, doc: ConversationDocument, conversations: readonly (readonly unknown[])[], bom = false, options: WriteOptions = {}): { text: string; again?: ConversationDocument } {
  const text = codec.serialize(doc, conversations, options);
  let again: ConversationDocument | undefined;
  // The swarms writers verify their own output (and reuse the parse as the next baseline).
  if (codec.id !== 'swarms-json' && codec.id !== 'swarms-yaml') {
    let parsed: ConversationDocument;
    try {
      parsed = codec.parse(text, options.name ?? '(output)');
    } catch (e) {
      throw new UnsafeWriteError(`the ${codec.label} written would not parse (${(e as Error).message})`);
    }
    again = parsed;
    conversations.forEach((written, c) => {
      const records = codec.order ? codec.order(written) : written;
      const read = parsed.conversations[c]?.records ?? [];
      if (read.length !== records.length) throw new UnsafeWriteError(`conversation ${c} would hold ${read.length} messages, not ${records.length}`);
      records.forEach((r, i) => {
        // A record the file already held, written as its own text, reads back as what it was read as.
        if (options.immutable && codec.rawText(doc, c, r) !== undefined) return;
        if (!sameRecord(read[i], r, codec.linkFields)) throw new UnsafeWriteError(`message ${i} of conversation ${c} would read back differently`);
      });
    });
  }
  return { text: (bom ? '\ufeff' : '') + text, again };
}

/** Converts a document into another format (see convert.ts, which also says what changed). */
export function convertDocument(from: OpenedFile, toId: string): string {
  return convert(from, toId).text;
}

/** What converting would lose, or change to be valid in the target (deduplicated, counted). */
export function lossesOf(from: OpenedFile, toId: string): string[] {
  return convert(from, toId).notes;
}

/** A new file of `codec`'s format holding these records. */
export function emptyDocument(codec: Codec, conversations: readonly (readonly unknown[])[]): string {
  return createDocument(
    codec,
    conversations.map((records) => ({ records })),
  );
}
