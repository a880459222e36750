import { parentPort } from 'node:worker_threads';
import '../formats/all.js';
import { formatsReady } from '../formats/containers/index.js';
import { readForCatalog } from './read-file.js';
import { secretsOfFile } from './read-secrets.js';

// A thread that reads files for the catalog: the parse of each file (most of the work of building it) runs here,
// beside the thread that writes the catalog.
const port = parentPort!;
const ready = formatsReady();
port.on('message', async (msg: { file: string; size: number; kind?: 'read' | 'secrets' }) => {
  await ready;
  if (msg.kind === 'secrets') port.postMessage({ secrets: await secretsOfFile(msg.file, msg.size) });
  else port.postMessage({ read: readForCatalog(msg.file, msg.size) });
});
