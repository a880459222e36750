// `conversation-inspector search DIR QUERY` as a user runs it: the whole process of the real bin, answered from
// the catalog it keeps (up to date: nothing read again), beside starting node with nothing to do and beside grep
// listing the files that hold the words, all in the same run. Run alone on a small store:
// `npx tsx bench/cli-search.ts --sessions 40` (needs `npm run build` or `node scripts/build.mjs --cli-only`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeStore, type StoreShape } from './store.js';

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
const RUNS = 7;

/** The median wall time (ms) of `RUNS` runs of a process, each started afresh; its last run's output. */
function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv, ok: (status: number | null) => boolean = (status) => status === 0): { ms: number; stderr: string } {
  const runs: number[] = [];
  let stderr = '';
  for (let k = 0; k < RUNS; k++) {
    const start = performance.now();
    const r = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'ignore', 'pipe'] });
    runs.push(performance.now() - start);
    if (!ok(r.status)) throw new Error(`${command} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
    stderr = r.stderr;
  }
  return { ms: runs.sort((a, b) => a - b)[RUNS >> 1], stderr };
}

export async function cliSearchBench(quick: boolean, shape?: StoreShape): Promise<string[]> {
  const bin = join(import.meta.dirname, '..', 'bin', 'conversation-inspector.mjs');
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'cli.mjs'))) return ['| (skipped: run npm run build first: the bin is measured as built) | | | |'];
  const dir = mkdtempSync(join(tmpdir(), 'ci-cli-search-'));
  const lines: string[] = [];
  try {
    const store = writeStore(join(dir, 'store'), shape ?? (quick ? { projects: 12, sessions: 200, bytes: 120e6 } : { projects: 60, sessions: 1800, bytes: 1.5e9 }));
    const env = { ...process.env, XDG_STATE_HOME: join(dir, 'state') };
    // The catalog built once (and said), as the first search builds it; every run after reads nothing again.
    const first = spawnSync(process.execPath, [bin, 'search', store.dir, 'warm'], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
    if (first.status !== 0) throw new Error(`search: ${first.stderr}`);
    const size = `${store.sessions.toLocaleString('en')} sessions, ${store.files.toLocaleString('en')} files, ${(store.bytes / 1e6).toFixed(0)} MB`;
    lines.push(`| the catalog built by the first search (${size}; its stderr: ${first.stderr.split('\n').find((l) => l.startsWith('catalog:')) ?? 'no catalog line'}) | | | |`);
    const bare = timed(process.execPath, ['-e', ''], env).ms;
    const help = timed(process.execPath, [bin, '-h'], env).ms;
    lines.push(`| \`-h\` (the bin, a process each, median of ${RUNS}) | ${ms(help)} | \`node -e ''\`: ${ms(bare)} | ${(help / bare).toFixed(2)}x |`);
    // As a user runs it (the first 300 hits printed, every match counted), and once with every hit printed.
    for (const [query, all] of [['zzzyx', false], ['tax rounding', false], ['parser', false], ['parser', true]] as const) {
      const words = query.split(' ');
      // grep lists the files holding the first word (exit 1: none does).
      const grep = timed('grep', ['-rliF', words[0], store.dir], env, (s) => s === 0 || s === 1).ms;
      const search = timed(process.execPath, [bin, 'search', store.dir, query, ...(all ? ['--all'] : [])], env);
      if (/^catalog:/m.test(search.stderr)) throw new Error(`the catalog was read again: ${search.stderr}`);
      const said = search.stderr.split('\n').find((l) => /^(no matches|[\d,]+ match)/.test(l)) ?? '';
      lines.push(`| \`search DIR "${query}"${all ? ' --all' : ''}\` from the catalog, up to date (the whole process; ${said}) | ${ms(search.ms)} | \`node -e ''\`: ${ms(bare)}; \`grep -rliF ${words[0]}\`: ${ms(grep)} | ${(search.ms / bare).toFixed(2)}x node, ${(search.ms / grep).toFixed(2)}x grep${all ? '' : ' (goal ≤ 300 ms)'} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

if (process.argv[1]?.endsWith('bench/cli-search.ts')) {
  const at = process.argv.indexOf('--sessions');
  const sessions = at > 0 ? Number(process.argv[at + 1]) : undefined;
  const shape = sessions ? { projects: Math.max(1, Math.round(sessions / 16)), sessions, bytes: sessions * 150e3 } : undefined;
  console.log('| what | ms | baseline, same run | ratio |');
  console.log('|---|---|---|---|');
  for (const line of await cliSearchBench(process.argv.includes('--quick'), shape)) console.log(line);
}
