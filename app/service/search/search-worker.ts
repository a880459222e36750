import { parentPort, workerData } from 'node:worker_threads';
import '../../../src/core/formats/all.js';
import { formatsReady } from '../../../src/core/formats/containers/index.js';
import { HandlerError } from '../../shared/errors.js';
import { Roots } from '../roots.js';
import { SearchInputError, SearchService, type Parting } from './search-service.js';
import { CatalogService } from '../catalog/catalog-service.js';
import type { UsageBy } from '../../../src/core/catalog/index.js';
import type { FromSearch, ToSearch } from './search-thread.js';

// The search index's own thread: it reads and indexes the folders' files, and answers queries.
const port = parentPort!;
const { roots, keptFile, parting, catalogFile } = workerData as { roots: string[]; keptFile: string; parting?: Parting; catalogFile: string };
const search = new SearchService(new Roots(roots), keptFile, parting);
search.onProgress = (status) => port.postMessage({ type: 'progress', status } satisfies FromSearch);
// The session catalog beside the index: its files are read on threads of their own (the built reader), written here.
const catalog = new CatalogService(new Roots(roots), catalogFile);
catalog.onProgress = (status) => port.postMessage({ type: 'catalog', status } satisfies FromSearch);

const ready = formatsReady();
port.on('message', async (msg: ToSearch) => {
  await ready;
  if (msg.type === 'start') {
    search.start();
    return catalog.start();
  }
  if (msg.type === 'changed') {
    search.changed(msg.events);
    return catalog.changed(msg.events);
  }
  if (msg.type === 'close') {
    search.close();
    catalog.close();
    return process.exit(0);
  }
  try {
    const value =
      msg.method === 'query'
        ? await search.query(msg.input as Parameters<SearchService['query']>[0])
        : msg.method === 'snippets'
          ? await search.snippets(msg.input as Parameters<SearchService['snippets']>[0])
          : msg.method === 'sessions'
            ? catalog.sessions(msg.input as Parameters<CatalogService['sessions']>[0])
            : catalog.usage(msg.input as UsageBy);
    port.postMessage({ type: 'result', id: msg.id, ok: true, value } satisfies FromSearch);
  } catch (e) {
    const kind = e instanceof SearchInputError ? 'input' : e instanceof HandlerError ? 'handler' : 'other';
    port.postMessage({ type: 'result', id: msg.id, ok: false, error: { kind, code: e instanceof HandlerError ? e.code : undefined, message: (e as Error).message } } satisfies FromSearch);
  }
});
