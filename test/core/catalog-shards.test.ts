import { appendFileSync, cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog, CatalogSync, inlineReaders, WorkerReaders, type Readers } from '../../src/core/catalog/index.js';
import { ShardWriter } from '../../src/core/catalog/shards.js';
import { formatsReady } from '../../src/core/formats/containers/index.js';
import { queryTerms } from '../../src/core/search/index.js';
import { FIXTURES, REALFILES, ROOT, tempDir } from '../helpers.js';

// The reader threads as the built app and CLI start them, each writing its shard of the index, but running the
// reader from source (tsx's loader in each thread), so that what is tested is the code as it is.
const READER = new URL('../../src/core/catalog/read-worker.ts', import.meta.url).href;
const RUNNER = new URL('../support/ts-worker.mjs', import.meta.url);
const threads = (width = 2) => new WorkerReaders(RUNNER, width, [], { entry: READER });

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
});

/** A store of many formats: the bundled examples, the test fixtures and, where they are here, the real files. */
function store(): string {
  const dir = tempDir();
  cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
  cpSync(join(FIXTURES, 'formats'), join(dir, 'formats'), { recursive: true });
  if (REALFILES) cpSync(REALFILES, join(dir, 'real'), { recursive: true });
  return dir;
}

async function build(dir: string, readers: Readers, file = join(tempDir(), 'catalog.sqlite')): Promise<{ catalog: Catalog; file: string }> {
  await formatsReady([dir]);
  const catalog = Catalog.open(file);
  opened.push(catalog);
  await new CatalogSync(catalog, readers).syncFolders([dir]);
  return { catalog, file };
}

const QUERIES = ['the', 'error', 'file', 'a', 'test', 'function', 'tax rounding', 'user', 'import', 'zzzyx', 'ls', 'run the tests'];

/** Everything a user is shown of a catalog (row ids aside, which differ between two builds of the same files). */
function answers(catalog: Catalog, dir: string) {
  const under = [dir];
  return {
    sessions: catalog
      .sessions({ under, limit: 100_000 })
      .map(({ id: _id, ...s }) => s)
      .sort((a, b) => (a.path + a.conversation).localeCompare(b.path + b.conversation)),
    byDay: catalog.usage('day', under),
    byModel: catalog.usage('model', under),
    notListed: catalog.notListed(under),
    failures: catalog.failures(under),
    messages: catalog.messageCount(under),
    // Every message row of the index is a file's, and counted as such.
    integrity: catalog.integrity(),
    searches: QUERIES.map((q) => {
      const all = catalog.search(queryTerms(q), { under, limit: 100_000, countLimit: 1_000_000 });
      const users = catalog.search(queryTerms(q), { under, roles: ['user'], limit: 100_000, countLimit: 1_000_000 });
      const page = catalog.search(queryTerms(q), { under, limit: 7, offset: 5, countLimit: 1_000_000 });
      // The counts by file in no order (a Map in the order of the files' slots, which two builds give out differently).
      return { q, all: { ...all, fileTotals: [...all.fileTotals].sort() }, users: users.hits, page: page.hits };
    }),
  };
}

describe('the index written in shards by the reader threads', () => {
  it('answers as a catalog built on one thread does: sessions, usage, every search', async () => {
    const dir = store();
    const one = await build(dir, inlineReaders);
    const readers = threads();
    try {
      const sharded = await build(dir, readers);
      expect(readers.threads).toBe(2);
      // Each thread wrote a shard of its own beside the catalog.
      expect(existsSync(`${sharded.file}.index-1`) && existsSync(`${sharded.file}.index-2`)).toBe(true);
      const expected = answers(one.catalog, dir);
      expect(expected.messages).toBeGreaterThan(1000);
      expect(expected.searches.every((s) => s.q === 'zzzyx' || s.all.total > 0)).toBe(true);
      expect(answers(sharded.catalog, dir)).toEqual(expected);
      // Another connection (the app's, while the CLI built it) attaches the shards and answers the same.
      const again = Catalog.open(sharded.file);
      opened.push(again);
      expect(answers(again, dir)).toEqual(expected);
    } finally {
      readers.close();
    }
  }, 120_000);

  it('kept up to date: files changed, grown, gone and new, by threads or by a watcher, nothing found twice', async () => {
    const dir = store();
    const readers = threads();
    try {
      const sharded = await build(dir, readers);
      const one = await build(dir, inlineReaders);
      const session = join(dir, 'examples/agents/claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13.jsonl');
      const lines = readFileSync(session, 'utf8').split('\n').filter(Boolean);
      const last = JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
      const line = (k: number, text: string) => JSON.stringify({ ...last, type: 'user', uuid: `00000000-0000-4000-8000-00000000000${k}`, parentUuid: last.uuid, message: { role: 'user', content: text } });
      // A watcher's update on this thread: the file's earlier messages are in a shard, the new ones in the catalog.
      appendFileSync(session, `${line(1, 'a zzzyx question about rounding')}\n`);
      for (const c of [sharded.catalog, one.catalog]) expect(new CatalogSync(c).update(session)).toBe(true);
      expect(answers(sharded.catalog, dir)).toEqual(answers(one.catalog, dir));
      expect(sharded.catalog.search(queryTerms('zzzyx'), { under: [dir], limit: 10, countLimit: 100 }).total).toBe(1);
      // Then a sync by the threads: one file grown, one rewritten, one gone, one new.
      appendFileSync(session, `${line(2, 'and one more zzzyx line')}\n`);
      const rewritten = join(dir, 'formats/sharegpt/dataset.json');
      writeFileSync(rewritten, readFileSync(rewritten, 'utf8').replace('boiling point', 'zzzyx point'));
      rmSync(join(dir, 'formats/openai/finetune.jsonl'));
      cpSync(join(FIXTURES, 'formats/openai/finetune.jsonl'), join(dir, 'formats/openai/copied.jsonl'));
      await new CatalogSync(sharded.catalog, readers).syncFolders([dir]);
      await new CatalogSync(one.catalog, inlineReaders).syncFolders([dir]);
      const expected = answers(one.catalog, dir);
      expect(expected.searches.find((s) => s.q === 'zzzyx')!.all.total).toBe(3);
      expect(answers(sharded.catalog, dir)).toEqual(expected);
    } finally {
      readers.close();
    }
  }, 120_000);

  it('a build stopped before its shards were marked reads those files again, and finds nothing twice', async () => {
    const dir = store();
    const file = join(tempDir(), 'catalog.sqlite');
    const inner = threads();
    // Readers whose shards write, but whose word of it never reaches the catalog (a build stopped just then).
    const stopped: Readers = {
      width: inner.width,
      shards: true,
      read: (f, size, place) => inner.read(f, size, place),
      flush: () => inner.flush(),
      quick: (f, size) => inner.quick(f, size),
      secrets: (f, size) => inner.secrets(f, size),
      close: () => inner.close(),
    };
    const readers = threads();
    try {
      const first = await build(dir, stopped, file);
      const unmarked = first.catalog.files([dir]);
      expect([...unmarked.values()].some((f) => f.partial)).toBe(true);
      first.catalog.close();
      const one = await build(dir, inlineReaders);
      const again = await build(dir, readers, file);
      expect([...again.catalog.files([dir]).values()].some((f) => f.partial)).toBe(false);
      expect(answers(again.catalog, dir)).toEqual(answers(one.catalog, dir));
    } finally {
      inner.close();
      readers.close();
    }
  }, 120_000);

  it('a shard gone or damaged makes the catalog a new one, built again whole', async () => {
    const dir = store();
    const readers = threads();
    try {
      const built = await build(dir, readers);
      const expected = answers(built.catalog, dir);
      built.catalog.close();
      rmSync(`${built.file}.index-2`);
      const reopened = Catalog.open(built.file);
      opened.push(reopened);
      expect(reopened.fresh).toBe(true);
      await new CatalogSync(reopened, readers).syncFolders([dir]);
      expect(answers(reopened, dir)).toEqual(expected);
      // Nothing of the old catalog is left beside the new one but its own shards.
      const beside = readdirSync(join(built.file, '..')).filter((f) => f.startsWith('catalog.sqlite.')).sort();
      expect(beside.filter((f) => !/-(wal|shm)$/.test(f))).toEqual(['catalog.sqlite.index-1', 'catalog.sqlite.index-2']);
    } finally {
      readers.close();
    }
  }, 120_000);

  it('two builds of one catalog at once (the app and the CLI, each with its threads): the same answers, nothing twice', async () => {
    const dir = store();
    const file = join(tempDir(), 'catalog.sqlite');
    const one = await build(dir, inlineReaders);
    const [a, b] = [threads(), threads()];
    try {
      await formatsReady([dir]);
      const [ca, cb] = [Catalog.open(file), Catalog.open(file)];
      opened.push(ca, cb);
      await Promise.all([new CatalogSync(ca, a).syncFolders([dir]), new CatalogSync(cb, b).syncFolders([dir])]);
      const expected = answers(one.catalog, dir);
      expect(answers(ca, dir)).toEqual(expected);
      expect(answers(cb, dir)).toEqual(expected);
    } finally {
      a.close();
      b.close();
    }
  }, 180_000);

  it("a thread writes its shard while the catalog's own transaction is open (neither waits on the other's lock)", async () => {
    const file = join(tempDir(), 'catalog.sqlite');
    const catalog = Catalog.open(file);
    opened.push(catalog);
    const path = catalog.shard(1);
    const writer = new ShardWriter(path);
    opened.push(writer);
    const slot = catalog.reserveSlot();
    let written: unknown;
    const started = performance.now();
    catalog.transaction(() => {
      writer.add('/nowhere/a.jsonl', slot, [{ conversation: 0, index: 0, role: 'user', text: 'zzzyx in a shard' }]);
      // Before, the catalog's BEGIN IMMEDIATE held every attached shard: this waited out its busy timeout and failed.
      written = writer.commit();
    });
    expect(written).toEqual([{ file: '/nowhere/a.jsonl', slot, count: 1 }]);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(catalog.integrity().rows).toBe(1);
  }, 30_000);
});

