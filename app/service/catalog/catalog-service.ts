import { Catalog, CatalogSync, defaultReaders, type Readers, type SessionRow, type UsageBy, type UsageRow } from '../../../src/core/catalog/index.js';
import { PRICES_DATED } from '../../../src/core/pricing/prices.js';
import type { Roots } from '../roots.js';
import { nextTurn } from '../next-turn.js';
import { HitTexts } from '../../../src/core/catalog/hit-lines.js';
import { readDocumentFile } from '../../../src/core/formats/document-file.js';
import { comparePaths, matcherOf, queryTerms } from '../../../src/core/search/index.js';
import type { FoundMessage, Parting, SearchAnswer, SearchRequest, SearchStatus } from '../search/search-service.js';
import { partsToRead, readPartDocument, PART_BYTES } from '../parts/parted-files.js';
import { partPath } from '../../../src/core/storage/file-parts.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../../src/core/formats/types.js';
import { statSync } from 'node:fs';
import { summariseNotListed } from '../../../src/core/catalog/not-listed.js';
import type { NotListedSummary } from '../../../src/core/catalog/not-listed-words.js';

const withNotListed = (notListed: NotListedSummary | undefined) => (notListed ? { notListed } : {});

const statStamp = (file: string): { size: number; mtimeMs: number } | undefined => {
  try {
    const st = statSync(file);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
};

/** How far the catalog is: files known, and whether it is still reading the folders. */
export interface CatalogStatus {
  files: number;
  sessions: number;
  /** Files read (or checked unchanged) of those found, while the first sync runs. */
  done: number;
  total: number;
  building: boolean;
  /** Every session is listed with its usage: while it builds, what is left is reading files whole for search. */
  listed: boolean;
  /** Files whose sessions are still to be looked into for secrets (the "with secrets" filter is partial till then). */
  secretsPending: number;
}

export interface SessionsRequest {
  sort?: 'recent' | 'cost';
  tool?: string;
  model?: string;
  from?: string;
  to?: string;
  secrets?: boolean;
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
  /** What the folders hold that the list does not show (databases of tools not read here, logs, …), when anything. */
  notListed?: NotListedSummary;
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
/** Past this many matches search-all stops counting (and says "at least"). */
const COUNT_LIMIT = 50_000;
/** An answer is sent by this time after it is asked: hits whose lines are not read by then get them from `snippets`. */
const ANSWER_MS = 25;

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
  private progress = { done: 0, total: 0, listed: false };
  private closed = false;
  private scanning: Promise<void> | undefined;
  /** What it holds now; `secrets` when only the looking for secrets moved on (what search finds is the same). */
  onProgress: (status: CatalogStatus, what?: 'sessions' | 'secrets') => void = () => {};

  constructor(
    private readonly roots: Roots,
    /** The catalog's file, or `:memory:` for none kept. */
    private readonly file: string,
    /** Readers `width` files at a time (the threads the build has, when not given). */
    private readonly readersOf: (width?: number) => Readers = (width) => defaultReaders(undefined, width),
    /** Past `maxFileBytes` the document service opens a session a part at a time: a hit there names its part. */
    private readonly parting: Parting = { maxFileBytes: DEFAULT_MAX_FILE_BYTES, partBytes: PART_BYTES },
  ) {}

  /** The records of each part of files opened a part at a time, while the file is as it was. */
  private readonly partRecords = new Map<string, { size: number; mtimeMs: number; counts: number[] }>();

  /**
   * Where the app shows the message at `index` of a file it opens a part at a time: the part and the message's
   * place in it (the catalog numbers a file's messages whole). Undefined for a file opened whole.
   */
  private inPart(file: string, index: number): { part: number; index: number } | undefined {
    const st = statStamp(file);
    if (!st || st.size <= this.parting.maxFileBytes) return undefined;
    let known = this.partRecords.get(file);
    if (!known || known.size !== st.size || known.mtimeMs !== st.mtimeMs) {
      const read = partsToRead(file, st.size, this.parting.partBytes);
      if (!read) return undefined;
      known = { ...st, counts: read.parts.map((part) => readPartDocument(file, part, read.format).doc.conversations[0]?.records.length ?? 0) };
      this.partRecords.set(file, known);
    }
    let first = 0;
    for (let k = 0; k < known.counts.length; k++) {
      if (index < first + known.counts[k]) return { part: k + 1, index: index - first };
      first += known.counts[k];
    }
    return undefined;
  }

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
    const under = this.roots.all();
    return { files: catalog.fileCount(under), sessions: catalog.count({ under }), done: this.progress.done, total: this.progress.total, building: this.syncing !== undefined, listed: this.syncing === undefined || this.progress.listed, secretsPending: catalog.unscannedCount(under) };
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
          const listedNow = !!p.listed && !this.progress.listed;
          this.progress = { done: p.done, total: p.total, listed: !!p.listed };
          // The moment every session is listed is said at once: the list and the usage are whole from then on.
          if (listedNow || performance.now() - last > 250) {
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
        this.lookForSecrets();
      });
  }

  /**
   * Once the sessions are listed, each file is looked into for secrets (the costliest read there is, five times a
   * parse: after the list, not before it), the most recent first, on the readers' threads; a file read again since
   * (an agent's append) is looked into again.
   */
  private lookForSecrets(): void {
    if (this.scanning || this.syncing || this.closed) return;
    const catalog = this.open();
    // One thread: the search and the lists the user asks for meanwhile keep a core.
    const readers = this.readersOf(1);
    let last = 0;
    this.scanning = (async () => {
      for (;;) {
        const batch = catalog.unscanned(this.roots.all(), readers.width * 4);
        if (batch.length === 0 || this.closed) break;
        await Promise.all(
          batch.map(async (f) => {
            // The read has its own confinement (the sync's): a file that leads out now is not read.
            const counts = this.roots.confine(f.path) === f.path ? await readers.secrets(f.path, f.size) : [-1];
            if (this.closed) return;
            const now = statStamp(f.path);
            // Changed meanwhile: not looked into as it is now (-1) until it is read again, which looks again.
            catalog.putSecrets(f.path, f, now && now.size === f.size && now.mtimeMs === f.mtimeMs ? counts : [-1]);
          }),
        );
        if (performance.now() - last > 250) {
          last = performance.now();
          this.onProgress(this.status(), 'secrets');
        }
      }
    })()
      .catch(() => undefined)
      .then(() => {
        readers.close();
        this.scanning = undefined;
        if (!this.closed) this.onProgress(this.status(), 'secrets');
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
    this.lookForSecrets();
  }

  private entry(r: SessionRow): SessionEntry {
    const { path, parentFile, bytes: _b, ...rest } = r;
    return { ...rest, path: this.roots.display(path), ...(parentFile ? { parentPath: this.roots.display(parentFile) } : {}) };
  }

  sessions(req: SessionsRequest): SessionsAnswer {
    this.start();
    const catalog = this.open();
    const under = this.roots.all();
    const q = { under, sort: req.sort, tool: req.tool, model: req.model, from: req.from, to: req.to, secrets: req.secrets };
    const rows = catalog.sessions({ ...q, limit: Math.min(req.limit ?? MAX_LISTED, MAX_LISTED) });
    const all = catalog.sessions({ under, limit: MAX_LISTED * 4 });
    return {
      sessions: rows.map((r) => this.entry(r)),
      total: catalog.count(q),
      tools: [...new Set(all.map((r) => r.tool ?? r.formatLabel ?? '').filter(Boolean))].sort(),
      // Each once, as the catalog names it (no "<synthetic>": store.ts sessionModels).
      models: [...new Set(all.flatMap((r) => r.models))].sort(),
      status: this.status(),
      ...withNotListed(summariseNotListed(catalog.notListed(under), (p) => this.roots.display(p))),
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

  /**
   * Search across every conversation under the opened folders, answered from the catalog's index of words (each
   * word of the query as the beginning of a word of a message): the hits newest session first, each with its
   * line (read from the file, the catalog keeps no text) while the answer is within its time, the rest without.
   */
  search(req: SearchRequest): SearchAnswer {
    this.start();
    const started = performance.now();
    const catalog = this.open();
    const terms = queryTerms(req.query);
    const limit = Math.max(1, Math.min(req.limit ?? 200, 2000));
    // The sessions that went on last first, as the session list orders them; a file's hits in its order; files of
    // one time by their paths as the list groups them (folders and numbers as people sort them, which SQLite does not).
    const found = catalog.search(terms, { under: this.roots.all(), roles: req.roles, formats: req.formats, countLimit: COUNT_LIMIT, limit, comparePaths, shownPath: (p) => this.roots.display(p), newestFirst: true });
    const matcher = matcherOf(req.query);
    // However long the lookup took, the first lines are read (as the index's answers did).
    const deadline = req.snippetMs !== undefined ? performance.now() + req.snippetMs : Math.max(started + ANSWER_MS, performance.now() + 5);
    const texts = new HitTexts(readDocumentFile);
    const hits: FoundMessage[] = [];
    const sizes = new Map<string, number>();
    let gone = 0;
    try {
      for (const h of found.hits) {
        let part: { part: number; index: number } | undefined;
        // Only a file past the size a file is opened whole at is asked where the hit is (its size is known once).
        let size = sizes.get(h.path);
        if (size === undefined) sizes.set(h.path, (size = statStamp(h.path)?.size ?? 0));
        try {
          if (size > this.parting.maxFileBytes) part = this.inPart(h.path, h.index);
        } catch {
          // Changed as it was read: named as the file, which the listing shows again.
        }
        const hit: FoundMessage = part
          ? { path: partPath(this.roots.display(h.path), part.part), format: h.format ?? '', conversation: 0, index: part.index, role: h.role }
          : { path: this.roots.display(h.path), format: h.format ?? '', conversation: h.conversation, index: h.index, role: h.role };
        // A part is shown as stored (its rows are its records).
        if (h.shown !== undefined && !part) hit.shown = h.shown && { conversation: h.shown.conversation, index: h.shown.index };
        if (h.shown === null && h.offPath && !part) hit.offPath = h.offPath;
        if (h.spelled !== undefined) hit.spelled = h.spelled;
        if (performance.now() < deadline) {
          const s = texts.snippet(h, matcher);
          // Changed since it was catalogued and the words are gone: the catalog reads it again on the watcher's report.
          if (!s) {
            gone++;
            continue;
          }
          hit.snippet = s.text;
          hit.match = s.match;
        }
        hits.push(hit);
      }
    } finally {
      texts.close();
    }
    // Each file's count for the files the answer lists (those shown), not for every file that holds a match.
    const listed = new Set(hits.map((h) => h.path));
    const fileTotals = Object.fromEntries([...found.fileTotals].map(([p, n]) => [this.roots.display(p), n] as const).filter(([p]) => listed.has(p)));
    const total = Math.max(0, found.total - gone);
    const status = this.status();
    return {
      query: req.query,
      hits,
      total,
      files: found.files,
      atLeast: found.atLeast,
      fileTotals,
      truncated: total > hits.length,
      status: this.searchStatus(status),
    };
  }

  /** The catalog's progress as search-all shows it: files read, messages held, files still to read (one at least while it walks). */
  searchStatus(status = this.status()): SearchStatus {
    return { files: status.files, messages: this.open().messageCount(this.roots.all()), pending: status.building ? Math.max(1, status.total - status.done) : 0, building: status.building };
  }

  /**
   * The files a regular expression's scan reads, from the catalog: each read whole, or, past the size the app reads
   * whole, each of its parts (as the app opens it).
   */
  scanList(): Array<{ path: string; format: string }> {
    this.start();
    const out: Array<{ path: string; format: string }> = [];
    for (const f of this.open().readFiles(this.roots.all())) {
      if (f.size <= this.parting.maxFileBytes) out.push({ path: f.path, format: f.format });
      else {
        const read = partsToRead(f.path, f.size, this.parting.partBytes);
        for (const part of read?.parts ?? []) out.push({ path: partPath(f.path, part.number), format: read!.format });
      }
    }
    return out;
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
