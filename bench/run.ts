// `npm run bench`: speed figures, each beside a baseline measured in the same run. Never asserts a time.
import { Conversation, buildSkeleton, getTokenizer, renderHistory, strategies, type Message, type Tokenizer, type WindowSkeleton } from '../src/core/index.js';
import { appBench } from './app.js';
import { uiBench } from './ui.js';
import { scrollBench } from './scroll.js';
import { generateHistory } from './generate.js';
import { tokenizerBench } from './tokenizers.js';
import { treeBench } from './tree.js';
import { secretsBench } from './secrets.js';
import { searchBench } from './search.js';
import { cliSearchBench } from './cli-search.js';
import { catalogBench } from './catalog.js';
import { hugeBench } from './huge.js';
import { metBench } from './met.js';
import { savesBench } from './saves.js';

const quick = process.argv.includes('--quick');

function time(fn: () => unknown, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const ms = (x: number) => (x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0));
function printTable(title: string, headers: string[], rows: Array<Array<string | number>>): void {
  console.log(`\n${title}\n`);
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`|${headers.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

/** The reference approach: encode the rendered string, then binary-search a suffix, re-encoding at each step. */
function referenceTrim(text: string, limit: number, tokenizer: Tokenizer): string {
  if (tokenizer.encode(text).length <= limit) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokenizer.encode(text.slice(mid)).length <= limit) hi = mid;
    else lo = mid + 1;
  }
  return text.slice(lo);
}

const tokenizer = getTokenizer('gpt-5.4');
tokenizer.count('warm up the encoder');

// 1. Re-planning from a skeleton whose counts are known (what a slider drag does in the renderer).
const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const planRows: Array<Array<string | number>> = [];
for (const n of sizes) {
  const messages = generateHistory(n);
  const full = buildSkeleton(messages, tokenizer);
  const countsOnly: WindowSkeleton = { messages: full.messages };
  const budget = Math.floor(full.messages.reduce((a, m) => a + m.tokens, 0) / 3);
  const baseline = time(() => countsOnly.messages.reduce((a, m) => a + m.tokens + m.renderedTokens, 0), 30);
  for (const s of strategies.list()) {
    const params = { contextLength: budget, limit: 200, windowSize: 200, softThresholdTokens: 4000 };
    let b = budget;
    const t = time(() => strategies.plan(s.id, countsOnly, { ...params, contextLength: (b = (b * 7 + 13) % (budget * 2)) }), 30);
    planRows.push([n.toLocaleString('en'), s.id, ms(t), ms(baseline), (t / baseline).toFixed(1) + 'x']);
  }
}
printTable('Re-plan from counts (median of 30, ms; goal < 5 ms at 100k). Baseline: one pass summing the counts.', ['messages', 'strategy', 'plan ms', 'baseline ms', 'ratio'], planRows);

// 2. returnHistoryAsString with the dynamic window vs the reference algorithm, same history, same run.
const libRows: Array<Array<string | number>> = [];
for (const n of quick ? [1_000] : [1_000, 10_000]) {
  const messages: Message[] = generateHistory(n, 11 + n);
  const limit = 8192;
  const conversation = new Conversation({ contextLength: limit, tokenizerModelName: 'gpt-5.4' });
  conversation.batchAdd(messages);
  const coldStart = performance.now();
  const ours = conversation.returnHistoryAsString();
  const cold = performance.now() - coldStart;
  time(() => conversation.returnHistoryAsString(), 5); // JIT warm-up, not measured
  const warm = time(() => conversation.returnHistoryAsString(), 30);
  const text = renderHistory(messages);
  const refStart = performance.now();
  const reference = referenceTrim(text, limit, tokenizer);
  const ref = performance.now() - refStart;
  if (reference.length < ours.length || tokenizer.count(ours) > limit) console.warn(`warning: at ${n} messages the results differ (ours ${ours.length} chars, reference ${reference.length})`);
  libRows.push([n.toLocaleString('en'), ms(cold), ms(warm), ms(ref), (ref / cold).toFixed(0) + 'x', (ref / warm).toFixed(0) + 'x']);
}
printTable(
  'returnHistoryAsString() with dynamicContextWindow (8192 tokens), ms. Reference: encode all, binary-search a suffix re-encoding each step (goal ≥ 100x).',
  ['messages', 'ours, first call', 'ours, again', 'reference', 'ratio (first)', 'ratio (again)'],
  libRows,
);

// 3. The app: opening a big file and counting its tokens.
console.log('\nThe app (ms)\n');
console.log('| what | ms | baseline, same run | ratio |');
console.log('|---|---|---|---|');
for (const line of await appBench(quick)) console.log(line);

// 4. Tokenizers on real text, and the 10,000-file tree.
console.log('\nTokenizers on the same texts, each encoder built before timing (MB/s; ratio to plain js-tiktoken)\n');
console.log('| texts | tokenizer | MB/s | ratio | counts |');
console.log('|---|---|---|---|---|');
for (const line of tokenizerBench(quick)) console.log(line);
console.log('\nThe folder tree (ms)\n');
console.log('| what | ms | baseline, same run | ratio |');
console.log('|---|---|---|---|');
for (const line of await treeBench(quick)) console.log(line);
console.log('\nSecrets and personal data (ms)\n');
console.log('| what | ms | baseline, same run | ratio |');
console.log('|---|---|---|---|');
for (const line of await secretsBench(quick)) console.log(line);
console.log('\nSearch across every conversation (ms)\n');
console.log('| what | ms | baseline, same run | ratio |');
console.log('|---|---|---|---|');
for (const line of await searchBench(quick)) console.log(line);
console.log('\nThe bin\'s search from its catalog, a process each (ms)\n');
console.log('| what | ms | baseline, same run | ratio |');
console.log('|---|---|---|---|');
for (const line of await cliSearchBench(quick)) console.log(line);

console.log(`\nThe session catalog on a heavy user's store (${quick ? '200 sessions' : '1,800 sessions, 1.5 GB'}): built from nothing, kept up to date, answering (ms)\n`);
for (const line of await catalogBench(quick)) console.log(`- ${line}`);

console.log('\nA session too big to read whole, read a part at a time (ms)\n');
console.log('| what | ms | baseline, same run | ratio |');
console.log('|---|---|---|---|');
for (const line of await hugeBench(quick)) console.log(line);

// Big files as a user meets them: `serve` on a folder, the file clicked as soon as the sidebar lists it.
console.log('\nBig files as a user meets them in Chromium: clicked as soon as listed, End pressed with the first rows (ms)\n');
console.log('| what | ms | baseline, same run | ratio |');
console.log('|---|---|---|---|');
for (const line of await metBench(quick)) console.log(line);

// 5. The window panel in a real browser: frames while the budget slider is dragged.
console.log('\nThe window panel in Chromium (each step: re-plan from counts, re-render rows, chart and totals)\n');
console.log('| what | figure | | |');
console.log('|---|---|---|---|');
for (const line of await uiBench(quick ? 10_000 : 200_000)) console.log(line);

// 6. Scrolling in Chromium: the table, then the transcript, from the middle of a 200k-message history.
console.log('\nScrolling with the wheel in Chromium: the table and the transcript (frame times)\n');
console.log('| what | median | p95 | max |');
console.log('|---|---|---|---|');
for (const line of await scrollBench(quick ? 10_000 : 200_000)) console.log(line);

console.log('\nSaves: the memory 1,000 saves of a 40 MB file hold, and an agent writing its session while the user saves\n');
console.log('| what | figures | baseline, same run | ratio |');
console.log('|---|---|---|---|');
for (const line of await savesBench(quick)) console.log(line);
