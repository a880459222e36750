import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dispatch, type Handlers } from '../dispatch.js';
import { showPath } from '../documents/conversation-views.js';
import type { DocumentStore } from '../documents/documents.js';
import { adoptVersion, editVersion } from '../documents/edit-version.js';

/**
 * A document service that stops (out of memory, a crash) loses the documents it held, edits and all. The router
 * keeps, per file, what the edits were made over (a snapshot: the file as last read or saved, and the path each
 * conversation showed) and every edit since (the requests, as sent); a service started again gets them back
 * before anything else is asked of it, and the edits are made again. A save that was writing when the service
 * stopped says what it wrote: if the file holds it, the edits are saved and nothing is made again.
 */

export interface DocumentSnapshot {
  /** The file as last read or saved. */
  size: number;
  mtimeMs: number;
  /** Per conversation of the document, the path it showed (a thread of a tree: its leaf, and whether past compactions). */
  views: Array<{ leaf: number; whole: boolean } | null>;
  /** The edit state's version the windows were given (edit-version.ts). */
  version?: number;
}

/** What a save under way wrote: the temp file renamed over the file (its size and time), or lines appended to it. */
export type Writing = { size: number; mtimeMs: number } | { appended: string; at: number };

export interface LoggedRequest {
  channel: string;
  input: unknown;
  /** The edit state's version its answer gave the window. */
  version?: number;
}

export function snapshotOf(documents: DocumentStore, path: string): DocumentSnapshot | undefined {
  const doc = documents.peek(path);
  if (!doc) return undefined;
  return { size: doc.fingerprint.size, mtimeMs: doc.fingerprint.mtimeMs, views: doc.conversations.map((c) => (c.view ? { leaf: c.view.leaf, whole: c.view.whole } : null)), version: editVersion(doc) };
}

function holds(path: string, text: string, from: number): boolean {
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    if (size <= from) return false;
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    return buf.includes(Buffer.from(text, 'utf8'));
  } finally {
    closeSync(fd);
  }
}

/** Whether the file holds what the save under way wrote. */
function landed(path: string, writing: Writing): boolean {
  try {
    if ('appended' in writing) return holds(path, writing.appended, writing.at);
    const st = statSync(path);
    return st.size === writing.size && st.mtimeMs === writing.mtimeMs;
  } catch {
    return false;
  }
}

export interface Restored {
  /** Requests made again (and how many of them were refused). */
  restored: number;
  refused: number;
  /** The save under way had written the file: the edits are in it, and the document is read from it. */
  saved: boolean;
  /** The file changed on disk otherwise than by appends since the edits' snapshot: the document is marked in conflict. */
  moved: boolean;
}

/** Makes a file's logged edits again in a service started afresh. */
export async function restoreEdits(handlers: Handlers, documents: DocumentStore, path: string, snapshot: DocumentSnapshot | undefined, entries: readonly LoggedRequest[], writing?: Writing): Promise<Restored> {
  if (writing && landed(path, writing)) return { restored: 0, refused: 0, saved: true, moved: false };
  const doc = documents.get(path);
  let moved = false;
  if (snapshot) {
    // Grown (an agent appending) keeps every index the edits name; anything else is the user's to look at.
    moved = doc.size < snapshot.size || (doc.size === snapshot.size && doc.mtimeMs !== snapshot.mtimeMs);
    snapshot.views.forEach((v, i) => {
      const c = doc.conversations[i];
      if (v && c?.store && c.view && v.leaf < c.store.all.length) showPath(doc.conversations, c, v.leaf, v.whole);
    });
  }
  let refused = 0;
  // Versions are numbered per service: each edit is made on the state it follows here, which is the one it was made on.
  let known = snapshot?.version;
  for (const e of entries) {
    const input = e.input !== null && typeof e.input === 'object' && 'version' in e.input ? { ...e.input, version: editVersion(documents.get(path)) } : e.input;
    const r = await dispatch(handlers, e.channel, input);
    if (!r.ok) refused++;
    if (e.version !== undefined) known = e.version;
  }
  if (moved && entries.length > 0) documents.get(path).conflict = true;
  // The windows go on naming the state they were shown: it is this one, when every edit was made again over the same file.
  else if (!moved && refused === 0 && known !== undefined) adoptVersion(documents.get(path), known);
  return { restored: entries.length, refused, saved: false, moved };
}
