import { parentPort } from 'node:worker_threads';
import '../formats/all.js';
import { formatsReady } from '../formats/containers/index.js';
import { readForCatalog } from './read-file.js';
import { secretsOfFile } from './read-secrets.js';
import { quickReadForCatalog } from './quick-read.js';
import { ShardWriter, type Indexed } from './shards.js';

// A thread that reads files for the catalog: the parse of each file (most of the work of building it) runs here,
// beside the thread that writes the catalog; and, where it is given a shard and a slot, the thread writes the
// file's messages into that shard of the index itself (shards.ts).
const port = parentPort!;
type Message = { file: string; size: number; kind?: 'read' | 'quick' | 'secrets'; shard?: string; slot?: number } | { kind: 'flush' };

let shard: ShardWriter | undefined;

/** What the shard wrote, said apart from any job's answer (the files were answered as they were read). */
function commit(): void {
  let indexed: Indexed = [];
  let error: string | undefined;
  try {
    indexed = shard?.commit() ?? [];
  } catch (e) {
    error = (e as Error).message;
  }
  port.postMessage({ committed: indexed, ...(error ? { error } : {}) });
}

// One job at a time, in the order given: the thread that gives them matches each answer to the job it gave first
// (it gives the next before this one is done, and looking for secrets waits on the way).
let turn: Promise<void> = formatsReady().catch(() => undefined);
port.on('message', (msg: Message) => {
  turn = turn.then(async () => {
    if (msg.kind === 'flush') {
      commit();
      // Closed at the end of each sync: the next may be of a catalog made anew, with a new file at that path.
      shard?.close();
      shard = undefined;
      port.postMessage({ flushed: true });
      return;
    }
    try {
      if (msg.kind === 'secrets') port.postMessage({ secrets: await secretsOfFile(msg.file, msg.size) });
      else if (msg.kind === 'quick') port.postMessage({ quick: quickReadForCatalog(msg.file, msg.size) ?? null });
      else {
        const read = readForCatalog(msg.file, msg.size);
        if (msg.shard !== undefined && msg.slot !== undefined && read.facts) {
          if (shard?.path !== msg.shard) {
            if (shard) commit();
            shard?.close();
            shard = new ShardWriter(msg.shard);
          }
          shard.add(msg.file, msg.slot, read.facts.messages);
          read.slot = msg.slot;
          read.facts.messages = [];
        }
        port.postMessage({ read });
        if (shard?.full) commit();
      }
    } catch (e) {
      // Every file gets its answer, or the ones after it would be matched to the wrong files.
      if (msg.kind === 'secrets') port.postMessage({ secrets: [-1] });
      else if (msg.kind === 'quick') port.postMessage({ quick: null });
      else port.postMessage({ read: { failure: { error: `could not be read (${(e as Error).message})` }, bytes: msg.size } });
    }
  });
});
