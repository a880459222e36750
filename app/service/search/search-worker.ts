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
const catalog = new CatalogService(new Roots(roots), catalogFile, undefined, parting);
catalog.onProgress = (status, what) => {
  port.postMessage({ type: 'catalog', status } satisfies FromSearch);
  // Search-all is answered from the catalog: its progress is search's too (not while it looks for secrets: what
  // search finds is the same, and a search asked again moves the user's place in its list).
  if (what !== 'secrets') port.postMessage({ type: 'progress', status: catalog.searchStatus(status) } satisfies FromSearch);
};

const ready = formatsReady();
port.on('message', async (msg: ToSearch) => {
  await ready;
  if (msg.type === 'start') {
    // The index of words is the catalog's; the search index is built only for a regular expression's scan.
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
        ? (msg.input as Parameters<SearchService['query']>[0]).regex
          ? await search.scanFiles(msg.input as Parameters<SearchService['query']>[0], catalog.scanList(), catalog.searchStatus())
          : catalog.search(msg.input as Parameters<SearchService['query']>[0])
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
