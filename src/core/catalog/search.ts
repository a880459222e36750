import { relative, sep } from 'node:path';
import { matcherOf, sessionOfHits, type SearchHit, type SearchOptions, type TreeSearch } from '../search/hits.js';
import { comparePaths } from '../search/compare-paths.js';
import { queryTerms } from '../search/words.js';
import { HitTexts } from './hit-lines.js';
import { loadCodec } from '../formats/registry.js';
import { saysSomething } from './titles.js';
import type { Catalog, CatalogHit } from './store.js';

/** Past this many matches a search stops counting; every one found is still listed. */
const LIST_ALL = 1_000_000;

/**
 * Search across every conversation under `dir`, answered from the catalog (which the caller brought up to
 * date): the messages holding each word of the query (as the start of a word), in the order `searchTree`
 * gives them, each with its line read from its file and numbered as `show` lists it.
 */
export async function searchCatalog(
  catalog: Catalog,
  dir: string,
  query: string,
  options: SearchOptions & { names?: ReadonlyMap<string, readonly string[]>; limit?: number } = {},
): Promise<Omit<TreeSearch, 'truncated' | 'tooDeep'> & { counted?: { matches: number; files: number } }> {
  const terms = queryTerms(query);
  const matcher = matcherOf(query);
  // Each file's relative path made once: a word in 20,000 messages asked it 20,000 times.
  const relPaths = new Map<string, string>();
  const rel = (p: string) => {
    let r = relPaths.get(p);
    if (r === undefined) relPaths.set(p, (r = relative(dir, p).split(sep).join('/')));
    return r;
  };
  // A page of the hits in the order they are listed (only its lines are read), the rest counted by the index.
  const limited = options.limit !== undefined;
  const found = catalog.search(terms, { under: [dir], roles: options.roles, formats: options.formats, limit: options.limit ?? LIST_ALL, countLimit: LIST_ALL, ...(limited ? { comparePaths, shownPath: rel } : {}) });
  // A session log's hits are read by their lines, which need their format's reader alone; every format's is
  // loaded only for a file read whole (below).
  for (const format of new Set(found.hits.map((h) => (h.bytes ? h.format : undefined)))) if (format) await loadCodec(format);
  const texts = new HitTexts();
  const hits: SearchHit[] = [];
  const multi = new Set<string>();
  const files = new Set<string>();
  const owners = new Map<string, SearchHit['session']>();
  const deferred: CatalogHit[] = [];
  const add = (h: CatalogHit, first: boolean) => {
    const snippet = texts.snippet(h, matcher);
    // The file changed since it was catalogued, and no longer says this: not a hit.
    if (!snippet) {
      if (first && texts.unread.has(h.path)) deferred.push(h);
      return;
    }
    // A file listed under several names (a link to it inside the folder) is a hit under each, as the walk lists it.
    for (const listed of options.names?.get(h.path) ?? [h.path]) {
      const path = rel(listed);
      const hit: SearchHit = { path, conversation: h.conversation, index: h.index, role: h.role, snippet: snippet.text, match: snippet.match };
      if (h.spelled) hit.spelled = h.spelled;
      if (h.shown !== undefined) {
        hit.shown = h.shown && { thread: h.shown.thread, index: h.shown.index };
        if (h.shown && h.shown.thread === h.defaultThread) hit.onDefaultThread = true;
      }
      if (h.conversations > 1) multi.add(path);
      files.add(path);
      // A hit in a thread's own file says whose thread it is (looked up once per file).
      if (h.format && !owners.has(h.path)) owners.set(h.path, sessionOfHits(dir, h.path, h.format));
      const session = owners.get(h.path);
      if (session) hit.session = session;
      // The session's title, as the session list names it (a file of several sessions has none).
      if (saysSomething(h.title)) hit.title = h.title;
      hits.push(hit);
    }
  };
  try {
    for (const h of found.hits) add(h, true);
    // Hits whose lines the catalog does not know (or whose lines moved) are read from their files parsed whole,
    // once every format's reader is loaded, and SQLite's where such a file may be a database.
    if (deferred.length > 0) {
      const [{ readDocumentFile }, { formatsReady }] = await Promise.all([import('../formats/document-file.js'), import('../formats/containers/index.js')]);
      await formatsReady([...texts.unread]);
      texts.readWith(readDocumentFile);
      for (const h of deferred) add(h, false);
    }
  } finally {
    texts.close();
  }
  // The files put in order once, the hits by their file's place (20,000 hits compared their paths 300,000 times).
  const place = new Map([...files].sort(comparePaths).map((p, k) => [p, k]));
  hits.sort((a, b) => place.get(a.path)! - place.get(b.path)! || a.conversation - b.conversation || a.index - b.index);
  const errors = catalog.failures([dir]).map((f) => ({ path: rel(f.path), ...(f.line ? { line: f.line } : {}), ...(f.line && f.column ? { column: f.column } : {}), message: f.error, ...(f.notRead ? { notRead: true as const } : {}) }));
  // The links out of the folder are the sync's to say (it walked it): none are in the catalog.
  const counted = limited && found.total > found.hits.length ? { matches: found.total, files: found.files } : undefined;
  return { hits, files: files.size, errors, multi, outside: [], ...(counted ? { counted } : {}) };
}
