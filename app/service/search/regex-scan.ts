import { snippetAround, type SearchableMessage } from '../../../src/core/search/index.js';
import type { FoundMessage, SearchAnswer } from './search-service.js';
import { shownFields } from './shown-rows.js';
import { nextTurn } from '../next-turn.js';

/** A regular expression is a scan of every file, not an index lookup: it stops after this long with what it found. */
export const REGEX_SCAN_MS = 4000;


/**
 * The messages of `files` (in order) whose text `matcher` matches, the first `limit` of them listed with their
 * lines; every file is read in turn until the time is up, yielding to other requests every 12 ms.
 */
export async function scanWithRegex(
  files: ReadonlyArray<{ path: string; format: string }>,
  matcher: (text: string) => [number, number] | undefined,
  roles: ReadonlySet<string> | undefined,
  limit: number,
  read: (path: string) => readonly SearchableMessage[],
  display: (path: string) => string,
): Promise<Omit<SearchAnswer, 'query' | 'status'>> {
  const hits: FoundMessage[] = [];
  const found = new Set<string>();
  let total = 0;
  let truncated = false;
  const start = performance.now();
  let since = start;
  for (const { path, format } of files) {
    if (performance.now() - start > REGEX_SCAN_MS) {
      truncated = true;
      break;
    }
    for (const m of read(path)) {
      if (roles && !roles.has(m.role)) continue;
      const at = matcher(m.text);
      if (!at) continue;
      total++;
      found.add(path);
      if (hits.length < limit) {
        const s = snippetAround(m.text, at);
        hits.push({ path: display(path), format, conversation: m.conversation, index: m.index, role: m.role, snippet: s.text, match: s.match, ...shownFields(m) });
      }
    }
    if (performance.now() - since > 12) {
      await nextTurn();
      since = performance.now();
    }
  }
  const fileTotals: Record<string, number> = {};
  for (const h of hits) fileTotals[h.path] = (fileTotals[h.path] ?? 0) + 1;
  return { hits, total, files: found.size, atLeast: truncated, fileTotals, truncated: truncated || total > hits.length };
}
