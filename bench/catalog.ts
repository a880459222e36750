// The session catalog on a heavy user's store: built from nothing beside a bare read of every line, kept up to
// date, and answering the session list, usage and search-all; beside ccusage where it can be installed.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog, CatalogSync, inlineReaders, WorkerReaders } from '../src/core/catalog/index.js';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { queryTerms } from '../src/core/search/index.js';
import { walkConversationTree } from '../src/core/storage/list-directory.js';
import { writeStore } from './store.js';
import { CatalogService } from '../app/service/catalog/catalog-service.js';
import { Roots } from '../app/service/roots.js';
import { indexFloor } from './catalog-floor.js';

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** The baseline: every file read in 1 MB chunks, split into lines, each line JSON.parse'd. */
function bareParse(files: readonly string[]): number {
  const buf = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  for (const file of files) {
    const fd = openSync(file, 'r');
    let rest = '';
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const text = rest + buf.toString('utf8', 0, n);
      const parts = text.split('\n');
      rest = parts.pop()!;
      for (const l of parts) {
        if (!l) continue;
        JSON.parse(l);
        lines++;
      }
    }
    if (rest) {
      JSON.parse(rest);
      lines++;
    }
    closeSync(fd);
  }
  return lines;
}

/** A process run to its end, its peak resident memory (VmHWM) read from /proc while it runs (Linux). */
function peakOf(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; peakMb?: number; status: number | null }> {
  const t = performance.now();
  const child = spawn(command, args, { env, stdio: 'ignore' });
  let peak: number | undefined;
  const read = () => {
    try {
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      if (kb) peak = Math.max(peak ?? 0, Math.round(Number(kb) / 1024));
    } catch {
      // gone, or no /proc here
    }
  };
  const timer = setInterval(read, 100);
  return new Promise((resolve) => {
    child.on('exit', (status) => {
      clearInterval(timer);
      resolve({ ms: performance.now() - t, peakMb: peak, status });
    });
  });
}

/** ccusage, installed into a folder of its own for the bench (never a dependency); undefined when it cannot be. */
function ccusage(): string | undefined {
  const dir = join(tmpdir(), 'ci-bench-ccusage');
  const bin = join(dir, 'node_modules', 'ccusage', 'src', 'cli.js');
  if (existsSync(bin)) return bin;
  const r = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', 'ccusage@20.0.24'], { encoding: 'utf8' });
  return r.status === 0 && existsSync(bin) ? bin : undefined;
}

export async function catalogBench(quick: boolean): Promise<string[]> {
  const shape = quick ? { projects: 12, sessions: 200, bytes: 120e6 } : { projects: 60, sessions: 1800, bytes: 1.5e9 };
  const dir = mkdtempSync(join(tmpdir(), 'ci-store-'));
  const out: string[] = [];
  try {
    const store = writeStore(dir, shape);
    const files = walkConversationTree(dir, { cap: 1_000_000 }).files.map((f) => f.file);
    bareParse(files); // the page cache warm for every side
    let t = performance.now();
    const lines = bareParse(files);
    const bare = performance.now() - t;
    out.push(`store: ${store.sessions.toLocaleString('en')} sessions, ${files.length.toLocaleString('en')} files, ${(store.bytes / 1e9).toFixed(2)} GB, ${lines.toLocaleString('en')} lines`);
    out.push(`baseline: a bare read + JSON.parse of every line: ${ms(bare)} ms`);

    // The readers as the built CLI and app start them (threads of their own), else on this thread.
    const built0 = join(import.meta.dirname, '..', 'dist', 'catalog-read-worker.mjs');
    const width = Number(process.env.CATALOG_READERS ?? Math.min(2, availableParallelism()));
    const readers = existsSync(built0) ? new WorkerReaders(pathToFileURL(built0), width) : inlineReaders;
    const file = join(dir, 'catalog.sqlite');
    const catalog = Catalog.open(file);
    const sync = new CatalogSync(catalog, readers);
    const rss0 = process.memoryUsage().rss;
    t = performance.now();
    let listedAt = 0;
    await sync.syncFolders([dir], { cap: 1_000_000, onProgress: (p) => void (p.listed && !listedAt && (listedAt = performance.now() - t)) });
    const built = performance.now() - t;
    readers.close();
    out.push(`every session listed with its usage (from each file's usage lines, before the whole reads): ${ms(listedAt)} ms = ${ratio(listedAt, bare)} (goal ≤ 1×)`);
    out.push(`catalog from nothing (every session, its usage, the full-text index; ${readers === inlineReaders ? 'read on one thread (no build)' : `${width} reader threads`}): ${ms(built)} ms = ${ratio(built, bare)} (goal ≤ 1.5×); peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (start ${Math.round(rss0 / 2 ** 20)} MB)`);
    catalog.close();
    const floor = await indexFloor(files, dir, width);
    out.push(`a floor on this machine: every line parsed and every message's text in an index of the same kind, on ${width} threads, nothing else (${floor.rows.toLocaleString('en')} texts): ${ms(floor.ms)} ms = ${ratio(floor.ms, bare)}`);

    t = performance.now();
    const again = Catalog.open(file);
    const againSync = new CatalogSync(again);
    await againSync.syncFolders([dir], { cap: 1_000_000 });
    out.push(`reopened, nothing changed: ${ms(performance.now() - t)} ms (goal ≤ 1 s)`);

    t = performance.now();
    const first = again.sessions({ under: [dir], limit: 60 });
    out.push(`the session list's first screen (60 rows): ${ms(performance.now() - t)} ms (${first.length} rows)`);

    t = performance.now();
    const days = again.usage('day', [dir]);
    const byDay = performance.now() - t;
    out.push(`usage by day over the store: ${ms(byDay)} ms (${days.length} days; goal ≤ 50 ms)`);

    // One line appended to a session an agent is writing: read from where it was left (its first append read
    // it whole and kept it parsed, as the app does for a file the watcher sees grow).
    const first1 = JSON.stringify({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: 'a question about the tax rounding' }, uuid: '00000000-0000-4000-a000-000000000000', timestamp: new Date().toISOString(), sessionId: 'x' });
    appendFileSync(store.live, `${first1}\n`);
    againSync.update(store.live);
    const line = JSON.stringify({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: 'one more question about the tax rounding' }, uuid: '00000000-0000-4000-a000-000000000001', timestamp: new Date().toISOString(), sessionId: 'x' });
    appendFileSync(store.live, `${line}\n`);
    t = performance.now();
    againSync.update(store.live);
    out.push(`one appended line reflected: ${ms(performance.now() - t)} ms (goal ≤ 50 ms; session of ${(statSync(store.live).size / 1e6).toFixed(1)} MB)`);

    const queries = ['token', 'refactor the parser', 'useEffect cleanup', 'zzzyx', 'install npm package version', 'error', 'const', 'readme'];
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * p) - 1)];
    // The lookup alone: the first answer's hits, counts and rows, as the catalog gives them.
    const lookups: number[] = [];
    for (const q of queries) {
      const s0 = performance.now();
      again.search(queryTerms(q), { under: [dir], limit: 300, countLimit: 50_000 });
      lookups.push(performance.now() - s0);
    }
    out.push(`search-all lookup, ${queries.length} queries (the first 300 hits by file, counts up to 50,000): median ${ms(pct(lookups, 0.5))} ms, p95 ${ms(pct(lookups, 0.95))} ms`);
    // What the app's search answers (its service, as its search thread runs it): the same lookup, then each hit's
    // line read from its file (while the answer is within its time) and the catalog's status.
    const service = new CatalogService(new Roots([dir]), file, () => inlineReaders);
    await new Promise<void>((done) => {
      service.onProgress = (s) => void (!s.building && done());
      service.start();
    });
    const answers: number[] = [];
    let read = 0;
    for (const q of queries) {
      const s0 = performance.now();
      const a = service.search({ query: q, limit: 300 });
      answers.push(performance.now() - s0);
      read += a.hits.filter((h) => h.snippet !== undefined).length;
    }
    service.close();
    out.push(`search-all as the app answers it (300 hits, ${read.toLocaleString('en')} of their lines read in all): median ${ms(pct(answers, 0.5))} ms, p95 ${ms(pct(answers, 0.95))} ms (goal: first answers ≤ 50 ms, p95 ≤ 100 ms)`);
    again.close();

    const cc = ccusage();
    if (cc) {
      t = performance.now();
      const r = spawnSync(process.execPath, [cc, 'daily', '--json', '--offline'], { env: { ...process.env, CLAUDE_CONFIG_DIR: dir }, encoding: 'utf8', maxBuffer: 1 << 28 });
      const ccTime = performance.now() - t;
      out.push(`ccusage 20 daily --json (cold, every file): ${ms(ccTime)} ms${r.status === 0 ? '' : ` (exit ${r.status})`}; the catalog's usage cold (every session listed with its usage): ${ratio(listedAt, ccTime)} (goal ≤ 2×)`);
      // What a user meets: the real bin, a catalog that does not exist yet, the whole process.
      const bin = join(import.meta.dirname, '..', 'bin', 'conversation-inspector.mjs');
      if (existsSync(built0)) {
        const state = mkdtempSync(join(tmpdir(), 'ci-bench-state-'));
        try {
          t = performance.now();
          const u = spawnSync(process.execPath, [bin, 'usage', dir, '--by', 'day', '--json'], { env: { ...process.env, XDG_STATE_HOME: state }, encoding: 'utf8', maxBuffer: 1 << 28 });
          const cli = performance.now() - t;
          out.push(`CLI usage --by day --json, cold (no catalog yet; whole process): ${ms(cli)} ms = ${ratio(cli, ccTime)} ccusage's${u.status === 0 ? '' : ` (exit ${u.status}: ${u.stderr.trim().split('\n').pop()})`}`);
          // The whole catalog built from nothing by the real bin (the build the app's service runs: the same sync and
          // reader threads), its peak memory read from the kernel as it runs.
          rmSync(state, { recursive: true, force: true });
          const whole = await peakOf(process.execPath, [bin, 'search', dir, 'zzzyx'], { ...process.env, XDG_STATE_HOME: state });
          out.push(`CLI search, cold (the whole catalog and its index built from nothing; whole process): ${ms(whole.ms)} ms = ${ratio(whole.ms, bare)}; peak RSS ${whole.peakMb === undefined ? 'not readable here' : `${whole.peakMb} MB`} (goal: the service ≤ 600 MB while it builds)${whole.status === 0 ? '' : ` (exit ${whole.status})`}`);
        } finally {
          rmSync(state, { recursive: true, force: true });
        }
      }
    } else out.push('ccusage: could not be installed here (npm install ccusage failed); no figure');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const l of await catalogBench(process.argv.includes('--quick'))) console.log(l);
}
