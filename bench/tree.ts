// The 10,000-file tree: first entries, every row filled, and a relist, beside reading each file's first 64 KB.
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serviceWorkerUrl, startBackend } from '../app/service/backend/backend.js';
import type { DirEntry } from '../app/shared/contract.js';
import { serializeConversation } from '../src/core/index.js';
import { walkConversationTree } from '../src/core/storage/list-directory.js';
import { realisticHistory } from './corpus.js';

const ms = (x: number) => (x < 100 ? x.toFixed(1) : x.toFixed(0));

/** Mixed sizes, as agents leave them: most runs short, some long, a few of several MB. */
export function writeTree(dir: string, files: number): void {
  let s = 99;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  const pool = realisticHistory(4000, 17);
  const perFolder = 100;
  for (let f = 0; f < files; f++) {
    const folder = join(dir, `agent-${Math.floor(f / perFolder)}`);
    if (f % perFolder === 0) mkdirSync(folder, { recursive: true });
    const r = rand();
    const n = r < 0.7 ? 2 + Math.floor(rand() * 20) : r < 0.97 ? 20 + Math.floor(rand() * 200) : 1000 + Math.floor(rand() * 3000);
    const start = Math.floor(rand() * (pool.length - n));
    writeFileSync(join(folder, `run-${f}.json`), serializeConversation(pool.slice(start, start + n), { format: 'json' }));
  }
}

function readHeads(dir: string): number {
  const buf = Buffer.alloc(64 * 1024);
  const t = performance.now();
  for (const f of walkConversationTree(dir).files) {
    const fd = openSync(f.file, 'r');
    readSync(fd, buf, 0, buf.length, 0);
    closeSync(fd);
  }
  return performance.now() - t;
}

export async function treeBench(quick: boolean): Promise<string[]> {
  const files = quick ? 2_000 : 10_000;
  const dir = mkdtempSync(join(tmpdir(), 'ci-tree-'));
  const lines: string[] = [];
  try {
    writeTree(dir, files);
    readHeads(dir); // the page cache warm for both sides
    const big = walkConversationTree(dir).files.filter((f) => f.bytes > 64 * 1024).length;
    const heads = readHeads(dir);
    // The document service as the app runs it: built, on its own thread, its watcher on another.
    const url = serviceWorkerUrl(pathToFileURL(join(import.meta.dirname, '..', 'dist', 'cli.mjs')).href);
    const rt = startBackend({ watch: process.env.NOWATCH ? false : undefined, dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.token-cache'), listingFile: join(dir, '.listing.json') }, undefined, url);
    // Filled when every entry pending in the first answer has come in an event without `pending`.
    // Filled: every row has its format and a count (exact, or estimated from its head); exact: every count read.
    const waiting = new Set<string>();
    const unfilled = new Set<string>();
    let filledAt = 0;
    let exact: () => void = () => {};
    const allExact = new Promise<void>((resolve) => (exact = resolve));
    rt.onEvent = (event, payload) => {
      if (event !== 'dir:details') return;
      for (const e of (payload as { entries: DirEntry[] }).entries) {
        if (e.format || e.error) unfilled.delete(e.path);
        if (!e.pending) waiting.delete(e.path);
      }
      if (unfilled.size === 0 && filledAt === 0) filledAt = performance.now() - t;
      if (waiting.size === 0) exact();
    };
    await rt.request('settings:get', {}); // the service started: its start is not the listing's
    const t = performance.now();
    const first = await rt.request('dir:list', {});
    const firstMs = performance.now() - t;
    if (!first.ok) throw new Error(first.error.message);
    for (const e of (first.value as { entries: DirEntry[] }).entries) {
      if (!e.pending) continue;
      waiting.add(e.path);
      // A row the first answer gives its format (heads read while the walk went on) is filled already.
      if (!e.format && !e.error) unfilled.add(e.path);
    }
    if (unfilled.size === 0) filledAt = firstMs;
    if (waiting.size > 0) await allExact;
    const exactAt = performance.now() - t;
    const t2 = performance.now();
    const again = await rt.request('dir:list', {});
    const relist = performance.now() - t2;
    if (!again.ok) throw new Error(again.error.message);
    await rt.close();
    lines.push(`| ${files.toLocaleString('en')}-file tree: first entries (dir:list answer) | ${ms(firstMs)} | | goal ≤ 200 ms |`);
    lines.push(`| every row filled: format and a count (exact, or ≈ from the head for files over 64 KB) | ${ms(filledAt)} | read each file's first 64 KB: ${ms(heads)} | ${(filledAt / heads).toFixed(2)}x (goal ≤ 2x) |`);
    lines.push(`| every count exact (whole reads of the ${big} files over 64 KB, up to 8 MB) | ${ms(exactAt)} | | |`);
    lines.push(`| relist from the cache | ${ms(relist)} | the first listing, exact: ${ms(exactAt)} | ${(relist / exactAt).toFixed(3)}x (goal ≤ 0.1x) |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
