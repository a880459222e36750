// The sidebar's Sessions list as lines: groups by project or by time, sub-agents under their session.
import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../app/shared/contract.js';
import { agentLabel, relativeTime, sessionRows, timeGroup } from '../../app/renderer/features/sessions/session-rows.js';

const NOW = Date.parse('2026-12-05T12:00:00');
const entry = (path: string, lastAt: string | undefined, more: Partial<SessionEntry> = {}): SessionEntry => ({
  id: 0,
  path,
  conversation: 0,
  kind: 'session',
  models: [],
  messages: 3,
  prompts: 1,
  calls: 0,
  inputCalls: 0,
  outputCalls: 0,
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  unpriced: [],
  modifiedMs: NOW - 1000,
  ...(lastAt ? { lastAt } : {}),
  ...more,
});

describe('the Sessions list', () => {
  const sessions = [
    entry('p/a.jsonl', '2026-12-05T09:00:00', { project: '/home/u/code/shop', costUsd: 0.5 }),
    entry('p/a/subagents/agent-1.jsonl', '2026-12-05T09:05:00', { kind: 'subagent', parentPath: 'p/a.jsonl', project: '/home/u/code/shop', costUsd: 0.25 }),
    entry('p/b.jsonl', '2026-12-01T09:00:00', { project: '/home/u/code/cli' }),
    entry('q/lost/subagents/agent-2.jsonl', '2026-11-02T09:00:00', { kind: 'subagent', parentPath: 'q/lost.jsonl', project: '/home/u/code/shop' }),
  ];

  it('by project: the most recently active project first, its sessions newest first, sub-agents under their session when it is open', () => {
    const closed = sessionRows(sessions, 'project', new Set(), NOW);
    // A group's cost, and of it what the sub-agents cost (their session's row shows its own alone).
    expect(closed.map((r) => (r.kind === 'group' ? `# ${r.label} ${r.sessions} ${r.costUsd} ${r.agentsCostUsd}` : `${r.kind} ${r.session.path}`))).toEqual([
      '# …/code/shop 2 0.75 0.25',
      'session p/a.jsonl',
      // Its session is not listed (a filter, or gone): it stands on its own.
      'session q/lost/subagents/agent-2.jsonl',
      '# …/code/cli 1 0 0',
      'session p/b.jsonl',
    ]);
    const a = closed[1];
    expect(a.kind === 'session' && a.agents).toBe(1);
    const open = sessionRows(sessions, 'project', new Set(['p/a.jsonl']), NOW);
    expect(open.map((r) => r.key)).toContain('a:p/a/subagents/agent-1.jsonl:0');
    expect(open.findIndex((r) => r.key === 'a:p/a/subagents/agent-1.jsonl:0')).toBe(open.findIndex((r) => r.key === 's:p/a.jsonl:0') + 1);
  });

  it('by time: Today, the last 7 days, then by month, in that order', () => {
    const rows = sessionRows(sessions, 'time', new Set(), NOW).filter((r) => r.kind === 'group');
    expect(rows.map((r) => r.kind === 'group' && r.label)).toEqual(['Today', 'Last 7 days', 'November 2026']);
    expect(timeGroup(Date.parse('2026-12-04T23:59:00'), NOW).label).toBe('Yesterday');
  });

  it('says how long ago briefly', () => {
    expect(relativeTime(NOW - 30_000, NOW)).toBe('now');
    expect(relativeTime(NOW - 5 * 60_000, NOW)).toBe('5 min');
    expect(relativeTime(NOW - 3 * 3_600_000, NOW)).toBe('3 h');
    expect(relativeTime(Date.parse('2026-12-04T10:00:00'), NOW)).toBe('yesterday');
    expect(relativeTime(Date.parse('2026-12-01T10:00:00'), NOW)).toBe('5 d');
  });
});

describe('what a sub-agent is called beside its title', () => {
  it('a Codex nickname, or the helper a Claude Code agent id names; a plain id says nothing', () => {
    expect(agentLabel({ agentId: 'Copernicus' })).toBe('Copernicus');
    expect(agentLabel({ agentId: 'aprompt_suggestion-554933' })).toBe('prompt suggestion');
    expect(agentLabel({ agentId: 'acompact-1f2e3d' })).toBe('compaction');
    expect(agentLabel({ agentId: 'a41df2c9e8b7a6' })).toBeUndefined();
    expect(agentLabel({})).toBeUndefined();
  });
});
