import { readFileSync, statSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { ConversationFileError, TooBigError } from '../errors.js';
import { MAX_INFLATED_BYTES, sizeText } from '../../limits.js';
import { startsWith, type OpenLimits } from './container.js';

/**
 * SQLite through sql.js (SQLite compiled to WebAssembly: no native build, the same on every platform). Its
 * WebAssembly compiles once per process (~25 ms), when `loadSqlite` is first called; what reads files waits for
 * it once before it starts (the CLI when a database may be read, the document service, the search thread), so
 * that reading itself stays synchronous like every other reader. Not a top-level await: that would
 * hold up the evaluation of every module importing this one (Electron's main must register its scheme before
 * the app is ready). A database is read from a copy of its bytes in memory: the app never opens another app's
 * live database for writing, and never holds a lock on it.
 */
let SQL: SqlJsStatic | undefined;
let loading: Promise<void> | undefined;
/** Loads sql.js (once): its module only when first asked, so a process that reads no database never loads it. */
export function loadSqlite(): Promise<void> {
  loading ??= import('sql.js').then(
    async (m) => {
      SQL = await m.default();
    },
    () => {
      // Left unloaded: a database then says its reader could not load.
    },
  );
  return loading;
}

export const SQLITE_MAGIC = [...'SQLite format 3\0'].map((c) => c.charCodeAt(0));

export const isSqlite = (head: Uint8Array) => startsWith(head, SQLITE_MAGIC);

export interface ReadOnlyDatabase {
  /** Rows of a query as objects (text and numbers as SQLite holds them; a BLOB as bytes). */
  all(sql: string, params?: (string | number)[]): Record<string, unknown>[];
  tables(): Set<string>;
  close(): void;
}

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/** SQLite's WAL checksum over `data` (whole 8-byte steps), continuing from `s`; words big- or little-endian. */
function walChecksum(data: Uint8Array, from: number, to: number, bigEndian: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  const word = bigEndian ? (at: number) => u32(data, at) : (at: number) => ((data[at + 3] << 24) | (data[at + 2] << 16) | (data[at + 1] << 8) | data[at]) >>> 0;
  for (let i = from; i < to; i += 8) {
    s0 = (s0 + word(i) + s1) >>> 0;
    s1 = (s1 + word(i + 4) + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * The database as its writer sees it now: the main file with the committed transactions of its write-ahead
 * log applied (a live OpenCode or Cursor database keeps its newest messages in `-wal` until a checkpoint).
 * Frames are taken as SQLite's recovery takes them: from the start, while salts and chained checksums hold,
 * up to the last commit frame. The result is a rollback-journal database (a WAL one needs shared memory that
 * sql.js does not have). The size a commit gives the database is checked before the database is made:
 * against `cap`, and against the pages the file and the log hold (every page is in one of them).
 */
export function withWal(main: Uint8Array, wal: Uint8Array | undefined, cap = MAX_INFLATED_BYTES, file = 'the database'): Uint8Array {
  const pageSizeField = (main[16] << 8) | main[17];
  const pageSize = pageSizeField === 1 ? 65536 : pageSizeField;
  let db = main;
  if (wal && wal.length >= 32 && pageSize >= 512) {
    const magic = u32(wal, 0);
    const walPage = u32(wal, 8);
    if ((magic === 0x377f0682 || magic === 0x377f0683) && walPage === pageSize) {
      const bigEndian = magic === 0x377f0683;
      const salt = [u32(wal, 16), u32(wal, 20)];
      let sum = walChecksum(wal, 0, 24, bigEndian, [0, 0]);
      if (sum[0] === u32(wal, 24) && sum[1] === u32(wal, 28)) {
        const pending: Array<{ page: number; at: number }> = [];
        const committed: Array<{ page: number; at: number }> = [];
        let size = 0;
        for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
          if (u32(wal, at + 8) !== salt[0] || u32(wal, at + 12) !== salt[1]) break;
          sum = walChecksum(wal, at, at + 8, bigEndian, sum);
          sum = walChecksum(wal, at + 24, at + 24 + pageSize, bigEndian, sum);
          if (sum[0] !== u32(wal, at + 16) || sum[1] !== u32(wal, at + 20)) break;
          pending.push({ page: u32(wal, at), at: at + 24 });
          const commitSize = u32(wal, at + 4);
          if (commitSize > 0) {
            for (const f of pending) committed.push(f);
            pending.length = 0;
            size = commitSize;
          }
        }
        if (committed.length > 0) {
          if (size * pageSize > cap) throw new TooBigError(file, `its write-ahead log commits a database of ${sizeText(size * pageSize)}, more than the ${sizeText(cap)} a database is read to here: it is not read`, cap);
          if (size * pageSize > main.length + committed.length * pageSize) {
            throw new ConversationFileError(file, `its write-ahead log commits a database of ${size} pages, more than the file and the log hold (${Math.ceil(main.length / pageSize) + committed.length}): the log is damaged`);
          }
          db = new Uint8Array(size * pageSize);
          db.set(main.subarray(0, Math.min(main.length, db.length)));
          for (const f of committed) if (f.page <= size) db.set(wal.subarray(f.at, f.at + pageSize), (f.page - 1) * pageSize);
        }
      }
    }
  }
  if (db[18] === 2 || db[19] === 2) {
    if (db === main) db = main.slice();
    db[18] = 1;
    db[19] = 1;
  }
  return db;
}

/** The `-wal` beside a database, when there is one: a log past the cap is refused unread. */
function walOf(file: string, cap: number): Uint8Array | undefined {
  const walFile = `${file}-wal`;
  let size: number;
  try {
    size = statSync(walFile).size;
  } catch {
    return undefined;
  }
  if (size > cap) throw new TooBigError(file, `its write-ahead log (${walFile}) is ${sizeText(size)}, more than the ${sizeText(cap)} a database with its log is read to here: it is not read`, cap);
  try {
    return readFileSync(walFile);
  } catch {
    return undefined;
  }
}

/** A database file opened read-only from its bytes (and its `-wal` beside it, when there is one). */
export function openDatabase(file: string, bytes: Uint8Array, limits: OpenLimits = { maxInflatedBytes: MAX_INFLATED_BYTES }): ReadOnlyDatabase {
  const wal = walOf(file, limits.maxInflatedBytes);
  if (!SQL) throw new ConversationFileError(file, 'the SQLite reader (sql.js) is not loaded: databases cannot be read in this process');
  let db: Database;
  try {
    db = new SQL.Database(withWal(bytes, wal, limits.maxInflatedBytes, file));
    db.exec('PRAGMA query_only = 1');
  } catch (e) {
    if (e instanceof ConversationFileError) throw e;
    throw new ConversationFileError(file, `not a readable SQLite database (${(e as Error).message})`);
  }
  const all = (sql: string, params: (string | number)[] = []) => {
    const st = db.prepare(sql, params);
    const rows: Record<string, unknown>[] = [];
    try {
      while (st.step()) rows.push(st.getAsObject());
    } finally {
      st.free();
    }
    return rows;
  };
  return {
    all(sql, params) {
      try {
        return all(sql, params);
      } catch (e) {
        throw new ConversationFileError(file, `the database could not be read (${(e as Error).message})`);
      }
    },
    tables() {
      try {
        return new Set(all("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name)));
      } catch (e) {
        throw new ConversationFileError(file, `not a readable SQLite database (${(e as Error).message})`);
      }
    },
    close: () => db.close(),
  };
}

/** A column's value as text (SQLite may hand a JSON value back as a BLOB). */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
  return undefined;
}
