import { FILE_MESSAGES, json, MAX_SQL_VARS, opt, SESSION_NAMED, SHOWN_EARLIER, underClause, type Database, type Statement } from './sql.js';

/** A message search-all found: where it is, and where its line can be read. */
export interface CatalogHit {
  path: string;
  format?: string;
  conversation: number;
  /** How many conversations the file holds (several: a hit says which). */
  conversations: number;
  index: number;
  role: string;
  defaultThread?: string;
  bytes?: [number, number];
  /** Its row as the app shows it: its thread, which of the file's shown conversations that is, and the row. */
  shown?: { thread: string; index: number; conversation: number } | null;
  /** Why, where `shown` is null: before a compaction of its thread, or on a branch its thread left. */
  offPath?: 'earlier' | 'branch';
  spelled?: string;
  /** Its file's session's title, as the session list names it (none for a file of several sessions). */
  title?: string;
}

export interface IndexSearchOptions {
  /** Files under these folders only (absolute paths). */
  under?: readonly string[];
  roles?: readonly string[];
  formats?: readonly string[];
  limit: number;
  offset?: number;
  countLimit: number;
  /** The order of the files' paths, where not JavaScript's, of their paths as `shownPath` gives them. */
  comparePaths?: (a: string, b: string) => number;
  shownPath?: (path: string) => string;
  /** The files whose sessions went on last first (then by path), as the session list orders them; else by path. */
  newestFirst?: boolean;
}

export interface IndexSearchAnswer {
  hits: CatalogHit[];
  total: number;
  atLeast: boolean;
  files: number;
  fileTotals: Map<string, number>;
}

interface SearchScope {
  /** By their slot. */
  files: Map<number, { id: number; path: string; last: string }>;
  some: boolean;
}

/** Past this many words a term begins, the index is asked for the prefix (a query of as many terms costs more). */
const MAX_WORDS_NAMED = 300;

/**
 * Search-all over the catalog's index of words: the matches counted and paged file by file from their ids (a
 * file's slot, sql.ts), each page's rows read from the tables.
 */
export class IndexSearch {
  constructor(
    private readonly db: Database,
    private readonly stmt: (sql: string) => Statement,
  ) {}

  private scopes?: { key: string; scope: SearchScope };
  /** Each term's words in the index, for the catalog as it was at `state`. */
  private expanded?: { state: string; terms: Map<string, string> };
  private vocab?: { sources: string; stmt: Statement };

  /** The catalog's state, and its shards': it changes whenever this connection or another writes to one. */
  private state(sources: readonly string[]): string {
    const s = this.stmt(`SELECT total_changes() AS mine, ${sources.map((x, k) => `(SELECT data_version FROM ${x}.pragma_data_version) AS v${k}`).join(', ')}`).get()!;
    return sources.map((_, k) => String(s[`v${k}`])).join(':') + `:${s.mine}`;
  }

  /**
   * The files with indexed messages a search looks into (under `under`, of `formats`), and whether that leaves any
   * out. Kept until the catalog changes (by this connection or another), as typing asks it for each letter.
   */
  private searchScope(state: string, opts: { under?: readonly string[]; formats?: readonly string[]; newestFirst?: boolean }): SearchScope {
    const key = JSON.stringify([state, opts.under ?? null, opts.formats ?? null, opts.newestFirst === true]);
    if (this.scopes?.key === key) return this.scopes.scope;
    const args: unknown[] = [];
    const where = [underClause('f.path', opts.under, args)];
    if (opts.formats?.length) {
      const formats = opts.formats.slice(0, MAX_SQL_VARS);
      where.push(`f.format IN (${formats.map(() => '?').join(',')})`);
      for (const f of formats) args.push(f);
    }
    // With when each file's sessions went on last (the session list's time; a tool's log of prompts has none), for
    // a search of the newest first (13 ms over 2,369 files: asked only then).
    const rows = this.db
      .prepare(`SELECT f.id, f.path, f.slot${opts.newestFirst ? ", (SELECT max(COALESCE(s.last_at, '')) FROM sessions s WHERE s.file_id = f.id AND s.kind != 'log') AS last" : ''} FROM files f WHERE f.slot IS NOT NULL AND ${where.join(' AND ')}`)
      .all(args);
    const files = new Map(rows.map((r) => [Number(r.slot), { id: Number(r.id), path: String(r.path), last: r.last === null || r.last === undefined ? '' : String(r.last) }]));
    const all = Number(this.stmt('SELECT count(*) AS n FROM files WHERE slot IS NOT NULL').get()!.n);
    const scope = { files, some: files.size < all };
    this.scopes = { key, scope };
    return scope;
  }

  /**
   * A term as the index is asked it: the words it begins, named one by one where they are few. SQLite gathers a
   * prefix's matches whole before it joins them to the other terms' or stops at a limit (`the`* on a store of 1.5
   * GB: 80 ms); the same words named one by one are read only as far as the answer needs (8 ms). The words are
   * read from the index's vocabulary, so the matches are the same.
   */
  private termMatch(state: string, term: string, sources: readonly string[]): string {
    if (this.expanded?.state !== state) this.expanded = { state, terms: new Map() };
    let match = this.expanded.terms.get(term);
    if (match === undefined) {
      const vocab = this.vocabulary(sources);
      // No word of the index holds U+10FFFF (not a letter, digit or mark), so every word beginning with the term sorts before it.
      const words = vocab.all(sources.flatMap(() => [term, term + '\u{10FFFF}'])).map((r) => String(r.term));
      const quoted = (w: string) => `"${w.replace(/"/g, '""')}"`;
      if (words.length > MAX_WORDS_NAMED) match = `${quoted(term)}*`;
      else if (words.length === 0) match = quoted(term);
      else match = words.length === 1 ? quoted(words[0]) : `(${words.map(quoted).join(' OR ')})`;
      this.expanded.terms.set(term, match);
    }
    return match;
  }

  /** The words of every source's index, those of a range of them (one pair of bounds per source). */
  private vocabulary(sources: readonly string[]): Statement {
    const key = sources.join(',');
    if (this.vocab?.sources === key) return this.vocab.stmt;
    for (const x of sources) this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.words_${x} USING fts5vocab(${x}, messages_fts, row)`);
    const ranges = sources.map((x) => `SELECT term FROM temp.words_${x} WHERE term >= ? AND term < ?`);
    const stmt = this.db.prepare(sources.length === 1 ? `${ranges[0]} LIMIT ${MAX_WORDS_NAMED + 1}` : `SELECT term FROM (${ranges.join(' UNION ')}) ORDER BY term LIMIT ${MAX_WORDS_NAMED + 1}`);
    this.vocab = { sources: key, stmt };
    return stmt;
  }

  /**
   * Messages holding every term as a word or a word's beginning (the rule of src/core/search), file by file in
   * the order of their paths (or of their sessions' last activity, `newestFirst`): up to `limit` of them, and how
   * many there are up to `countLimit` (the page and the counts are of the first `countLimit` matches the index
   * gives, in the order of the files' slots).
   */
  search(terms: readonly string[], opts: IndexSearchOptions, sources: readonly string[] = ['main']): IndexSearchAnswer {
    if (terms.length === 0) return { hits: [], total: 0, atLeast: false, files: 0, fileTotals: new Map() };
    const state = this.state(sources);
    const match = terms.map((t) => this.termMatch(state, t, sources)).join(' AND ');
    const scope = this.searchScope(state, opts);
    const args: unknown[] = [];
    const roles = opts.roles?.length ? opts.roles.slice(0, MAX_SQL_VARS) : undefined;
    const inScope = scope.some ? JSON.stringify([...scope.files.keys()]) : undefined;
    // The same match in each source (the catalog's own tables, each shard's), one after the other.
    const matches = sources
      .map((x) => {
        args.push(match);
        let sql = `SELECT rowid AS id FROM ${x}.messages_fts WHERE messages_fts MATCH ?`;
        if (roles) {
          sql = `SELECT m.id AS id FROM ${x}.messages_fts JOIN ${x}.messages m ON m.id = ${x}.messages_fts.rowid WHERE messages_fts MATCH ? AND m.role IN (${roles.map(() => '?').join(',')})`;
          for (const r of roles) args.push(r);
        }
        // Files outside the scope are left out before the count's limit, not after.
        if (inScope) {
          sql += ` AND (${roles ? 'm.id' : 'rowid'} / ${FILE_MESSAGES}) IN (SELECT value FROM json_each(?))`;
          args.push(inScope);
        }
        return sql;
      })
      .join(' UNION ALL ');
    // One pass over the index (a prefix's words are gathered again at each pass): each file's count and its ids.
    const perFile = this.db.prepare(`SELECT id / ${FILE_MESSAGES} AS f, count(*) AS n, group_concat(id) AS ids FROM (${matches} LIMIT ?) GROUP BY f`).all([...args, opts.countLimit + 1]);
    const found = perFile.flatMap((r) => {
      const file = scope.files.get(Number(r.f));
      return file ? [{ file, n: Number(r.n), ids: String(r.ids) }] : [];
    });
    const fileTotals = new Map(found.map((f) => [f.file.path, f.n]));
    const total = found.reduce((n, f) => n + f.n, 0);
    const byPath = opts.comparePaths ?? ((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0));
    // Each file's path as it is compared, made once (a sort compares each many times).
    const shown = new Map(found.map((f) => [f.file.id, opts.shownPath ? opts.shownPath(f.file.path) : f.file.path]));
    const newer = opts.newestFirst ? (a: { last: string }, b: { last: string }) => (a.last > b.last ? -1 : a.last < b.last ? 1 : 0) : () => 0;
    found.sort((a, b) => newer(a.file, b.file) || byPath(shown.get(a.file.id)!, shown.get(b.file.id)!));
    // The page: `limit` ids after `offset`, file by file in that order, each file's in their order.
    const pageIds: number[] = [];
    let skip = opts.offset ?? 0;
    for (const f of found) {
      if (pageIds.length >= opts.limit) break;
      if (skip >= f.n) {
        skip -= f.n;
        continue;
      }
      const ids = f.ids.split(',').map(Number).sort((a, b) => a - b);
      for (const id of ids.slice(skip, skip + opts.limit - pageIds.length)) pageIds.push(id);
      skip = 0;
    }
    const order = new Map(found.map((f, k) => [f.file.id, k]));
    const page = JSON.stringify(pageIds);
    const inSources = sources.map((x) => `SELECT * FROM ${x}.messages WHERE id IN (SELECT value FROM json_each(?))`).join(' UNION ALL ');
    const rows = pageIds.length
      ? this.db
          .prepare(
            `SELECT f.id AS fid, f.path, f.format, s.conversation, s.default_thread, m.idx, m.role, m.spelled, m.line_start, m.line_end, m.shown_thread, m.shown_row ` +
              `FROM (${inSources}) m JOIN files f ON f.slot = m.id / ${FILE_MESSAGES} JOIN sessions s ON s.file_id = f.id AND s.conversation = m.conversation`,
          )
          .all(sources.map(() => page))
          .sort((a, b) => order.get(Number(a.fid))! - order.get(Number(b.fid))! || Number(a.conversation) - Number(b.conversation) || Number(a.idx) - Number(b.idx))
      : [];
    // What a hit needs of its file's conversations, for every file of the page in one query (one per file cost
    // a search of 1,800 files 30 ms).
    const ofFile = new Map<number, { conversations: number; threads: string[][]; listed: number; title?: string }>();
    if (rows.length > 0) {
      const fids = [...new Set(rows.map((r) => Number(r.fid)))];
      const sql = `SELECT s.file_id, s.threads, s.kind != 'log' AND s.messages > 0 AS listed, s.title, ${SESSION_NAMED} AS named FROM sessions s WHERE s.file_id IN (SELECT value FROM json_each(?)) ORDER BY s.file_id, s.conversation`;
      for (const o of this.db.prepare(sql).all(JSON.stringify(fids))) {
        const id = Number(o.file_id);
        let f = ofFile.get(id);
        if (!f) ofFile.set(id, (f = { conversations: 0, threads: [], listed: 0 }));
        f.conversations++;
        f.threads.push(o.threads === null ? [] : json(o.threads));
        // Titled as the session list titles it: by the one session it lists of the file (a log's are not listed).
        if (Number(o.listed)) f.title = ++f.listed === 1 ? (opt<string>(o.named) ?? opt<string>(o.title)) : undefined;
      }
    }
    const hits = rows.map((r): CatalogHit => {
      const file = ofFile.get(Number(r.fid)) ?? { conversations: 0, threads: [], listed: 0 };
      const hit: CatalogHit = { path: String(r.path), format: opt<string>(r.format), conversation: Number(r.conversation), conversations: file.conversations, index: Number(r.idx), role: String(r.role), defaultThread: opt<string>(r.default_thread) };
      if (file.title !== undefined) hit.title = file.title;
      if (r.line_start !== null && r.line_start !== undefined) hit.bytes = [Number(r.line_start), Number(r.line_end)];
      if (r.shown_row !== null && r.shown_row !== undefined) hit.shown = r.shown_thread === null ? null : { thread: String(r.shown_thread), index: Number(r.shown_row), conversation: shownConversation(file.threads, Number(r.conversation), String(r.shown_thread)) };
      if (hit.shown === null) hit.offPath = Number(r.shown_row) === SHOWN_EARLIER ? 'earlier' : 'branch';
      if (r.spelled !== null && r.spelled !== undefined) hit.spelled = String(r.spelled);
      return hit;
    });
    return { hits, total: Math.min(total, opts.countLimit), atLeast: total > opts.countLimit, files: found.length, fileTotals };
  }
}

/**
 * Which conversation the app shows a thread as: the app lists each conversation's threads in turn, each a
 * conversation of its own.
 */
function shownConversation(lists: readonly string[][], conversation: number, thread: string): number {
  let first = 0;
  for (let c = 0; c < conversation; c++) first += lists[c]?.length ?? 0;
  return first + Math.max(0, lists[conversation]?.indexOf(thread) ?? 0);
}
