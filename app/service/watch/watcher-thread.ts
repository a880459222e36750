import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { watchDirectory, type WatchEvent, type WatchOptions, type Watcher } from './watcher.js';

export type ToWatcher = { type: 'close' };
export type FromWatcher = { type: 'events'; events: WatchEvent[] } | { type: 'ready' } | { type: 'closed' };

/**
 * Watches `dir` on a thread of its own where the built watch worker ships beside this bundle, on this thread
 * otherwise (from source). Same events either way.
 */
export function watchOffThread(dir: string, onEvents: (events: WatchEvent[]) => void, options: Omit<WatchOptions, 'ignoreOnce'>, url = new URL('./watch-worker.mjs', import.meta.url)): Watcher {
  if (!existsSync(fileURLToPath(url))) return watchDirectory(dir, onEvents, options);
  const worker = new Worker(url, { workerData: { dir, options } });
  // A watcher is a helper: it must not keep a process alive that has nothing else to do.
  worker.unref();
  let started: () => void = () => {};
  const ready = new Promise<void>((resolve) => (started = resolve));
  let stopped: () => void = () => {};
  const closed = new Promise<void>((resolve) => (stopped = resolve));
  worker.on('message', (msg: FromWatcher) => {
    if (msg.type === 'events') onEvents(msg.events);
    else if (msg.type === 'ready') started();
    else stopped();
  });
  // A watcher that dies stops reporting; the listing still answers (a relist finds what changed).
  worker.on('error', () => started());
  worker.on('exit', () => {
    started();
    stopped();
  });
  return {
    ready,
    close: async () => {
      worker.postMessage({ type: 'close' } satisfies ToWatcher);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, 2000)))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
