// Browser mode (the real bin's `serve`: the document service, the search index and the token counters on their
// own threads) on a folder of bombs: the 3 MB .eval whose header.json inflates to 3 GiB (it killed the server as
// the folder was listed, no click needed), a 160 KB .jsonl.zst declaring 5 GiB, a gzip and a database that unpack
// to 1 GiB, a line of 80 MB; then a session of one line of 40 MB in a server of its own. The server's peak
// memory, every thread counted, is read from /proc while it runs.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirEntry } from '../../app/shared/contract.js';
import { MAX_INFLATED_BYTES, MAX_RECORD_BYTES, sizeText } from '../../src/core/limits.js';
import { FIXTURES } from '../helpers.js';
import { evalBomb, gzipBomb, hugeLine, walBomb, zstdBomb } from '../support/bombs.js';
import { serveMeasured, type Served } from '../support/measured.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const WORDS = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do ';
/**
 * The most the server may hold while bombs are listed, indexed and refused: its threads (some 150 MiB), and for
 * each of the two threads that read whole files (the document service, the search index) what it unpacks of a
 * bomb before it stops (the 256 MiB cap), kept until its next collection, and the 80 MiB line it reads next
 * (its bytes, joined, and its text). Before the caps, the listing alone took 3.1 GB and the server died.
 */
const BOMBS_PEAK_MiB = 1280;
/** The listing reads no container past 8 MiB of what it unpacks: its threads, and that, a file at a time. */
const LISTED_PEAK_MiB = 400;

const BOMBS: Record<string, () => Buffer> = {
  'header-3gib.eval': () => evalBomb(3 * GiB),
  'rollout-5gib.jsonl.zst': () => zstdBomb(hugeLine(5 * GiB), { declared: true }),
  'session-1gib.jsonl.gz': () => gzipBomb(hugeLine(GiB)),
  'line-80mib.jsonl.gz': () => gzipBomb(hugeLine(80 * MiB, WORDS)),
};
const REFUSED = [...Object.keys(BOMBS), 'opencode.db'];

describe('browser mode on a folder of bombs', () => {
  let dir: string;
  let state: string;
  let served: Served;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ci-bombs-served-'));
    state = mkdtempSync(join(tmpdir(), 'ci-bombs-state-'));
    for (const [name, make] of Object.entries(BOMBS)) writeFileSync(join(dir, name), make());
    const db = join(dir, 'opencode.db');
    copyFileSync(join(FIXTURES, 'formats', 'opencode', 'opencode.db'), db);
    const main = readFileSync(db);
    writeFileSync(`${db}-wal`, walBomb(main, GiB / ((main[16] << 8) | main[17])));
    served = await serveMeasured(dir, state);
  }, 240_000);

  afterAll(async () => {
    await served?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  });

  it('lists the folder, every container read no further than the listing’s budget: the server survives', async () => {
    const listed = await served.ask<{ entries: DirEntry[] }>('dir:list', {});
    expect(listed.ok).toBe(true);
    const paths = listed.ok ? listed.value.entries.map((e) => e.path).sort() : [];
    expect(paths).toEqual([...REFUSED].sort());
    // Each file small on disk is read whole after its head: its second row of details is that read's.
    const details = (path: string) => served.events.filter((e) => e.event === 'dir:details' && (e.payload as { entries: DirEntry[] }).entries.some((x) => x.path === path)).length;
    for (const path of REFUSED) await served.until(() => details(path) >= 2, 180_000);
    const again = await served.ask<{ entries: DirEntry[] }>('dir:list', {});
    if (!again.ok) throw new Error(again.error.message);
    const byPath = new Map(again.value.entries.map((e) => [e.path, e]));
    expect(byPath.get('header-3gib.eval')).toMatchObject({ format: 'inspect-eval-json' });
    expect(byPath.get('opencode.db')).toMatchObject({ format: 'opencode-store' });
    for (const path of REFUSED) expect(byPath.get(path)?.pending, path).toBeUndefined();
    expect(served.alive()).toBe(true);
    console.log(`listed: peak ${Math.round(served.peakMiB())} MiB`);
    expect(served.peakMiB()).toBeLessThan(LISTED_PEAK_MiB);
  }, 240_000);

  it('indexes the folder for search, each bomb left out at the cap: the server survives', async () => {
    const answer = await served.ask('search:query', { query: 'lorem' });
    expect(answer.ok).toBe(true);
    await served.until((e) => e.event === 'search:progress' && (e.payload as { pending: number; building: boolean }).pending === 0 && !(e.payload as { building: boolean }).building, 300_000);
    expect(served.alive()).toBe(true);
    console.log(`indexed: peak ${Math.round(served.peakMiB())} MiB`);
    expect(served.peakMiB()).toBeLessThan(BOMBS_PEAK_MiB);
  }, 320_000);

  it('refuses to open each bomb, naming the file and the cap', async () => {
    for (const path of REFUSED) {
      const opened = await served.ask('conversation:open', { path, conversation: 0 });
      expect(opened.ok, path).toBe(false);
      const message = opened.ok ? '' : opened.error.message;
      expect(message, path).toContain(path);
      if (path === 'line-80mib.jsonl.gz') expect(message).toContain(`line 1 is 80 MiB long, more than the ${sizeText(MAX_RECORD_BYTES)}`);
      else expect(message, path).toContain(sizeText(MAX_INFLATED_BYTES));
    }
    expect(served.alive()).toBe(true);
    console.log(`bombs refused: peak ${Math.round(served.peakMiB())} MiB`);
    expect(served.peakMiB()).toBeLessThan(BOMBS_PEAK_MiB);
  }, 240_000);
});

describe('browser mode on a session of one huge line', () => {
  const LONG = 'long-line.jsonl';
  const LONG_MiB = 40;
  let dir: string;
  let state: string;
  let served: Served;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ci-long-line-'));
    state = mkdtempSync(join(tmpdir(), 'ci-long-state-'));
    const line = hugeLine(LONG_MiB * MiB, WORDS);
    writeFileSync(join(dir, LONG), line.prefix + Buffer.alloc(line.bytes, WORDS).toString() + line.suffix);
    served = await serveMeasured(dir, state);
    const listed = await served.ask('dir:list', {});
    expect(listed.ok).toBe(true);
  }, 240_000);

  afterAll(async () => {
    await served?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  });

  it(`opens and counts it for under 20 times its size (it took 37: 1.6 GB for 40 MB)`, async () => {
    const before = served.peakMiB();
    const opened = await served.ask<{ count: number }>('conversation:open', { path: LONG, conversation: 0 });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.value.count).toBe(1);
    const counted = await served.ask<{ tokens: number[] }>('tokens:count', { path: LONG, conversation: 0, model: 'gpt-4o' });
    if (!counted.ok) throw new Error(counted.error.message);
    // 64 characters of 12 tokens, over and over (and the line's start).
    expect(counted.value.tokens[0]).toBe((LONG_MiB * MiB * 12) / 64 + 1);
    expect(served.alive()).toBe(true);
    console.log(`a ${LONG_MiB} MiB line opened and counted: peak ${Math.round(served.peakMiB())} MiB (${Math.round(before)} MiB before)`);
    // Its text, its value, its skeleton, and the texts sent to be counted (once as parts, once as rendered).
    expect(served.peakMiB() - before).toBeLessThan(20 * LONG_MiB);
  }, 600_000);
});
