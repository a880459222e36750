import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../app/shared/contract.js';
import { storeOverview } from '../../app/renderer/features/sessions/store-overview.js';

const entry = (over: Partial<SessionEntry>): SessionEntry => ({ id: 1, path: 'a.jsonl', conversation: 0, kind: 'session', models: [], messages: 10, prompts: 1, calls: 2, inputCalls: 2, outputCalls: 2, input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 1, unpriced: [], modifiedMs: 0, ...over });

describe('what the opened folders hold, before a session is chosen', () => {
  const all = [
    entry({ path: 'a.jsonl', tool: 'Claude Code', lastAt: '2026-03-02T10:00:00Z', firstAt: '2026-03-01T09:00:00Z', costUsd: 2.5 }),
    entry({ path: 'a/subagents/agent-1.jsonl', kind: 'subagent', tool: 'Claude Code', lastAt: '2026-03-02T09:00:00Z', costUsd: 0.5 }),
    entry({ path: 'b.jsonl', tool: 'Codex', lastAt: '2026-04-01T10:00:00Z', firstAt: '2026-03-20T10:00:00Z', costUsd: 0.25, messages: 5 }),
    entry({ path: 'c.jsonl', tool: 'Claude Code', lastAt: '2026-01-05T10:00:00Z', firstAt: '2026-01-05T09:00:00Z', costUsd: undefined, unpriced: ['a-model'] }),
    entry({ path: 'd.md', tool: undefined, formatLabel: 'Aider chat', calls: 0, inputCalls: 0, costUsd: undefined, lastAt: undefined, modifiedMs: Date.parse('2026-02-01T00:00:00Z'), messages: 3 }),
  ];

  it('counts sessions and sub-agents apart, adds up messages and cost, and says a floor where a call has no price', () => {
    const o = storeOverview(all);
    expect([o.sessions, o.agents, o.messages, o.costUsd, o.costFloor]).toEqual([4, 1, 38, 3.25, true]);
    expect(storeOverview(all.filter((s) => s.path !== 'c.jsonl')).costFloor).toBe(false);
    expect([new Date(o.from!).toISOString(), new Date(o.to!).toISOString()]).toEqual(['2026-01-05T09:00:00.000Z', '2026-04-01T10:00:00.000Z']);
  });

  it('names sessions by tool, the most first; lists the last active and the costliest sessions (not sub-agents)', () => {
    const o = storeOverview(all);
    expect(o.tools).toEqual([['Claude Code', 2], ['Aider chat', 1], ['Codex', 1]]);
    expect(o.recent.map((s) => s.path)).toEqual(['b.jsonl', 'a.jsonl', 'd.md', 'c.jsonl']);
    expect(o.costliest.map((s) => s.path)).toEqual(['a.jsonl', 'b.jsonl']);
  });

  it('an empty store says nothing', () => {
    expect(storeOverview([])).toMatchObject({ sessions: 0, agents: 0, messages: 0, costUsd: 0, recent: [], costliest: [] });
  });
});

describe('the sessions count', () => {
  it('says how many sub-agents the list shows without their session, so that its lines add up', async () => {
    const { agentsText, looseAgents } = await import('../../app/renderer/features/sessions/session-rows.js');
    const e = (path: string, more: Record<string, unknown>) => ({ id: 0, path, conversation: 0, models: [], messages: 1, prompts: 0, calls: 0, inputCalls: 0, outputCalls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, unpriced: [], modifiedMs: 0, ...more }) as never;
    const all = [e('s.jsonl', { kind: 'session' }), e('s/subagents/a.jsonl', { kind: 'subagent', parentPath: 's.jsonl' }), e('gone/subagents/b.jsonl', { kind: 'subagent', parentPath: 'gone.jsonl' }), e('c.jsonl', { kind: 'subagent' })];
    expect(looseAgents(all)).toBe(2);
    expect(agentsText(3, 2)).toBe(' · 3 sub-agents (2 without their sessions)');
    expect(agentsText(3, 1)).toBe(' · 3 sub-agents (1 without its session)');
    expect(agentsText(1, 1)).toBe(' · 1 sub-agent (without its session)');
    expect(agentsText(3, 0)).toBe(' · 3 sub-agents');
    expect(agentsText(0, 0)).toBe('');
  });
});
