import { spawnSync } from 'node:child_process';
import initSqlJs from 'sql.js';

/**
 * SQLite fixtures built in the test (sql.js, SQLite itself compiled to WebAssembly), and the write-ahead log a
 * live database keeps: written here from the SQLite file format's own description (sqlite.org/fileformat2.html,
 * "The WAL File Format"), apart from the reader under test, and checked by Python's sqlite3 reading it.
 */
const SQL = await initSqlJs();

export type Row = Record<string, string | number | null | Uint8Array>;

/** A database of these statements and rows, as its file's bytes. */
export function sqliteFile(schema: string, rows: Record<string, Row[]> = {}): Uint8Array {
  const db = new SQL.Database();
  try {
    db.exec(schema);
    insert(db, rows);
    return db.export();
  } finally {
    db.close();
  }
}

function insert(db: InstanceType<typeof SQL.Database>, rows: Record<string, Row[]>) {
  for (const [table, list] of Object.entries(rows)) {
    for (const row of list) {
      const cols = Object.keys(row);
      db.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, cols.map((c) => row[c]));
    }
  }
}

/**
 * A database whose `later` rows are only in its write-ahead log, never checkpointed (what a tool that keeps its
 * database open leaves on disk): `main` is the file with `schema` and `first` rows (marked as a WAL database),
 * `wal` one committed transaction holding every page the later rows changed.
 */
export function sqliteWithWal(schema: string, first: Record<string, Row[]>, later: Record<string, Row[]>): { main: Uint8Array; wal: Uint8Array } {
  const db = new SQL.Database();
  let before: Uint8Array;
  let after: Uint8Array;
  try {
    db.exec(schema);
    insert(db, first);
    before = db.export();
    insert(db, later);
    after = db.export();
  } finally {
    db.close();
  }
  const pageSize = (before[16] << 8) | before[17];
  const main = walMarked(before);
  const afterMarked = walMarked(after);
  const pages: Array<{ number: number; data: Uint8Array }> = [];
  for (let p = 0; p * pageSize < afterMarked.length; p++) {
    const page = afterMarked.subarray(p * pageSize, (p + 1) * pageSize);
    const old = main.subarray(p * pageSize, (p + 1) * pageSize);
    if (old.length !== page.length || !page.every((b, i) => b === old[i])) pages.push({ number: p + 1, data: page });
  }
  return { main, wal: walFile(pageSize, pages, afterMarked.length / pageSize) };
}

/** The file's header says "WAL" (read and write versions 2), as the writer of a log leaves it. */
function walMarked(db: Uint8Array): Uint8Array {
  const copy = db.slice();
  copy[18] = 2;
  copy[19] = 2;
  return copy;
}

const be32 = (out: Uint8Array, at: number, v: number) => {
  out[at] = (v >>> 24) & 0xff;
  out[at + 1] = (v >>> 16) & 0xff;
  out[at + 2] = (v >>> 8) & 0xff;
  out[at + 3] = v & 0xff;
};

/** The WAL checksum (big-endian words, the 0x377f0683 magic): s0 += x[i] + s1; s1 += x[i+1] + s0, per word pair. */
function checksum(bytes: Uint8Array, s: [number, number]): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let [s0, s1] = s;
  for (let i = 0; i < bytes.length; i += 8) {
    s0 = (s0 + view.getUint32(i) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4) + s0) >>> 0;
  }
  return [s0, s1];
}

/** A log of one transaction: a 32-byte header, then a frame (24-byte header + page) per page; the last commits. */
function walFile(pageSize: number, pages: Array<{ number: number; data: Uint8Array }>, dbPages: number): Uint8Array {
  const out = new Uint8Array(32 + pages.length * (24 + pageSize));
  const salt = [0x1b2c3d4e, 0x5f607182];
  be32(out, 0, 0x377f0683);
  be32(out, 4, 3007000);
  be32(out, 8, pageSize);
  be32(out, 12, 0);
  be32(out, 16, salt[0]);
  be32(out, 20, salt[1]);
  let sum = checksum(out.subarray(0, 24), [0, 0]);
  be32(out, 24, sum[0]);
  be32(out, 28, sum[1]);
  pages.forEach((p, i) => {
    const at = 32 + i * (24 + pageSize);
    be32(out, at, p.number);
    be32(out, at + 4, i === pages.length - 1 ? dbPages : 0);
    be32(out, at + 8, salt[0]);
    be32(out, at + 12, salt[1]);
    out.set(p.data, at + 24);
    sum = checksum(out.subarray(at, at + 8), sum);
    sum = checksum(out.subarray(at + 24, at + 24 + pageSize), sum);
    be32(out, at + 16, sum[0]);
    be32(out, at + 20, sum[1]);
  });
  return out;
}

/**
 * What Python's sqlite3 (the SQLite library itself) reads of a database with its log: the database and its
 * `-wal` are copied to a folder of Python's own first (SQLite checkpoints a log into its file on close).
 * `script` gets `c`, a connection, and prints JSON.
 */
export function pythonSqlite<T>(file: string, script: string): T {
  const program = `
import json, os, shutil, sqlite3, sys, tempfile
src = sys.argv[1]
_dir = tempfile.mkdtemp()
db = os.path.join(_dir, os.path.basename(src))
shutil.copy(src, db)
if os.path.exists(src + '-wal'): shutil.copy(src + '-wal', db + '-wal')
c = sqlite3.connect(db)
${script}
c.close()
shutil.rmtree(_dir)
`;
  const r = spawnSync('python3', ['-c', program, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as T;
}
