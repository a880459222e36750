import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { appendToFile, type OpenedFile } from '../formats/document-file.js';
import { decodeText } from '../formats/read.js';
import { walkConversationTree } from '../storage/list-directory.js';
import { factsOf, lineBytesOf } from './facts.js';
import { endHashOf, readForCatalog, readRange, type CatalogRead } from './read-file.js';
import { inlineReaders, type Readers } from './readers.js';
import type { Catalog, CatalogedFile, FileStamp } from './store.js';

export const stampOf = (st: Stats): FileStamp => ({ size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });

const sameStamp = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

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
  /** Files listed by an earlier sync from a few of their lines, unchanged since: read whole now. */
  listedBefore?: number;
  /** Files listed from a few of their lines (quick-read.ts), to be read whole after. */
  skimmed?: number;
  /** Every session is listed with its usage; what is left (the whole reads, for search) goes on after. */
  listed?: boolean;
  /** Links out of the folders (relative to their folder): listed as such, never read (confine.ts). */
  outside?: string[];
  /** Files listed under other names than their own (a link inside the folders): each real file's listed paths. */
  names?: Map<string, string[]>;
}

export interface SyncOptions {
  depth?: number;
  cap?: number;
  onProgress?(p: SyncProgress): void;
  cancelled?(): boolean;
  /** Files allowed to be read (confinement); every file found is by default. */
  allowed?(file: string): boolean;
  /**
   * `listed`: stop once every session is listed with its usage (files of a format with listing marks read from
   * a few of their lines, quick-read.ts; others whole), leaving the whole reads for search to a later sync.
   * `all` (the default): list first, then read every file whole.
   */
  upTo?: 'listed' | 'all';
}

/** Rows written to the catalog in one transaction at most: a crash loses at most these, readers see it grow. */
const BATCH_FILES = 200;
const BATCH_BYTES = 16 * 1024 * 1024;
/** And at least this often (ms) while files are read: the first sessions are listed in a second, not at 200 files. */
const BATCH_MS = 1000;

/**
 * Keeps the catalog of a set of folders: a file unchanged since it was catalogued (size, mtime, inode) is not
 * read; one an agent appends to is read from where it was left (its earlier bytes unchanged, their hash says);
 * any other change is read whole; a file gone is dropped. Files are read by `readers` (threads of their own
 * where the build has them) while this thread writes what they found.
 */
export class CatalogSync {
  /** Files an agent is writing, parsed: the next append reads only what it adds. */
  private readonly live = new Map<string, { opened: OpenedFile; size: number; counts: number[] }>();
  private liveBytes = 0;

  constructor(
    readonly catalog: Catalog,
    private readonly readers: Readers = inlineReaders,
    /** How many bytes of files the append cache may hold parsed (a parsed file takes several times its size). */
    private readonly liveLimit = 32 * 1024 * 1024,
  ) {}

  /** Brings the catalog up to date with every file under `roots`; says what it did. */
  async syncFolders(roots: readonly string[], opts: SyncOptions = {}): Promise<SyncProgress> {
    const found = new Map<string, FileStamp>();
    let truncated = false;
    let tooDeep = 0;
    const outside: string[] = [];
    const names = new Map<string, string[]>();
    for (const root of roots) {
      const listing = walkConversationTree(root, { depth: opts.depth, cap: opts.cap });
      truncated ||= listing.truncated;
      tooDeep += listing.tooDeep;
      for (const l of listing.outside) outside.push(l.path);
      for (const f of listing.files) {
        if (opts.allowed && !opts.allowed(f.file)) continue;
        const listed = join(root, f.path);
        const known = names.get(f.file);
        if (known) known.push(listed);
        else names.set(f.file, [listed]);
        // The walk's own stat: the freshness check stats each file once, and reads none that is unchanged.
        if (f.mtimeMs !== undefined && f.ino !== undefined) found.set(f.file, { size: f.bytes, mtimeMs: f.mtimeMs, ino: f.ino });
        else {
          try {
            found.set(f.file, stampOf(statSync(f.file)));
          } catch {
            // gone between the walk and now
          }
        }
      }
    }
    const known = this.catalog.files(roots);
    const progress: SyncProgress = { done: 0, total: found.size, read: 0, dropped: 0, truncated, tooDeep, outside, names };
    const gone = [...known.keys()].filter((p) => !found.has(p));
    if (gone.length > 0) {
      this.catalog.transaction(() => gone.forEach((p) => this.forgetLive(p) || this.catalog.drop(p)));
      progress.dropped = gone.length;
    }
    const todo: Array<[string, FileStamp]> = [];
    for (const [file, st] of found) {
      const k = known.get(file);
      if (k && !k.partial && sameStamp(k, st)) progress.done++;
      else todo.push([file, st]);
    }
    // First every session with its usage: from a few lines of each file where its format allows (a second or
    // two for a store that takes a minute to read whole), the other files whole; then, for search, whole the
    // files listed from a few lines (now, or by an earlier sync that stopped there).
    const whole: Array<[string, FileStamp]> = [];
    const later: Array<[string, FileStamp]> = [];
    const quick: Array<[string, FileStamp]> = [];
    for (const [file, st] of todo) {
      const k = known.get(file);
      if (k?.partial && sameStamp(k, st)) later.push([file, st]);
      else quick.push([file, st]);
    }
    progress.listedBefore = later.length;
    await this.pump(
      quick,
      (file, size) => this.readers.quick(file, size),
      (file, st, read) => {
        (read ? later : whole).push([file, st]);
        return read !== undefined;
      },
      progress,
      opts,
      false,
    );
    await this.pump(whole, (file, size) => this.readers.read(file, size), () => true, progress, opts, true);
    progress.listed = true;
    opts.onProgress?.(progress);
    if (opts.upTo === 'listed') return progress;
    await this.pump(later, (file, size) => this.readers.read(file, size), () => true, progress, opts, true);
    opts.onProgress?.(progress);
    return progress;
  }

  /**
   * Reads `todo` with `read`, twice as many files in flight as the readers hold (the readers never wait on this
   * thread while it writes), writing what `keep` keeps in transactions of a batch each.
   */
  private async pump(
    todo: ReadonlyArray<[string, FileStamp]>,
    read: (file: string, size: number) => Promise<CatalogRead | undefined>,
    keep: (file: string, st: FileStamp, read: CatalogRead | undefined) => boolean,
    progress: SyncProgress,
    opts: SyncOptions,
    whole: boolean,
  ): Promise<void> {
    let batch: Array<{ file: string; st: FileStamp; read: CatalogRead }> = [];
    let batchBytes = 0;
    let batchStarted = performance.now();
    const flush = () => {
      batchStarted = performance.now();
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      batchBytes = 0;
      this.catalog.transaction(() => {
        for (const r of rows) this.write(r.file, r.st, r.read);
      });
      opts.onProgress?.(progress);
    };
    let next = 0;
    const inFlight = new Set<Promise<void>>();
    while (next < todo.length || inFlight.size > 0) {
      while (next < todo.length && inFlight.size < this.readers.width * 4 && !opts.cancelled?.()) {
        const [file, st] = todo[next++];
        const p: Promise<void> = read(file, st.size).then((r) => {
          inFlight.delete(p);
          if (!keep(file, st, r) || !r) return;
          batch.push({ file, st, read: r });
          batchBytes += whole ? st.size : st.size / 8;
          if (whole) {
            progress.done++;
            progress.read++;
          } else progress.skimmed = (progress.skimmed ?? 0) + 1;
          if (batch.length >= BATCH_FILES || batchBytes >= BATCH_BYTES || performance.now() - batchStarted >= BATCH_MS) flush();
        });
        inFlight.add(p);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
    }
    flush();
  }

  /** Records a file's read (in a transaction). */
  private write(file: string, stamp: FileStamp, read: CatalogRead): void {
    if (read.facts) this.catalog.put(file, stamp, read.facts, { bytes: read.bytes, endHash: read.endHash, ...(read.partial ? { partial: true as const } : {}) });
    else this.catalog.putFailure(file, stamp, read.failure ?? { error: 'could not be read' });
  }

  /**
   * Brings one file up to date (a watcher's report) on this thread: an append to a file it holds parsed reads
   * only the new lines; any other change reads the file whole and holds it parsed for its next append. False
   * when it was up to date.
   */
  update(file: string): boolean {
    let st: Stats;
    try {
      st = statSync(file);
    } catch {
      this.forget(file);
      return true;
    }
    const known = this.catalog.fileState(file);
    if (known && !known.partial && sameStamp(known, stampOf(st))) return false;
    return this.catalog.transaction(() => {
      if (known && this.appended(file, st, known)) return true;
      this.forgetLive(file);
      const read = readForCatalog(file, st.size, true);
      if (read.opened && read.opened.codec.append && read.opened.codec.syntax === 'jsonl') this.keepLive(file, read.opened, read.bytes);
      this.write(file, stampOf(st), read);
      return true;
    });
  }

  forget(file: string): void {
    this.forgetLive(file);
    this.catalog.transaction(() => this.catalog.drop(file));
  }

  private forgetLive(file: string): boolean {
    const had = this.live.get(file);
    if (had) this.liveBytes -= had.size;
    this.live.delete(file);
    return false;
  }

  private keepLive(file: string, opened: OpenedFile, size: number): void {
    this.forgetLive(file);
    if (size > this.liveLimit / 2) return;
    this.live.set(file, { opened, size, counts: opened.doc.conversations.map((c) => c.records.length) });
    this.liveBytes += size;
    // The one written to longest ago goes first.
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
    // A file read while its last line was half written is read again whole once that line is done.
    const before = (live.opened.doc.baseline as { lines?: { lines: unknown[]; partialTail?: number } } | undefined)?.lines;
    if (!before || before.partialTail !== undefined) return false;
    if (!known.endHash || endHashOf(file, known.readBytes) !== known.endHash) return false;
    const bytes = readRange(file, known.readBytes, st.size);
    // Only whole lines: an agent mid-line is read again when it finishes it.
    const end = bytes.lastIndexOf(0x0a) + 1;
    if (end === 0) return false;
    const again = appendToFile(live.opened, decodeText(bytes.subarray(0, end), file), file);
    if (!again) return false;
    // The lines the append added are numbered after those read before.
    const facts = factsOf(file, again, live.counts, { lines: lineBytesOf(bytes.subarray(0, end), known.readBytes, before.lines.length) });
    const readBytes = known.readBytes + end;
    // Stamped at what was read: a line still being written makes the file differ, and is read when whole.
    this.catalog.putAppended(file, { ...stampOf(st), size: readBytes }, facts, { messages: live.counts }, { bytes: readBytes, endHash: endHashOf(file, readBytes) });
    this.live.delete(file);
    this.live.set(file, { opened: again, size: readBytes, counts: again.doc.conversations.map((c) => c.records.length) });
    this.liveBytes += readBytes - live.size;
    return true;
  }
}
