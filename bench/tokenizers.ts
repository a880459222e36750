// Real-text throughput of the tokenizers the product could use, on the same texts, each from a cold start.
import { createRequire } from 'node:module';
import { Tiktoken } from 'js-tiktoken/lite';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { Tokenizer } from '../src/core/tokenizer/index.js';
import { realisticHistory, textsOf } from './corpus.js';
import { generateHistory } from './generate.js';

const require = createRequire(import.meta.url);

interface Run {
  ms: number;
  total: number;
}

function run(texts: readonly string[], count: (text: string) => number): Run {
  const start = performance.now();
  let total = 0;
  for (const t of texts) total += count(t);
  return { ms: performance.now() - start, total };
}

function mbps(bytes: number, r: Run): string {
  return (bytes / 1e6 / (r.ms / 1000)).toFixed(2);
}

/** Rows of `| texts | tokenizer | MB/s | × js-tiktoken | tokens |`, real text first, the easy generator last. */
export function tokenizerBench(quick: boolean): string[] {
  const lines: string[] = [];
  const cases: Array<[string, string[]]> = [
    ['real text (node_modules prose and code)', textsOf(realisticHistory(quick ? 2_000 : 8_000, 5))],
    ['easy case (60-word generator)', textsOf(generateHistory(quick ? 4_000 : 16_000, 5))],
  ];
  for (const [label, texts] of cases) {
    const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
    const plain = new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
    plain.encode('warm up');
    const base = run(texts, (t) => plain.encode(t, [], []).length);
    const ours = new Tokenizer('o200k_base');
    // Every encoder is built before timing (js-tiktoken's and gpt-tokenizer's are built on construction or import).
    ours.count('warm up');
    const oursCold = run(texts, (t) => ours.count(t));
    const oursWarm = run(texts, (t) => ours.count(t));
    const gpt = run(texts, (t) => gptTokenizerCount(t, { disallowedSpecial: new Set() }));
    const row = (name: string, r: Run) =>
      `| ${label} (${(bytes / 1e6).toFixed(1)} MB) | ${name} | ${mbps(bytes, r)} | ${(base.ms / r.ms).toFixed(2)}x | ${r.total === base.total ? 'same' : `differs: ${r.total} vs ${base.total}`} |`;
    lines.push(row('js-tiktoken (plain encode)', base));
    lines.push(row('ours, cold (first sight of every text)', oursCold));
    lines.push(row('ours, again (same texts: whole-text cache)', oursWarm));
    lines.push(row('gpt-tokenizer', gpt));
  }
  return lines;
}
