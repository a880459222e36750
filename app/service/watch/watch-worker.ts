import { parentPort, workerData } from 'node:worker_threads';
import { watchDirectory, type WatchOptions } from './watcher.js';
import type { FromWatcher, ToWatcher } from './watcher-thread.js';

// A folder's watcher on its own thread: its first scan of a big tree (a stat and a watch per file) runs
// beside the document service instead of between its replies.
const port = parentPort!;
const { dir, options } = workerData as { dir: string; options: Omit<WatchOptions, 'ignoreOnce'> };
const send = (msg: FromWatcher) => port.postMessage(msg);
const watcher = watchDirectory(dir, (events) => send({ type: 'events', events }), options);
watcher.ready.then(() => send({ type: 'ready' }));
port.on('message', async (msg: ToWatcher) => {
  if (msg.type !== 'close') return;
  await watcher.close();
  send({ type: 'closed' });
  port.close();
});
