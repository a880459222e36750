import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, readDocumentFile } from '../../src/core/formats/document-file.js';
import { priceOf } from '../../src/core/pricing/prices.js';
import { getTokenizer } from '../../src/core/tokenizer/index.js';
import { addUp, callUsd, costOf, costText, describeUsage, reportedUsage } from '../../src/core/usage.js';
import fc from 'fast-check';
import { ROOT } from '../paths.js';
import { countView } from '../../src/core/views.js';
import { FIXTURES } from '../helpers.js';

const F = (p: string) => join(FIXTURES, 'formats', p);
const views = (file: ReturnType<typeof readDocumentFile>) => file.doc.conversations.flatMap((c) => c.records.map((r) => file.codec.view(r)));

describe('reported usage, in one meaning for every provider', () => {
  it('Codex: cached input is part of input_tokens, reasoning part of output_tokens; a repeated token_count counts once', () => {
    const file = readDocumentFile(F('codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl'));
    const r = reportedUsage(views(file))!;
    // The two token_count events' last_token_usage, which the running total confirms (17,002 in).
    expect(r).toMatchObject({ calls: 2, input: 17002, cacheRead: 14000, output: 520, reasoning: 256 });
    expect(describeUsage(r)).toBe('17,002 in (14,000 of them read from the cache) · 520 out (256 of them reasoning)');
    expect(Object.keys(r.byModel)).toEqual(['gpt-5-codex']);
    // Codex writes the same token_count again when nothing new was used: not a second call.
    const text = file.doc.text;
    const lines = text.split('\n');
    const k = lines.findIndex((l) => l.includes('"token_count"'));
    const next = lines.findIndex((l, i) => i > k && l.includes('"response_item"'));
    const twice = [...lines.slice(0, next + 1), lines[k], ...lines.slice(next + 1)].join('\n');
    expect(reportedUsage(views(parseDocumentText(twice, 'rollout-x.jsonl')))!.calls).toBe(2);
  });

  it('Claude Code: cache reads and writes come beside input_tokens, so the prompt is all three; a call written as two lines counts once', () => {
    const file = readDocumentFile(F('claude-code/session.jsonl'));
    const first = views(file).find((v) => v.usage)!;
    expect(first.usage).toMatchObject({ input: 4 + 11340 + 5120, cacheRead: 11340, cacheWrite: 5120, output: 212, key: 'msg_01XYZ' });
    const r = reportedUsage(views(file))!;
    expect(r.calls).toBe(3);
  });

  it('the cost at list prices: uncached input, cache reads and writes, and output each at its rate; unknown models said', () => {
    // Each model at its own row (a snapshot date aside), never a neighbour's by prefix.
    expect(priceOf('claude-sonnet-4-5-20250929')?.key).toBe('claude-sonnet-4-5');
    expect(priceOf('gpt-5-codex')?.key).toBe('gpt-5-codex');
    expect(priceOf('gpt-5-mini-2025-08-07')?.key).toBe('gpt-5-mini');
    const report = { calls: 1, input: 1_000_000, cacheRead: 600_000, cacheWrite: 100_000, output: 100_000, reasoning: 0, byModel: { 'claude-sonnet-4-5': { calls: 1, input: 1_000_000, cacheRead: 600_000, cacheWrite: 100_000, output: 100_000, reasoning: 0 }, 'llama-3': { calls: 1, input: 10, cacheRead: 0, cacheWrite: 0, output: 10, reasoning: 0 } } };
    const cost = costOf(report);
    // 300k uncached × $3 + 600k read × $0.30 + 100k written × $3.75 + 100k out × $15 (per million)
    expect(cost.usd).toBeCloseTo(0.9 + 0.18 + 0.375 + 1.5, 6);
    expect(cost.unpriced).toEqual(['llama-3']);
    expect(costOf(report, { 'claude-sonnet-4-5': { input: 1, cacheRead: 0, cacheWrite: 0, output: 0 } }).usd).toBeCloseTo(0.3, 6);
  });

  it('input a file does not record is said to be missing, never added as 0, and the cost says it is a floor', () => {
    // Copilot CLI records output per call (its input only in the shutdown summary); SillyTavern only the output.
    for (const file of ['copilot-cli/events.jsonl', 'sillytavern/Quartermaster - 2025-11-30@19h02m11s.jsonl']) {
      const r = reportedUsage(views(readDocumentFile(join(ROOT, 'examples', 'agents', file))))!;
      expect(r.calls, file).toBeGreaterThan(0);
      expect(r.inputCalls, file).toBe(0);
      expect(describeUsage(r), file).toMatch(/^input not recorded · [\d,]+ out$/);
    }
    const some = { calls: 3, inputCalls: 2, outputCalls: 3, input: 1200, cacheRead: 0, cacheWrite: 0, output: 300, reasoning: 0 };
    expect(describeUsage(some)).toBe('1,200 in (recorded by 2 of 3 calls) · 300 out');
    const report = { ...some, byModel: { 'gpt-5': some } };
    const cost = costOf(report);
    expect(cost.missingInput).toBe(1);
    expect(costText(cost, 1)).toMatch(/^\$\S+ at list prices \([\d-]+\), at least: 1 call records no input$/);
    // A call of no recorded model is said so, not named "(model not recorded)".
    const unnamed = { ...some, byModel: { '(model not recorded)': some } };
    expect(costText(costOf(unnamed), 1)).toMatch(/^no list price for calls whose model is not recorded \(prices of [\d-]+\)$/);
    // One call's own usage without input.
    expect(describeUsage({ output: 27 })).toBe('input not recorded · 27 out');
  });

  it('white space that is sent is counted as the tokenizer counts it', () => {
    const tokenizer = getTokenizer('gpt-5.4');
    const v = { role: 'assistant', normalRole: 'assistant' as const, parts: [{ kind: 'text' as const, text: '\n\n' }] };
    expect(countView(v, tokenizer).tokens).toBe(tokenizer.count('\n\n'));
    expect(tokenizer.count('\n\n')).toBe(1);
  });
});

describe('one call’s price', () => {
  it('is what costOf gives for that call alone, tiers and 1-hour cache writes included (property)', () => {
    const models = ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-20250514', 'claude-opus-4-5-20251101', 'gpt-5.6-sol', 'gpt-5', 'openrouter/openai/gpt-4o-mini', 'a-model-with-no-price', undefined];
    fc.assert(
      fc.property(
        fc.record({
          model: fc.constantFrom(...models),
          input: fc.option(fc.nat(400_000), { nil: undefined }),
          output: fc.option(fc.nat(40_000), { nil: undefined }),
          cacheRead: fc.nat(300_000),
          cacheWrite: fc.nat(100_000),
          cacheWrite1h: fc.option(fc.nat(100_000), { nil: undefined }),
          reasoning: fc.nat(5000),
          calls: fc.option(fc.integer({ min: 2, max: 5 }), { nil: undefined }),
        }),
        (u) => {
          const report = addUp([u]);
          const want = report && u.model && priceOf(u.model) ? costOf(report).usd : undefined;
          expect(callUsd(u)).toBe(want);
        },
      ),
      { numRuns: 500 },
    );
  });
});
