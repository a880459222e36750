import { randomInt } from 'node:crypto';
import { HandlerError } from '../../shared/errors.js';
import type { OpenDocument } from './documents.js';

/**
 * Which state of an open document's edits a window shows. Several windows share one document: an edit, undo,
 * reload or save names the state it was made on, and one made on a state that has changed since is refused,
 * so that no window acts on rows it has not seen (a row index means another message after a delete), undoes
 * an edit it never showed, or drops edits it did not make.
 *
 * The state is the records each conversation shows, as objects: every change replaces a conversation's list
 * (edits, undo, another path of a tree, a merge) or the document (a reload, a read from disk), so a new list is
 * a new version, whatever made it. Numbers start at random: a file can move to another service thread, and a
 * window's number must never name another state there.
 */
let last = randomInt(2 ** 47);
const seen = new WeakMap<OpenDocument, { lists: ReadonlyArray<readonly unknown[]>; version: number }>();

/** The document's edit state now. */
export function editVersion(doc: OpenDocument): number {
  const known = seen.get(doc);
  const convs = doc.conversations;
  if (known && known.lists.length === convs.length && convs.every((c, i) => c.records === known.lists[i])) return known.version;
  const version = ++last;
  seen.set(doc, { lists: convs.map((c) => c.records), version });
  return version;
}

/**
 * A document made again in a service started afresh (restore.ts) takes the number its windows were given for
 * the same state in the service that stopped; this service's later numbers start past it, so none names another state.
 */
export function adoptVersion(doc: OpenDocument, version: number): void {
  seen.set(doc, { lists: doc.conversations.map((c) => c.records), version });
  if (version > last) last = version;
}

/**
 * A clean document read again because its file only grew (an agent appending) keeps the versions of what it
 * grew from, while it shows them with lines added at the end and nothing else: a window that has not yet seen
 * the new lines names rows that are still the same messages, so its edit or save is not refused for them.
 */
const grown = new WeakMap<OpenDocument, { lists: ReadonlyArray<readonly unknown[]>; versions: number[] }>();

/** `doc` is `before` with lines read from the end of its file (documents.ts): before's versions still name its rows. */
export function grownFrom(doc: OpenDocument, before: OpenDocument): void {
  if (!seen.has(before) || doc.conversations.length !== before.conversations.length) return;
  const extends_ = doc.conversations.every((c, i) => {
    const old = before.conversations[i].records;
    return c.records.length >= old.length && old.every((r, k) => c.records[k] === r);
  });
  if (!extends_) return;
  const prior = grown.get(before);
  const versions = [...(prior && sameLists(before, prior.lists) ? prior.versions : []), editVersion(before)].slice(-64);
  grown.set(doc, { lists: doc.conversations.map((c) => c.records), versions });
}

const sameLists = (doc: OpenDocument, lists: ReadonlyArray<readonly unknown[]>) => doc.conversations.length === lists.length && doc.conversations.every((c, i) => c.records === lists[i]);

/** Whether `named` is the document's version now, or one it grew from by appends alone. */
function namesStateNow(doc: OpenDocument, named: number): boolean {
  if (named === editVersion(doc)) return true;
  const g = grown.get(doc);
  return !!g && g.versions.includes(named) && sameLists(doc, g.lists);
}

/** Documents being written: a change now would be marked saved without being in the file. */
const saving = new WeakSet<OpenDocument>();

/** Runs a save of `doc`; changes asked for meanwhile are refused (STALE). */
export async function whileSaving<T>(doc: OpenDocument, save: () => Promise<T>): Promise<T> {
  saving.add(doc);
  try {
    return await save();
  } finally {
    saving.delete(doc);
  }
}

/**
 * Refuses a request made on another state of the document than its state now (STALE), or while it is being
 * saved; `what` says what was not done ("the edit", "Reload").
 */
export function checkVersion(doc: OpenDocument, named: number, display: string, what: string): void {
  if (saving.has(doc)) throw new HandlerError('STALE', `${display} is being saved: ${what} was not done. Try again once the save is done.`);
  if (!namesStateNow(doc, named)) {
    throw new HandlerError('STALE', `${display} changed since this window showed it (another window edited it, or it was read again from disk): ${what} was not done. Look at it as it is now, and try again if it still applies.`);
  }
}

/**
 * After a wait (a summary written, findings scanned): the document is still the one held for its file (not read
 * again meanwhile) and in the state named, or nothing is changed (STALE).
 */
export function checkStill(held: OpenDocument | undefined, doc: OpenDocument, named: number, display: string, what: string): void {
  checkVersion(doc, named, display, what);
  if (held !== doc) throw new HandlerError('STALE', `${display} was read again while ${what} was prepared: ${what} was not done. Look at it as it is now, and try again.`);
}
