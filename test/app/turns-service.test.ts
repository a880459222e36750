import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/service/dispatch.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import type { RequestOutput, Skeleton, TokenCounts } from '../../app/shared/contract.js';
import { countingModel } from '../../src/core/models.js';
import { requestOverhead } from '../../app/renderer/store/window.js';
import { addUp, costOf } from '../../src/core/usage.js';
import { ROOT, tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

const ok = <T>(r: { ok: true; value: unknown } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value as T;
};

function runtime(files: Record<string, string>): Runtime {
  const dir = tempDir();
  for (const [to, from] of Object.entries(files)) cpSync(join(ROOT, from), join(dir, to));
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), settingsFile: join(tempDir(), 'settings.json') });
  runtimes.push(rt);
  return rt;
}

type Turns = RequestOutput<'conversation:turns'>;

describe('conversation:turns: per-turn figures from the service, as the strip shows them', () => {
  it('a Claude Code session: a turn per API call of the path shown, each reported (its last line once) and priced at its model', async () => {
    const rt = runtime({ 'cart.jsonl': 'examples/agents/claude-code/cart-rewind-compact.jsonl' });
    const skeleton = ok<Skeleton>(await dispatch(rt.handlers, 'conversation:open', { path: 'cart.jsonl', conversation: 0 }));
    const model = countingModel('session', skeleton.model);
    const { turns, pricesDated } = ok<Turns>(await dispatch(rt.handlers, 'conversation:turns', { path: 'cart.jsonl', conversation: 0, model }));
    expect(pricesDated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Every call the skeleton reports usage for (once per call, at its last line) is in exactly one turn.
    const reportedAt = skeleton.usage.at;
    expect(reportedAt.length).toBeGreaterThan(1);
    for (const at of reportedAt) expect(turns.filter((t) => t.first <= at && at <= t.last)).toHaveLength(1);
    const reported = turns.filter((t) => !t.estimated);
    expect(reported.length).toBe(reportedAt.length);
    // The figures are the skeleton's (the renderer recomputes nothing).
    const sum = (k: 'input' | 'output') => skeleton.usage.values.reduce((n, u) => n + (u[k] ?? 0), 0);
    expect(reported.reduce((n, t) => n + (t.input ?? 0), 0)).toBe(sum('input'));
    expect(reported.reduce((n, t) => n + (t.output ?? 0), 0)).toBe(sum('output'));
    for (const t of reported) {
      expect(t.model).toBe('claude-sonnet-4-5-20250929');
      expect(t.usd).toBeGreaterThan(0);
      // A turn begins at the model's message.
      expect(skeleton.normalRoles[skeleton.roleOf[t.first]]).toBe('assistant');
    }
    // Turns do not overlap and come in order.
    for (let k = 1; k < turns.length; k++) expect(turns[k].first).toBeGreaterThan(turns[k - 1].last);
  }, 60_000);

  it('a call the file records no usage for is estimated as the transcript estimates it: the thread before it and what each request holds beside it', async () => {
    const rt = runtime({});
    const dir = rt.roots.all()[0];
    const session = JSON.parse(readFileSync(join(ROOT, 'examples/agents/gemini/session-2026-11-30T10-00-3f2a1b9c.json'), 'utf8')) as { messages: Array<{ type: string; tokens?: unknown }> };
    // The last reply's usage not recorded (a run cut short, an older CLI).
    const last = session.messages.map((m) => m.type).lastIndexOf('gemini');
    delete session.messages[last].tokens;
    writeFileSync(join(dir, 'session.json'), JSON.stringify(session, null, 2));
    const skeleton = ok<Skeleton>(await dispatch(rt.handlers, 'conversation:open', { path: 'session.json', conversation: 0 }));
    const counts = ok<TokenCounts>(await dispatch(rt.handlers, 'tokens:count', { path: 'session.json', conversation: 0, model: 'gpt-5.4' }));
    const { turns } = ok<Turns>(await dispatch(rt.handlers, 'conversation:turns', { path: 'session.json', conversation: 0, model: 'gpt-5.4' }));
    const estimated = turns.filter((t) => t.estimated);
    expect(estimated).toHaveLength(1);
    const overhead = requestOverhead(skeleton);
    // The first reported call was sent 8,421 tokens for one short prompt: the rest is its system prompt and tools.
    expect(overhead).toBeGreaterThan(8000);
    const t = estimated[0];
    expect(t.input).toBe(counts.tokens.slice(0, t.first).reduce((a, b) => a + b, 0) + overhead);
  }, 60_000);

  it('a Copilot CLI session: its calls record their output alone; the session costs what its runs’ totals say, in the header and the strip alike', async () => {
    const rt = runtime({});
    // Without its compaction, the session is shown whole (a compacted one shows the part since, whose calls are its own).
    const lines = readFileSync(join(ROOT, 'examples/agents/copilot-cli/events.jsonl'), 'utf8').split('\n');
    writeFileSync(join(rt.roots.all()[0], 'events.jsonl'), lines.filter((l) => !/"type":"session\.(compaction_|truncation)/.test(l)).join('\n'));
    const skeleton = ok<Skeleton>(await dispatch(rt.handlers, 'conversation:open', { path: 'events.jsonl', conversation: 0 }));
    // The fixture's session.shutdown: 7 requests, 118,204 in (96,320 of them cached), 952 out in all.
    const session = addUp(skeleton.sessionUsage ?? []);
    expect(session).toMatchObject({ calls: 7, input: 118_204, cacheRead: 96_320, output: 952 });
    // The rows keep their own calls (the context curve and the window plan read a call's prompt there).
    expect(skeleton.usage.values.every((u) => u.input === undefined)).toBe(true);
    const { turns, sessionUsd } = ok<Turns>(await dispatch(rt.handlers, 'conversation:turns', { path: 'events.jsonl', conversation: 0, model: 'gpt-5.4' }));
    expect(sessionUsd).toBeCloseTo(costOf(session!).usd, 10);
    expect(sessionUsd!).toBeGreaterThan(turns.reduce((n, t) => n + (t.usd ?? 0), 0));
  }, 60_000);

  it('a swarms file records no usage: each agent message is a turn, estimated from the counts for the model asked', async () => {
    const rt = runtime({ 'debate.json': 'examples/debate_multi_agent.json' });
    const skeleton = ok<Skeleton>(await dispatch(rt.handlers, 'conversation:open', { path: 'debate.json', conversation: 0 }));
    const counts = ok<TokenCounts>(await dispatch(rt.handlers, 'tokens:count', { path: 'debate.json', conversation: 0, model: 'gpt-5.4' }));
    const { turns } = ok<Turns>(await dispatch(rt.handlers, 'conversation:turns', { path: 'debate.json', conversation: 0, model: 'gpt-5.4' }));
    const speakers = skeleton.roleOf.map((r, i) => [skeleton.normalRoles[r], i] as const).filter(([role]) => role === 'assistant' || role === 'other');
    expect(turns.map((t) => t.first)).toEqual(speakers.map(([, i]) => i));
    expect(turns.every((t) => t.estimated)).toBe(true);
    // Input: every message before the turn; output: its own, as counted for the model asked.
    const t = turns[turns.length - 1];
    expect(t.input).toBe(counts.tokens.slice(0, t.first).reduce((a, b) => a + b, 0));
    expect(t.output).toBe(counts.tokens[t.first]);
    expect(t.usd).toBeGreaterThan(0);
  }, 60_000);
});
