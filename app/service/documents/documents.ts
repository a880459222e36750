import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { isUtf8 } from 'node:buffer';
import { closeSync, existsSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { viewDirty, viewsOf, type ViewedConversation } from './conversation-views.js';
import { appendToFile, readDocumentFile, type OpenedFile } from '../../../src/core/formats/document-file.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../../src/core/formats/types.js';
import { partPath, partTitle, splitPartPath, type FilePart } from '../../../src/core/storage/file-parts.js';
import { headFormat, PART_BYTES, partsToRead, readPartDocument, readsInParts } from '../parts/parted-files.js';
import { HandlerError } from '../../shared/errors.js';
import type { Codec } from '../../../src/core/formats/codec.js';
import type { MessageView } from '../../../src/core/formats/model.js';
import { grownFrom } from './edit-version.js';

export interface Fingerprint {
  mtimeMs: number;
  size: number;
  hash: string;
}

/**
 * One conversation of an open file: the records it shows now, as last saved, and its undo history; for a
 * view of a tree (a Claude Code thread), the file's records it is a path of (see conversation-views.ts).
 */
export type OpenConversation = ViewedConversation;

export interface OpenDocument {
  path: string;
  codec: Codec;
  /** The file as last read or written (its text, the codec's baseline). */
  file: OpenedFile;
  conversations: OpenConversation[];
  /** The file as we last read or wrote it. */
  fingerprint: Fingerprint;
  mtimeMs: number;
  size: number;
  /** The file changed on disk while this document had unsaved edits (not by appends alone: a save merges those). */
  conflict: boolean;
  /** When the file was last seen to grow by appends while open (an agent writing its session), ms since epoch. */
  appendedAt?: number;
  /** Who else had the file open for writing when last looked (at a save), and when. */
  writers?: { pids: Array<{ pid: number; name: string }>; at: number };
}

const ENDS_BYTES = 2048;
/**
 * The first and last bytes of a file as it was read or written: an append is told from a rewrite by them. Kept
 * per reading (a save gives the same document a new one).
 */
const ends = new WeakMap<OpenedFile, { head: Buffer; tail: Buffer }>();
function endsOf(file: OpenedFile): { head: Buffer; tail: Buffer } {
  let e = ends.get(file);
  if (!e) {
    const text = file.doc.text;
    const tail = Buffer.from(text.slice(-ENDS_BYTES), 'utf8');
    e = { head: Buffer.from((file.bom ? '\ufeff' : '') + text.slice(0, ENDS_BYTES), 'utf8'), tail: tail.subarray(Math.max(0, tail.length - ENDS_BYTES)) };
    ends.set(file, e);
  }
  return e;
}

/**
 * The bytes a file gained at its end since `file` (`size` bytes) was read from it, when it only grew (an agent
 * appending): its first and last bytes as read are still there. Undefined when it did not grow, or was rewritten.
 */
export function appendedBytes(path: string, file: OpenedFile, size: number, sizeNow: number): Buffer | undefined {
  if (sizeNow <= size || !endsStill(path, file, size)) return undefined;
  return readRange(path, size, sizeNow - size);
}

/** The file's first and last `size` bytes are still those `file` was read from. */
function endsStill(path: string, file: OpenedFile, size: number): boolean {
  const { head, tail } = endsOf(file);
  const tailNow = readRange(path, size - tail.length, tail.length);
  const headNow = readRange(path, 0, Math.min(head.length, size));
  return !!tailNow && !!headNow && tailNow.equals(tail) && headNow.equals(head.subarray(0, headNow.length));
}

/** A file that grew by `added` keeps its ends for the next look: the head as before, the tail from the bytes at hand. */
function keepEnds(from: OpenedFile, next: OpenedFile, added: Buffer): void {
  const { head, tail } = endsOf(from);
  // The text is the old one and the added one joined: slicing it would copy it whole.
  const joined = Buffer.concat([tail, added]);
  ends.set(next, { head, tail: joined.subarray(Math.max(0, joined.length - ENDS_BYTES)) });
}

/** `length` bytes of a file from `position`, or undefined when it holds fewer. */
function readRange(path: string, position: number, length: number): Buffer | undefined {
  if (position < 0) return undefined;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, position);
    return n === length ? buf : undefined;
  } finally {
    closeSync(fd);
  }
}

// Per codec: a file's role declarations (or the user's) make a codec of its own, whose views differ.
const views = new WeakMap<Codec, WeakMap<object, MessageView>>();

/** A record seen as a message, computed once per record object (records are never changed in place). */
export function viewOf(codec: Codec, record: unknown): MessageView {
  if (record === null || typeof record !== 'object') return codec.view(record);
  let cache = views.get(codec);
  if (!cache) views.set(codec, (cache = new WeakMap()));
  let v = cache.get(record as object);
  if (!v) {
    v = codec.view(record);
    cache.set(record as object, v);
  }
  return v;
}

export function conversationDirty(c: OpenConversation): boolean {
  return viewDirty(c);
}

export function isDirty(doc: OpenDocument): boolean {
  return doc.conversations.some(conversationDirty);
}

/** An open document's conversations, fresh from a parse: what is on disk, nothing unsaved. */
export function conversationsOf(file: OpenedFile): OpenConversation[] {
  return viewsOf(file.codec, file.doc);
}

/** The hash is taken when first asked for (a changed stat), not on open: at 100 MB it costs a fifth of a second. */
export function fingerprintOf(file: OpenedFile, mtimeMs: number, size: number): Fingerprint {
  let hash: string | undefined;
  return {
    mtimeMs,
    size,
    get hash() {
      return (hash ??= createHash('sha256').update((file.bom ? '\ufeff' : '') + file.doc.text).digest('hex'));
    },
  };
}

/**
 * Open documents by absolute path. A clean document follows the file on disk (re-read when its size or mtime
 * changes; the reload never enters the undo history); a document with unsaved edits never does: it is marked
 * in conflict instead, and nothing is overwritten either way.
 */
/**
 * Clean documents are kept while their files total no more than this (a parsed file takes several times its
 * size in memory); the least recently used go first. Documents with unsaved edits are always kept.
 */
export const KEEP_CLEAN_BYTES = 384 * 1024 * 1024;

/**
 * A file's stat as the store compares it; a database's includes its write-ahead log, where its writer puts
 * new transactions without touching the database file itself.
 */
function statOf(path: string): Pick<Stats, 'mtimeMs' | 'size'> {
  const stat = statSync(path);
  if (!/\.(db|vscdb|sqlite)$/i.test(path)) return stat;
  try {
    const wal = statSync(`${path}-wal`);
    return { mtimeMs: Math.max(stat.mtimeMs, wal.mtimeMs), size: stat.size + wal.size };
  } catch {
    return stat;
  }
}

/**
 * The size and time a file was read at. An agent appending between the stat and the read makes the text longer
 * than the stat says: its size is then the text's, and its time unknown (never matched: the next look at the
 * file reads what came after the text as an append).
 */
function readAs(file: OpenedFile, stat: Pick<Stats, 'mtimeMs' | 'size'>): Pick<Stats, 'mtimeMs' | 'size'> {
  if (file.readOnly || file.partBytes !== undefined) return stat;
  const size = Buffer.byteLength(file.doc.text, 'utf8') + (file.bom ? 3 : 0);
  return size === stat.size ? stat : { size, mtimeMs: -1 };
}

/** A file read a part at a time: its parts, while its size and time stay. */
interface Parted {
  size: number;
  mtimeMs: number;
  parts: FilePart[];
  /** The codec the first part was read with: every part is read with it. */
  codec?: string;
}

/** The size and time at which a file being edited was last seen to have only grown. */
const appendsSeen = new WeakMap<OpenDocument, { size: number; mtimeMs: number }>();

export class DocumentStore {
  /** In order of use, the most recent last. */
  private readonly docs = new Map<string, OpenDocument>();
  private readonly parted = new Map<string, Parted>();

  constructor(
    /** Files past this are not read whole (a session log is read a part at a time; anything else is refused). */
    readonly maxFileBytes = DEFAULT_MAX_FILE_BYTES,
    private readonly keepCleanBytes = KEEP_CLEAN_BYTES,
    private readonly partBytes = PART_BYTES,
  ) {}

  /**
   * The parts of a file too big to read whole, for a format whose lines are its records and that holds one
   * conversation (a session log): undefined for any other file. Cheap: a few reads around each cut, kept.
   */
  partsOf(file: string, size: number, mtimeMs: number, format: string | undefined): FilePart[] | undefined {
    if (size <= this.maxFileBytes || !format || !readsInParts(format)) return undefined;
    const known = this.parted.get(file);
    if (known && known.size === size && known.mtimeMs === mtimeMs) return known.parts;
    const { parts } = partsToRead(file, size, this.partBytes, format)!;
    this.parted.set(file, { size, mtimeMs, parts, codec: known?.codec ?? format });
    return parts;
  }

  /** A part of a file read a part at a time: a document of its own, read-only in place (Save As writes a copy). */
  private loadPart(path: string, file: string, number: number): OpenDocument {
    const stat = statSync(file);
    const known = this.parted.get(file);
    let format = known?.codec;
    format ??= headFormat(file, stat.size);
    const parts = this.partsOf(file, stat.size, stat.mtimeMs, format);
    const name = basename(file);
    if (!parts) throw new HandlerError('NOT_FOUND', `${name} is read whole, not a part at a time: open ${name}`);
    const part = parts[number - 1];
    if (!part) throw new HandlerError('NOT_FOUND', `${name} has ${parts.length} parts; there is no part ${number}`);
    const parsed = readPartDocument(file, part, format!);
    const reason = `${partTitle(part, parts.length)} of ${name}: a file this big is read a part at a time, each part whole lines of the file (a thread that began in an earlier part starts here without its beginning). Save As writes this part as a file of its own; the file itself is not written here`;
    // The whole file's size and time: a change to the file is a change to its parts.
    return this.keep(path, { ...parsed, readOnly: reason, partBytes: part.end - part.start }, stat);
  }

  /** A document just read from disk, kept (and the least recently used let go past the budget). */
  private keep(path: string, file: OpenedFile, stat: Pick<Stats, 'mtimeMs' | 'size'>): OpenDocument {
    const doc: OpenDocument = { path, codec: file.codec, file, conversations: conversationsOf(file), fingerprint: fingerprintOf(file, stat.mtimeMs, stat.size), mtimeMs: stat.mtimeMs, size: stat.size, conflict: false };
    this.touch(path, doc);
    this.evict();
    return doc;
  }

  private touch(path: string, doc: OpenDocument): OpenDocument {
    this.docs.delete(path);
    this.docs.set(path, doc);
    return doc;
  }

  /** Forgets the least recently used clean documents past the budget (never the one just used). */
  private evict(): void {
    let total = 0;
    for (const d of this.docs.values()) if (!isDirty(d)) total += d.size;
    let newest: string | undefined;
    for (const path of this.docs.keys()) newest = path;
    for (const [path, d] of this.docs) {
      if (total <= this.keepCleanBytes) break;
      if (path === newest || isDirty(d)) continue;
      this.docs.delete(path);
      total -= d.size;
    }
  }

  private load(path: string): OpenDocument {
    const part = splitPartPath(path);
    if (part && !existsSync(path)) return this.loadPart(path, part.file, part.number);
    const stat = statOf(path);
    if (stat.size > this.maxFileBytes) {
      // A session log too big to read whole is read a part at a time: said, with the parts' names.
      const parts = this.partsOf(path, stat.size, stat.mtimeMs, headFormat(path, stat.size));
      const name = basename(path);
      if (parts) throw new HandlerError('BAD_INPUT', `${name} is too big to read whole (over ${Math.round(this.maxFileBytes / 1048576)} MB): it is read a part at a time, ${partPath(name, 1)} to ${partPath(name, parts.length)}`);
    }
    const file = readDocumentFile(path, { maxFileBytes: this.maxFileBytes });
    return this.keep(path, file, readAs(file, stat));
  }

  get(path: string): OpenDocument {
    const cached = this.docs.get(path);
    if (!cached) return this.load(path);
    let stat;
    try {
      stat = statOf(this.fileOf(path));
    } catch (e) {
      // A dirty document outlives its file: the edits are still here to save elsewhere.
      if (isDirty(cached)) return cached;
      throw e;
    }
    if (stat.mtimeMs === cached.mtimeMs && stat.size === cached.size) return this.touch(path, cached);
    if (cached.mtimeMs === -1 && stat.size === cached.size && !cached.file.readOnly && endsStill(path, cached.file, cached.size)) {
      // Read while an agent appended: the text is the whole file as it stands, whose time is known now.
      cached.mtimeMs = stat.mtimeMs;
      cached.fingerprint = fingerprintOf(cached.file, stat.mtimeMs, stat.size);
      return this.touch(path, cached);
    }
    if (isDirty(cached)) {
      // An agent appending to the session being edited is no conflict: the save merges what it added.
      if (!cached.conflict && !this.onlyAppended(path, cached, stat)) cached.conflict = true;
      return this.touch(path, cached);
    }
    return this.grown(path, cached, stat) ?? this.load(path);
  }

  /**
   * A clean document whose file only grew (an agent appending to its session), read as an append: the bytes
   * after the old end alone, when the bytes before it are still what was read. Undefined when that cannot be
   * told or the format reads no appends: the file is then read again whole.
   */
  private grown(path: string, cached: OpenDocument, stat: Pick<Stats, 'mtimeMs' | 'size'>): OpenDocument | undefined {
    const file = cached.file;
    if (stat.size <= cached.size || !file.codec.append || file.readOnly) return undefined;
    // The start and the end of what was read, as bytes, still there unchanged: a file rewritten (longer) is read
    // again whole. Agents append to their sessions; a rewrite that keeps both ends exactly is not told apart.
    const added = appendedBytes(path, file, cached.size, stat.size);
    if (!added || added.includes(0) || !isUtf8(added)) return undefined;
    let next: OpenedFile | undefined;
    try {
      next = appendToFile(file, added.toString('utf8'), path);
    } catch {
      return undefined; // what was added does not read (yet): the whole read says why, where
    }
    if (!next) return undefined;
    const doc: OpenDocument = { path, codec: next.codec, file: next, conversations: conversationsOf(next), fingerprint: fingerprintOf(next, stat.mtimeMs, stat.size), mtimeMs: stat.mtimeMs, size: stat.size, conflict: false, appendedAt: Date.now() };
    keepEnds(file, next, added);
    grownFrom(doc, cached);
    this.touch(path, doc);
    return doc;
  }

  /** Whether a file being edited only grew since it was read (checked once per size and time it is seen at). */
  private onlyAppended(path: string, doc: OpenDocument, stat: Pick<Stats, 'mtimeMs' | 'size'>): boolean {
    const seen = appendsSeen.get(doc);
    if (seen && seen.size === stat.size && seen.mtimeMs === stat.mtimeMs) return true;
    if (!doc.file.codec.append || doc.file.readOnly || !appendedBytes(path, doc.file, doc.size, stat.size)) return false;
    appendsSeen.set(doc, { size: stat.size, mtimeMs: stat.mtimeMs });
    doc.appendedAt = Date.now();
    return true;
  }

  /** The document only if it is open (no read). */
  peek(path: string): OpenDocument | undefined {
    return this.docs.get(path);
  }

  /** True when the file on disk is exactly what we last wrote (our own save, seen by the watcher). */
  isOwnWrite(path: string): boolean {
    const doc = this.docs.get(path);
    if (!doc) return false;
    try {
      const stat = statSync(path);
      return stat.mtimeMs === doc.fingerprint.mtimeMs && stat.size === doc.fingerprint.size;
    } catch {
      return false;
    }
  }

  /** Replaces a document with a fresh read from disk (Revert, Reload). */
  reload(path: string): OpenDocument {
    this.docs.delete(path);
    return this.load(path);
  }

  /** Whether any document holds edits not yet saved. */
  hasUnsaved(): boolean {
    for (const d of this.docs.values()) if (isDirty(d)) return true;
    return false;
  }

  forget(path: string): void {
    const doc = this.docs.get(path);
    if (!doc || !isDirty(doc)) this.docs.delete(path);
    // A file read a part at a time: its parts are read again too.
    for (const [key, d] of this.docs) if (splitPartPath(key)?.file === path && !isDirty(d)) this.docs.delete(key);
  }

  /** Where a part's path lies in its file, and the codec its file is read with (undefined for other paths). */
  partRange(path: string): { file: string; start: number; end: number; codec?: string } | undefined {
    const named = splitPartPath(path);
    if (!named || existsSync(path)) return undefined;
    const known = this.parted.get(named.file);
    if (!known) return undefined;
    const part = known.parts[named.number - 1];
    return part && { file: named.file, start: part.start, end: part.end, codec: known.codec };
  }

  /** The file on disk behind a path: a part's file, or the path itself. */
  fileOf(path: string): string {
    const part = splitPartPath(path);
    return part && !existsSync(path) ? part.file : path;
  }
}
