// Files made to cost: archives and compressed files that unpack to gigabytes, a database whose write-ahead log
// declares one, a log that indents to hundreds of megabytes, a record of tens of megabytes. Through the real bin
// (`show`, `ls`), each is refused naming the file and the cap, or read, with the process's peak memory measured
// from the process itself: well under what the file unpacks to (before the caps, each cost gigabytes or died).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_INFLATED_BYTES, MAX_RECORD_BYTES, sizeText } from '../../src/core/limits.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { evalBomb, gzipBomb, hugeLine, walBomb, zstdBomb } from '../support/bombs.js';
import { runMeasured } from '../support/measured.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/**
 * What a refused bomb may cost at most: the process itself (60 to 150 MiB, bundled or through tsx) and what it
 * unpacks before it stops (the 256 MiB cap, once). Each bomb unpacks to 1 GiB or more.
 */
const REFUSED_PEAK_MiB = 640;
const WORDS = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do ';

/** The bombs, each a few megabytes at most on disk. */
const BOMBS: Record<string, () => Buffer> = {
    // The .eval of the report: header.json inflates to 3 GiB from 3 MB.
  'header-3gib.eval': () => evalBomb(3 * GiB),
  // An .eval whose directory says its header is 1,000 bytes: it inflates to a gigabyte.
  'liar.eval': () => evalBomb(GiB, 1000),
  // The .jsonl.zst of the report: 5 GiB declared in its frame header, from 160 KB.
  'rollout-5gib.jsonl.zst': () => zstdBomb(hugeLine(5 * GiB), { declared: true }),
  // Written as a stream writes it: no size said, 1 GiB of blocks.
  'stream-1gib.jsonl.zst': () => zstdBomb(hugeLine(GiB), { windowLog: 20 }),
  'session-1gib.jsonl.gz': () => gzipBomb(hugeLine(GiB)),
};
const NAMES = [...Object.keys(BOMBS), 'opencode.db'];

let folder: string | undefined;
/** A folder of every bomb, made once for the file (and removed after it). */
function bombFolder(): string {
  if (folder) return folder;
  const dir = mkdtempSync(join(tmpdir(), 'ci-bombs-'));
  for (const [name, make] of Object.entries(BOMBS)) writeFileSync(join(dir, name), make());
  // OpenCode's database as it is, beside a write-ahead log whose one commit makes it a gigabyte.
  const db = join(dir, 'opencode.db');
  copyFileSync(join(FIXTURES, 'formats', 'opencode', 'opencode.db'), db);
  const main = readFileSync(db);
  writeFileSync(`${db}-wal`, walBomb(main, GiB / ((main[16] << 8) | main[17])));
  return (folder = dir);
}
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const CAP = sizeText(MAX_INFLATED_BYTES);

describe('show refuses a bomb of each container within a memory cap', () => {
  it.each(NAMES)('%s', async (name) => {
    const dir = bombFolder();
    const run = await runMeasured(['show', join(dir, name)], tempDir());
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(1);
    // One line naming the file and why; no stack.
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    if (name === 'liar.eval') expect(run.stderr).toContain(`${join(dir, name)}#header.json: inflates past the 1000 bytes the archive declares for it`);
    else expect(run.stderr).toContain(`${join(dir, name)}: `);
    if (name !== 'liar.eval') expect(run.stderr).toContain(CAP);
    expect(run.peakMiB, `${name}: ${run.stderr}`).toBeDefined();
    console.log(`show ${name}: peak ${Math.round(run.peakMiB!)} MiB`);
    expect(run.peakMiB!).toBeLessThan(REFUSED_PEAK_MiB);
  }, 240_000);
});

describe('ls lists a folder of bombs, each with its refusal, within the same cap', () => {
  it('every bomb listed with its error; the process never holds more than one cap', async () => {
    const dir = bombFolder();
    const run = await runMeasured(['ls', dir], tempDir());
    expect(run.signal, run.stderr).toBeNull();
    for (const name of NAMES) {
      expect(run.stdout).toMatch(new RegExp(`^error\\s.*\\s${name.replace(/\./g, '\\.')}$`, 'm'));
      expect(run.stderr).toContain(`error: ${name}: `);
    }
    expect(run.peakMiB).toBeDefined();
    console.log(`ls of the bombs: peak ${Math.round(run.peakMiB!)} MiB`);
    expect(run.peakMiB!).toBeLessThan(REFUSED_PEAK_MiB);
  }, 300_000);
});

describe('a log that indents to hundreds of megabytes', () => {
  it('a VS Code chat log nested 200 deep over 1.5 million values is assembled compact, not indented to 600 MB', async () => {
    const dir = tempDir();
    // Replayed and indented by two spaces a level, each value's line would be 400 spaces long.
    const deep = '['.repeat(200) + Array(1_500_000).fill('0').join(',') + ']'.repeat(200);
    writeFileSync(join(dir, 'session.jsonl'), `{"kind":0,"v":{"version":3,"requests":[],"deep":${deep}}}\n`);
    const run = await runMeasured(['show', join(dir, 'session.jsonl')], tempDir());
    expect(run.code, run.stderr).toBe(1);
    // What it holds is read, and found to be no chat session: said as such (it said "Invalid string length").
    expect(run.stderr).toMatch(/session\.jsonl: not VS Code chat session/);
    expect(run.peakMiB!).toBeLessThan(400);
  }, 240_000);
});

describe('a huge record', () => {
  it(`a line past ${sizeText(MAX_RECORD_BYTES)} is refused naming its line (here unpacked from 80 KB of gzip)`, async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'session.jsonl.gz'), gzipBomb(hugeLine(80 * MiB, WORDS)));
    const run = await runMeasured(['show', join(dir, 'session.jsonl.gz')], tempDir());
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`session.jsonl.gz:1:1: line 1 is 80 MiB long, more than the ${sizeText(MAX_RECORD_BYTES)} a record is read to here`);
    expect(run.peakMiB!).toBeLessThan(REFUSED_PEAK_MiB);
  }, 240_000);

  it('a line of 20 MB of one letter, one piece to the tokenizer, is counted within the cap (it took 1.8 GB)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'session.jsonl.gz'), gzipBomb(hugeLine(20 * MiB, 'x')));
    const run = await runMeasured(['show', join(dir, 'session.jsonl.gz')], tempDir());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/1 message, [\d,]+ tokens/);
    console.log(`show of a 20 MiB run of one letter: peak ${Math.round(run.peakMiB!)} MiB`);
    expect(run.peakMiB!).toBeLessThan(REFUSED_PEAK_MiB);
  }, 600_000);

  it('a single line of 60 MB of one-letter words is shown and counted for under 6 times its size more than a small session (it took 24)', async () => {
    const dir = tempDir();
    // 31 million pieces to the tokenizer, each ' a'.
    const line = hugeLine(60 * MiB, 'a ');
    writeFileSync(join(dir, 'session.jsonl'), line.prefix + Buffer.alloc(line.bytes, 'a ').toString() + line.suffix);
    const small = await runMeasured(['show', join(FIXTURES, 'formats', 'claude-code', 'session.jsonl')], tempDir());
    const run = await runMeasured(['show', join(dir, 'session.jsonl')], tempDir());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`1 message, ${((60 * MiB) / 2 + 1).toLocaleString('en')} tokens`);
    expect(small.peakMiB).toBeDefined();
    console.log(`show of a 60 MiB line: peak ${Math.round(run.peakMiB!)} MiB, ${Math.round(small.peakMiB!)} MiB for a small session`);
    // Its bytes, its text, its value, its hash for the kept counts: the tokenizer kept every piece besides.
    expect(run.peakMiB! - small.peakMiB!).toBeLessThan(6 * 60);
  }, 600_000);
});
