// One thread of the index floor (catalog-floor.ts): each file read, each line parsed, each message's text put in
// a full-text index of the catalog's own kind in a database of this thread's. Plain JS: started as it is.
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Driver = require('libsql');
const { files, db: dbFile, base } = workerData;
rmSync(dbFile, { force: true });
const db = new Driver(dbFile);
db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF');
db.exec(`CREATE VIRTUAL TABLE f USING fts5(text, content='', contentless_delete=1, detail=none, tokenize="unicode61 remove_diacritics 0 categories 'L* N* M*'")`);
db.exec("INSERT INTO f(f, rank) VALUES ('hashsize', 16777216)");
const insert = db.prepare('INSERT INTO f(rowid, text) VALUES (?, ?)');
const textOf = (c) => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => p.text ?? p.thinking ?? (p.input ? JSON.stringify(p.input) : textOf(p.content))).join('\n') : '');
let row = base;
db.exec('BEGIN');
for (const file of files) {
  for (const line of readFileSync(file).toString('utf8').split('\n')) {
    if (!line) continue;
    const text = textOf(JSON.parse(line).message?.content);
    if (!text) continue;
    insert.run(row++, text);
    if ((row - base) % 20000 === 0) {
      db.exec('COMMIT');
      db.exec('BEGIN');
    }
  }
}
db.exec('COMMIT');
db.close();
rmSync(dbFile, { force: true });
for (const s of ['-wal', '-shm']) rmSync(dbFile + s, { force: true });
parentPort.postMessage(row - base);
