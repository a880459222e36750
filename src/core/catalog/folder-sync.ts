import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { walkConversationTree } from '../storage/list-directory.js';
import type { CatalogRead } from './read-file.js';
import { inlineReaders, type Readers } from './readers.js';
import type { Indexed } from './shards.js';
import type { Catalog, FileStamp } from './store.js';

export const stampOf = (st: Stats): FileStamp => ({ size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });

export const sameStamp = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

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
 * read; any change is read again; a file gone is dropped. Files are read by `readers` (threads of their own
 * where the build has them) while this thread writes what they found. It loads no format's reader itself (the
 * CLI's search from an up-to-date catalog loads none); CatalogSync (sync.ts) adds a watcher's updates.
 */
export class FolderSync {
  constructor(
    readonly catalog: Catalog,
    protected readonly readers: Readers = inlineReaders,
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
      this.catalog.transaction(() => gone.forEach((p) => this.dropped(p)));
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
    // Read whole to be listed (a format with no listing marks): the threads write their messages into their shards
    // as they do those of the files read whole after (the thread writing the catalog was the one that indexed
    // them, and while it did the threads waited on it).
    await this.readWhole(whole, progress, opts);
    progress.listed = true;
    opts.onProgress?.(progress);
    if (opts.upTo === 'listed') return progress;
    await this.readWhole(later, progress, opts);
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
        // What the shards wrote of files whose reads are written now or before (a read is answered before its
        // shard writes it).
        this.markCommitted();
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

  /** What the readers' shards wrote, to be marked in the catalog after the reads of those files are written. */
  private committed: Array<{ shard: number; indexed: Indexed }> = [];

  /**
   * Files read whole (those listed from a few of their lines, for search; those of a format that cannot be, to be
   * listed): by reader threads that write their shards of the index themselves where they can (each file given its
   * slot first), else written here.
   */
  private async readWhole(files: ReadonlyArray<[string, FileStamp]>, progress: SyncProgress, opts: SyncOptions): Promise<void> {
    const readers = this.readers;
    if (!readers.shards || !readers.flush || !this.catalog.shardable || files.length === 0) {
      await this.pump(files, (file, size) => readers.read(file, size), () => true, progress, opts, true);
      return;
    }
    const catalog = this.catalog;
    readers.onCommitted = (shard, indexed) => this.committed.push({ shard, indexed });
    try {
      const place = (n: number) => catalog.shard(n);
      await this.pump(files, (file, size) => readers.read(file, size, { shard: place, slot: catalog.reserveSlot() }), () => true, progress, opts, true);
      await readers.flush();
      if (this.committed.length > 0) this.catalog.transaction(() => this.markCommitted());
    } finally {
      readers.onCommitted = undefined;
    }
  }

  /** What the shards wrote, marked (in a transaction): each file of it is whole. */
  private markCommitted(): void {
    const done = this.committed;
    this.committed = [];
    for (const c of done) this.catalog.markIndexed(c.shard, c.indexed);
  }

  /** A file gone from the folders (in a transaction). */
  protected dropped(file: string): void {
    this.catalog.drop(file);
  }

  /** Records a file's read (in a transaction). */
  protected write(file: string, stamp: FileStamp, read: CatalogRead): void {
    // A file whose messages a reader thread writes into its shard is not whole until the shard has them: a build
    // stopped before that reads it again.
    if (read.facts) this.catalog.put(file, stamp, read.facts, { bytes: read.bytes, endHash: read.endHash, ...(read.partial ? { partial: true as const } : {}), ...(read.slot !== undefined ? { slot: read.slot } : {}) });
    else this.catalog.putFailure(file, stamp, read.failure ?? { error: 'could not be read' });
  }
}
