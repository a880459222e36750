import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { baselineAfterWrite, serializeConversation, UnsafeWriteError } from '../../../src/core/formats/write.js';
import { emptyDocument, writeDocument } from '../../../src/core/formats/document-file.js';
import { describeProblem, newProblems, problemsOf, type Problem } from '../../../src/core/formats/validity.js';
import type { ConversationDocument } from '../../../src/core/formats/codec.js';
import { codecById } from '../../../src/core/formats/registry.js';
import { sentText, type MessageView } from '../../../src/core/formats/model.js';
import type { Codec } from '../../../src/core/formats/codec.js';
import { oneLine } from '../../../src/core/util/one-line.js';
import { lineage, markReadAgain, type Message } from '../../../src/core/message.js';
import { WriteCancelled, writeFileAtomic, writeFileAtomicSync } from '../../../src/core/storage/atomic-write.js';
import { stateReason } from '../state-errors.js';
import { HandlerError } from '../../shared/errors.js';
import { viewOf, type Fingerprint, type OpenDocument } from '../documents.js';
import { adoptFileRecords, fileRecords } from '../conversation-views.js';
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

/** The file is what we last read or wrote: same size and mtime, or (after a touch) the same bytes. */
function sameAsFingerprint(path: string, st: Stats, fp: Fingerprint): boolean {
  if (st.mtimeMs === fp.mtimeMs && st.size === fp.size) return true;
  if (st.size !== fp.size) return false;
  try {
    return sha256(readFileSync(path)) === fp.hash;
  } catch {
    return false;
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

const changedError = (displayPath: string) =>
  new HandlerError('CONFLICT', `${displayPath} changed on disk since it was opened. Reload (discard your edits), Keep mine (overwrite), or Save As.`);
const goneError = (displayPath: string) =>
  new HandlerError('GONE', `${displayPath} was deleted on disk while you were editing. Save again to recreate it, or Save As.`);

/** Reads everything a file descriptor holds (the old file, even after it was replaced). */
function readAllFd(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const out = Buffer.alloc(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, out, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return out.subarray(0, off);
}

/**
 * Saves a document atomically in its own style. Refuses (CONFLICT) when the file changed on disk since it
 * was read, and (GONE) when it was deleted, unless `force` (Keep mine / recreate). The check is made again in
 * the last moment before the rename, after the serialising that can take seconds; and a write that lands on
 * the old file in the microseconds between that check and the rename is caught afterwards and put back. The
 * version on disk goes to local history first.
 */
/** Where a save is: its step (of four) and, while the file is written, its bytes. */
export interface SaveProgress {
  step: 'writing the text' | 'checking it reads back' | 'writing the file' | 'keeping the old version';
  at: number;
  of: number;
  done?: number;
  total?: number;
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export const cancelledError = (displayPath: string) => new HandlerError('CANCELLED', `${displayPath} was not saved: cancelled. The file is as it was; your edits are kept.`);

export async function saveDocument(doc: OpenDocument, options: { force?: boolean; acceptProblems?: boolean; history?: LocalHistory; target?: string; displayPath: string; progress?: (p: SaveProgress) => void; cancelled?: () => boolean }): Promise<void> {
  const step = (s: SaveProgress['step'], at: number, extra: Partial<SaveProgress> = {}) => options.progress?.({ step: s, at, of: 4, ...extra });
  const stopIfCancelled = () => {
    if (options.cancelled?.()) throw cancelledError(options.displayPath);
  };
  const target = options.target ?? doc.path;
  const inPlace = target === doc.path;
  const guard = inPlace && !options.force;
  if (guard) {
    const st = statOrUndefined(doc.path);
    if (!st) throw goneError(options.displayPath);
    if (doc.conflict || !sameAsFingerprint(doc.path, st, doc.fingerprint)) {
      doc.conflict = true;
      throw changedError(options.displayPath);
    }
  }
  let text: string;
  let again: ConversationDocument | undefined;
  const records = fileRecords(doc.conversations);
  step('writing the text', 1);
  await pause();
  stopIfCancelled();
  try {
    // Save As to a new name writes the same format in its own style (the new file has no text of its own).
    ({ text, again } = writeDocument(doc.codec, doc.file.doc, records, doc.file.bom, { immutable: true, name: target }));
    // Secrets redacted from every message are taken out of the records that are not messages too.
    ({ text, again } = scrubbedForSave(doc, records, text, again));
  } catch (e) {
    throw ioError(e, options.displayPath);
  }
  step('checking it reads back', 2);
  await pause();
  stopIfCancelled();
  if (again && !options.acceptProblems) {
    const added = newProblems(problemsOfOnce(doc), problemsOf(doc.codec, again));
    if (added.length > 0) throw invalidError(options.displayPath, doc.codec, added, again);
  }
  let held: { fd: number; stat: Stats } | undefined;
  try {
    await writeFileAtomic(target, text, {
      progress: (p) => step('writing the file', 3, p),
      cancelled: options.cancelled,
      beforeRename: () => {
        if (!inPlace) return;
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
          throw goneError(options.displayPath);
        }
        const stat = fstatSync(fd);
        held = { fd, stat };
        if (!sameAsFingerprint(doc.path, stat, doc.fingerprint)) {
          doc.conflict = true;
          throw changedError(options.displayPath);
        }
      },
    });
    if (held) putBackALateWrite(doc, held, text, options.displayPath);
  } catch (e) {
    if (e instanceof WriteCancelled) throw cancelledError(options.displayPath);
    throw ioError(e, options.displayPath);
  } finally {
    if (held) closeSync(held.fd);
  }
  if (!inPlace) return;
  adoptWritten(doc, text, again);
  const stat = statSync(doc.path);
  // Hashed when first asked for (a changed stat), as on open: at 100 MB it costs a third of a second.
  let hash: string | undefined;
  doc.fingerprint = {
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    get hash() {
      return (hash ??= sha256(text));
    },
  };
  doc.mtimeMs = stat.mtimeMs;
  doc.size = stat.size;
  doc.conflict = false;
}

/**
 * The text just written becomes the document's baseline. The swarms writers map the live message objects onto
 * it; for the other formats the records are read again from it and take the place of the live ones, in the
 * edit history too, so that the next save keeps every unchanged record's bytes.
 */
function adoptWritten(doc: OpenDocument, text: string, parsed?: ConversationDocument): void {
  const body = doc.file.bom ? text.slice(1) : text;
  if (doc.codec.id === 'swarms-json' || doc.codec.id === 'swarms-yaml') {
    const records = doc.conversations[0].records;
    const baseline = doc.file.doc.baseline as { kind?: string };
    if (doc.codec.id === 'swarms-yaml' || baseline.kind === 'conversation') {
      const parsed = baselineAfterWrite(body, doc.path, doc.codec.id === 'swarms-json' ? 'json' : 'yaml', records);
      const next = doc.codec.id === 'swarms-json' ? { kind: 'conversation', parsed } : parsed;
      doc.file = { ...doc.file, doc: { ...doc.file.doc, text: body, baseline: next, conversations: [{ ...doc.file.doc.conversations[0], records }] } };
      doc.conversations[0].saved = records.slice();
      return;
    }
  }
  // The read-back check already parsed what was written.
  const again = parsed ?? doc.codec.parse(body, doc.path);
  const map = new Map<object, Message>();
  const fresh = again.conversations.map((c) => c.records as Message[]);
  const histories = new Set(doc.conversations.map((c) => c.history));
  fileRecords(doc.conversations).forEach((records, i) => {
    const ordered = doc.codec.order ? (doc.codec.order(records) as Message[]) : records;
    ordered.forEach((live, k) => {
      const read = fresh[i]?.[k];
      if (!read) return;
      map.set(live, read);
      // What the live record was edited from (an undo may put it back) now stands where the fresh one is.
      for (const earlier of lineage(live)) markReadAgain(earlier, read);
    });
  });
  for (const h of histories) h.remap(map);
  doc.file = { ...doc.file, doc: again };
  adoptFileRecords(doc.conversations, fresh, map, doc.codec, again);
}

/**
 * A writer that had the old file open and wrote to it after the last check lost its write to the rename:
 * the old file (still readable through the held descriptor) is put back and the save reported as a conflict.
 */
function putBackALateWrite(doc: OpenDocument, held: { fd: number; stat: Stats }, written: string, displayPath: string): void {
  const after = fstatSync(held.fd);
  if (after.size === held.stat.size && after.mtimeMs === held.stat.mtimeMs) return;
  const theirs = readAllFd(held.fd);
  const now = statOrUndefined(doc.path);
  // Only over our own write: if something replaced it again meanwhile, that is left alone.
  if (now && now.size === Buffer.byteLength(written)) writeFileAtomicSync(doc.path, theirs);
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
