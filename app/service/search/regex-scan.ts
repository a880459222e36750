import { readableSnippet, type SearchableMessage } from '../../../src/core/search/index.js';
import type { FoundMessage, SearchAnswer } from './search-service.js';
import { shownFields } from './shown-rows.js';
import { nextTurn } from '../next-turn.js';

/** A regular expression is a scan of every file, not an index lookup: it stops after this long with what it found. */
export const REGEX_SCAN_MS = 4000;

/**
 * The messages of `files` (in order) whose text `matcher` matches, the first `limit` of them listed with their
 * lines; every file is read in turn until the time is up (`budgetMs`, asked before each file and each message: a
 * file of 100,000 messages stops in its middle), yielding to other requests every 12 ms (in a file's middle too). The matcher runs in
 * linear time (src/core/search/linear-regex.ts), so one message costs at most a pass over its text.
 */
export async function scanWithRegex(
  files: ReadonlyArray<{ path: string; format: string }>,
  matcher: (text: string) => [number, number] | undefined,
  roles: ReadonlySet<string> | undefined,
  limit: number,
  read: (path: string) => readonly SearchableMessage[],
  display: (path: string) => string,
  { budgetMs = REGEX_SCAN_MS, clock = () => performance.now() }: { budgetMs?: number; clock?: () => number } = {},
): Promise<Omit<SearchAnswer, 'query' | 'status'>> {
  const hits: FoundMessage[] = [];
  const found = new Set<string>();
  let total = 0;
  let outOfTime = false;
  const start = clock();
  let since = start;
  scan: for (const { path, format } of files) {
    if (clock() - start > budgetMs) {
      outOfTime = true;
      break;
    }
    for (const m of read(path)) {
      const now = clock();
      if (now - start > budgetMs) {
        outOfTime = true;
        break scan;
      }
      if (now - since > 12) {
        await nextTurn();
        since = clock();
      }
      if (roles && !roles.has(m.role)) continue;
      const at = matcher(m.text);
      if (!at) continue;
      total++;
      found.add(path);
      if (hits.length < limit) {
        const s = readableSnippet(m.text, at, m.readable ?? m.text, matcher);
        hits.push({ path: display(path), format, conversation: m.conversation, index: m.index, role: m.role, snippet: s.text, match: s.match, ...shownFields(m) });
      }
    }
  }
  const fileTotals: Record<string, number> = {};
  for (const h of hits) fileTotals[h.path] = (fileTotals[h.path] ?? 0) + 1;
  return { hits, total, files: found.size, atLeast: outOfTime, fileTotals, truncated: outOfTime || total > hits.length, ...(outOfTime ? { outOfTime: budgetMs } : {}) };
}
