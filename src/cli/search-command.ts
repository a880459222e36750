import { BUILT_IN_LOADERS } from '../core/formats/built-in.js';
import type { SearchHit, TreeSearch } from '../core/search/hits.js';
import { searchCatalog } from '../core/catalog/search.js';
import { freshCatalog } from './catalog.js';
import { outsideLinksNote, printJson } from './output.js';
import { oneLine } from '../core/util/one-line.js';
import { cutToWidth } from './text-width.js';
import { maxOf } from '../core/util/numbers.js';
import { folderArg, InputError, UsageError } from './usage.js';

const ROLES = ['system', 'user', 'assistant', 'tool', 'other'];
/** How much of a file's own name for a role (a swarms agent's name, say) a hit line shows. */
const ROLE_COLUMNS = 24;
/** The widest a hit's row number pads the column to (a longer one, a thread's id, runs on). */
const WHERE_COLUMNS = 24;
/** How much of a session's title heads its hits. */
const TITLE_COLUMNS = 60;
/** The hits a terminal is shown unless asked for more (as many as the app's search lists at first): the rest counted. */
export const SHOWN_HITS = 300;

export interface SearchCommandOptions {
  regex: boolean;
  role?: string;
  format?: string;
  json: boolean;
  /** At most this many hits (a number, as typed); `all`: every one. Unset: SHOWN_HITS printed, every one in JSON. */
  limit?: string;
  all?: boolean;
}

function limitOf(opts: SearchCommandOptions): number | undefined {
  if (opts.all && opts.limit !== undefined) throw new UsageError('--all and --limit cannot go together', { brief: true });
  if (opts.all) return undefined;
  if (opts.limit === undefined) return opts.json ? undefined : SHOWN_HITS;
  if (!/^\d+$/.test(opts.limit.trim()) || Number(opts.limit) < 1) throw new UsageError(`--limit takes a number of hits (1 or more), not "${opts.limit}"`, { brief: true });
  return Number(opts.limit);
}

function listOption(value: string | undefined, known: readonly string[], flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((v) => v.trim()).filter(Boolean);
  for (const item of items) if (!known.includes(item)) throw new UsageError(`unknown ${flag} "${item}"; known: ${known.join(', ')}`, { brief: true });
  return items;
}

/**
 * Messages matching QUERY in every conversation file under DIR, grouped by file, with the matching line; each
 * numbered as `show` numbers its rows (a session's by its thread since the last compaction).
 */
export async function searchCommand(dir: string, query: string, opts: SearchCommandOptions): Promise<void> {
  const path = folderArg(dir, 'search');
  if (query.trim() === '') throw new UsageError('search needs a QUERY with something to look for');
  const roles = listOption(opts.role, ROLES, '--role');
  // Formats are named by their ids, known before any format's reader is loaded.
  const formats = listOption(opts.format, Object.keys(BUILT_IN_LOADERS), '--format');
  const limit = limitOf(opts);
  let found: TreeSearch & { counted?: { matches: number; files: number } };
  try {
    // Words are looked up in the catalog; a regular expression reads every file.
    const kept = opts.regex ? undefined : await freshCatalog(path);
    if (kept) {
      try {
        found = { ...(await searchCatalog(kept.catalog, path, query, { roles, formats, names: kept.sync.names, limit })), truncated: kept.sync.truncated ?? false, tooDeep: kept.sync.tooDeep ?? 0, outside: kept.sync.outside ?? [] };
      } finally {
        kept.catalog.close();
      }
    } else {
      const [{ formatsReady }, { searchTree }] = await Promise.all([import('../core/formats/containers/index.js'), import('../core/search/scan.js')]);
      await formatsReady([path]);
      found = searchTree(path, query, { regex: opts.regex, roles, formats });
      // Every file is read for a regular expression: the hits past the limit are only left unprinted.
      if (limit !== undefined && found.hits.length > limit) found = { ...found, hits: found.hits.slice(0, limit), counted: { matches: found.hits.length, files: found.files } };
    }
  } catch (e) {
    if (e instanceof SyntaxError) throw new InputError(`--regex: ${e.message}`);
    throw e;
  }
  if (opts.json) {
    printJson({
      query,
      directory: path,
      hits: found.hits.map(({ match: _m, onDefaultThread: _d, spelled: _s, ...h }) => h),
      ...(found.counted ? { limited: { shown: found.hits.length, matches: found.counted.matches, files: found.counted.files } } : {}),
      errors: found.errors,
      truncated: found.truncated,
      tooDeep: found.tooDeep,
      outside: found.outside,
    });
    return;
  }
  writeGrouped(found.hits, found.multi);
  if (found.hits.some((h) => h.shown === null)) process.stderr.write('⤷N: a message `show` does not list by default (on another branch, or before a compaction): record N of `show FILE --thread all`\n');
  const n = found.counted?.matches ?? found.hits.length;
  const inFiles = found.counted?.files ?? found.files;
  const shown = found.counted ? `; the first ${found.hits.length.toLocaleString('en')} shown (--limit N for more, --all for every one)` : '';
  process.stderr.write(`${n === 0 ? 'no matches' : `${n.toLocaleString('en')} ${n === 1 ? 'match' : 'matches'} in ${inFiles.toLocaleString('en')} ${inFiles === 1 ? 'file' : 'files'}${shown}`}\n`);
  for (const e of found.errors) if (!e.notRead) process.stderr.write(`error: ${e.path}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: ${e.message}\n`);
  // Databases of tools not read here (or read from other files) are named in one line: `ls` says each one's why.
  const unread = found.errors.filter((e) => e.notRead).map((e) => e.path);
  if (unread.length > 0) process.stderr.write(`note: not searched: ${unread.length} ${unread.length === 1 ? 'database' : 'databases'} not read here (${unread.slice(0, 5).join(', ')}${unread.length > 5 ? ', …' : ''}; \`ls ${dir}\` says why)\n`);
  if (found.truncated) process.stderr.write('note: the search stopped at the listing\'s file cap; there are more files\n');
  if (found.tooDeep) process.stderr.write(`note: ${found.tooDeep} folders deeper than the depth limit were not searched\n`);
  outsideLinksNote(found.outside.length, dir);
}

/** `multi`: the files of several conversations, whose every hit says its conversation (whichever the query found). */
function writeGrouped(hits: readonly SearchHit[], multi: ReadonlySet<string>): void {
  const out: string[] = [];
  let last: string | undefined;
  // Rows numbered alike line up: the widest number (a thread's, `00378c73:19`) sets the column, up to a limit.
  const whereOf = (h: SearchHit) => {
    const row = h.shown === undefined ? `${h.index}` : h.shown === null ? `⤷${h.index}` : h.onDefaultThread ? `${h.shown.index}` : `${h.shown.thread}:${h.shown.index}`;
    return multi.has(h.path) ? `${h.conversation}:${row}` : row;
  };
  const width = Math.min(WHERE_COLUMNS, maxOf(hits.map((h) => whereOf(h).length), 5));
  // The role as `show` and the app print it: the file's own word for it; a file's column as wide as its widest
  // (a Codex item type, `function_call_output`), up to a limit, so that its lines line up.
  const roleOf = (h: SearchHit) => (h.spelled === undefined ? h.role : oneLine(h.spelled, ROLE_COLUMNS) || h.role);
  const roleWidths = new Map<string, number>();
  for (const h of hits) roleWidths.set(h.path, Math.min(ROLE_COLUMNS, Math.max(roleWidths.get(h.path) ?? 9, roleOf(h).length)));
  for (const h of hits) {
    if (h.path !== last) {
      if (last !== undefined) out.push('');
      // A thread's own file: whose it is, as `show SESSION --thread ID` shows it.
      const owner = h.session ? `  (${h.session.kind} ${h.session.thread} of session ${h.session.path ?? h.session.id})` : '';
      // The session's title, as `sessions` lists it: what tells a uuid-named file apart.
      out.push(`${h.path}${owner}${h.title ? `  · ${cutToWidth(h.title, TITLE_COLUMNS)}` : ''}`);
      last = h.path;
    }
    // The row `show` lists it at: a sub-agent's as `show --thread ID` does.
    const where = whereOf(h);
    out.push(`  ${where.padStart(width)}  ${roleOf(h).padEnd(roleWidths.get(h.path)!)} ${h.snippet}`);
  }
  if (out.length) process.stdout.write(out.join('\n') + '\n');
}
