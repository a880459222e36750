import { statSync } from 'node:fs';
import { readConversationFile } from '../../src/core/formats/read.js';
import type { ParsedConversation } from '../../src/core/formats/types.js';

export interface OpenDocument {
  path: string;
  parsed: ParsedConversation;
  mtimeMs: number;
  size: number;
}

/** Parsed documents by absolute path, re-read when the file's size or mtime changes. */
export class DocumentStore {
  private readonly docs = new Map<string, OpenDocument>();

  constructor(private readonly maxFileBytes?: number) {}

  get(path: string): OpenDocument {
    const stat = statSync(path);
    const cached = this.docs.get(path);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
    const parsed = readConversationFile(path, { maxFileBytes: this.maxFileBytes });
    // A write between our stat and the read is caught by the next get(): its mtime will differ.
    const doc = { path, parsed, mtimeMs: stat.mtimeMs, size: stat.size };
    this.docs.set(path, doc);
    return doc;
  }

  forget(path: string): void {
    this.docs.delete(path);
  }
}
