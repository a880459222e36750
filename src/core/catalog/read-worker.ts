import { parentPort } from 'node:worker_threads';
import '../formats/all.js';
import { formatsReady } from '../formats/containers/index.js';
import { readForCatalog } from './read-file.js';
import { secretsOfFile } from './read-secrets.js';
import { quickReadForCatalog } from './quick-read.js';

// A thread that reads files for the catalog: the parse of each file (most of the work of building it) runs here,
// beside the thread that writes the catalog.
const port = parentPort!;
// One file at a time, in the order given: the thread that gives them matches each answer to the file it gave
// first (it gives the next before this one is done, and looking for secrets waits on the way).
let turn: Promise<void> = formatsReady().catch(() => undefined);
port.on('message', (msg: { file: string; size: number; kind?: 'read' | 'quick' | 'secrets' }) => {
  turn = turn.then(async () => {
    try {
      if (msg.kind === 'secrets') port.postMessage({ secrets: await secretsOfFile(msg.file, msg.size) });
      else if (msg.kind === 'quick') port.postMessage({ quick: quickReadForCatalog(msg.file, msg.size) ?? null });
      else port.postMessage({ read: readForCatalog(msg.file, msg.size) });
    } catch (e) {
      // Every file gets its answer, or the ones after it would be matched to the wrong files.
      if (msg.kind === 'secrets') port.postMessage({ secrets: [-1] });
      else if (msg.kind === 'quick') port.postMessage({ quick: null });
      else port.postMessage({ read: { failure: { error: `could not be read (${(e as Error).message})` }, bytes: msg.size } });
    }
  });
});
