import { basename, extname } from 'node:path';
import { ConversationFileError } from '../formats/errors.js';
import { readDocumentFile } from '../formats/document-file.js';
import { NotReadHereError } from '../formats/containers/unread-stores.js';
import { countView } from '../views.js';
import { sessionModel } from '../models.js';
import type { Tokenizer } from '../tokenizer/tokenizer.js';
import { walkConversationTree, type OutsideLink, type TreeFile, type TreeOptions } from './list-directory.js';

// Each file of a listing read and counted: apart from the walk (list-directory.ts), which reads no file whole.

export interface DirectoryEntry {
  /** Relative to the folder listed ("projects/app/session.jsonl"). */
  path: string;
  /** File name without its extension. */
  name: string;
  file: string;
  /** The codec id that reads it. */
  format?: string;
  formatLabel?: string;
  bytes: number;
  modified: Date;
  conversations?: number;
  messages?: number;
  /** Records that are not messages (session metadata, events). */
  other?: number;
  tokens?: number;
  /** The model `tokens` were counted for, where it is the session's own (see TokenizerFor). */
  model?: string;
  /** Why the file could not be read; such files are listed, never skipped. */
  error?: string;
  /** A database of a tool not read here (unread-stores.ts): what it holds ("Zed threads"); `error` says so. */
  notRead?: string;
  errorLine?: number;
  errorColumn?: number;
}

/** Each file counted for the model its session ran on: the tokenizer for that model (the session names none: undefined). */
export type TokenizerFor = (sessionModel: string | undefined) => { model: string; tokenizer: Tokenizer };

/** One file of the tree described: its format and counts, or the reason it cannot be read. */
export function describeConversationFile(f: TreeFile, counter?: Tokenizer | TokenizerFor): DirectoryEntry {
  const entry: DirectoryEntry = { path: f.path, name: basename(f.path, extname(f.path)), file: f.file, bytes: f.bytes, modified: f.modified };
  try {
    const { codec, doc } = readDocumentFile(f.file);
    entry.format = codec.id;
    entry.formatLabel = codec.label;
    entry.conversations = doc.conversations.length;
    entry.messages = doc.conversations.reduce((n, c) => n + c.records.length, 0);
    entry.other = doc.otherRecords;
    if (counter) {
      const views = doc.conversations.flatMap((c) => c.records.map((r) => codec.view(r)));
      const picked = typeof counter === 'function' ? counter(sessionModel(views)) : undefined;
      const tokenizer = picked?.tokenizer ?? (counter as Tokenizer);
      if (picked) entry.model = picked.model;
      let tokens = 0;
      // Part by part, as `show` and the app count a message.
      for (const v of views) tokens += countView(v, tokenizer).tokens;
      entry.tokens = tokens;
    }
  } catch (e) {
    if (e instanceof NotReadHereError) entry.notRead = e.store.label;
    if (e instanceof ConversationFileError) {
      entry.error = e.reason;
      entry.errorLine = e.line;
      entry.errorColumn = e.column;
    } else entry.error = (e as Error).message;
  }
  return entry;
}

/** The conversation files under `dir` (recursively, as walkConversationTree), each read and counted; links leading out of it named, never read. */
export function listConversationFiles(dir: string, counter?: Tokenizer | TokenizerFor, options: TreeOptions = {}): { entries: DirectoryEntry[]; truncated: boolean; tooDeep: number; outside: OutsideLink[] } {
  const tree = walkConversationTree(dir, options);
  return { entries: tree.files.map((f) => describeConversationFile(f, counter)), truncated: tree.truncated, tooDeep: tree.tooDeep, outside: tree.outside };
}
