import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { mergeRecords, settle } from '../../../src/core/editing/merge.js';
import { appendToFile, parseDocumentText, type OpenedFile } from '../../../src/core/formats/document-file.js';
import { decodeText } from '../../../src/core/formats/read.js';
import type { Message } from '../../../src/core/message.js';
import { appendedBytes, type OpenDocument } from '../documents/documents.js';
import { fileRecords, fileSideOf } from '../documents/conversation-views.js';

/**
 * The file a save is about to replace, as it is on disk now against what the document was read from: the
 * same, grown by appends (an agent writing its session), changed otherwise, or gone. What another program
 * added or changed is merged with the edits at the moment of writing (see save.ts).
 */
export type OnDisk =
  | { kind: 'same'; stat: Stats }
  | { kind: 'grown'; stat: Stats; added: Buffer }
  | { kind: 'changed'; stat: Stats; bytes: Buffer }
  | { kind: 'gone' };

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export function onDisk(doc: OpenDocument): OnDisk {
  let stat: Stats;
  try {
    stat = statSync(doc.path);
  } catch {
    return { kind: 'gone' };
  }
  const fp = doc.fingerprint;
  if (stat.size === fp.size && stat.mtimeMs === fp.mtimeMs) return { kind: 'same', stat };
  const added = !doc.file.readOnly && doc.file.codec.append ? appendedBytes(doc.path, doc.file, fp.size, stat.size) : undefined;
  if (added && added.length === stat.size - fp.size && !added.includes(0) && isUtf8(added)) return { kind: 'grown', stat, added };
  let read: { bytes: Buffer; stat: Stats };
  try {
    read = readWhole(doc.path);
  } catch {
    return { kind: 'gone' };
  }
  // Touched, not changed: the same bytes.
  if (read.bytes.length === fp.size && sha256(read.bytes) === fp.hash) return { kind: 'same', stat: read.stat };
  return { kind: 'changed', ...read };
}

/** A file's bytes and the stat they are (a writer appending meanwhile adds nothing to them: they stop at its size then). */
function readWhole(path: string): { bytes: Buffer; stat: Stats } {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    const bytes = Buffer.alloc(stat.size);
    let off = 0;
    while (off < bytes.length) {
      const n = readSync(fd, bytes, off, bytes.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return { bytes: bytes.subarray(0, off), stat: off === stat.size ? stat : { ...stat, size: off } };
  } finally {
    closeSync(fd);
  }
}

/** The file as it is on disk now, read: by its appends alone when it only grew. Undefined when it does not read. */
export function theirsOf(doc: OpenDocument, disk: Extract<OnDisk, { kind: 'grown' | 'changed' }>): OpenedFile | undefined {
  try {
    if (disk.kind === 'grown') {
      const grown = appendToFile(doc.file, disk.added.toString('utf8'), doc.path);
      if (grown) return grown;
    }
    const bytes = disk.kind === 'changed' ? disk.bytes : readFileSync(doc.path);
    return parseDocumentText(decodeText(bytes, doc.path), doc.path, doc.codec.id);
  } catch {
    return undefined;
  }
}

export interface Rebased {
  /** Each conversation of the file: my edits on top of theirs. */
  records: Message[][];
  /** Records both sides changed (settled as mine under `force`). */
  conflicts: number;
  /** What the file gained, changed and lost on disk since it was read, all kept. */
  onDisk: { added: number; changed: number; removed: number };
  /** Per conversation of the file, the records theirs added (or changed), as theirs holds them. */
  theirsNew: Message[][];
}

/**
 * My edits applied to the file as it is on disk now (a three-way merge per conversation of the file, against
 * the records as last read or written). Where both sides changed a record, `force` (Keep mine) keeps mine; what
 * the other side added is always kept.
 */
export function rebase(doc: OpenDocument, theirs: OpenedFile, force: boolean): Rebased {
  const sides: Array<{ records: Message[]; saved: Message[] }> = [];
  for (const c of doc.conversations) {
    const side = fileSideOf(doc.conversations, c);
    sides[side.file] ??= { records: side.records, saved: side.saved };
  }
  const theirsRecords = theirs.doc.conversations.map((c) => c.records as Message[]);
  const out: Rebased = { records: [], conflicts: 0, onDisk: { added: 0, changed: 0, removed: 0 }, theirsNew: [] };
  const n = Math.max(sides.length, theirsRecords.length);
  for (let i = 0; i < n; i++) {
    const side = sides[i];
    const t = theirsRecords[i] ?? [];
    if (!side) {
      out.records[i] = t;
      out.theirsNew[i] = t;
      continue;
    }
    const r = mergeRecords(side.saved, side.records, t);
    out.conflicts += r.conflicts.length;
    out.onDisk.added += r.onDisk.added;
    out.onDisk.changed += r.onDisk.changed;
    out.onDisk.removed += r.onDisk.removed;
    out.theirsNew[i] = r.theirsNew as Message[];
    out.records[i] = (r.conflicts.length > 0 ? settle(r, r.conflicts.map(() => (force ? 'mine' : 'theirs'))) : r.records) as Message[];
  }
  return out;
}

/** What the document holds now, to write as it is (nothing on disk to merge with). */
export const mine = (doc: OpenDocument): Message[][] => fileRecords(doc.conversations);
