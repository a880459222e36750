import { createHash } from 'node:crypto';
import { statSync, type Stats } from 'node:fs';
import { viewDirty, viewsOf, type ViewedConversation } from './conversation-views.js';
import { readDocumentFile, type OpenedFile } from '../../src/core/formats/document-file.js';
import type { Codec } from '../../src/core/formats/codec.js';
import type { MessageView } from '../../src/core/formats/model.js';

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
  /** The file changed on disk while this document had unsaved edits. */
  conflict: boolean;
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
  if (!/\.(db|vscdb)$/i.test(path)) return stat;
  try {
    const wal = statSync(`${path}-wal`);
    return { mtimeMs: Math.max(stat.mtimeMs, wal.mtimeMs), size: stat.size + wal.size };
  } catch {
    return stat;
  }
}

export class DocumentStore {
  /** In order of use, the most recent last. */
  private readonly docs = new Map<string, OpenDocument>();

  constructor(
    private readonly maxFileBytes?: number,
    private readonly keepCleanBytes = KEEP_CLEAN_BYTES,
  ) {}

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
    const stat = statOf(path);
    const file = readDocumentFile(path, { maxFileBytes: this.maxFileBytes });
    const doc: OpenDocument = {
      path,
      codec: file.codec,
      file,
      conversations: conversationsOf(file),
      fingerprint: fingerprintOf(file, stat.mtimeMs, stat.size),
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      conflict: false,
    };
    this.touch(path, doc);
    this.evict();
    return doc;
  }

  get(path: string): OpenDocument {
    const cached = this.docs.get(path);
    if (!cached) return this.load(path);
    let stat;
    try {
      stat = statOf(path);
    } catch (e) {
      // A dirty document outlives its file: the edits are still here to save elsewhere.
      if (isDirty(cached)) return cached;
      throw e;
    }
    if (stat.mtimeMs === cached.mtimeMs && stat.size === cached.size) return this.touch(path, cached);
    if (isDirty(cached)) {
      cached.conflict = true;
      return this.touch(path, cached);
    }
    return this.load(path);
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
    if (doc && isDirty(doc)) return;
    this.docs.delete(path);
  }
}
