import { readDocumentFile } from '../formats/document-file.js';
import { ConversationFileError } from '../formats/errors.js';
import { NotReadHereError } from '../formats/containers/unread-stores.js';
import type { Codec, ConversationDocument } from '../formats/codec.js';
import { walkConversationTree } from '../storage/list-directory.js';
import { searchableMessages } from './searchable.js';
import { comparePaths } from './search-index.js';
import { threadRows } from '../tree/thread-rows.js';
import { conversationTitles, saysSomething } from '../catalog/titles.js';

import { matcherOf, readableSnippet, sessionOfHits, type Matcher, type SearchHit, type SearchOptions, type TreeSearch } from './hits.js';

export { matcherOf, readableSnippet, sessionOfHits, type Matcher, type SearchHit, type SearchOptions, type TreeSearch };

/** The messages of one parsed file that match. */
export function searchDocument(path: string, codec: Codec, doc: ConversationDocument, matcher: Matcher, options: SearchOptions = {}): SearchHit[] {
  if (options.formats?.length && !options.formats.includes(codec.id)) return [];
  const roles = options.roles?.length ? new Set(options.roles) : undefined;
  const hits: SearchHit[] = [];
  let rows: ReturnType<typeof threadRows>;
  for (const m of searchableMessages(codec, doc).messages) {
    if (roles && !roles.has(m.role)) continue;
    const at = matcher(m.text);
    if (!at) continue;
    const snippet = readableSnippet(m.text, at, m.readable ?? m.text, matcher);
    const hit: SearchHit = { path, conversation: m.conversation, index: m.index, role: m.role, snippet: snippet.text, match: snippet.match };
    if (m.spelled) hit.spelled = m.spelled;
    // Worked out once a file has a hit: most files searched have none.
    if (codec.tree) {
      const conv = (rows ??= threadRows(codec, doc))?.[m.conversation];
      hit.shown = conv?.rows[m.index] ?? null;
      if (hit.shown && hit.shown.thread === conv?.byDefault) hit.onDefaultThread = true;
    }
    hits.push(hit);
  }
  return hits;
}

/** Every conversation file under `dir`, read and searched one after another (no index: one pass). */
export function searchTree(dir: string, query: string, options: SearchOptions = {}): TreeSearch {
  const matcher = matcherOf(query, options.regex);
  const hits: SearchHit[] = [];
  const errors: TreeSearch['errors'] = [];
  let files = 0;
  const multi = new Set<string>();
  const tree = walkConversationTree(dir);
  for (const f of tree.files.sort((a, b) => comparePaths(a.path, b.path))) {
    let parsed;
    try {
      parsed = readDocumentFile(f.file);
    } catch (e) {
      if (e instanceof ConversationFileError) errors.push({ path: f.path, ...(e.line ? { line: e.line } : {}), ...(e.line && e.column ? { column: e.column } : {}), message: e.reason, ...(e instanceof NotReadHereError ? { notRead: true as const } : {}) });
      else errors.push({ path: f.path, message: (e as Error).message });
      continue;
    }
    const found = searchDocument(f.path, parsed.codec, parsed.doc, matcher, options);
    if (found.length) files++;
    // A hit in a thread's own file says whose thread it is (looked up once the file has a hit).
    const session = found.length ? sessionOfHits(dir, f.file, parsed.codec.id) : undefined;
    if (session) for (const h of found) h.session = session;
    if (found.length && parsed.doc.conversations.length > 1) multi.add(f.path);
    // A file of one session says its title, as the session list gives it from its records.
    const title = found.length && parsed.doc.conversations.length === 1 ? conversationTitles(parsed.codec, parsed.doc)[0] : undefined;
    if (saysSomething(title)) for (const h of found) h.title = title;
    for (const h of found) hits.push(h);
  }
  return { hits, files, errors, truncated: tree.truncated, tooDeep: tree.tooDeep, multi, outside: tree.outside.map((l) => l.path) };
}
