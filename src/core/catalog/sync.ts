import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { ConversationFileError } from '../formats/errors.js';
import { appendToFile, parseDocumentText, readDocumentFile, type OpenedFile } from '../formats/document-file.js';
import { decodeText } from '../formats/read.js';
import { DEFAULT_MAX_FILE_BYTES } from '../formats/types.js';
import { filePartsOf, readPart } from '../storage/file-parts.js';
import { walkConversationTree } from '../storage/list-directory.js';
import { candidates } from '../formats/registry.js';
import { containerOf } from '../formats/containers/index.js';
import { factsOf, type FileFacts } from './facts.js';
import type { Catalog, CatalogedFile, FileStamp } from './store.js';

/** How much of the bytes before a file's known end is hashed to tell an append from a rewrite. */
const END_HASH_BYTES = 4096;
/** Files past this are read a part at a time (each part a file of whole lines), as the app reads them. */
const PART_BYTES = 96 * 1024 * 1024;

export const stampOf = (st: Stats): FileStamp => ({ size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });

const sameStamp = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

function readRange(file: string, start: number, end: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const out = Buffer.allocUnsafe(Math.max(0, end - start));
    let off = 0;
    while (off < out.length) {
      const n = readSync(fd, out, off, out.length - off, start + off);
      if (n === 0) break;
      off += n;
    }
    return out.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

/** A hash of the bytes just before `end`: the same hash later says those bytes were not rewritten. */
export function endHashOf(file: string, end: number): string {
  return createHash('sha1')
    .update(readRange(file, Math.max(0, end - END_HASH_BYTES), end))
    .digest('hex');
}

/** Whether the file's conversations are not its own text (compressed, an archive, a database). */
function isContainer(file: string): boolean {
  return containerOf(file, readRange(file, 0, 64)) !== undefined;
}

function failureOf(e: unknown): { error: string; line?: number; column?: number } {
  if (e instanceof ConversationFileError) return { error: e.reason, line: e.line, column: e.column };
  return { error: (e as Error).message };
}

/** Facts of several parts of one file, as one file's: each part's rows after the ones before. */
function mergeParts(parts: FileFacts[]): FileFacts {
  const first = parts[0];
  const out: FileFacts = { ...first, sessions: [], calls: [], messages: [], otherRecords: 0 };
  let offset = 0;
  for (const p of parts) {
    const s = p.sessions[0];
    if (s) {
      const kept = out.sessions[0];
      if (!kept) out.sessions.push({ ...s });
      else {
        kept.messages += s.messages;
        kept.prompts += s.prompts;
        kept.title ??= s.title;
        if (s.firstAt && (!kept.firstAt || s.firstAt < kept.firstAt)) kept.firstAt = s.firstAt;
        if (s.lastAt && (!kept.lastAt || s.lastAt > kept.lastAt)) kept.lastAt = s.lastAt;
        kept.models = [...new Set([...kept.models, ...s.models])].sort();
      }
    }
    for (const c of p.calls) out.calls.push({ ...c, conversation: 0, index: c.index + offset });
    for (const m of p.messages) out.messages.push({ ...m, conversation: 0, index: m.index + offset });
    out.otherRecords += p.otherRecords;
    offset += s?.messages ?? 0;
  }
  return out;
}

export interface SyncProgress {
  /** Files looked at, of those found. */
  done: number;
  total: number;
  /** Files read (new or changed), and dropped (gone). */
  read: number;
  dropped: number;
  /** The walk stopped at its file cap; folders past its depth limit. */
  truncated?: boolean;
  tooDeep?: number;
}

export interface SyncOptions {
  depth?: number;
  cap?: number;
  onProgress?(p: SyncProgress): void;
  cancelled?(): boolean;
  /** Files allowed to be read (confinement); every file found is by default. */
  allowed?(file: string): boolean;
}

/**
 * Keeps the catalog of a set of folders: a file unchanged since it was catalogued (size, mtime, inode) is not
 * read; one an agent appended to is read from where it was left (its earlier bytes unchanged, their hash says);
 * any other change is read whole; a file gone is dropped.
 */
export class CatalogSync {
  /** Recently appended files, parsed: the next append reads only what it adds. */
  private readonly live = new Map<string, { opened: OpenedFile; size: number; counts: number[] }>();
  private liveBytes = 0;

  constructor(
    readonly catalog: Catalog,
    /** How many bytes of parsed files the append cache may hold. */
    private readonly liveLimit = 256 * 1024 * 1024,
  ) {}

  /** Brings the catalog up to date with every file under `roots`; returns what it did. */
  syncFolders(roots: readonly string[], opts: SyncOptions = {}): SyncProgress {
    const found = new Map<string, Stats>();
    let truncated = false;
    let tooDeep = 0;
    for (const root of roots) {
      const listing = walkConversationTree(root, { depth: opts.depth, cap: opts.cap });
      truncated ||= listing.truncated;
      tooDeep += listing.tooDeep;
      for (const f of listing.files) {
        if (opts.allowed && !opts.allowed(f.file)) continue;
        try {
          found.set(f.file, statSync(f.file));
        } catch {
          // gone between the walk and now
        }
      }
    }
    const known = this.catalog.files(roots);
    const progress: SyncProgress = { done: 0, total: found.size, read: 0, dropped: 0, truncated, tooDeep };
    const gone = [...known.keys()].filter((p) => !found.has(p));
    if (gone.length > 0) {
      this.catalog.transaction(() => gone.forEach((p) => this.catalog.drop(p)));
      progress.dropped = gone.length;
    }
    // One transaction per batch: a crash loses at most a batch, readers see the catalog grow.
    let batch: Array<[string, Stats]> = [];
    let batchBytes = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const todo = batch;
      batch = [];
      batchBytes = 0;
      this.catalog.transaction(() => {
        for (const [file, st] of todo) if (this.updateFile(file, st, known.get(file))) progress.read++;
      });
    };
    for (const [file, st] of found) {
      if (opts.cancelled?.()) break;
      progress.done++;
      const k = known.get(file);
      if (k && sameStamp(k, stampOf(st))) continue;
      batch.push([file, st]);
      batchBytes += st.size;
      if (batch.length >= 200 || batchBytes >= 64 * 1024 * 1024) {
        flush();
        opts.onProgress?.(progress);
      }
    }
    flush();
    opts.onProgress?.(progress);
    return progress;
  }

  /** Brings one file up to date (a watcher's report); false when it was already. */
  update(file: string): boolean {
    let st: Stats;
    try {
      st = statSync(file);
    } catch {
      this.live.delete(file);
      this.catalog.transaction(() => this.catalog.drop(file));
      return true;
    }
    return this.catalog.transaction(() => this.updateFile(file, st, this.catalog.fileState(file)));
  }

  forget(file: string): void {
    this.dropLive(file);
    this.catalog.transaction(() => this.catalog.drop(file));
  }

  private dropLive(file: string): void {
    const had = this.live.get(file);
    if (had) this.liveBytes -= had.size;
    this.live.delete(file);
  }

  /** Reads a changed file into the catalog (inside a transaction). */
  private updateFile(file: string, st: Stats, known: CatalogedFile | undefined): boolean {
    const stamp = stampOf(st);
    if (known && sameStamp(known, stamp)) return false;
    if (known && this.appended(file, st, known)) return true;
    this.dropLive(file);
    try {
      const facts = this.readWhole(file, st.size);
      this.catalog.put(file, stamp, facts, { bytes: st.size, endHash: endHashOf(file, st.size) });
    } catch (e) {
      this.catalog.putFailure(file, stamp, failureOf(e));
    }
    return true;
  }

  private readWhole(file: string, size: number): FileFacts {
    if (size <= DEFAULT_MAX_FILE_BYTES) {
      const opened = readDocumentFile(file);
      if (opened.codec.append && opened.codec.syntax === 'jsonl') this.keepLive(file, opened, size);
      // A container's text is not the file's bytes: its hits' lines are read by opening it.
      return factsOf(file, opened, undefined, { byteBase: isContainer(file) ? undefined : opened.bom ? 3 : 0 });
    }
    // Too big for one string: a line-based log is read a part at a time, each part a file of its own lines.
    const head = readRange(file, 0, 64 * 1024).toString('latin1');
    const codec = candidates(file, head)[0];
    if (!codec || codec.syntax !== 'jsonl' || codec.capabilities.conversations !== 'one') throw new ConversationFileError(file, `the file is ${Math.round(size / 2 ** 20)} MB, too big to read whole, and not a log read a part at a time`);
    const parts = filePartsOf(file, size, PART_BYTES).map((part) => {
      const opened = parseDocumentText(decodeText(readPart(file, part), file), file, codec.id);
      return factsOf(file, opened, undefined, { byteBase: part.start + (opened.bom ? 3 : 0) });
    });
    return mergeParts(parts);
  }

  private keepLive(file: string, opened: OpenedFile, size: number): void {
    this.dropLive(file);
    if (size > this.liveLimit / 4) return;
    this.live.set(file, { opened, size, counts: opened.doc.conversations.map((c) => c.records.length) });
    this.liveBytes += size;
    // Oldest first out.
    for (const [k, v] of this.live) {
      if (this.liveBytes <= this.liveLimit) break;
      this.live.delete(k);
      this.liveBytes -= v.size;
    }
  }

  /** Reads only what was appended to a file whose known bytes are unchanged; false when it was not an append. */
  private appended(file: string, st: Stats, known: CatalogedFile): boolean {
    const live = this.live.get(file);
    if (!live || st.ino !== known.ino || st.size <= known.readBytes || live.size !== known.readBytes) return false;
    if (!known.endHash || endHashOf(file, known.readBytes) !== known.endHash) return false;
    const bytes = readRange(file, known.readBytes, st.size);
    // Only whole lines: an agent mid-line is read again when it finishes it.
    const end = bytes.lastIndexOf(0x0a) + 1;
    if (end === 0) return false;
    const again = appendToFile(live.opened, decodeText(bytes.subarray(0, end), file), file);
    if (!again) return false;
    const facts = factsOf(file, again, live.counts, { byteBase: again.bom ? 3 : 0 });
    const readBytes = known.readBytes + end;
    // Stamped at what was read: a line still being written makes the file differ, and is read when whole.
    this.catalog.putAppended(file, { ...stampOf(st), size: readBytes }, facts, { messages: live.counts }, { bytes: readBytes, endHash: endHashOf(file, readBytes) });
    this.live.delete(file);
    this.live.set(file, { opened: again, size: readBytes, counts: again.doc.conversations.map((c) => c.records.length) });
    this.liveBytes += readBytes - live.size;
    return true;
  }
}
