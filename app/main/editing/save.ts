import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { baselineAfterWrite, serializeConversation, UnsafeWriteError } from '../../../src/core/formats/write.js';
import type { FileFormat } from '../../../src/core/formats/types.js';
import type { Message } from '../../../src/core/message.js';
import { roleContentLine } from '../../../src/core/render.js';
import { writeFileAtomicSync } from '../../../src/core/storage/atomic-write.js';
import { PrivateDirError } from '../../../src/core/storage/private-dir.js';
import { HandlerError } from '../../shared/errors.js';
import type { Fingerprint, OpenDocument } from '../documents.js';
import type { LocalHistory } from './local-history.js';

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
  if (e instanceof PrivateDirError) return new HandlerError('IO', `${path} was not saved: the local history folder ${e.message}. Your edits are kept.`);
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
export function saveDocument(doc: OpenDocument, options: { force?: boolean; history?: LocalHistory; target?: string; displayPath: string }): void {
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
  const { format, shape, root, baseline } = doc.parsed;
  let text: string;
  try {
    text = serializeConversation(doc.messages, { format, shape, root, baseline: inPlace ? baseline : undefined });
  } catch (e) {
    throw ioError(e, options.displayPath);
  }
  let held: { fd: number; stat: Stats } | undefined;
  try {
    writeFileAtomicSync(target, text, {
      beforeRename: () => {
        if (!inPlace) return;
        // What is about to be replaced goes to local history; then the last check, right before the rename.
        options.history?.record(doc.path);
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
    throw ioError(e, options.displayPath);
  } finally {
    if (held) closeSync(held.fd);
  }
  if (!inPlace) return;
  // The text just written is the new baseline; the live message objects map onto its elements.
  doc.parsed = baselineAfterWrite(text, doc.path, format, doc.messages);
  doc.saved = doc.messages.slice();
  const stat = statSync(doc.path);
  doc.fingerprint = { mtimeMs: stat.mtimeMs, size: stat.size, hash: sha256(text) };
  doc.mtimeMs = stat.mtimeMs;
  doc.size = stat.size;
  doc.conflict = false;
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

export type ExportFormat = 'json' | 'yaml' | 'markdown' | 'text';

/** The history as another format: JSON and YAML as files of that kind, Markdown as a transcript, text as `role: content`. */
export function exportText(messages: readonly Message[], format: ExportFormat): string {
  if (format === 'json' || format === 'yaml') return serializeConversation(messages, { format: format as FileFormat });
  if (format === 'text') return messages.map((m) => roleContentLine(m) + '\n').join('');
  return messages
    .map((m, i) => {
      const head = `### ${i} · ${m.role}${typeof m.timestamp === 'string' ? ` · ${m.timestamp}` : ''}`;
      const body = typeof m.content === 'string' ? m.content : '```json\n' + JSON.stringify(m.content, null, 2) + '\n```';
      return `${head}\n\n${body}\n`;
    })
    .join('\n');
}
