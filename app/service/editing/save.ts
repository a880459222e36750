import { createHash } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, realpathSync, statSync, writeSync, type Stats } from 'node:fs';
import { baselineAfterWrite, serializeConversation, UnsafeWriteError } from '../../../src/core/formats/write.js';
import { appendToFile, emptyDocument, writeDocument, type OpenedFile } from '../../../src/core/formats/document-file.js';
import { describeProblem, newProblems, problemsOf, type Problem } from '../../../src/core/formats/validity.js';
import type { ConversationDocument } from '../../../src/core/formats/codec.js';
import { codecById } from '../../../src/core/formats/registry.js';
import { sentText, type MessageView } from '../../../src/core/formats/model.js';
import type { Codec } from '../../../src/core/formats/codec.js';
import { oneLine } from '../../../src/core/util/one-line.js';
import { lineage, markReadAgain, type Message } from '../../../src/core/message.js';
import { WriteCancelled, writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions } from '../../../src/core/storage/atomic-write.js';
import type { FileIdentity, FileWriter, WritersFound } from '../../../src/core/storage/file-writers.js';
import { lookUpWriters } from './live.js';
import type { Writing } from './restore.js';
import { stateReason } from '../state/state-errors.js';
import { HandlerError } from '../../shared/errors.js';
import { appendedBytes, viewOf, type OpenDocument } from '../documents/documents.js';
import { adoptFileRecords, fileSideOf } from '../documents/conversation-views.js';
import type { EditHistory } from '../../../src/core/editing/history.js';
import { carryNow, followOldInode } from './carry-over.js';
import { mine, onDisk, rebase, theirsOf, type OnDisk, type Rebased } from './on-disk.js';
import type { LocalHistory } from './local-history.js';
import { scrubbedForSave } from './scrub.js';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function ioError(e: unknown, path: string): HandlerError {
  if (e instanceof HandlerError) return e;
  if (e instanceof UnsafeWriteError) return new HandlerError('INTERNAL', `${path} was ${e.message} Your edits are kept; try Export.`);
  const code = (e as NodeJS.ErrnoException).code;
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied (the file or its folder is read-only or locked)'
      : code === 'EROFS'
        ? 'the file system is read-only'
        : code === 'ENOSPC'
          ? 'the disk is full'
          : code === 'ENOENT'
            ? 'its folder no longer exists'
            : (e as Error).message;
  return new HandlerError('IO', `${path} was not saved: ${why}. Your edits are kept; try Save As.`);
}

// What the file had wrong as it was read is not the edits' fault: found once per reading.
const readProblems = new WeakMap<ConversationDocument, Problem[]>();
function problemsOfOnce(doc: OpenDocument): Problem[] {
  let p = readProblems.get(doc.file.doc);
  if (!p) readProblems.set(doc.file.doc, (p = problemsOf(doc.codec, doc.file.doc)));
  return p;
}

/** Each problem with the message it is about, in a few words, so that it can be found among the rows. */
function invalidError(displayPath: string, codec: Codec, problems: readonly Problem[], written: ConversationDocument): HandlerError {
  const lines = problems.map((p) => {
    const record = p.message !== undefined ? written.conversations[p.conversation]?.records[p.message] : undefined;
    const words = record === undefined ? '' : oneLine(sentText(viewOf(codec, record)), 60);
    return describeProblem(p, written.conversations.length) + (words ? ` (the message “${words}”)` : '');
  });
  const shown = lines.slice(0, 5).join('; ') + (lines.length > 5 ? `; and ${lines.length - 5} more` : '');
  return new HandlerError('INVALID', `Not saved: written like this, ${displayPath} would break what ${codec.tool ?? 'its own tool'} needs of it (${shown}). Undo the edit, or save anyway.`, { problems: lines });
}

const changedError = (displayPath: string, why = 'changed on disk since it was opened') =>
  new HandlerError('CONFLICT', `${displayPath} ${why}. Merge, Reload (discard your edits), Keep mine (your edits where both changed a message; what was added on disk stays), or Save As.`);
const goneError = (displayPath: string) =>
  new HandlerError('GONE', `${displayPath} was deleted on disk while you were editing. Save again to recreate it, or Save As.`);

const named = (w: FileWriter) => `${w.name} (pid ${w.pid})`;
const busyError = (displayPath: string, writers: readonly FileWriter[], waitedMs: number) =>
  new HandlerError(
    'BUSY',
    `${displayPath} was not saved: ${writers.map(named).join(', ')} still ${writers.length > 1 ? 'have' : 'has'} it open for writing, and saving now would cut ${writers.length > 1 ? 'them' : 'it'} off from the file (what ${writers.length > 1 ? 'they write' : 'it writes'} next would be lost). Waited ${Math.round(waitedMs / 1000)} s for it to let go. Save again once it pauses, or Save As to write your version to a new file now; your edits are kept.`,
  );

/** Reads everything a file descriptor holds from `from` (the old file, even after it was replaced). */
function readFdFrom(fd: number, from: number, size = fstatSync(fd).size): Buffer {
  if (size <= from) return Buffer.alloc(0);
  const out = Buffer.alloc(size - from);
  let off = 0;
  while (off < out.length) {
    const n = readSync(fd, out, off, out.length - off, from + off);
    if (n === 0) break;
    off += n;
  }
  return out.subarray(0, off);
}

/** Where a save is: its step (of four) and, while the file is written, its bytes. */
export interface SaveProgress {
  step: 'writing the text' | 'checking it reads back' | 'writing the file' | 'keeping the old version' | 'waiting for the writer';
  at: number;
  of: number;
  done?: number;
  total?: number;
  /** While waiting: who has the file open for writing. */
  writers?: string;
}

/** What a save did besides writing the edits. */
export interface SaveOutcome {
  /** Records another program added, changed or removed on disk since the file was read: kept in what was written. */
  merged?: { added: number; changed: number; removed: number };
  /** The edits only added records at the end of a session: they were appended in place (the file kept, not replaced). */
  appended?: boolean;
}

export interface SaveOptions {
  force?: boolean;
  acceptProblems?: boolean;
  history?: LocalHistory;
  target?: string;
  displayPath: string;
  progress?: (p: SaveProgress) => void;
  cancelled?: () => boolean;
  /** How long a save waits for another program to let go of the file before it answers BUSY (default 15 s). */
  waitMs?: number;
  /** Who else has a file open for writing (default: looked up where the system tells; false: not looked up). */
  writers?: ((file: FileIdentity) => Promise<WritersFound | undefined>) | false;
  /** Told, right before the file is replaced or appended to, what is written (for a service that stops meanwhile: restore.ts). */
  onWriting?: (path: string, writing: Writing) => void;
}

export const SAVE_WAIT_MS = 15_000;
/** How many times a save merges again when the file moved between its merge and its rename. */
const MERGE_ROUNDS = 4;

const pause = (ms = 0) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

export const cancelledError = (displayPath: string) => new HandlerError('CANCELLED', `${displayPath} was not saved: cancelled. The file is as it was; your edits are kept.`);

/** The file moved again between the merge and the rename in a way appends cannot account for: merged again. */
class Stale extends Error {}

/** What one round of a save writes: the records (mine, or mine merged onto the file on disk) as text, over `basis`. */
interface Plan {
  /** The reading the text was written over: the document's own, or the file on disk now. */
  basis: OpenedFile;
  /** The size and time of the file `basis` was read from (what the last check compares with). */
  expect: { size: number; mtimeMs: number };
  records: Message[][];
  text: string;
  again?: ConversationDocument;
  merged?: Rebased['onDisk'];
  /**
   * Records the file holds on disk were changed or removed there and merged in (Keep mine): the undo history,
   * recorded against records that are no more, is cleared. Records only added there are kept by it instead.
   */
  rewrittenOnDisk: boolean;
  /** Per conversation of the file, the records another program added on disk, merged in. */
  theirsNew: Message[][];
  /** When the text is the basis's text with lines after it: those lines (the save appends them in place). */
  suffix?: string;
}

const textOf = (file: OpenedFile) => (file.bom ? '\ufeff' : '') + file.doc.text;

/**
 * Saves a document in its own style. In place, the edits are merged at the moment of writing with what another
 * program wrote meanwhile (an agent appending to its session): records it added are kept; where both changed a
 * record it is a CONFLICT, unless `force` (Keep mine), which keeps my side of those alone. Edits that only add
 * lines at the end of a session are appended in place; otherwise the text goes to a temp file renamed over the
 * file — never while another program has it open for writing (the save waits for it to let go, then answers
 * BUSY) — after a last check right before the rename, which takes in lines appended since the merge; lines that
 * reach the old file after the rename are carried over (carry-over.ts). GONE when it was deleted, unless `force`
 * (recreate). The version on disk goes to local history before it is replaced.
 */
export async function saveDocument(doc: OpenDocument, options: SaveOptions): Promise<SaveOutcome> {
  const step = (s: SaveProgress['step'], at: number, extra: Partial<SaveProgress> = {}) => options.progress?.({ step: s, at, of: 4, ...extra });
  const stopIfCancelled = () => {
    if (options.cancelled?.()) throw cancelledError(options.displayPath);
  };
  const target = options.target ?? doc.path;
  if (target !== doc.path) {
    // Save As to a new name writes the same format in its own style (the new file has no text of its own).
    const plan = await compose(doc, undefined, options, step, stopIfCancelled);
    await writeReplacing(target, plan.text, options, step);
    return {};
  }
  const started = performance.now();
  let waited = false;
  for (let round = 0; ; round++) {
    // What an earlier save's old file still received goes into the file before it is read for the merge.
    carryNow(doc.path);
    const disk = onDisk(doc);
    if (disk.kind === 'gone' && !options.force) throw goneError(options.displayPath);
    const plan = await compose(doc, disk, options, step, stopIfCancelled);
    if (disk.kind !== 'gone' && plan.text === textOf(plan.basis)) {
      // Nothing of mine to write (what was on disk already holds it): the document takes the file as it is.
      adopt(doc, plan, plan.basis, disk.stat);
      return plan.merged ? { merged: plan.merged } : {};
    }
    if (disk.kind !== 'gone' && plan.suffix !== undefined) {
      const appended = await appendInPlace(doc, plan, options);
      if (appended) return { appended: true, ...(plan.merged ? { merged: plan.merged } : {}) };
    }
    const writers = disk.kind === 'gone' ? undefined : await lookUpWriters(doc, options.writers);
    if (writers && writers.length > 0) {
      if (waited) throw busyError(options.displayPath, writers, performance.now() - started);
      await waitForWriters(doc, writers, options, step);
      waited = true;
      continue; // the writer may have written more meanwhile: merged again
    }
    try {
      await renameInto(doc, plan, disk, options, step);
      return plan.merged ? { merged: plan.merged } : {};
    } catch (e) {
      if (!(e instanceof Stale)) throw e;
      if (round + 1 >= MERGE_ROUNDS) {
        doc.conflict = true;
        throw changedError(options.displayPath, `kept changing on disk while it was saved (${MERGE_ROUNDS} times)`);
      }
    }
  }
}

/** The records to write and their text, merged with the file on disk when it changed; checked against what its tool needs. */
async function compose(doc: OpenDocument, disk: OnDisk | undefined, options: SaveOptions, step: (s: SaveProgress['step'], at: number) => void, stopIfCancelled: () => void): Promise<Plan> {
  let basis = doc.file;
  let expect = { size: doc.fingerprint.size, mtimeMs: doc.fingerprint.mtimeMs };
  let records = mine(doc);
  let merged: Rebased['onDisk'] | undefined;
  let rewrittenOnDisk = false;
  let theirsNew: Message[][] = [];
  if (disk && (disk.kind === 'grown' || disk.kind === 'changed')) {
    const theirs = theirsOf(doc, disk);
    if (!theirs) {
      // What is on disk does not read: nothing to merge with. Keep mine writes mine over it (local history keeps it).
      if (!options.force) {
        doc.conflict = true;
        throw changedError(options.displayPath, 'changed on disk since it was opened, and what is there now does not read');
      }
    } else {
      const r = rebase(doc, theirs, options.force === true);
      // Records added on disk (an agent appending) are merged in; a record changed or removed there is the
      // user's to look at first (Merge, Keep mine), and one changed on both sides always is.
      if (!options.force && (r.conflicts > 0 || r.onDisk.changed > 0 || r.onDisk.removed > 0)) {
        doc.conflict = true;
        const both = r.conflicts > 0 ? `, and ${r.conflicts} message${r.conflicts === 1 ? ' was' : 's were'} changed on both sides` : '';
        throw changedError(options.displayPath, `changed on disk since it was opened (messages changed or removed there, not only added)${both}`);
      }
      basis = theirs;
      expect = { size: disk.stat.size, mtimeMs: disk.stat.mtimeMs };
      records = r.records;
      merged = r.onDisk;
      rewrittenOnDisk = r.onDisk.changed + r.onDisk.removed > 0;
      theirsNew = r.theirsNew;
    }
  }
  let text: string;
  let again: ConversationDocument | undefined;
  step('writing the text', 1);
  await pause();
  stopIfCancelled();
  try {
    // Save As to a new name writes the same format in its own style (the new file has no text of its own); a file
    // known by its name (any MEMORY.md) is read back by it. A log of lines needs none, and its appends stay appends.
    ({ text, again } = writeDocument(doc.codec, basis.doc, records, basis.bom, { immutable: true, name: options.target ?? (doc.codec.append ? undefined : doc.path) }));
    // Secrets redacted from every message are taken out of the records that are not messages too.
    ({ text, again } = scrubbedForSave(doc, records, text, again));
  } catch (e) {
    throw ioError(e, options.displayPath);
  }
  step('checking it reads back', 2);
  await pause();
  stopIfCancelled();
  if (again && !options.acceptProblems) {
    const had = basis === doc.file ? problemsOfOnce(doc) : problemsOf(doc.codec, basis.doc);
    const added = newProblems(had, problemsOf(doc.codec, again));
    if (added.length > 0) throw invalidError(options.displayPath, doc.codec, added, again);
  }
  const plan: Plan = { basis, expect, records, text, again, merged, rewrittenOnDisk, theirsNew };
  // A session whose edits only add lines at its end: those lines, to append in place.
  const before = textOf(basis);
  if (doc.codec.append && !basis.readOnly && before.endsWith('\n') && text.length > before.length && text.startsWith(before)) plan.suffix = text.slice(before.length);
  return plan;
}

/** Waits (saying so) until no other process has the file open for writing, or the wait is up (BUSY). */
async function waitForWriters(doc: OpenDocument, writers: FileWriter[], options: SaveOptions, step: (s: SaveProgress['step'], at: number, extra?: Partial<SaveProgress>) => void): Promise<void> {
  const until = performance.now() + (options.waitMs ?? SAVE_WAIT_MS);
  let now = writers;
  const started = performance.now();
  for (;;) {
    step('waiting for the writer', 1, { writers: now.map(named).join(', ') });
    await pause(Math.min(250, Math.max(10, until - performance.now())));
    if (options.cancelled?.()) throw cancelledError(options.displayPath);
    now = (await lookUpWriters(doc, options.writers)) ?? [];
    if (now.length === 0) return;
    if (performance.now() >= until) throw busyError(options.displayPath, now, performance.now() - started);
  }
}

/** How long a save waits for a writer midway through a line to finish it before appending its own lines. */
const LINE_WAIT_MS = 2000;

/** The last byte of an open file is a newline (or the file is empty): a line may start there. */
function atLineStart(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const b = Buffer.alloc(1);
  return readSync(fd, b, 0, 1, size - 1) === 1 && b[0] === 0x0a;
}

/**
 * Appends the plan's new lines to the end of the file, in place (O_APPEND: after whatever another program has
 * appended meanwhile; the file is not replaced, so a program holding it open keeps writing into it). False when
 * the file is no longer what the plan was made over (merged again), or a writer stays midway through a line.
 */
async function appendInPlace(doc: OpenDocument, plan: Plan, options: SaveOptions): Promise<boolean> {
  const bytes = Buffer.from(plan.suffix!, 'utf8');
  let fd: number;
  try {
    fd = openSync(doc.path, 'a+');
  } catch (e) {
    throw ioError(e, options.displayPath);
  }
  let end: number;
  try {
    const st = fstatSync(fd);
    const same = st.size === plan.expect.size && st.mtimeMs === plan.expect.mtimeMs;
    if (!same && !appendedBytes(doc.path, plan.basis, plan.expect.size, st.size)) return false;
    for (const until = performance.now() + LINE_WAIT_MS; !atLineStart(fd); ) {
      if (performance.now() > until) return false;
      await pause(10);
    }
    options.onWriting?.(doc.path, { appended: plan.suffix!, at: plan.expect.size });
    let off = 0;
    try {
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      fsyncSync(fd);
    } catch (e) {
      // A short write (the disk full) leaves no half line of ours, when no one appended after it.
      const now = fstatSync(fd).size;
      if (off > 0 && off < bytes.length) {
        const tail = readFdFrom(fd, now - off, now);
        if (tail.equals(bytes.subarray(0, off))) ftruncateSync(fd, now - off);
      }
      throw ioError(e, options.displayPath);
    }
    end = fstatSync(fd).size;
    // What the file is now, from what the plan was made over: what others appended, then (or around) my lines.
    const added = readFdFrom(fd, plan.expect.size, end);
    const after = appendToFile(plan.basis, added.toString('utf8'), doc.path);
    if (!after) throw new HandlerError('INTERNAL', `${options.displayPath}: the lines appended could not be read back. Reload it to see the file as it is.`);
    const st2 = fstatSync(fd);
    adopt(doc, plan, after, st2, mapAppended(doc.codec, plan, after));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** For an append in place: the records I added, found among the file's records as read back (others may have appended around them). */
function mapAppended(codec: Codec, plan: Plan, after: OpenedFile): Map<object, Message> {
  const map = new Map<object, Message>();
  const fresh = after.doc.conversations.map((c) => c.records as Message[]);
  const written = plan.again?.conversations.map((c) => c.records as Message[]);
  plan.records.forEach((records, i) => {
    const ordered = (codec.order ? codec.order(records) : records) as Message[];
    const read = fresh[i] ?? [];
    const base = plan.basis.doc.conversations[i]?.records ?? [];
    // The basis's records stay the same objects in an append; mine after them are sought by their text as written.
    ordered.forEach((live, k) => {
      if (k < base.length) map.set(live, read[k]);
    });
    const mineAdded = ordered.slice(base.length);
    const asWritten = (written?.[i] ?? []).slice(base.length).map((r) => JSON.stringify(r));
    if (mineAdded.length === 0 || asWritten.length !== mineAdded.length) return;
    for (let p = read.length - mineAdded.length; p >= base.length; p--) {
      if (asWritten.every((w, j) => JSON.stringify(read[p + j]) === w)) {
        mineAdded.forEach((live, j) => map.set(live, read[p + j]));
        return;
      }
    }
  });
  return map;
}

/** writeFileAtomic, its errors said as a save's. */
async function writeReplacing(target: string, text: string, options: SaveOptions, step: (s: SaveProgress['step'], at: number, extra?: Partial<SaveProgress>) => void, atomic: AtomicWriteOptions = {}): Promise<void> {
  try {
    await writeFileAtomic(target, text, { progress: (p) => step('writing the file', 3, p), cancelled: options.cancelled, ...atomic });
  } catch (e) {
    if (e instanceof WriteCancelled) throw cancelledError(options.displayPath);
    if (e instanceof Stale) throw e;
    throw ioError(e, options.displayPath);
  }
}

/**
 * Writes the plan to a temp file and renames it over the file, after a last check: the file is still what the
 * plan was made over, or that with lines appended since (taken into the temp file, in order). Lines that reach
 * the old file after the check are carried over to the new one (carry-over.ts); a format that is not a log of
 * lines gets the old file back instead, and the save is a conflict.
 */
async function renameInto(doc: OpenDocument, plan: Plan, disk: OnDisk, options: SaveOptions, step: (s: SaveProgress['step'], at: number, extra?: Partial<SaveProgress>) => void): Promise<void> {
  const lines = !!doc.codec.append && !plan.basis.readOnly && plan.text.endsWith('\n');
  let held: { fd: number; checked: number; pending: Buffer; identity: FileIdentity } | undefined;
  let extra: Buffer = Buffer.alloc(0);
  let written: Stats | undefined;
  const guard = disk.kind !== 'gone';
  try {
    await writeReplacing(doc.path, plan.text, options, step, {
      beforeRename: (temp) => {
        // What is about to be replaced goes to local history; then the last check, right before the rename.
        step('keeping the old version', 4);
        try {
          options.history?.record(doc.path);
        } catch (e) {
          throw new HandlerError('IO', `${options.displayPath} was not saved: the version on disk could not be kept in local history first (${stateReason(e)}). The file is as it was; your edits are kept.`);
        }
        if (!guard) return;
        let fd: number;
        try {
          fd = openSync(doc.path, 'r');
        } catch {
          throw new Stale();
        }
        const st = fstatSync(fd);
        held = { fd, checked: st.size, pending: Buffer.alloc(0), identity: { path: realPathOr(doc.path), dev: st.dev, ino: st.ino } };
        if (st.size !== plan.expect.size || st.mtimeMs !== plan.expect.mtimeMs) {
          // Lines appended since the merge: taken in, whole lines only (the rest follows with its newline).
          if (!lines || !appendedBytes(doc.path, plan.basis, plan.expect.size, st.size)) throw new Stale();
          const since = readFdFrom(fd, plan.expect.size, st.size);
          const cut = since.lastIndexOf(0x0a) + 1;
          extra = since.subarray(0, cut);
          held.pending = since.subarray(cut);
          temp.append(extra);
        }
        // What the document will know the file by: what was written, before anything reaches it after the rename.
        written = statSync(temp.path);
        options.onWriting?.(doc.path, { size: written.size, mtimeMs: written.mtimeMs });
      },
    });
  } catch (e) {
    if (held) closeSync(held.fd);
    throw e;
  }
  const fingerprint = written ?? statSync(doc.path);
  if (held) {
    if (lines) followOldInode(held.fd, held.checked, held.pending, doc.path, held.identity);
    else putBackALateWrite(doc, held, plan.text, options.displayPath);
  }
  let after: OpenedFile;
  try {
    after = mapsLiveRecords(doc.codec, plan.basis) ? plan.basis : readBack(doc, plan, extra);
  } catch (e) {
    throw ioError(e, options.displayPath);
  }
  adopt(doc, plan, after, fingerprint);
}

function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The file as written (the plan's text, and the lines taken in at the last check), read: the next save's basis. */
function readBack(doc: OpenDocument, plan: Plan, extra: Buffer): OpenedFile {
  const body = plan.basis.bom ? plan.text.slice(1) : plan.text;
  // The read-back check already parsed what was written.
  let file: OpenedFile = { ...plan.basis, doc: plan.again ?? doc.codec.parse(body, doc.path) };
  if (extra.length > 0) file = appendToFile(file, extra.toString('utf8'), doc.path) ?? file;
  return file;
}

/** The swarms writers map the live message objects onto the text written (the other formats' records are read again). */
const mapsLiveRecords = (codec: Codec, basis: OpenedFile) => codec.id === 'swarms-yaml' || (codec.id === 'swarms-json' && (basis.doc.baseline as { kind?: string }).kind === 'conversation');

/**
 * The file just written (or found to hold the edits already) becomes the document's reading: its records take
 * the place of the live ones, in the edit history too, so that the next save keeps every unchanged record's
 * bytes. When records of another program came in, the history (recorded against the records without them) is
 * cleared: an undo must never take them out again. The swarms writers map the live objects onto the text.
 */
function adopt(doc: OpenDocument, plan: Plan, after: OpenedFile, stat: Pick<Stats, 'mtimeMs' | 'size'>, appendedMap?: Map<object, Message>): void {
  const histories = new Set(doc.conversations.map((c) => c.history));
  if (mapsLiveRecords(doc.codec, plan.basis)) {
    const records = plan.records[0];
    const body = plan.basis.bom ? plan.text.slice(1) : plan.text;
    const parsed = baselineAfterWrite(body, doc.path, doc.codec.id === 'swarms-json' ? 'json' : 'yaml', records);
    const next = doc.codec.id === 'swarms-json' ? { kind: 'conversation', parsed } : parsed;
    doc.file = { ...plan.basis, doc: { ...plan.basis.doc, text: body, baseline: next, conversations: [{ ...plan.basis.doc.conversations[0], records }] } };
    doc.conversations[0].records = records;
    doc.conversations[0].saved = records.slice();
    for (const h of histories) {
      if (plan.rewrittenOnDisk) h.clear();
      else if (plan.theirsNew[0]?.length) h.remap(new Map(), plan.theirsNew[0]);
    }
  } else {
    const fresh = after.doc.conversations.map((c) => c.records as Message[]);
    let map = appendedMap;
    if (!map) {
      map = new Map<object, Message>();
      const m = map;
      plan.records.forEach((records, i) => {
        const ordered = (doc.codec.order ? doc.codec.order(records) : records) as Message[];
        ordered.forEach((live, k) => {
          const read = fresh[i]?.[k];
          if (read) m.set(live, read);
        });
      });
    }
    for (const [live, read] of map) {
      // What the live record was edited from (an undo may put it back) now stands where the fresh one is.
      for (const earlier of lineage(live)) markReadAgain(earlier, read);
    }
    // Records another program added (merged, or taken in at the last moment): every later undo keeps them.
    const taken = new Set(map.values());
    const appended = new Map<EditHistory, Message[]>();
    for (const c of doc.conversations) {
      if (appended.has(c.history)) continue;
      const i = fileSideOf(doc.conversations, c).file;
      const late = (fresh[i] ?? []).filter((r) => !taken.has(r));
      const merged = (plan.theirsNew[i] ?? []).map((r) => map!.get(r) ?? r);
      appended.set(c.history, merged.concat(late));
    }
    for (const h of histories) {
      if (plan.rewrittenOnDisk) h.clear();
      else h.remap(map, appended.get(h));
    }
    doc.file = after;
    adoptFileRecords(doc.conversations, fresh, map, doc.codec, after.doc);
  }
  // Hashed when first asked for (a changed stat), as on open: at 100 MB it costs a third of a second.
  let hash: string | undefined;
  const file = doc.file;
  doc.fingerprint = {
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    get hash() {
      return (hash ??= sha256(textOf(file)));
    },
  };
  doc.mtimeMs = stat.mtimeMs;
  doc.size = stat.size;
  doc.conflict = false;
}

/**
 * A writer that had the old file open and wrote to it after the last check lost its write to the rename: for a
 * format that is not a log of lines, the old file (still readable through the held descriptor) is put back and
 * the save reported as a conflict.
 */
function putBackALateWrite(doc: OpenDocument, held: { fd: number; checked: number }, written: string, displayPath: string): void {
  try {
    const after = fstatSync(held.fd);
    if (after.size === held.checked) return;
    const theirs = readFdFrom(held.fd, 0, after.size);
    const now = statOrUndefined(doc.path);
    // Only over our own write: if something replaced it again meanwhile, that is left alone.
    if (now && now.size === Buffer.byteLength(written)) writeFileAtomicSync(doc.path, theirs);
  } finally {
    closeSync(held.fd);
  }
  doc.conflict = true;
  throw changedError(displayPath);
}

/** What Export offers besides every format's id: a Markdown transcript and plain `role: text` lines. */
export const TRANSCRIPT_FORMATS = ['markdown', 'text'] as const;

function markdownOf(view: MessageView, i: number): string {
  const head = `### ${i} · ${view.role}${view.timestamp ? ` · ${view.timestamp}` : ''}${view.sidechain ? ' · sub-agent' : ''}`;
  const body = view.parts
    .map((p) => {
      switch (p.kind) {
        case 'text':
          return p.text;
        case 'tool-call':
          return `**Tool call** \`${p.name}\`${p.id ? ` (${p.id})` : ''}\n\n\`\`\`json\n${prettyJson(p.arguments)}\n\`\`\``;
        case 'tool-result':
          return `**Tool result**${p.callId ? ` for ${p.callId}` : ''}${p.isError ? ' (error)' : ''}\n\n\`\`\`\n${p.text}\n\`\`\``;
        case 'reasoning':
          return p.encrypted ? '> *(encrypted reasoning)*' : p.text.split('\n').map((l) => `> ${l}`).join('\n');
        case 'image':
        case 'file':
          return `*(${p.kind}: ${p.ref})*`;
        default:
          return '```json\n' + p.text + '\n```';
      }
    })
    .join('\n\n');
  return `${head}\n\n${body}\n`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * One conversation in another form: `markdown` (a transcript), `text` (`role: text` lines), `json` / `yaml`
 * (swarms files), or any format's id (a new file of that format).
 */
export function exportText(codec: Codec, records: readonly Message[], format: string): string {
  const swarms = codec.id === 'swarms-json' || codec.id === 'swarms-yaml';
  const views = records.map((r) => viewOf(codec, r));
  if (format === 'text') return views.map((v) => `${v.role}: ${sentText(v)}\n`).join('');
  if (format === 'markdown') return views.map(markdownOf).join('\n');
  if ((format === 'json' || format === 'yaml') && swarms) return serializeConversation(records, { format });
  const target = codecById(format === 'json' ? 'swarms-json' : format === 'yaml' ? 'swarms-yaml' : format);
  if (!target) throw new HandlerError('BAD_INPUT', `unknown export format "${format}"`);
  if (target.id === codec.id) return emptyDocument(target, [records]);
  return emptyDocument(target, [views.map((v) => target.fromView(v))]);
}
