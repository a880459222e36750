import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HandlerError } from '../../shared/errors.js';
import type { ErrorCode } from '../../shared/contract.js';
import type { Roots } from '../roots.js';
import { SearchInputError, SearchService, type Parting, type SearchAnswer, type SearchRequest, type SearchStatus } from './search-service.js';
import { CatalogService, type CatalogStatus, type SessionsAnswer, type SessionsRequest, type UsageAnswer } from '../catalog/catalog-service.js';
import { inlineReaders } from '../../../src/core/catalog/index.js';
import type { UsageBy } from '../../../src/core/catalog/index.js';

/** What the search service does, wherever it runs. */
export interface Search {
  onProgress: (status: SearchStatus) => void;
  start(): void;
  changed(events: ReadonlyArray<{ path: string; kind: 'added' | 'changed' | 'removed' }>): void;
  query(req: SearchRequest): Promise<SearchAnswer>;
  snippets(req: Parameters<SearchService['snippets']>[0]): ReturnType<SearchService['snippets']>;
  /** The session catalog's progress (the sidebar's sessions fill in as it reads). */
  onCatalog: (status: CatalogStatus) => void;
  sessions(req: SessionsRequest): Promise<SessionsAnswer>;
  usage(by: UsageBy): Promise<UsageAnswer>;
  /** Done once its thread has ended (it holds the catalog's database, which must never be cut off mid-thread). */
  close(): Promise<void>;
}

type Method = 'query' | 'snippets' | 'sessions' | 'usage';

/** Search and the session catalog on this thread (tests, from source): the same answers as on their own. */
class LocalSearch implements Search {
  private readonly index: SearchService;
  private readonly catalog: CatalogService;
  onCatalog: (status: CatalogStatus) => void = () => {};
  constructor(roots: Roots, keptFile: string | false, parting: Parting | undefined, catalogFile: string) {
    this.index = new SearchService(roots, keptFile, parting);
    this.catalog = new CatalogService(roots, catalogFile, () => inlineReaders, parting);
    // Search-all is answered from the catalog: its progress is search's too.
    this.catalog.onProgress = (status, what) => {
      this.onCatalog(status);
      // Not while it looks for secrets: what search finds is the same (a search asked again moves the user's place).
      if (what !== 'secrets') this.index.onProgress(this.catalog.searchStatus(status));
    };
  }
  set onProgress(f: (status: SearchStatus) => void) {
    this.index.onProgress = f;
  }
  get onProgress() {
    return this.index.onProgress;
  }
  start(): void {
    // The index of words is the catalog's; the search index is built only for a regular expression's scan.
    this.catalog.start();
  }
  changed(events: ReadonlyArray<{ path: string; kind: 'added' | 'changed' | 'removed' }>): void {
    this.index.changed(events);
    this.catalog.changed(events);
  }
  async query(req: SearchRequest) {
    return req.regex ? this.index.scanFiles(req, this.catalog.scanList(), this.catalog.searchStatus()) : this.catalog.search(req);
  }
  snippets(req: Parameters<SearchService['snippets']>[0]) {
    return this.index.snippets(req);
  }
  async sessions(req: SessionsRequest) {
    return this.catalog.sessions(req);
  }
  async usage(by: UsageBy) {
    return this.catalog.usage(by);
  }
  async close(): Promise<void> {
    this.index.close();
    this.catalog.close();
  }
}

export type ToSearch =
  | { type: 'call'; id: number; method: Method; input: unknown }
  | { type: 'start' }
  | { type: 'changed'; events: Array<{ path: string; kind: 'added' | 'changed' | 'removed' }> }
  | { type: 'close' };
export type FromSearch =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: { kind: 'input' | 'handler' | 'other'; code?: ErrorCode; message: string } }
  | { type: 'progress'; status: SearchStatus }
  | { type: 'catalog'; status: CatalogStatus };

/**
 * The search index on a thread of its own where the built search worker ships beside this bundle (reading and
 * indexing 10,000 files then holds up no request of the document service), on this thread otherwise (from
 * source, in tests). The same answers either way.
 */
export function searchOffThread(roots: Roots, keptFile: string | false, parting?: Parting, catalogFile = ':memory:', url = new URL('./search-worker.mjs', import.meta.url)): Search {
  if (keptFile === false || !existsSync(fileURLToPath(url))) return new LocalSearch(roots, keptFile, parting, catalogFile);
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const search: Search = {
    onProgress: () => {},
    start: () => send({ type: 'start' }),
    changed: (events) => send({ type: 'changed', events: events.map((e) => ({ path: e.path, kind: e.kind })) }),
    query: (req) => call('query', req) as Promise<SearchAnswer>,
    snippets: (req) => call('snippets', req) as ReturnType<SearchService['snippets']>,
    onCatalog: () => {},
    sessions: (req) => call('sessions', req) as Promise<SessionsAnswer>,
    usage: (by) => call('usage', by) as Promise<UsageAnswer>,
    close: async () => {
      if (!worker) return;
      const w = worker;
      worker = undefined;
      const ended = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.postMessage({ type: 'close' } satisfies ToSearch);
      // It ends itself once its catalog is closed. Cutting it off (terminate) while it holds the SQLite binding
      // aborts the whole process (libsql's native side panics), and so does ending the thread that started it
      // first: it is waited for, and cut off only if it never ends.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 20_000)));
      if ((await Promise.race([ended, late])) === 'late') await w.terminate();
      clearTimeout(timer);
    },
  };
  function ensure(): Worker {
    if (worker) return worker;
    const w = new Worker(url, { workerData: { roots: roots.all(), keptFile, parting, catalogFile } });
    w.unref();
    w.on('message', (msg: FromSearch) => {
      if (msg.type === 'progress') return search.onProgress(msg.status);
      if (msg.type === 'catalog') return search.onCatalog(msg.status);
      const p = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (!p) return;
      if (msg.ok) p.resolve(msg.value);
      else p.reject(msg.error.kind === 'input' ? new SearchInputError(msg.error.message) : msg.error.kind === 'handler' ? new HandlerError(msg.error.code ?? 'INTERNAL', msg.error.message) : new Error(msg.error.message));
    });
    // A search thread that dies fails what it was asked; the next request starts another.
    const fail = (why: string) => {
      if (worker === w) worker = undefined;
      for (const [, p] of waiting) p.reject(new HandlerError('INTERNAL', `the search stopped: ${why}`));
      waiting.clear();
    };
    w.on('error', (e) => fail(e.message));
    w.on('exit', () => fail('its thread ended'));
    worker = w;
    return w;
  }
  function send(msg: ToSearch): void {
    ensure().postMessage(msg);
  }
  function call(method: Method, input: unknown): Promise<unknown> {
    const id = nextId++;
    const w = ensure();
    // Asked, it keeps the process alive until it answers.
    w.ref();
    return new Promise<unknown>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      w.postMessage({ type: 'call', id, method, input } satisfies ToSearch);
    }).finally(() => {
      if (waiting.size === 0) w.unref();
    });
  }
  return search;
}
