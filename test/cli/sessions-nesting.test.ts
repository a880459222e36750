import { describe, expect, it } from 'vitest';
import type { SessionRow } from '../../src/core/catalog/index.js';
import { nested } from '../../src/cli/usage-command.js';

const row = (path: string, lastAt: string, over: Partial<SessionRow> = {}): SessionRow => ({ id: 0, path, conversation: 0, kind: 'session', models: [], messages: 1, prompts: 1, calls: 0, inputCalls: 0, outputCalls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, unpriced: [], bytes: 1, modifiedMs: 0, lastAt, ...over });

describe('`sessions` lists each sub-agent under its own session', () => {
  it('after its session whatever their times; one whose session is not listed stays in its place, said to be one', () => {
    const a = row('/s/a.jsonl', '2025-01-02');
    const b = row('/s/b.jsonl', '2025-01-04');
    const ofA = row('/s/a/subagents/agent-1.jsonl', '2025-01-05', { kind: 'subagent', parentFile: a.path });
    const ofB = row('/s/b/subagents/agent-2.jsonl', '2025-01-01', { kind: 'subagent', parentFile: b.path });
    const orphan = row('/s/c/subagents/agent-3.jsonl', '2025-01-03', { kind: 'subagent', parentFile: '/elsewhere/c.jsonl' });
    const noParent = row('/s/rollout-x.jsonl', '2025-01-03', { kind: 'subagent' });
    const out = nested([ofA, b, orphan, noParent, a, ofB]);
    expect(out.map((r) => [r.s.path, r.under])).toEqual([
      [b.path, false],
      [ofB.path, true],
      [orphan.path, false],
      [noParent.path, false],
      [a.path, false],
      [ofA.path, true],
    ]);
    // Every row once.
    expect(out).toHaveLength(6);
  });
});
