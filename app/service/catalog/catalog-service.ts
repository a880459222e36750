import { Catalog, CatalogSync, defaultReaders, type Readers, type SessionRow, type UsageBy, type UsageRow } from '../../../src/core/catalog/index.js';
import { PRICES_DATED } from '../../../src/core/pricing/prices.js';
import type { Roots } from '../roots.js';
import { nextTurn } from '../next-turn.js';

/** How far the catalog is: files known, and whether it is still reading the folders. */
export interface CatalogStatus {
  files: number;
  sessions: number;
  /** Files read (or checked unchanged) of those found, while the first sync runs. */
  done: number;
  total: number;
  building: boolean;
}

export interface SessionsRequest {
  sort?: 'recent' | 'cost';
  tool?: string;
  model?: string;
  from?: string;
  to?: string;
  limit?: number;
}

/** A session as the sidebar lists it: paths as the renderer names files. */
export type SessionEntry = Omit<SessionRow, 'path' | 'parentFile' | 'bytes' | 'modifiedMs'> & { path: string; parentPath?: string; modifiedMs: number };

export interface SessionsAnswer {
  sessions: SessionEntry[];
  /** Sessions matching, however many are listed. */
  total: number;
  tools: string[];
  models: string[];
  status: CatalogStatus;
}

export interface UsageAnswer {
  by: UsageBy;
  rows: UsageRow[];
  /** The most expensive sessions and calls, most first. */
  sessions: SessionEntry[];
  calls: Array<{ path: string; conversation: number; index: number; at?: string; model?: string; costUsd: number; input?: number; output?: number; title?: string }>;
  pricesDated: string;
  status: CatalogStatus;
}

const MAX_LISTED = 5000;

/**
 * The session catalog of the opened folders (src/core/catalog), kept where the CLI keeps its own so that both
 * share it: brought up to date at start (files unchanged since are not read) and by the watchers' reports, an
 * append read from where it was left. Answers are what it holds now; while it reads, the status says so and
 * progress is reported, so that the sidebar fills in as it goes.
 */
export class CatalogService {
  private catalog: Catalog | undefined;
  private sync: CatalogSync | undefined;
  private syncing: Promise<void> | undefined;
  private readonly pending = new Map<string, 'added' | 'changed' | 'removed'>();
  private draining = false;
  private progress = { done: 0, total: 0 };
  private closed = false;
  onProgress: (status: CatalogStatus) => void = () => {};

  constructor(
    private readonly roots: Roots,
    /** The catalog's file, or `:memory:` for none kept. */
    private readonly file: string,
    private readonly readersOf: () => Readers = defaultReaders,
  ) {}

  private open(): Catalog {
    if (!this.catalog) {
      try {
        this.catalog = Catalog.open(this.file);
      } catch {
        // A catalog that cannot be kept on disk (the state folder refused): one in memory, read afresh each run.
        this.catalog = Catalog.open(':memory:');
      }
    }
    return this.catalog;
  }

  status(): CatalogStatus {
    const catalog = this.open();
    return { files: catalog.files(this.roots.all()).size, sessions: catalog.count({ under: this.roots.all() }), done: this.progress.done, total: this.progress.total, building: this.syncing !== undefined };
  }

  /** Starts the first sync (once). */
  start(): void {
    if (this.syncing || this.sync || this.closed) return;
    const catalog = this.open();
    const readers = this.readersOf();
    this.sync = new CatalogSync(catalog, readers);
    let last = 0;
    this.syncing = this.sync
      .syncFolders(this.roots.all(), {
        // A file whose real path leads out of the opened folders is never read (confine.ts).
        allowed: (file) => this.roots.confine(file) === file,
        cancelled: () => this.closed,
        onProgress: (p) => {
          this.progress = { done: p.done, total: p.total };
          if (performance.now() - last > 250) {
            last = performance.now();
            this.onProgress(this.status());
          }
        },
      })
      .catch(() => undefined)
      .then(() => {
        readers.close();
        this.syncing = undefined;
        if (!this.closed) this.onProgress(this.status());
        void this.drain();
      });
  }

  /** What the watchers saw: each file read again from where it was left, or dropped. */
  changed(events: ReadonlyArray<{ path: string; kind: 'added' | 'changed' | 'removed' }>): void {
    // Before the first sync, it will see them.
    if (!this.sync) return;
    for (const e of events) this.pending.set(e.path, e.kind);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining || this.syncing || !this.sync || this.closed) return;
    this.draining = true;
    try {
      let any = false;
      while (this.pending.size > 0 && !this.closed) {
        const [path, kind] = this.pending.entries().next().value as [string, 'added' | 'changed' | 'removed'];
        this.pending.delete(path);
        const file = this.roots.confine(path);
        try {
          if (kind === 'removed' || file === undefined) this.sync.forget(path);
          else any = this.sync.update(file) || any;
        } catch {
          // A file that does not read now: its next change brings it back.
        }
        await nextTurn();
      }
      if (any) this.onProgress(this.status());
    } finally {
      this.draining = false;
    }
  }

  private entry(r: SessionRow): SessionEntry {
    const { path, parentFile, bytes: _b, ...rest } = r;
    return { ...rest, path: this.roots.display(path), ...(parentFile ? { parentPath: this.roots.display(parentFile) } : {}) };
  }

  sessions(req: SessionsRequest): SessionsAnswer {
    this.start();
    const catalog = this.open();
    const under = this.roots.all();
    const q = { under, sort: req.sort, tool: req.tool, model: req.model, from: req.from, to: req.to };
    const rows = catalog.sessions({ ...q, limit: Math.min(req.limit ?? MAX_LISTED, MAX_LISTED) });
    const all = catalog.sessions({ under, limit: MAX_LISTED * 4 });
    return {
      sessions: rows.map((r) => this.entry(r)),
      total: catalog.count(q),
      tools: [...new Set(all.map((r) => r.tool ?? r.formatLabel ?? '').filter(Boolean))].sort(),
      models: [...new Set(all.flatMap((r) => r.models))].sort(),
      status: this.status(),
    };
  }

  usage(by: UsageBy): UsageAnswer {
    this.start();
    const catalog = this.open();
    const under = this.roots.all();
    return {
      by,
      rows: catalog.usage(by, under),
      sessions: catalog.sessions({ under, sort: 'cost', limit: 10 }).filter((r) => (r.costUsd ?? 0) > 0).map((r) => this.entry(r)),
      calls: catalog.expensiveCalls(10, under).map((c) => ({ ...c, path: this.roots.display(c.path) })),
      pricesDated: PRICES_DATED,
      status: this.status(),
    };
  }

  close(): void {
    this.closed = true;
    const catalog = this.catalog;
    this.catalog = undefined;
    // A sync under way stops at its next file; the database is closed once it has.
    if (this.syncing) void this.syncing.then(() => catalog?.close());
    else catalog?.close();
  }
}
