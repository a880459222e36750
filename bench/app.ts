// App figures for `npm run bench`: opening a 100k-message file, and counting all its tokens.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import { dispatch } from '../app/main/dispatch.js';
import { WorkerTokenService } from '../app/main/token-service.js';
import { createRuntime } from '../app/server/runtime.js';
import { contentText, renderBlock, serializeConversation } from '../src/core/index.js';
import { generateHistory } from './generate.js';

const require = createRequire(import.meta.url);
const ms = (x: number) => (x < 100 ? x.toFixed(1) : x.toFixed(0));

export async function appBench(quick: boolean): Promise<string[]> {
  const n = quick ? 10_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'ci-bench-'));
  const file = join(dir, 'big.json');
  const messages = generateHistory(n, 3);
  writeFileSync(file, serializeConversation(messages, { format: 'json' }));
  const lines: string[] = [];
  try {
    // Baseline: what any viewer must do at least (median of three).
    const base: number[] = [];
    let t = 0;
    for (let run = 0; run < 3; run++) {
      t = performance.now();
      JSON.parse(readFileSync(file, 'utf8'));
      base.push(performance.now() - t);
    }
    const baseline = base.sort((a, b) => a - b)[1];

    // Median of three opens, each with a fresh runtime (nothing cached).
    const samples: number[] = [];
    let payload = 0;
    for (let run = 0; run < 3; run++) {
      const runtime = createRuntime({ dirs: [dir], mode: 'browser' });
      t = performance.now();
      const open = await dispatch(runtime.handlers, 'conversation:open', { path: 'big.json' });
      const rows = await dispatch(runtime.handlers, 'conversation:rows', { path: 'big.json', start: 0, count: 200 });
      // What crosses the socket is serialized and parsed again on the other side: counted too.
      const wire = JSON.stringify(open);
      JSON.parse(wire);
      payload = wire.length + JSON.stringify(rows).length;
      samples.push(performance.now() - t);
      if (!open.ok || !rows.ok) throw new Error('open failed');
      await runtime.close();
    }
    const firstRows = samples.sort((a, b) => a - b)[1];
    lines.push(`| open ${n.toLocaleString('en')} messages to first rows (skeleton + 200 rows) | ${ms(firstRows)} | read + JSON.parse: ${ms(baseline)} | ${(firstRows / baseline).toFixed(2)}x (goal ≤ 1.5x); ${(payload / 1e6).toFixed(1)} MB over IPC |`);

    // Token counts: our worker (cold: builds its encoder) vs plain single-thread js-tiktoken on the same texts.
    const texts = messages.map((m) => contentText(m.content));
    const blocks = messages.map((m, i) => renderBlock(m) + (i < n - 1 ? '\n\n' : ''));
    const service = new WorkerTokenService(pathToFileURL(join(import.meta.dirname, '..', 'dist', 'token-worker.mjs')));
    t = performance.now();
    await service.count({ model: 'gpt-5.4', parts: texts.map((t) => [t]), blocks: texts.map(() => '') }, () => {});
    const worker = performance.now() - t;
    t = performance.now();
    await service.count({ model: 'gpt-5.4', parts: texts.map((t) => [t]), blocks }, () => {});
    const workerBoth = performance.now() - t;
    await service.close();
    t = performance.now();
    const enc = new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
    for (const text of texts) enc.encode(text, [], []);
    const plain = performance.now() - t;
    lines.push(`| count all content tokens in the worker (cold, encoder build included) | ${ms(worker)} | js-tiktoken, one thread: ${ms(plain)} | ${(worker / plain).toFixed(2)}x |`);
    lines.push(`| again, content + rendered blocks (warm: piece cache) | ${ms(workerBoth)} | | |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
