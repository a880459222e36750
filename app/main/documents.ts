import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { EditHistory } from '../../src/core/editing/history.js';
import { readConversationFile } from '../../src/core/formats/read.js';
import type { ParsedConversation } from '../../src/core/formats/types.js';
import type { Message } from '../../src/core/message.js';

export interface Fingerprint {
  mtimeMs: number;
  size: number;
  hash: string;
}

export interface OpenDocument {
  path: string;
  parsed: ParsedConversation;
  /** The messages as they are now (with unsaved edits). */
  messages: Message[];
  /** The list as last loaded or saved: the document is dirty when `messages` differs from it. */
  saved: Message[];
  history: EditHistory;
  /** The file as we last read or wrote it. */
  fingerprint: Fingerprint;
  mtimeMs: number;
  size: number;
  /** The file changed on disk while this document had unsaved edits. */
  conflict: boolean;
}

export function isDirty(doc: OpenDocument): boolean {
  return doc.messages.length !== doc.saved.length || doc.messages.some((m, i) => m !== doc.saved[i]);
}

/**
 * Open documents by absolute path. A clean document follows the file on disk (re-read when its size or mtime
 * changes; the reload never enters the undo history); a document with unsaved edits never does: it is marked
 * in conflict instead, and nothing is overwritten either way.
 */
export class DocumentStore {
  private readonly docs = new Map<string, OpenDocument>();

  constructor(private readonly maxFileBytes?: number) {}

  private load(path: string): OpenDocument {
    const stat = statSync(path);
    const parsed = readConversationFile(path, { maxFileBytes: this.maxFileBytes });
    const hash = createHash('sha256').update(parsed.baseline.bom ? '\ufeff' + parsed.baseline.text : parsed.baseline.text).digest('hex');
    const doc: OpenDocument = {
      path,
      parsed,
      messages: parsed.messages.slice(),
      saved: parsed.messages.slice(),
      history: new EditHistory(),
      fingerprint: { mtimeMs: stat.mtimeMs, size: stat.size, hash },
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      conflict: false,
    };
    this.docs.set(path, doc);
    return doc;
  }

  get(path: string): OpenDocument {
    const cached = this.docs.get(path);
    if (!cached) return this.load(path);
    let stat;
    try {
      stat = statSync(path);
    } catch (e) {
      // A dirty document outlives its file: the edits are still here to save elsewhere.
      if (isDirty(cached)) return cached;
      throw e;
    }
    if (stat.mtimeMs === cached.mtimeMs && stat.size === cached.size) return cached;
    if (isDirty(cached)) {
      cached.conflict = true;
      return cached;
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

  forget(path: string): void {
    const doc = this.docs.get(path);
    if (doc && isDirty(doc)) return;
    this.docs.delete(path);
  }
}
