import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import type { EventName, EventPayload } from '../shared/contract.js';
import { DocumentStore } from './documents/documents.js';
import { createHandlers } from './handlers/index.js';
import type { HandlerContext } from './handlers/context.js';
import type { Handlers } from './dispatch.js';
import { Roots } from './roots.js';
import { SettingsStore } from './state/settings-store.js';
import { InlineTokenService, type TokenService } from './tokens/token-service.js';
import { TokenPool } from './tokens/token-pool.js';
import { CachedTokenService } from './tokens/cached-token-service.js';
import { CountCache } from '../../src/core/tokenizer/count-cache.js';
import { ListingCache } from './listing/listing-cache.js';
import type { WatchEvent, Watcher } from './watch/watcher.js';
import { watchOffThread } from './watch/watcher-thread.js';
import { LocalHistory } from './editing/local-history.js';
import { MemorySecretStore, type SecretStore } from './state/key-store.js';
import { privateStateDir } from '../../src/core/storage/private-dir.js';
import { DismissedFindings } from '../../src/core/secrets/dismissed-store.js';
import { walkConversationTree } from '../../src/core/storage/list-directory.js';
import { persistListing } from './listing/listing-store.js';
import { searchOffThread } from './search/search-thread.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../src/core/formats/types.js';
import { PART_BYTES } from './parts/parted-files.js';
export { packageRoot } from './package-root.js';

/**
 * The token workers ship next to the bundle (a pool, one per core); from source (tests) counting runs inline.
 * Either way each distinct text is counted once, ever: the count cache keeps them on disk.
 */
function tokenService(cacheDir: string): TokenService {
  const worker = new URL('./token-worker.mjs', import.meta.url);
  const counter = existsSync(fileURLToPath(worker)) ? new TokenPool(worker) : new InlineTokenService();
  return new CachedTokenService(counter, new CountCache(cacheDir));
}

export interface Runtime {
  handlers: Handlers;
  /** What the handlers share (documents, roots, tokens): a second set of handlers over it is a second window. */
  context: HandlerContext & { localHistory: LocalHistory };
  roots: Roots;
  watchers: Watcher[];
  /** Where pushed events go; the server sets it to its broadcast. */
  onEvent: (event: EventName, payload: unknown) => void;
  /** What the watchers saw of files open elsewhere (another thread holds them): theirs to act on. */
  elsewhere: Set<string>;
  onElsewhere: (events: WatchEvent[]) => void;
  /** Changes on disk to files this runtime may hold open: reported, and a held document let go. */
  changedOnDisk(events: WatchEvent[]): void;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  dirs: string[];
  /** Files bigger than this are not read whole; a session log is read a part at a time (default 256 MB). */
  wholeReadBytes?: number;
  /** The size of such a part (default 96 MB). */
  partBytes?: number;
  mode: 'electron' | 'browser';
  /**
   * This user's private state folder, where everything below is kept unless given its own place (default:
   * privateStateDir(), looked at once per process; the shell passes the one it chose to the service threads).
   */
  stateDir?: string;
  settingsFile?: string;
  /** Where earlier versions are kept before each save (default: this user's private state directory). */
  historyDir?: string;
  /** Secrets (the summariser's API key): encrypted in Electron, in memory in browser mode. */
  secrets?: SecretStore;
  tokens?: TokenService;
  /** Where token counts are kept between runs (default: this user's private state directory). */
  tokenCacheDir?: string;
  usePolling?: boolean;
  /** Watch the folders (default). A runtime holding one big file for a thread of its own does not. */
  watch?: boolean;
  /** How long after the start the watchers begin (default 1 s); what changed meanwhile is reported then. */
  watchDelayMs?: number;
  /** Where the listing is kept between runs (default: this user's private state directory; false: nowhere). */
  listingFile?: string | false;
  /** Where the search index is kept between runs (default: this user's private state directory; false: nowhere). */
  searchIndexFile?: string | false;
  /**
   * Where the session catalog is kept (default: catalog.sqlite in this user's private state directory, the one the
   * CLI keeps; false: in memory, read afresh each run). Without a kept search index, none is kept either.
   */
  catalogFile?: string | false;
  /** Where dismissed findings are kept (default: this user's private state directory). */
  dismissedDir?: string;
  /**
   * How long a save waits for another program to let go of the file it has open for writing (default 15 s), and
   * whether such programs are looked for at all (default: where the system tells; false: as if it could not).
   */
  saveWaitMs?: number;
  lookForWriters?: boolean;
}

const WATCH_DELAY_MS = 1000;

function catalogFileOf(options: RuntimeOptions, state: () => string): string {
  if (options.catalogFile === false || (options.catalogFile === undefined && (options.watch === false || options.searchIndexFile === false))) return ':memory:';
  return options.catalogFile ?? join(state(), 'catalog.sqlite');
}

/** Handlers plus live watching of the opened directories, independent of the transport. */
export function createRuntime(options: RuntimeOptions): Runtime {
  for (const d of options.dirs) {
    if (!existsSync(d) || !statSync(d).isDirectory()) throw new Error(`${d}: no such directory`);
  }
  const roots = new Roots(options.dirs.map((d) => resolve(d)));
  const documents = new DocumentStore(options.wholeReadBytes, undefined, options.partBytes);
  const state = () => options.stateDir ?? privateStateDir();
  const tokens = options.tokens ?? tokenService(options.tokenCacheDir ?? join(state(), 'token-cache'));
  let keptListing: { flush(): void } | undefined;
  const runtime: Runtime = {
    handlers: undefined as unknown as Handlers,
    context: undefined as unknown as Runtime['context'],
    roots,
    watchers: [],
    onEvent: () => {},
    elsewhere: new Set(),
    onElsewhere: () => {},
    changedOnDisk: (events) => {
      for (const e of events) {
        // Our own save is not news; anything else is, and a dirty document is never reloaded over.
        if (e.kind === 'changed' && documents.isOwnWrite(e.path)) continue;
        documents.forget(e.path);
        const path = roots.display(e.path);
        const root = roots.all().find((r) => e.path.startsWith(r + sep)) ?? roots.all()[0];
        emit('dir:changed', { root, path, kind: e.kind });
        if (e.kind === 'changed') emit('conversation:changed', { path });
      }
    },
    close: async () => {
      keptListing?.flush();
      const search = runtime.context.search.close();
      await Promise.all(runtime.watchers.map((w) => w.close()));
      await search;
      await tokens.close();
    },
  };
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => runtime.onEvent(event, payload);
  const localHistory = new LocalHistory(options.historyDir ?? join(state(), 'history'));
  runtime.context = { roots, documents, tokens, settings: new SettingsStore(options.settingsFile), mode: options.mode, service: isMainThread ? 'in-process' : 'worker', emit, localHistory, listing: new ListingCache(), dismissed: new DismissedFindings(options.dismissedDir ?? join(state(), 'dismissed-findings')), secrets: options.secrets ?? new MemorySecretStore(), search: searchOffThread(roots, options.watch === false ? false : (options.searchIndexFile ?? join(state(), 'search-index.v8')), { maxFileBytes: options.wholeReadBytes ?? DEFAULT_MAX_FILE_BYTES, partBytes: options.partBytes ?? PART_BYTES }, catalogFileOf(options, state)), saving: { waitMs: options.saveWaitMs, ...(options.lookForWriters === false ? { writers: false as const } : {}) } };
  runtime.handlers = createHandlers(runtime.context);
  if (options.watch === false) return runtime;
  // The main service keeps the listing between runs (a big file's own service tells it what it learns).
  const listingFile = options.listingFile ?? join(state(), 'listing.json');
  if (listingFile) keptListing = persistListing(runtime.context.listing, listingFile);
  const report = (events: WatchEvent[]) => {
    // Every change, our own saves too, and files other threads hold: the index reads files from disk.
    runtime.context.search.changed(events);
    const theirs = events.filter((e) => runtime.elsewhere.has(e.path));
    if (theirs.length) runtime.onElsewhere(theirs);
    const ours = theirs.length ? events.filter((e) => !runtime.elsewhere.has(e.path)) : events;
    if (ours.length) runtime.changedOnDisk(ours);
  };
  const watch = () => {
    for (const root of roots.all()) {
      // Not listed yet: what is there now is what the watcher's reports build on.
      if (!runtime.context.listing.hasWalk(root)) runtime.context.listing.rememberWalk(root, walkConversationTree(root, { within: roots.all() }).files);
      const watcher = watchOffThread(root, report, { usePolling: options.usePolling });
      runtime.watchers.push(watcher);
      // What changed between the first listing and the watcher's start is reported as if it had seen it.
      void watcher.ready.then(() => {
        if (closed) return;
        const missed = runtime.context.listing.changesSince(root, walkConversationTree(root, { within: roots.all() }).files);
        if (missed?.length) report(missed);
      });
    }
  };
  // A watcher's first scan of a big tree (a stat and a watch per file) would compete with the first listing:
  // it starts a moment after.
  let closed = false;
  const start = setTimeout(watch, options.watchDelayMs ?? WATCH_DELAY_MS);
  const close = runtime.close;
  runtime.close = async () => {
    closed = true;
    clearTimeout(start);
    await close();
  };
  return runtime;
}
