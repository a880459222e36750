// A worker thread that runs a TypeScript module from source (tsx's loader, registered in this thread): the
// catalog's reader threads as tests start them, on the code as it is, not on the last build.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
