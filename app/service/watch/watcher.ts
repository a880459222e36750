import { watch, type FSWatcher } from 'chokidar';
import { basename, extname, relative, sep } from 'node:path';
import '../../../src/core/formats/all.js';
import { conversationExtensions } from '../../../src/core/formats/registry.js';
import { listContainers } from '../../../src/core/formats/containers/index.js';
import { DEFAULT_DEPTH, visitFolder } from '../../../src/core/storage/list-directory.js';
import { isAiderChatName, isAiderInputName } from '../../../src/core/formats/aider/names.js';

const POLL_INTERVAL_MS = 250;

export type WatchKind = 'added' | 'changed' | 'removed';
export interface WatchEvent {
  path: string;
  kind: WatchKind;
}

export interface Watcher {
  close(): Promise<void>;
  /** Resolves once the initial scan is done (events after it are real changes). */
  ready: Promise<void>;
}

export interface WatchOptions {
  /** Coalescing window: a burst of writes to one file becomes one event (default 120 ms). */
  debounceMs?: number;
  /** Poll instead of native events (network drives, some containers). */
  usePolling?: boolean;
  /** Writes of our own, by absolute path: the next event for such a path is not reported. */
  ignoreOnce?: Set<string>;
}

/**
 * Watches the conversation files under `dir`, in the folders the lister looks into (agent tools' hidden folders
 * yes, node_modules and .git no), to the same depth. Temp files of atomic writes and other extensions are
 * ignored; bursts are coalesced per path.
 */
export function watchDirectory(dir: string, onEvents: (events: WatchEvent[]) => void, options: WatchOptions = {}): Watcher {
  const debounceMs = options.debounceMs ?? 120;
  const pending = new Map<string, WatchKind>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const events = [...pending.entries()].map(([path, kind]) => ({ path, kind }));
    pending.clear();
    if (events.length) onEvents(events);
  };
  const extensions = new Set([...conversationExtensions(), ...listContainers().flatMap((c) => c.extensions)]);
  const note = (kind: WatchKind) => (written: string) => {
    // A database's newest transactions land in its write-ahead log: a change there is a change of the database.
    const path = /\.(db|vscdb|sqlite)-wal$/i.test(written) ? written.slice(0, -4) : written;
    if (path !== written && kind !== 'changed') return;
    if (!extensions.has(extname(path).toLowerCase())) return;
    if (options.ignoreOnce?.delete(path)) return;
    const before = pending.get(path);
    // added then changed is still added; added then removed is nothing.
    if (before === 'added' && kind === 'removed') pending.delete(path);
    else pending.set(path, before === 'added' && kind === 'changed' ? 'added' : kind);
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const skipFolder = (path: string) => {
    const rel = relative(dir, path);
    return rel !== '' && rel.split(sep).some((part) => !visitFolder(part));
  };
  const start = (usePolling: boolean): FSWatcher => {
    const w = watch(dir, {
      depth: DEFAULT_DEPTH,
      ignoreInitial: true,
      usePolling,
      interval: POLL_INTERVAL_MS,
      // our own save temp files (.<name>.ci-save-….tmp), other tools' temp files and editors' swap files,
      // and the folders the lister does not look into (a hidden name is one, unless it is a history's own:
      // Aider's .aider.input.history and .aider.chat.history.md, which the lister lists)
      ignored: (path: string, stats?: { isDirectory(): boolean }) =>
        /\.tmp$|\.\d+$|~$|\.swp$|\.lock$/.test(path) ||
        /\/\.[^/]+\.tmp\./.test(path) ||
        (stats?.isDirectory() === true && skipFolder(path)) ||
        (basename(path).startsWith('.') && !isAiderInputName(path) && !isAiderChatName(path) && skipFolder(path)),
      awaitWriteFinish: { stabilityThreshold: 60, pollInterval: 20 },
      // A link is reported as itself, never followed: one that leads out of the folder is not watched (what
      // its events bring is confined where it is read; see confine.ts), and a file inside is seen at its own path.
      followSymlinks: false,
    });
    // Polling takes its first stat after 'ready'; until then a new file could go unseen, so ready waits for it.
    w.once('ready', () => (usePolling ? setTimeout(markReady, 2 * POLL_INTERVAL_MS) : markReady()));
    w.on('add', note('added')).on('change', note('changed')).on('unlink', note('removed'));
    w.on('error', (e) => {
      // Out of native watches (a big tree, a low inotify limit): the same folder, polled. Other errors
      // (a folder gone while scanned) leave the rest watched.
      const code = (e as NodeJS.ErrnoException).code;
      if (usePolling || (code !== 'ENOSPC' && code !== 'EMFILE') || watcher !== w) return;
      watcher = start(true);
      void w.close();
    });
    return w;
  };
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let watcher = start(options.usePolling ?? false);
  return {
    ready,
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
