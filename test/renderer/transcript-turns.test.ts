// The transcript's turns: one API call each (a Claude Code response written a line per content block, its parallel
// tool calls and their results one exchange), grouped from the skeleton the service sends for real files.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/service/dispatch.js';
import { InlineTokenService } from '../../app/service/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { FLAGS, type Skeleton } from '../../app/shared/contract.js';
import { groupTurns, nextUnit, unitStart } from '../../app/renderer/features/transcript/turns.js';
import { ROOT, tempDir } from '../helpers.js';
import { swarmsSkeleton } from '../support/skeleton.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function runtimeOn(dir: string): Runtime {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  return rt;
}

/** The skeleton the app is sent for a file; `whole`: of the whole session, past its compactions. */
async function skeletonOf(dir: string, path: string, whole = false): Promise<Skeleton> {
  const rt = runtimeOn(dir);
  const r = await dispatch(rt.handlers, 'conversation:open', { path });
  if (!r.ok) throw new Error(r.error.message);
  if (!whole) return r.value as Skeleton;
  const w = await dispatch(rt.handlers, 'conversation:path', { path, whole: true });
  if (!w.ok) throw new Error(w.error.message);
  const again = await dispatch(rt.handlers, 'conversation:open', { path });
  if (!again.ok) throw new Error(again.error.message);
  return again.value as Skeleton;
}

/** The turns as lists of their messages. */
function runs(skeleton: Skeleton): number[][] {
  const t = groupTurns(skeleton);
  return t.first.map((_, k) => [...t.turnOf.keys()].filter((i) => t.turnOf[i] === k));
}

describe('turns from the skeleton', () => {
  it('a Claude Code call written as two lines (thinking, then the tool call) and its result are one turn; the answer after it another', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'agents', 'claude-code'), dir, { recursive: true });
    const sk = await skeletonOf(dir, 'cart-rewind-compact.jsonl');
    // What the model is sent now: the boundary, the summary, a prompt, one call (a Grep and its result), the answer, a thank-you.
    const role = (i: number) => sk.normalRoles[sk.roleOf[i]];
    expect(sk.flags[0] & FLAGS.compaction).toBeTruthy();
    expect(runs(sk)).toEqual([[3, 4], [5]]);
    expect(role(3)).toBe('assistant');
    expect(sk.flags[4] & FLAGS.toolResult).toBeTruthy();
    // The whole session: its first call is a thinking line and a Read line sharing one message.id, then the Read's result.
    const all = await skeletonOf(dir, 'cart-rewind-compact.jsonl', true);
    const t = groupTurns(all);
    expect(all.count).toBeGreaterThan(sk.count);
    expect([t.turnOf[1], t.turnOf[2], t.turnOf[3]]).toEqual([0, 0, 0]);
    expect(all.flags[1] & FLAGS.reasoning).toBeTruthy();
    expect(all.flags[2] & FLAGS.toolCall).toBeTruthy();
    expect(t.turnOf[0]).toBe(-1);
    expect(t.turnOf[4]).toBe(1);
  });

  it('a swarms file’s parallel calls and both their results are one exchange; each agent’s message is its own turn', async () => {
    const tools = await skeletonOf(join(ROOT, 'examples'), 'trip_planner_tools.json');
    expect(runs(tools)).toEqual([[2, 3, 4], [5, 6], [7]]);
    const debate = await skeletonOf(join(ROOT, 'examples'), 'debate_multi_agent.json');
    const t = groupTurns(debate);
    // Moderator, Proponent, Opponent… all read as the model: each message a call of its own.
    expect(t.first).toEqual([...Array(debate.count).keys()].filter((i) => debate.normalRoles[debate.roleOf[i]] === 'assistant'));
    expect(t.first.every((f, k) => t.last[k] === f)).toBe(true);
  });

  it('a Codex rollout: reasoning, a call and its output are one turn', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'agents', 'codex'), dir, { recursive: true });
    const name = 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';
    const sk = await skeletonOf(dir, name, true);
    const roles = [...Array(sk.count).keys()].map((i) => sk.roles[sk.roleOf[i]]);
    const t = groupTurns(sk);
    const reasoning = roles.indexOf('reasoning');
    expect(reasoning).toBeGreaterThan(0);
    // The call after the reasoning and the output that answers it share its turn.
    const call = roles.indexOf('function_call', reasoning);
    expect(t.turnOf[call]).toBe(t.turnOf[reasoning]);
    expect(t.turnOf[roles.indexOf('function_call_output', call)]).toBe(t.turnOf[reasoning]);
    // The user's prompt is in none.
    expect(t.turnOf[roles.indexOf('user')]).toBe(-1);
  });

  it('a result answering a call of an earlier turn does not join the turn before it; one naming no call follows its call', () => {
    const sk = swarmsSkeleton(5, {
      swarms: false,
      roles: ['user', 'assistant', 'tool'],
      normalRoles: ['user', 'assistant', 'tool'],
      roleOf: [0, 1, 2, 1, 2],
      flags: [0, FLAGS.toolCall, FLAGS.toolResult, FLAGS.toolCall, FLAGS.toolResult],
      toolCalls: { at: [1, 3], values: [['a'], ['b']] },
      toolResults: { at: [2, 4], values: ['a', 'a'] },
    });
    const t = groupTurns(sk);
    expect([...t.turnOf]).toEqual([-1, 0, 0, 1, -1]);
    const loose = swarmsSkeleton(3, { swarms: false, roles: ['assistant', 'tool'], normalRoles: ['assistant', 'tool'], roleOf: [0, 1, 0], flags: [FLAGS.toolCall, FLAGS.toolResult, 0] });
    expect([...groupTurns(loose).turnOf]).toEqual([0, 0, 1]);
  });

  it('a sub-agent’s lines written inline between a Task call and its result leave the call’s turn whole', () => {
    const S = FLAGS.sidechain;
    const sk = swarmsSkeleton(6, {
      swarms: false,
      roles: ['user', 'assistant'],
      normalRoles: ['user', 'assistant'],
      roleOf: [0, 1, 0, 1, 0, 1],
      flags: [0, FLAGS.toolCall, S, S, FLAGS.toolResult, 0],
      toolCalls: { at: [1], values: [['task']] },
      toolResults: { at: [4], values: ['task'] },
    });
    const t = groupTurns(sk);
    expect(t.turnOf[1]).toBe(t.turnOf[4]);
    expect(t.turnOf[2]).toBe(-1);
    expect(t.turnOf[3]).not.toBe(t.turnOf[1]);
    expect(t.turnOf[5]).not.toBe(t.turnOf[1]);
  });

  it('the service’s turn ids, where given, are the turns (a response the file interleaves with results stays one)', () => {
    const sk = swarmsSkeleton(6, { swarms: false, roles: ['user', 'assistant'], normalRoles: ['user', 'assistant'], roleOf: [0, 1, 0, 1, 0, 1], flags: [0, FLAGS.toolCall, FLAGS.toolResult, FLAGS.toolCall, FLAGS.toolResult, 0] });
    // Without ids: the second call line after the first result reads as a new call.
    expect(groupTurns(sk).first).toEqual([1, 3, 5]);
    const t = groupTurns(sk, [-1, 7, 7, 7, 7, 8]);
    expect(t.first).toEqual([1, 5]);
    expect(t.last).toEqual([4, 5]);
    expect([...t.turnOf]).toEqual([-1, 0, 0, 0, 0, 1]);
  });

  it('↓ and ↑ go from unit to unit: a turn is one, a message in no turn is one', () => {
    const sk = swarmsSkeleton(6, { swarms: false, roles: ['user', 'assistant', 'tool'], normalRoles: ['user', 'assistant', 'tool'], roleOf: [0, 1, 2, 2, 0, 1], flags: [0, FLAGS.toolCall, FLAGS.toolResult, FLAGS.toolResult, 0, 0] });
    const t = groupTurns(sk);
    expect(nextUnit(t, 0, 1, 6)).toBe(1);
    expect(nextUnit(t, 1, 1, 6)).toBe(4);
    expect(nextUnit(t, 2, 1, 6)).toBe(4);
    expect(nextUnit(t, 5, 1, 6)).toBe(5);
    expect(nextUnit(t, 4, -1, 6)).toBe(1);
    expect(nextUnit(t, 3, -1, 6)).toBe(0);
    expect(nextUnit(t, 0, -1, 6)).toBe(0);
    expect(unitStart(t, 3)).toBe(1);
  });

  it('for any sequence of messages: each turn begins at a model’s message, holds its messages in order, and every model message is in one', () => {
    const kinds = ['user', 'assistant', 'call', 'result', 'side-assistant', 'boundary'] as const;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...kinds), { maxLength: 60 }), fc.boolean(), (seq, swarms) => {
        const n = seq.length;
        const sk = swarmsSkeleton(n, {
          swarms,
          roles: ['user', 'assistant', 'tool', 'system'],
          normalRoles: ['user', 'assistant', 'tool', 'other'],
          roleOf: seq.map((k) => (k === 'user' ? 0 : k === 'result' ? 2 : k === 'boundary' ? 3 : 1)),
          flags: seq.map((k) => (k === 'call' ? FLAGS.toolCall : k === 'result' ? FLAGS.toolResult : k === 'side-assistant' ? FLAGS.sidechain : k === 'boundary' ? FLAGS.compaction : 0)),
        });
        const t = groupTurns(sk);
        for (let k = 0; k < t.first.length; k++) {
          expect(sk.normalRoles[sk.roleOf[t.first[k]]]).toBe('assistant');
          expect(t.last[k]).toBeGreaterThanOrEqual(t.first[k]);
          if (k > 0) expect(t.first[k]).toBeGreaterThan(t.first[k - 1]);
        }
        seq.forEach((kind, i) => {
          const turn = t.turnOf[i];
          if (kind === 'assistant' || kind === 'call' || kind === 'side-assistant') expect(turn).toBeGreaterThanOrEqual(0);
          if (kind === 'user' || kind === 'boundary') expect(turn).toBe(-1);
          if (turn >= 0) expect(i >= t.first[turn] && i <= t.last[turn]).toBe(true);
        });
        // ↓ from the start visits every unit once, in order, and ends at the last.
        if (n > 0) {
          const seen = [0];
          for (let at = 0, step = 0; step < n; step++) {
            const next = nextUnit(t, at, 1, n);
            if (next === at) break;
            expect(next).toBeGreaterThan(at);
            seen.push(next);
            at = next;
          }
          expect(new Set(seen.map((i) => unitStart(t, i))).size).toBe(seen.length);
        }
      }),
    );
  });
});
