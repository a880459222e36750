import { closeSync, existsSync, openSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { costOf, addUp } from '../usage.js';
import { modelKey, PRICES_DATED } from '../pricing/prices.js';
import type { CallFacts, FileFacts, SessionFacts } from './facts.js';
import { callCost, localDay, reportedOf } from './calls.js';
import { CATALOG_VERSION, INDEX_SETTINGS, MESSAGE_TABLES, SCHEMA } from './schema.js';
import { writeMessages, type MessageBatch } from './message-rows.js';
import { shardFile, type Indexed } from './shards.js';
import { isNotAModel } from '../models.js';
import { unreadStoreById } from '../formats/containers/unread-stores.js';
import { FILE_MESSAGES, json, messageIds, opt, SESSION_NAMED, underClause, type Database, type Row, type Statement } from './sql.js';
import { libsqlDriver } from './libsql-driver.js';
import { IndexSearch, type IndexSearchAnswer, type IndexSearchOptions } from './index-search.js';

export type { CatalogHit } from './index-search.js';

export { localDay } from './calls.js';


const CALL_COLUMNS = 14;
/** A call's columns after its session and key, in the order they are written. */
const CALL_FIGURES = ['idx', 'at', 'day', 'model', 'input', 'output', 'cache_read', 'cache_write', 'cache_write_1h', 'reasoning', 'n', 'cost_usd'] as const;

/** A call's row as `calls` holds it (its day and price worked out here where the reader did not). */
function callFigures(c: CallFacts): Row {
  return {
    idx: c.index,
    at: c.at ?? null,
    day: c.day !== undefined ? c.day : (localDay(c.at) ?? null),
    model: c.model ?? null,
    input: c.input ?? null,
    output: c.output ?? null,
    cache_read: c.cacheRead,
    cache_write: c.cacheWrite,
    cache_write_1h: c.cacheWrite1h,
    reasoning: c.reasoning,
    n: c.n,
    cost_usd: c.costUsd !== undefined ? c.costUsd : (callCost(c) ?? null),
  };
}

/**
 * Calls as each session's rows by key: a key met again (a call cut across a big file's parts) is the row it was,
 * at the place of its first, with the later figures.
 */
function callRows(sessionIds: readonly number[], calls: readonly CallFacts[]): Map<number, Map<string, Row>> {
  const out = new Map<number, Map<string, Row>>();
  for (const c of calls) {
    const id = sessionIds[c.conversation];
    let rows = out.get(id);
    if (!rows) out.set(id, (rows = new Map()));
    rows.set(c.key, callFigures(c));
  }
  return out;
}
const CALLS_AT_ONCE = 32;
const SLOTS_AT_ONCE = 256;

/** The catalog's file and every file kept beside it (its journal, the index's shards). */
function removeCatalogFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  removeShards(file);
}

/** The index's shards beside a catalog (and their journals). */
function removeShards(file: string): void {
  const name = basename(file);
  let beside: string[] = [];
  try {
    beside = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const f of beside) if (f.startsWith(`${name}.index-`)) rmSync(join(dirname(file), f), { force: true });
}

/** How a file was when it was catalogued: a file that still is so is not read again. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface CatalogedFile extends FileStamp {
  path: string;
  readBytes: number;
  endHash?: string;
  /** Listed from a few of its lines, not yet read whole (quick-read.ts). */
  partial?: true;
}

export interface FileFailure {
  error: string;
  line?: number;
  column?: number;
  format?: string;
}

/** A file the session list shows nothing of, and why (Catalog.notListed). */
export interface NotListedFile {
  path: string;
  why: 'unread' | 'unreadable' | 'log' | 'empty';
  format?: string;
  formatLabel?: string;
}

/** A session as the list shows it. */
export interface SessionRow {
  id: number;
  path: string;
  conversation: number;
  format?: string;
  formatLabel?: string;
  tool?: string;
  sessionId?: string;
  parentFile?: string;
  parentSessionId?: string;
  agentId?: string;
  kind: 'session' | 'subagent' | 'log';
  title?: string;
  project?: string;
  firstAt?: string;
  lastAt?: string;
  models: string[];
  messages: number;
  prompts: number;
  calls: number;
  inputCalls: number;
  outputCalls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  costUsd?: number;
  unpriced: string[];
  /** Secrets found in it; undefined until looked into (or for a file too big to be). */
  secrets?: number;
  bytes: number;
  modifiedMs: number;
}

export interface UsageRow {
  key: string;
  calls: number;
  sessions: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number;
  /** Calls of a model with no list price: counted, not in the cost. */
  unpricedCalls: number;
  /** Calls whose input the file records (Copilot CLI's record only their output): `input` adds up these. */
  inputCalls: number;
}

export type UsageBy = 'day' | 'project' | 'model' | 'tool';

export interface SessionQuery {
  /** Files under these folders only (absolute paths). */
  under?: readonly string[];
  sort?: 'recent' | 'cost';
  tool?: string;
  model?: string;
  /** ISO dates, inclusive. */
  from?: string;
  to?: string;
  /** Only sessions in which secrets were found. */
  secrets?: boolean;
  /** The sessions of these files only (absolute paths). */
  paths?: readonly string[];
  limit?: number;
  offset?: number;
}

/**
 * A model as the catalog names it: one name however a tool spells it ("claude-sonnet-4.6" and "claude-sonnet-4-6",
 * "Gemini 2.5 Pro" and "gemini-2.5-pro", "google/gemma-3n-e4b" and "gemma-3n-e4b"), so that the model filter, the
 * usage by model and the list agree; what a tool writes for a reply it made itself ("<synthetic>") names none.
 */
const sessionModels = (models: readonly string[]): string[] => [...new Set(models.filter((m) => !isNotAModel(m)).map(modelKey))].sort();

/** A session row's columns from session_id to threads, in the order the statements name them. */
const sessionValues = (s: SessionFacts): unknown[] => [s.sessionId ?? null, s.parentFile ?? null, s.parentSessionId ?? null, s.agentId ?? null, s.kind, s.title ?? null, s.project ?? null, s.firstAt ?? null, s.lastAt ?? null, JSON.stringify(sessionModels(s.models)), s.messages, s.prompts, s.defaultThread ?? null, s.threads ? JSON.stringify(s.threads) : null];

/** A calls row as call figures. */
const callRow = (c: Row) => ({ model: opt<string>(c.model), input: opt<number>(c.input), output: opt<number>(c.output), cacheRead: Number(c.cache_read), cacheWrite: Number(c.cache_write), cacheWrite1h: Number(c.cache_write_1h), reasoning: Number(c.reasoning), n: Number(c.n) });

/** The WHERE clause of a session query (sessions `s` joined to their files `f`), its arguments pushed on `args`. */
function sessionWhere(q: SessionQuery, args: unknown[]): string {
  // A tool's prompt log or session index is read for search, not listed as a session.
  // A file of nothing but titles (Claude Code's summary lines of other sessions) holds no session to open.
  const where = [underClause('f.path', q.under, args), "s.kind != 'log'", 's.messages > 0'];
  if (q.tool) {
    where.push('f.tool = ?');
    args.push(q.tool);
  }
  if (q.model) {
    where.push('EXISTS (SELECT 1 FROM json_each(s.models) WHERE value = ?)');
    args.push(modelKey(q.model));
  }
  if (q.from) {
    where.push('s.last_at >= ?');
    args.push(q.from);
  }
  if (q.to) {
    where.push('s.first_at <= ?');
    args.push(`${q.to}\uffff`);
  }
  if (q.secrets) where.push('s.secrets > 0');
  if (q.paths) {
    where.push('f.path IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(q.paths));
  }
  return where.join(' AND ');
}

export class CatalogDamaged extends Error {}

/**
 * The catalog: every session under the opened folders, on disk in SQLite (libsql, an N-API build that loads
 * in Node and in Electron's main process alike) with a full-text index of every message. A cache of the files:
 * deleting it loses nothing; a damaged one or one of another version is built again.
 */
export class Catalog {
  private readonly stmts = new Map<string, Statement>();

  private constructor(
    private readonly db: Database,
    readonly location: string,
    /** Whether the file was made anew at this open (missing, damaged, or of another version). */
    readonly fresh: boolean,
  ) {}

  /** Opens (or makes) the catalog at `file` (`:memory:` for none on disk). */
  static open(file: string): Catalog {
    try {
      return Catalog.tryOpen(file, false);
    } catch (e) {
      if (file === ':memory:') throw e;
      // A damaged file or one from another version: it is only a cache.
      removeCatalogFiles(file);
      return Catalog.tryOpen(file, true);
    }
  }

  private static tryOpen(file: string, fresh: boolean): Catalog {
    // Made before SQLite opens it, with the mode private data needs; its journal files take the same mode.
    if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    const Driver = libsqlDriver();
    const db = new Driver(file);
    try {
      db.exec('PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
      const has = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
      if (!has) {
        // Shards of an earlier catalog are not this one's.
        if (file !== ':memory:') removeShards(file);
        db.exec('BEGIN IMMEDIATE');
        // Another process may have made it meanwhile.
        if (!db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get()) {
          db.exec(SCHEMA);
          for (const setting of INDEX_SETTINGS()) {
            try {
              db.exec(setting);
            } catch {
              // Only slower without it.
            }
          }
          db.prepare('INSERT INTO meta(key, value) VALUES (?, ?), (?, ?)').run('version', String(CATALOG_VERSION), 'prices', PRICES_DATED);
        }
        db.exec('COMMIT');
        return new Catalog(db, file, true);
      }
      const version = db.prepare("SELECT value FROM meta WHERE key = 'version'").get();
      if (Number(version?.value) !== CATALOG_VERSION) throw new CatalogDamaged(`catalog version ${String(version?.value)}, not ${CATALOG_VERSION}`);
      const catalog = new Catalog(db, file, fresh);
      catalog.attachShards();
      catalog.repriceIfStale();
      return catalog;
    } catch (e) {
      db.close();
      throw e;
    }
  }

  close(): void {
    this.db.close();
  }

  /** The shards of the index attached (their numbers; shards.ts). */
  private readonly shards: number[] = [];

  /** Where messages are: the catalog's own tables, then each shard's (their schema names). */
  private sources(): string[] {
    return ['main', ...this.shards.map((n) => `ix${n}`)];
  }

  /** Whether reader threads can write shards of its index: a catalog kept on disk. */
  get shardable(): boolean {
    return this.location !== ':memory:';
  }

  /**
   * Attaches the shards the catalog lists that are not attached yet (another process may have made one). A shard
   * listed but gone makes the catalog damaged: it is built again.
   */
  private attachShards(): void {
    const listed = json(this.stmt("SELECT value FROM meta WHERE key = 'shards'").get()?.value ?? '[]').map(Number);
    for (const n of listed) {
      if (this.shards.includes(n)) continue;
      const path = shardFile(this.location, n);
      if (!existsSync(path)) throw new CatalogDamaged(`the index's shard ${path} is gone`);
      this.db.exec(`ATTACH DATABASE '${path.replace(/'/g, "''")}' AS ix${n}`);
      this.shards.push(n);
    }
  }

  /**
   * The shard `n`'s file, made (its tables) and attached where it is not (outside a transaction). Another process
   * may be making the same shard at the same time: its file is never removed here (a catalog made anew removes
   * the shards of the one before it), its tables made only where they are not, in a transaction.
   */
  shard(n: number): string {
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`no shard ${n}`);
    const path = shardFile(this.location, n);
    if (this.shards.includes(n)) return path;
    this.attachShards();
    if (this.shards.includes(n)) return path;
    // Made before SQLite opens it, with the mode private data needs.
    closeSync(openSync(path, 'a', 0o600));
    this.db.exec(`ATTACH DATABASE '${path.replace(/'/g, "''")}' AS ix${n}`);
    try {
      this.makeShard(n);
    } catch (e) {
      this.db.exec(`DETACH DATABASE ix${n}`);
      throw e;
    }
    this.shards.push(n);
    return path;
  }

  private makeShard(n: number): void {
    this.db.exec(`PRAGMA ix${n}.journal_mode = WAL; PRAGMA ix${n}.synchronous = NORMAL;`);
    // Read, then written: locked from the start (another process may be making it).
    this.transaction(() => {
      if (!this.db.prepare(`SELECT name FROM ix${n}.sqlite_master WHERE type = 'table' AND name = 'messages'`).get()) {
        this.db.exec(MESSAGE_TABLES(`ix${n}.`));
        for (const setting of INDEX_SETTINGS(`ix${n}.`)) {
          try {
            this.db.exec(setting);
          } catch {
            // Only slower without it.
          }
        }
      }
      const listed = json(this.stmt("SELECT value FROM meta WHERE key = 'shards'").get()?.value ?? '[]').map(Number);
      if (!listed.includes(n)) this.stmt("INSERT INTO meta(key, value) VALUES ('shards', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(JSON.stringify([...listed, n].sort((a, b) => a - b)));
    }, true);
  }

  /** Slots given out and not yet used, in this process: taken from the catalog SLOTS_AT_ONCE at a time. */
  private slots = { next: 0, end: 0 };

  /**
   * A slot no file has had (a file's range of ids, sql.ts): from a run of them taken from the catalog at once, so
   * that reader threads can be given theirs as they are given files, and another process takes others.
   */
  reserveSlot(): number {
    if (this.slots.next >= this.slots.end) {
      const take = () => {
        const kept = Number(this.stmt("SELECT value FROM meta WHERE key = 'next_slot'").get()?.value ?? 0);
        const next = Math.max(kept, Number(this.stmt('SELECT COALESCE(MAX(slot), 0) + 1 AS next FROM files').get()!.next));
        this.stmt("INSERT INTO meta(key, value) VALUES ('next_slot', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(next + SLOTS_AT_ONCE));
        this.slots = { next, end: next + SLOTS_AT_ONCE };
      };
      if (this.inTransaction) take();
      else this.transaction(take);
    }
    return this.slots.next++;
  }

  /**
   * Records what shard `n` was given (in a transaction): each file is then whole. A file read again or gone since
   * its slot was given holds that slot no more: what the shard was given of it is deleted.
   */
  markIndexed(n: number, indexed: Indexed): void {
    for (const e of indexed) {
      const done = this.stmt('UPDATE files SET whole = 1, indexed = indexed + ? WHERE path = ? AND slot = ? AND whole = 0').run(e.count, e.file, e.slot);
      if (done.changes > 0 || !this.shards.includes(n)) continue;
      const [lo, hi] = messageIds(e.slot);
      this.lockShards();
      this.deleteMessages(`ix${n}`, lo, hi);
    }
  }

  private deleteMessages(source: string, lo: number, hi: number): void {
    this.stmt(`DELETE FROM ${source}.messages_fts WHERE rowid BETWEEN ? AND ?`).run(lo, hi);
    this.stmt(`DELETE FROM ${source}.messages WHERE id BETWEEN ? AND ?`).run(lo, hi);
  }

  private stmt(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  /** Messages of this transaction, written at its end: their words after every other row (message-rows.ts). */
  private pendingMessages: MessageBatch[] = [];

  /**
   * Runs `fn` in one transaction (one write for many rows; readers see all of it or none). It takes the write lock
   * of the catalog alone, not BEGIN IMMEDIATE's of every attached database: the shards' writers (reader threads)
   * and this thread would wait on each other's transactions (measured: the 1.9 GB store's build 52.4 s against
   * 47.7 s), and a thread that commits again at once could keep this one waiting past its busy timeout. A shard
   * is locked where a transaction first asks it (`lockShards`), before it reads it: a write after a read of it
   * would fail where a thread wrote it in between. `all`: every attached database locked from the start.
   */
  transaction<T>(fn: () => T, all = false): T {
    if (all) this.db.exec('BEGIN IMMEDIATE');
    else {
      this.db.exec('BEGIN');
      try {
        this.stmt("UPDATE meta SET value = value WHERE key = 'version'").run();
      } catch (e) {
        this.db.exec('ROLLBACK');
        throw e;
      }
    }
    this.inTransaction = true;
    this.shardsLocked = all;
    this.pendingMessages = [];
    try {
      const out = fn();
      if (this.pendingMessages.length > 0) writeMessages((sql) => this.stmt(sql), this.pendingMessages);
      this.pendingMessages = [];
      this.db.exec('COMMIT');
      return out;
    } catch (e) {
      this.pendingMessages = [];
      this.db.exec('ROLLBACK');
      // Slots taken in it are not kept: taken again.
      this.slots = { next: 0, end: 0 };
      throw e;
    } finally {
      this.inTransaction = false;
    }
  }

  private shardsLocked = false;

  /** Every shard's write lock, taken before the transaction reads one (a write to nothing takes it). */
  private lockShards(): void {
    if (this.shardsLocked || !this.inTransaction) return;
    for (const n of this.shards) this.stmt(`DELETE FROM ix${n}.messages WHERE id = -1`).run();
    this.shardsLocked = true;
  }

  private inTransaction = false;

  /** Files that could not be read, with why. */
  failures(under?: readonly string[]): Array<{ path: string; error: string; line?: number; column?: number; /** A database of a tool not read here: its unread-stores id. */ notRead?: string }> {
    const args: unknown[] = [];
    return this.db
      .prepare(`SELECT path, error, error_line, error_column, format FROM files WHERE error IS NOT NULL AND ${underClause('path', under, args)} ORDER BY path`)
      .all(args)
      .map((r) => ({ path: String(r.path), error: String(r.error), line: opt<number>(r.error_line), column: opt<number>(r.error_column), ...(unreadStoreById(opt<string>(r.format)) ? { notRead: String(r.format) } : {}) }));
  }

  /**
   * The files under `under` the session list shows nothing of, and why: `unread`, a database of a tool not read
   * here (`format` its unread-stores id); `unreadable`, a file that does not read; `log`, a tool's log or index
   * kept beside its sessions (searched, not a session); `empty`, sessions of no message (Claude Code's titles of
   * other sessions).
   */
  notListed(under?: readonly string[]): NotListedFile[] {
    const args: unknown[] = [];
    const rows = this.db
      .prepare(
        `SELECT * FROM (SELECT f.path, f.format, f.format_label, f.error, ` +
          `(SELECT count(*) FROM sessions s WHERE s.file_id = f.id AND s.kind != 'log' AND s.messages > 0) AS listed, ` +
          `(SELECT count(*) FROM sessions s WHERE s.file_id = f.id AND s.kind = 'log') AS logs ` +
          `FROM files f WHERE ${underClause('f.path', under, args)}) WHERE error IS NOT NULL OR listed = 0 ORDER BY path`,
      )
      .all(args);
    return rows.map((r) => {
      const format = opt<string>(r.format);
      const why: NotListedFile['why'] = r.error !== null && r.error !== undefined ? (unreadStoreById(format) ? 'unread' : 'unreadable') : Number(r.logs) > 0 ? 'log' : 'empty';
      return { path: String(r.path), why, ...(format ? { format } : {}), ...(r.format_label !== null && r.format_label !== undefined ? { formatLabel: String(r.format_label) } : {}) };
    });
  }

  /** Every file catalogued under `under` (all of them without). */
  files(under?: readonly string[]): Map<string, CatalogedFile> {
    const args: unknown[] = [];
    const rows = this.db.prepare(`SELECT path, size, mtime_ms, ino, read_bytes, end_hash, whole FROM files WHERE ${underClause('path', under, args)}`).all(args);
    const out = new Map<string, CatalogedFile>();
    for (const r of rows) out.set(String(r.path), { path: String(r.path), size: Number(r.size), mtimeMs: Number(r.mtime_ms), ino: Number(r.ino), readBytes: Number(r.read_bytes), endHash: opt<string>(r.end_hash), ...(Number(r.whole) === 0 ? { partial: true as const } : {}) });
    return out;
  }

  /** The files read under `under` (not those that failed), with their format and size: what a scan of them reads. */
  readFiles(under?: readonly string[]): Array<{ path: string; format: string; size: number }> {
    const args: unknown[] = [];
    return this.db
      .prepare(`SELECT path, format, size FROM files WHERE error IS NULL AND format IS NOT NULL AND ${underClause('path', under, args)}`)
      .all(args)
      .map((r) => ({ path: String(r.path), format: String(r.format), size: Number(r.size) }));
  }

  fileState(path: string): CatalogedFile | undefined {
    const r = this.stmt('SELECT path, size, mtime_ms, ino, read_bytes, end_hash, whole FROM files WHERE path = ?').get(path);
    return r ? { path, size: Number(r.size), mtimeMs: Number(r.mtime_ms), ino: Number(r.ino), readBytes: Number(r.read_bytes), endHash: opt<string>(r.end_hash), ...(Number(r.whole) === 0 ? { partial: true as const } : {}) } : undefined;
  }

  /** Forgets a file (deleted, or moved out of the opened folders). */
  drop(path: string): void {
    const row = this.stmt('SELECT id FROM files WHERE path = ?').get(path);
    if (!row) return;
    this.dropSessionsOf(Number(row.id));
    this.stmt('DELETE FROM files WHERE id = ?').run(row.id);
  }

  private dropSessionsOf(fileId: number): void {
    // The index holds no text to delete by: its rows go by id (contentless_delete), a file's by its range of ids.
    // A file only listed so far has none, and the index is not asked (a first build would ask it for each file).
    this.dropMessagesOf(fileId);
    this.stmt('DELETE FROM sessions WHERE file_id = ?').run(fileId);
    this.stmt('DELETE FROM session_names WHERE file_id = ?').run(fileId);
  }

  /** A file's messages, from the catalog's tables and every shard's. */
  private dropMessagesOf(fileId: number): void {
    const slot = this.stmt('SELECT slot FROM files WHERE id = ?').get(fileId)?.slot;
    if (slot === null || slot === undefined) return;
    const [lo, hi] = messageIds(Number(slot));
    this.pendingMessages = this.pendingMessages.filter((b) => b.first < lo || b.first > hi);
    this.lockShards();
    for (const source of this.sources()) this.deleteMessages(source, lo, hi);
    this.stmt('UPDATE files SET indexed = 0, slot = NULL WHERE id = ?').run(fileId);
  }

  private insertNames(fileId: number, names: FileFacts['names']): void {
    for (const n of names ?? []) this.stmt('INSERT INTO session_names(file_id, session_id, name) VALUES (?, ?, ?)').run([fileId, n.sessionId, n.name]);
  }

  /**
   * The file's row, made or brought up to date; `known` when it was there before (it may have sessions), `listed`
   * when it was listed from a few of its lines only.
   */
  private fileRow(path: string, stamp: FileStamp, read: { bytes: number; endHash?: string; partial?: true; slot?: number }, facts: Partial<FileFacts> & { failure?: FileFailure }): { id: number; known: boolean; listed?: boolean } {
    const f = facts.failure;
    const args = [stamp.size, stamp.mtimeMs, stamp.ino, facts.format ?? f?.format ?? null, facts.formatLabel ?? null, facts.tool ?? null, f?.error ?? null, f?.line ?? null, f?.column ?? null, facts.otherRecords ?? 0, read.bytes, read.endHash ?? null, read.partial || read.slot !== undefined ? 0 : 1];
    const existing = this.stmt('SELECT id, whole FROM files WHERE path = ?').get(path);
    if (existing) {
      this.stmt('UPDATE files SET size = ?, mtime_ms = ?, ino = ?, format = ?, format_label = ?, tool = ?, error = ?, error_line = ?, error_column = ?, other = ?, read_bytes = ?, end_hash = ?, whole = ? WHERE id = ?').run([...args, existing.id]);
      return { id: Number(existing.id), known: true, listed: Number(existing.whole) === 0 };
    }
    return { id: Number(this.stmt('INSERT INTO files(size, mtime_ms, ino, format, format_label, tool, error, error_line, error_column, other, read_bytes, end_hash, whole, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run([...args, path]).lastInsertRowid), known: false };
  }

  /** Records a file that cannot be read, with why (its sessions are gone from the catalog). */
  putFailure(path: string, stamp: FileStamp, failure: FileFailure): void {
    const file = this.fileRow(path, stamp, { bytes: stamp.size }, { failure });
    if (file.known) this.dropSessionsOf(file.id);
  }

  /**
   * Records a file read whole: its sessions, their calls and messages, replacing what was known of it; or, with
   * `read.partial`, listed from a few of its lines (no messages: it is read whole next).
   */
  put(path: string, stamp: FileStamp, facts: FileFacts, read: { bytes: number; endHash?: string; partial?: true; /** Its messages are written into a shard at this slot (shards.ts): whole once they are (markIndexed). */ slot?: number } = { bytes: stamp.size }): void {
    const file = this.fileRow(path, stamp, read, facts);
    const fileId = file.id;
    if (file.listed && !read.partial) {
      this.putOverListed(fileId, facts);
      if (read.slot !== undefined) this.stmt('UPDATE files SET slot = ? WHERE id = ?').run(read.slot, fileId);
      return;
    }
    // A file new to the catalog has no rows to drop (a first build would otherwise look for them file by file).
    if (file.known) this.dropSessionsOf(fileId);
    if (read.slot !== undefined) this.stmt('UPDATE files SET slot = ? WHERE id = ?').run(read.slot, fileId);
    const sessionIds = facts.sessions.map((s) => this.insertSession(fileId, s));
    // A file's sessions are new here: their calls are those just written, added up without reading them back.
    const calls = this.insertCalls(sessionIds, facts.calls);
    this.insertMessages(fileId, facts.messages);
    this.insertNames(fileId, facts.names);
    for (const id of new Set(sessionIds)) this.addUpSession(id, calls.get(id) ?? []);
  }

  /**
   * A file only listed so far (its sessions and calls from a few of its lines, quick-read.ts) read whole: the rows
   * the whole read says the same of are kept (its calls, nearly always), not deleted and written again.
   */
  private putOverListed(fileId: number, facts: FileFacts): void {
    const known = this.stmt('SELECT id, conversation FROM sessions WHERE file_id = ?').all(fileId);
    const left = new Map(known.map((r) => [Number(r.conversation), Number(r.id)]));
    const sessionIds = facts.sessions.map((s) => {
      const id = left.get(s.conversation);
      if (id === undefined) return this.insertSession(fileId, s);
      left.delete(s.conversation);
      this.updateSession(id, { ...s, appended: undefined });
      return id;
    });
    for (const id of left.values()) this.stmt('DELETE FROM sessions WHERE id = ?').run(id);
    this.stmt('DELETE FROM session_names WHERE file_id = ?').run(fileId);
    // Messages a shard was given of it while it waited to be marked whole (a build stopped on the way).
    this.dropMessagesOf(fileId);
    const calls = this.replaceCalls(sessionIds, facts.calls);
    this.insertMessages(fileId, facts.messages);
    this.insertNames(fileId, facts.names);
    for (const id of new Set(sessionIds)) this.addUpSession(id, calls.get(id) ?? []);
  }

  /**
   * Puts sessions' calls in place of those they had: only a call whose figures differ is written, and one no
   * longer there deleted. Gives each session's as rows of `calls` would read back.
   */
  private replaceCalls(sessionIds: readonly number[], calls: readonly CallFacts[]): Map<number, Row[]> {
    const had = new Map<number, Map<string, Row>>();
    for (const id of new Set(sessionIds)) had.set(id, new Map(this.stmt(`SELECT key, ${CALL_FIGURES.join(', ')} FROM calls WHERE session = ? ORDER BY id`).all(id).map((r) => [String(r.key), r])));
    const now = callRows(sessionIds, calls);
    const changed = new Map<number, Map<string, Row>>();
    const out = new Map<number, Row[]>();
    for (const [id, rows] of now) {
      const was = had.get(id) ?? new Map<string, Row>();
      for (const [key, row] of rows) {
        const old = was.get(key);
        if (old && CALL_FIGURES.every((k) => (old[k] ?? null) === row[k])) continue;
        let diff = changed.get(id);
        if (!diff) changed.set(id, (diff = new Map()));
        diff.set(key, row);
      }
      // Rows read back by id: those kept first, in their order, then the new ones.
      out.set(id, [...[...was.keys()].filter((k) => rows.has(k)), ...[...rows.keys()].filter((k) => !was.has(k))].map((k) => rows.get(k)!));
    }
    for (const [id, was] of had) for (const key of was.keys()) if (!now.get(id)?.has(key)) this.stmt('DELETE FROM calls WHERE session = ? AND key = ?').run(id, key);
    this.writeCalls(changed);
    return out;
  }

  /**
   * Records what an agent appended to a file: the messages and calls after those known (a call's later lines
   * replace its figures), the session's figures added up again.
   */
  putAppended(path: string, stamp: FileStamp, facts: FileFacts, from: { messages: number[] }, read: { bytes: number; endHash?: string }): void {
    const fileId = this.fileRow(path, stamp, read, facts).id;
    const known = this.db.prepare('SELECT id, conversation FROM sessions WHERE file_id = ?').all(fileId);
    const byConversation = new Map(known.map((r) => [Number(r.conversation), Number(r.id)]));
    const sessionIds = facts.sessions.map((s) => {
      const id = byConversation.get(s.conversation);
      if (id === undefined) return this.insertSession(fileId, s);
      this.updateSession(id, s);
      return id;
    });
    this.insertCalls(sessionIds, facts.calls);
    this.insertMessages(
      fileId,
      facts.messages.filter((m) => m.index >= (from.messages[m.conversation] ?? 0)),
    );
    this.insertNames(fileId, facts.names);
    for (const id of new Set(sessionIds)) this.addUpSession(id);
  }

  private insertSession(fileId: number, s: SessionFacts): number {
    const id = Number(
      this.stmt('INSERT INTO sessions(file_id, conversation, session_id, parent_file, parent_session_id, agent_id, kind, title, project, first_at, last_at, models, messages, prompts, default_thread, threads) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run([fileId, s.conversation, ...sessionValues(s)]).lastInsertRowid,
    );
    this.shareProject(id, s);
    return id;
  }

  /**
   * A session of a folder's hash (Gemini CLI's projectHash): where it proves which folder that is, every session
   * of the hash ran there (a later CLI names its folder by a short name, and its sessions may name no path); where
   * it does not, it takes the folder another session proved.
   */
  private shareProject(id: number, s: SessionFacts): void {
    if (!s.projectHash) return;
    if (s.projectProven) {
      this.stmt('UPDATE sessions SET project_hash = ?, project_proven = 1 WHERE id = ?').run(s.projectHash, id);
      this.stmt('UPDATE sessions SET project = ? WHERE project_hash = ? AND project_proven = 0').run(s.project ?? null, s.projectHash);
      return;
    }
    const proven = this.stmt('SELECT project FROM sessions WHERE project_hash = ? AND project_proven = 1 LIMIT 1').get(s.projectHash);
    if (proven) this.stmt('UPDATE sessions SET project_hash = ?, project_proven = 0, project = ? WHERE id = ?').run(s.projectHash, proven.project, id);
    else this.stmt('UPDATE sessions SET project_hash = ?, project_proven = 0 WHERE id = ?').run(s.projectHash, id);
  }

  private updateSession(id: number, s: SessionFacts): void {
    if (s.appended) {
      const was = this.stmt('SELECT title, first_at, last_at, models, prompts FROM sessions WHERE id = ?').get(id);
      if (was) {
        const first = opt<string>(was.first_at);
        const last = opt<string>(was.last_at);
        s = {
          ...s,
          title: opt<string>(was.title) ?? s.title,
          firstAt: first && (!s.firstAt || first < s.firstAt) ? first : s.firstAt,
          lastAt: last && (!s.lastAt || last > s.lastAt) ? last : s.lastAt,
          models: [...new Set([...json(was.models), ...s.models])].sort(),
          prompts: Number(was.prompts) + s.prompts,
        };
      }
    }
    this.stmt('UPDATE sessions SET session_id = ?, parent_file = ?, parent_session_id = ?, agent_id = ?, kind = ?, title = ?, project = ?, first_at = ?, last_at = ?, models = ?, messages = ?, prompts = ?, default_thread = COALESCE(?, default_thread), threads = COALESCE(?, threads), secrets = NULL WHERE id = ?').run([...sessionValues(s), id]);
    this.shareProject(id, s);
  }

  /** Writes calls; gives each session's as rows of `calls` would read back (in the order they read back). */
  private insertCalls(sessionIds: readonly number[], calls: readonly CallFacts[]): Map<number, Row[]> {
    const written = callRows(sessionIds, calls);
    this.writeCalls(written);
    return new Map([...written].map(([id, rows]) => [id, [...rows.values()]]));
  }

  /** Upserts sessions' call rows (by session and key). */
  private writeCalls(rows: ReadonlyMap<number, ReadonlyMap<string, Row>>): void {
    const upsert = (n: number) =>
      this.stmt(
        `INSERT INTO calls(session, key, idx, at, day, model, input, output, cache_read, cache_write, cache_write_1h, reasoning, n, cost_usd) VALUES ${Array(n).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ` +
          'ON CONFLICT(session, key) DO UPDATE SET idx = excluded.idx, at = excluded.at, day = excluded.day, model = excluded.model, input = excluded.input, output = excluded.output, cache_read = excluded.cache_read, cache_write = excluded.cache_write, cache_write_1h = excluded.cache_write_1h, reasoning = excluded.reasoning, n = excluded.n, cost_usd = excluded.cost_usd',
      );
    // Rows written CALLS_AT_ONCE to a statement, the rest in one statement of their number: a store lists hundreds
    // of thousands of calls, and each statement run costs more than its rows.
    let args: unknown[] = [];
    for (const [id, session] of rows) {
      for (const [key, row] of session) {
        args.push(id, key);
        for (const k of CALL_FIGURES) args.push(row[k]);
        if (args.length === CALL_COLUMNS * CALLS_AT_ONCE) {
          upsert(CALLS_AT_ONCE).run(args);
          args = [];
        }
      }
    }
    if (args.length) upsert(args.length / CALL_COLUMNS).run(args);
  }

  private insertMessages(fileId: number, all: FileFacts['messages']): void {
    if (all.length === 0) return;
    // Ids given here (the file's next ones, after those of every shard), so that rows go several to a statement
    // and the index's rowid is known without asking.
    let slot = this.stmt('SELECT slot FROM files WHERE id = ?').get(fileId)?.slot;
    if (slot === null || slot === undefined) {
      slot = this.reserveSlot();
      this.stmt('UPDATE files SET slot = ? WHERE id = ?').run(slot, fileId);
    }
    const [lo, hi] = messageIds(Number(slot));
    let first = lo;
    this.lockShards();
    for (const source of this.sources()) first = Math.max(first, Number(this.stmt(`SELECT COALESCE(MAX(id) + 1, ?) AS next FROM ${source}.messages WHERE id BETWEEN ? AND ?`).get(lo, lo, hi)!.next));
    // Those of this transaction not written yet.
    for (const b of this.pendingMessages) if (b.first >= lo && b.first <= hi) first = Math.max(first, b.first + b.messages.length);
    // A file of more messages than its range holds (16.7 million) is searched in its first ones.
    const messages = all.length > hi + 1 - first ? all.slice(0, Math.max(0, hi + 1 - first)) : all;
    this.pendingMessages.push({ first, messages });
    this.stmt('UPDATE files SET indexed = indexed + ? WHERE id = ?').run(messages.length, fileId);
  }

  /** A session's usage figures and cost, from its calls. */
  private addUpSession(id: number, written?: readonly Row[]): void {
    const calls = written ?? this.stmt('SELECT day, model, input, output, cache_read, cache_write, cache_write_1h, reasoning, n, cost_usd FROM calls WHERE session = ? ORDER BY id').all(id);
    const report = addUp(calls.map((c) => reportedOf(callRow(c))));
    const cost = report ? costOf(report) : undefined;
    const priced = cost && cost.unpriced.length < Object.keys(report!.byModel).length;
    this.stmt('UPDATE sessions SET calls = ?, input_calls = ?, output_calls = ?, input = ?, output = ?, cache_read = ?, cache_write = ?, reasoning = ?, cost_usd = ?, unpriced = ? WHERE id = ?').run(
      report?.calls ?? 0,
      report?.inputCalls ?? 0,
      report?.outputCalls ?? 0,
      report?.input ?? 0,
      report?.output ?? 0,
      report?.cacheRead ?? 0,
      report?.cacheWrite ?? 0,
      report?.reasoning ?? 0,
      priced ? cost.usd : null,
      JSON.stringify(cost?.unpriced ?? []),
      id,
    );
    this.putUsageDays(id, calls);
  }

  /** A session's calls summed by day and model (one model however its tool spells it), in place of the sums it had. */
  private putUsageDays(id: number, calls: readonly Row[]): void {
    const sums = new Map<string, { day: unknown; model: unknown; calls: number; input: number; output: number; cacheRead: number; cacheWrite: number; cost: number; unpriced: number; inputCalls: number }>();
    for (const c of calls) {
      // A reply the tool wrote itself (an API error, an interruption) is no call: no row of $0.00 under a non-model.
      if (typeof c.model === 'string' && isNotAModel(c.model)) continue;
      const model = typeof c.model === 'string' ? modelKey(c.model) : null;
      const key = `${String(c.day)}\u0000${String(model)}`;
      let sum = sums.get(key);
      if (!sum) sums.set(key, (sum = { day: c.day ?? null, model, calls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, unpriced: 0, inputCalls: 0 }));
      const n = Number(c.n);
      sum.calls += n;
      sum.input += Number(c.input ?? 0);
      sum.output += Number(c.output ?? 0);
      sum.cacheRead += Number(c.cache_read);
      sum.cacheWrite += Number(c.cache_write);
      if (c.input !== null && c.input !== undefined) sum.inputCalls += n;
      if (c.cost_usd === null || c.cost_usd === undefined) sum.unpriced += n;
      else sum.cost += Number(c.cost_usd);
    }
    this.stmt('DELETE FROM usage_days WHERE session = ?').run(id);
    const insert = this.stmt('INSERT INTO usage_days(session, day, model, calls, input, output, cache_read, cache_write, cost_usd, unpriced, input_calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (const u of sums.values()) insert.run(id, u.day, u.model, u.calls, u.input, u.output, u.cacheRead, u.cacheWrite, u.cost, u.unpriced, u.inputCalls);
  }

  /** Prices change with the table: costs kept from an older table are computed again. */
  private repriceIfStale(): void {
    const kept = this.db.prepare("SELECT value FROM meta WHERE key = 'prices'").get();
    if (kept?.value === PRICES_DATED) return;
    this.transaction(() => {
      const calls = this.db.prepare('SELECT id, model, input, output, cache_read, cache_write, cache_write_1h, reasoning, n FROM calls').all();
      const set = this.stmt('UPDATE calls SET cost_usd = ? WHERE id = ?');
      for (const c of calls) set.run(callCost(callRow(c)) ?? null, c.id);
      for (const s of this.db.prepare('SELECT id FROM sessions').all()) this.addUpSession(Number(s.id));
      this.db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('prices', ?)").run(PRICES_DATED);
    });
  }

  /** Sessions, newest first (or most expensive), with the filters given. */
  sessions(q: SessionQuery = {}): SessionRow[] {
    const args: unknown[] = [];
    const where = sessionWhere(q, args);
    // A session whose file gives no times is as recent as the file.
    const order = q.sort === 'cost' ? 'COALESCE(s.cost_usd, -1) DESC' : "COALESCE(s.last_at, strftime('%Y-%m-%dT%H:%M:%fZ', f.mtime_ms / 1000.0, 'unixepoch')) DESC";
    args.push(q.limit ?? -1, q.offset ?? 0);
    const rows = this.db
      .prepare(
        // A sub-agent that names its session by id (Codex's thread_spawn), not by file: that session's file.
        `SELECT s.*, ${SESSION_NAMED} AS named, f.path, f.format, f.format_label, f.tool, f.size, f.mtime_ms, ` +
          `CASE WHEN s.parent_file IS NULL AND s.parent_session_id IS NOT NULL THEN (SELECT pf.path FROM sessions ps JOIN files pf ON pf.id = ps.file_id WHERE ps.session_id = s.parent_session_id AND ps.kind = 'session' ORDER BY pf.path LIMIT 1) END AS parent_found ` +
          `FROM sessions s JOIN files f ON f.id = s.file_id WHERE ${where} ORDER BY ${order}, f.path, s.conversation LIMIT ? OFFSET ?`,
      )
      .all(args);
    return rows.map(sessionRow);
  }

  /** How many messages search-all looks into under `under`. */
  messageCount(under?: readonly string[]): number {
    const args: unknown[] = [];
    return Number(this.db.prepare(`SELECT COALESCE(sum(indexed), 0) AS n FROM files WHERE ${underClause('path', under, args)}`).get(args)?.n ?? 0);
  }

  /**
   * What the index holds against what the files say it does: its message rows in every source, the messages the
   * files count as indexed, and rows of no file's slot (left by a build stopped on the way: they are never found,
   * but take room and the index's time).
   */
  integrity(): { rows: number; indexed: number; orphans: number } {
    let rows = 0;
    let orphans = 0;
    for (const x of this.sources()) {
      rows += Number(this.db.prepare(`SELECT count(*) AS n FROM ${x}.messages`).get()?.n ?? 0);
      orphans += Number(this.db.prepare(`SELECT count(*) AS n FROM ${x}.messages m WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.slot = m.id / ${FILE_MESSAGES})`).get()?.n ?? 0);
    }
    return { rows, indexed: Number(this.db.prepare('SELECT COALESCE(sum(indexed), 0) AS n FROM files').get()?.n ?? 0), orphans };
  }

  /** How many files are catalogued under `under`. */
  fileCount(under?: readonly string[]): number {
    const args: unknown[] = [];
    return Number(this.db.prepare(`SELECT count(*) AS n FROM files WHERE ${underClause('path', under, args)}`).get(args)?.n ?? 0);
  }

  /** How many sessions the query holds. */
  count(q: SessionQuery = {}): number {
    const args: unknown[] = [];
    const r = this.db.prepare(`SELECT count(*) AS n FROM sessions s JOIN files f ON f.id = s.file_id WHERE ${sessionWhere(q, args)}`).get(args);
    return Number(r?.n ?? 0);
  }

  /** Files under `under` with sessions not looked into for secrets yet: up to `limit`, the most recent first. */
  unscanned(under: readonly string[] | undefined, limit: number): Array<{ path: string; size: number; mtimeMs: number }> {
    const args: unknown[] = [];
    const where = underClause('f.path', under, args);
    args.push(limit);
    return this.db
      .prepare(`SELECT f.path, f.size, f.mtime_ms, max(COALESCE(s.last_at, '')) AS last FROM files f JOIN sessions s ON s.file_id = f.id WHERE s.secrets IS NULL AND s.kind != 'log' AND ${where} GROUP BY f.id ORDER BY last DESC LIMIT ?`)
      .all(args)
      .map((r) => ({ path: String(r.path), size: Number(r.size), mtimeMs: Number(r.mtime_ms) }));
  }

  /** How many files under `under` are still to be looked into for secrets. */
  unscannedCount(under?: readonly string[]): number {
    const args: unknown[] = [];
    const r = this.db.prepare(`SELECT count(DISTINCT f.id) AS n FROM files f JOIN sessions s ON s.file_id = f.id WHERE s.secrets IS NULL AND s.kind != 'log' AND ${underClause('f.path', under, args)}`).get(args);
    return Number(r?.n ?? 0);
  }

  /**
   * Records the secrets found in each conversation of a file (-1: not looked into), if the file is still as it was
   * when it was looked into (a file changed since is looked into again).
   */
  putSecrets(path: string, stamp: { size: number; mtimeMs: number }, counts: readonly number[]): void {
    const file = this.stmt('SELECT id FROM files WHERE path = ? AND size = ? AND mtime_ms = ?').get(path, stamp.size, stamp.mtimeMs);
    if (!file) return;
    const set = this.stmt('UPDATE sessions SET secrets = ? WHERE file_id = ? AND conversation = ?');
    this.transaction(() => {
      const conversations = this.stmt('SELECT conversation FROM sessions WHERE file_id = ?').all(file.id);
      for (const c of conversations) set.run(counts[Number(c.conversation)] ?? counts[0] ?? -1, file.id, c.conversation);
    });
  }

  /** Reported usage and cost added up by day, project, model or tool. */
  usage(by: UsageBy, under?: readonly string[]): UsageRow[] {
    const args: unknown[] = [];
    const key = by === 'day' ? 'u.day' : by === 'model' ? 'u.model' : by === 'project' ? 's.project' : 'f.tool';
    // From each session's sums by day and model (kept by the sync), not from every call.
    const rows = this.db
      .prepare(
        `SELECT ${key} AS key, sum(u.calls) AS calls, count(DISTINCT u.session) AS sessions, sum(u.input) AS input, sum(u.output) AS output, sum(u.cache_read) AS cache_read, sum(u.cache_write) AS cache_write, sum(u.cost_usd) AS cost, sum(u.unpriced) AS unpriced, sum(u.input_calls) AS input_calls ` +
          `FROM usage_days u JOIN sessions s ON s.id = u.session JOIN files f ON f.id = s.file_id WHERE ${underClause('f.path', under, args)} GROUP BY ${key} ORDER BY ${by === 'day' ? 'key DESC' : 'cost DESC'}`,
      )
      .all(args);
    return rows.map((r) => ({ key: r.key === null ? '' : String(r.key), calls: Number(r.calls), sessions: Number(r.sessions), input: Number(r.input), output: Number(r.output), cacheRead: Number(r.cache_read), cacheWrite: Number(r.cache_write), costUsd: Number(r.cost), unpricedCalls: Number(r.unpriced ?? 0), inputCalls: Number(r.input_calls ?? 0) }));
  }

  /** The most expensive calls, with the session and row each is on (its model named as the usage view groups it). */
  expensiveCalls(limit: number, under?: readonly string[]): Array<{ path: string; conversation: number; index: number; at?: string; model?: string; costUsd: number; input?: number; output?: number; title?: string }> {
    const args: unknown[] = [];
    const where = underClause('f.path', under, args);
    args.push(limit);
    return this.db
      .prepare(`SELECT f.path, s.conversation, COALESCE(${SESSION_NAMED}, s.title) AS title, c.idx, c.at, c.model, c.cost_usd, c.input, c.output FROM calls c JOIN sessions s ON s.id = c.session JOIN files f ON f.id = s.file_id WHERE c.cost_usd IS NOT NULL AND ${where} ORDER BY c.cost_usd DESC LIMIT ?`)
      .all(args)
      .map((r) => ({ path: String(r.path), conversation: Number(r.conversation), index: Number(r.idx), at: opt<string>(r.at), model: r.model === null || r.model === undefined ? undefined : modelKey(String(r.model)), costUsd: Number(r.cost_usd), input: opt<number>(r.input), output: opt<number>(r.output), title: opt<string>(r.title) }));
  }

  private searcher?: IndexSearch;

  /**
   * Messages holding every term as a word or a word's beginning (the rule of src/core/search), file by file in
   * the order of their paths: up to `limit` of them, and how many there are up to `countLimit` (the page and the
   * counts are of the first `countLimit` matches the index gives, in the order of the files' slots).
   */
  search(terms: readonly string[], opts: IndexSearchOptions): IndexSearchAnswer {
    // A shard another process made since this one opened it is searched too.
    try {
      this.attachShards();
    } catch {
      // gone meanwhile: what is attached is searched
    }
    this.searcher ??= new IndexSearch(this.db, (sql) => this.stmt(sql));
    return this.searcher.search(terms, opts, this.sources());
  }
}

function sessionRow(r: Row): SessionRow {
  return {
    id: Number(r.id),
    path: String(r.path),
    conversation: Number(r.conversation),
    format: opt(r.format),
    formatLabel: opt(r.format_label),
    tool: opt(r.tool),
    sessionId: opt(r.session_id),
    parentFile: opt(r.parent_file) ?? opt(r.parent_found),
    parentSessionId: opt(r.parent_session_id),
    agentId: opt(r.agent_id),
    kind: r.kind === 'subagent' || r.kind === 'log' ? r.kind : 'session',
    title: opt<string>(r.named) ?? opt(r.title),
    project: opt(r.project),
    firstAt: opt(r.first_at),
    lastAt: opt(r.last_at),
    models: json(r.models),
    messages: Number(r.messages),
    prompts: Number(r.prompts),
    calls: Number(r.calls),
    inputCalls: Number(r.input_calls),
    outputCalls: Number(r.output_calls),
    input: Number(r.input),
    output: Number(r.output),
    cacheRead: Number(r.cache_read),
    cacheWrite: Number(r.cache_write),
    reasoning: Number(r.reasoning),
    costUsd: opt(r.cost_usd),
    unpriced: json(r.unpriced),
    ...(r.secrets === null || r.secrets === undefined || Number(r.secrets) < 0 ? {} : { secrets: Number(r.secrets) }),
    bytes: Number(r.size),
    modifiedMs: Number(r.mtime_ms),
  };
}
