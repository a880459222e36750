import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, readDocumentFile } from '../../src/core/formats/document-file.js';
import { modelKey, PRICE_TABLE, priceRowOf } from '../../src/core/pricing/prices.js';
import { addUp, costOf, costText, priceSourcesText, reportedUsage } from '../../src/core/usage.js';
import { FIXTURES, REALFILES, ROOT } from '../helpers.js';

/**
 * Every model id the files here name, with the row that must price it (its label), or null where no row
 * may: a new id fails this test until someone decides which it is, never silently priced as a neighbour.
 */
const EXPECTED: Record<string, string | null> = {
  // shared/realfiles
  'claude-opus-4-6': 'Claude Opus 4.6',
  'claude-opus-4-5-20251101': 'Claude Opus 4.5',
  'claude-opus-4-5': 'Claude Opus 4.5',
  'claude-sonnet-4-20250514': 'Claude Sonnet 4',
  'claude-sonnet-4-5-20250929': 'Claude Sonnet 4.5',
  'claude-sonnet-4-6': 'Claude Sonnet 4.6',
  'claude-sonnet-4.6': 'Claude Sonnet 4.6',
  'claude-haiku-4-5-20251001': 'Claude Haiku 4.5',
  '<synthetic>': "Claude Code's own reply",
  'unsloth/Qwen3-Coder-Next': null,
  'gpt-5.6-sol': 'GPT-5.6 Sol',
  'gpt-5.5': 'GPT-5.5',
  'gpt-5.4-mini': 'GPT-5.4 mini',
  'gpt-5.3-codex': 'GPT-5.3-Codex',
  'gpt-5.1-codex': 'GPT-5.1-Codex',
  'gpt-5.1-codex-max': 'GPT-5.1-Codex-Max',
  'gemini-2.5-pro': 'Gemini 2.5 Pro',
  'Gemini 2.5 Pro': 'Gemini 2.5 Pro',
  'gemini-2.5-flash': 'Gemini 2.5 Flash',
  // Gemini CLI's "let it choose" settings, not models.
  'auto-gemini-3': null,
  'auto-gemini-2.5': null,
  // Aider's opening notice names the model with its provider's route.
  'openrouter/openai/gpt-4o-mini': 'GPT-4o mini',
  // test/fixtures and examples
  'claude-sonnet-4-5': 'Claude Sonnet 4.5',
  'claude-sonnet-4.5': 'Claude Sonnet 4.5',
  'anthropic/claude-sonnet-4-5': 'Claude Sonnet 4.5',
  'copilot/claude-sonnet-4': 'Claude Sonnet 4',
  'copilot/gpt-4.1': 'GPT-4.1',
  'gpt-5-codex': 'GPT-5-Codex',
  'gpt-4o': 'GPT-4o',
  'gpt-4o-2024-11-20': 'GPT-4o',
  'gpt-4.1-mini-2025-04-14': 'GPT-4.1 mini',
  o3: 'o3',
  'grok-3': null,
  'grok-4': null,
  'llama3.1:8b': null,
  'qwen3:14b': null,
  'google/gemma-3n-e4b': null,
  'openai/gpt-oss-20b': null,
  'gemma-3n-e4b': null,
  'qwen3:4b-thinking': null,
  'anthropic/claude-3-7-sonnet-20250219': 'Claude Sonnet 3.7',
};

/** The model ids a folder's files name, as the engine reads them (each message's model and each call's). */
function modelsIn(dir: string, into: Map<string, string>): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      modelsIn(path, into);
      continue;
    }
    let opened;
    try {
      opened = readDocumentFile(path);
    } catch {
      continue; // not a conversation (an index, a broken fixture)
    }
    for (const c of opened.doc.conversations)
      for (const r of c.records) {
        const v = opened.codec.view(r);
        for (const m of [v.model, v.usage?.model]) if (m && !into.has(m)) into.set(m, path);
      }
  }
}

const report = (model: string, calls: Array<{ input: number; cacheRead?: number; cacheWrite?: number; cacheWrite1h?: number; output: number }>) => addUp(calls.map((c) => ({ ...c, model })))!;

describe('the price table', () => {
  it('prices every model id seen in the real files, the fixtures and the examples to its own row, or says it has none', () => {
    const seen = new Map<string, string>();
    if (REALFILES) modelsIn(REALFILES, seen);
    else console.log('shared/realfiles is not beside this checkout: only the fixtures and examples are looked at');
    modelsIn(FIXTURES, seen);
    modelsIn(join(ROOT, 'examples'), seen);
    expect(seen.size).toBeGreaterThan(10);
    for (const [id, where] of seen) {
      expect(Object.hasOwn(EXPECTED, id), `${id} (in ${where}) is not in EXPECTED: give it its row's label, or null for no price`).toBe(true);
      const row = priceRowOf(id);
      expect(row?.label ?? null, `${id} (in ${where})`).toBe(EXPECTED[id]);
      // Its own row: the row names the id itself (a snapshot date aside), not a shorter one it starts with.
      if (row) expect(row.ids, id).toContain(modelKey(id).replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, ''));
    }
  });

  it('never falls to an older generation: Opus 4.6 and 4.5 at $5/$25, Opus 4 and 4.1 at $15/$75, a model no row names unpriced', () => {
    for (const id of ['claude-opus-4-6', 'claude-opus-4-5-20251101', 'claude-opus-4-5']) expect([priceRowOf(id)?.input, priceRowOf(id)?.output], id).toEqual([5, 25]);
    for (const id of ['claude-opus-4-20250514', 'claude-opus-4-1-20250805', 'claude-opus-4-1']) expect([priceRowOf(id)?.input, priceRowOf(id)?.output], id).toEqual([15, 75]);
    expect(priceRowOf('claude-sonnet-4-5-20250929')?.label).toBe('Claude Sonnet 4.5');
    expect(priceRowOf('gpt-5-codex')?.label).toBe('GPT-5-Codex');
    expect(priceRowOf('gemini-2.5-pro')?.label).toBe('Gemini 2.5 Pro');
    // Names that only start like a priced one.
    for (const id of ['claude-opus-4-9', 'gpt-5.9', 'gpt-5-turbo', 'gemini-2.5-pro-experimental', 'o3-deep-research', 'gpt-4o-audio-preview']) expect(priceRowOf(id), id).toBeUndefined();
    const cost = costOf(report('grok-4', [{ input: 10, output: 5 }]));
    expect(costText(cost, 1)).toMatch(/^no list price for grok-4 \(prices of \d{4}-\d{2}-\d{2}\)$/);
  });

  it('names its source and the day each row was read; ids are each in one row', () => {
    const ids = PRICE_TABLE.flatMap((r) => r.ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const row of PRICE_TABLE) {
      expect(row.read, row.label).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (row.ids[0] !== '<synthetic>') expect(row.source, row.label).toMatch(/^https:\/\/(platform\.claude\.com|developers\.openai\.com|ai\.google\.dev)\//);
    }
    const cost = costOf(report('claude-opus-4-6', [{ input: 100, output: 10 }]));
    expect(cost.sources).toEqual([{ model: 'claude-opus-4-6', label: 'Claude Opus 4.6', source: 'https://platform.claude.com/docs/en/about-claude/pricing', read: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }]);
    expect(priceSourcesText(cost)).toMatch(/^claude-opus-4-6 \(Claude Opus 4\.6\): https:\/\/platform\.claude\.com\/docs\/en\/about-claude\/pricing, read \d{4}-\d{2}-\d{2}$/);
  });

  it("Claude Code's 1-hour cache writes at 2× the input, its 5-minute ones at 1.25×", () => {
    // Opus 4.6: 1,000 uncached in × $5, 10,000 read × $0.50, 3,000 written for 5 min × $6.25 and 6,000 for an hour × $10, 2,000 out × $25.
    const r = report('claude-opus-4-6', [{ input: 1_000 + 10_000 + 9_000, cacheRead: 10_000, cacheWrite: 9_000, cacheWrite1h: 6_000, output: 2_000 }]);
    expect(costOf(r).usd).toBeCloseTo((1_000 * 5 + 10_000 * 0.5 + 3_000 * 6.25 + 6_000 * 10 + 2_000 * 25) / 1e6, 10);
    // The same usage read from a Claude Code session: cache_creation splits the writes by lifetime.
    const lines = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hi' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2026-01-01T00:00:01Z', message: { id: 'msg_1', role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 1_000, cache_read_input_tokens: 10_000, cache_creation_input_tokens: 9_000, cache_creation: { ephemeral_5m_input_tokens: 3_000, ephemeral_1h_input_tokens: 6_000 }, output_tokens: 2_000 } } },
    ];
    const opened = parseDocumentText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 'session.jsonl');
    expect(opened.codec.id).toBe('claude-code');
    const read = reportedUsage(opened.doc.conversations[0].records.map((x) => opened.codec.view(x)))!;
    expect(read).toMatchObject({ calls: 1, cacheWrite: 9_000, cacheWrite1h: 6_000 });
    expect(costOf(read).usd).toBeCloseTo(costOf(r).usd, 10);
  });

  it('a call past its model’s long-prompt tier is charged wholly at the tier’s rates (Gemini 2.5 Pro over 200k, GPT-5.4 over 272k)', () => {
    const gemini = report('gemini-2.5-pro', [
      { input: 100_000, cacheRead: 20_000, output: 1_000 },
      { input: 250_000, cacheRead: 50_000, output: 2_000 },
    ]);
    expect(gemini.byModel['gemini-2.5-pro'].longPrompt).toMatchObject({ above: 200_000, calls: 1, input: 250_000 });
    const short = (80_000 * 1.25 + 20_000 * 0.125 + 1_000 * 10) / 1e6;
    const long = (200_000 * 2.5 + 50_000 * 0.25 + 2_000 * 15) / 1e6;
    expect(costOf(gemini).usd).toBeCloseTo(short + long, 10);
    const gpt = report('gpt-5.4', [{ input: 300_000, output: 1_000 }]);
    expect(costOf(gpt).usd).toBeCloseTo((300_000 * 5 + 1_000 * 22.5) / 1e6, 10);
    // A price of the user's own has no tier: every call at its rates.
    expect(costOf(gemini, { 'gemini-2.5-pro': { input: 1, cacheRead: 0, output: 0 } }).usd).toBeCloseTo((80_000 + 200_000) / 1e6, 10);
  });
});
