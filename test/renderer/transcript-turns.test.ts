// The transcript's turns: one API call each (a Claude Code response written a line per content block, its parallel
// tool calls and their results one exchange), as the service reads them (conversation:calls) for real files.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/service/dispatch.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { FLAGS, type Skeleton } from '../../app/shared/contract.js';
import { nextUnit, turnsOf, unitStart, type Turns } from '../../app/renderer/features/transcript/turns.js';
import { ROOT, tempDir } from '../helpers.js';
import { apiCalls } from '../../src/core/api-calls.js';
import type { MessageView } from '../../src/core/formats/model.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function runtimeOn(dir: string): Runtime {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  return rt;
}

/** The skeleton the app is sent for a file, and the turns the service reads in it; `whole`: of the whole session, past its compactions. */
async function skeletonOf(dir: string, path: string, whole = false): Promise<Skeleton & { turns: Turns }> {
  const rt = runtimeOn(dir);
  const r = await dispatch(rt.handlers, 'conversation:open', { path });
  if (!r.ok) throw new Error(r.error.message);
  let sk = r.value as Skeleton;
  if (whole) {
    const w = await dispatch(rt.handlers, 'conversation:path', { path, whole: true });
    if (!w.ok) throw new Error(w.error.message);
    const again = await dispatch(rt.handlers, 'conversation:open', { path });
    if (!again.ok) throw new Error(again.error.message);
    sk = again.value as Skeleton;
  }
  const calls = await dispatch(rt.handlers, 'conversation:calls', { path, conversation: 0 });
  if (!calls.ok) throw new Error(calls.error.message);
  const c = calls.value as { version: number; first: number[]; last: number[] };
  expect(c.version).toBe(sk.version);
  return { ...sk, turns: turnsOf(sk, c) };
}

/** The turns as lists of their messages. */
function runs(skeleton: { turns: Turns }): number[][] {
  const t = skeleton.turns;
  return t.first.map((_, k) => [...t.turnOf.keys()].filter((i) => t.turnOf[i] === k));
}

describe('turns as the service reads them', () => {
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
    const t = all.turns;
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
    const t = debate.turns;
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
    const t = sk.turns;
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
    expect([...turnsFor([user('q'), call('a'), result('a'), call('b'), result('a')]).turnOf]).toEqual([-1, 0, 0, 1, -1]);
    expect([...turnsFor([call('a'), result(undefined), say('done')]).turnOf]).toEqual([0, 0, 1]);
  });

  it('a sub-agent’s lines written inline between a Task call and its result leave the call’s turn whole, and are turns of their own', () => {
    const t = turnsFor([user('q'), call('task'), { ...user('sub: go'), sidechain: true }, { ...say('sub: done'), sidechain: true }, result('task'), say('ok')]);
    expect(t.turnOf[1]).toBe(t.turnOf[4]);
    expect(t.turnOf[2]).toBe(-1);
    expect(t.turnOf[3]).toBeGreaterThanOrEqual(0);
    expect(t.turnOf[3]).not.toBe(t.turnOf[1]);
    expect(t.turnOf[5]).not.toBe(t.turnOf[1]);
  });

  it('two lines of different calls (message.id) side by side are two turns; lines of one call are one', () => {
    const keyed = (id: string, text: string): MessageView => ({ ...say(text), usage: { output: 1, key: id } });
    expect(turnsFor([user('q'), keyed('m1', 'a'), keyed('m1', 'b'), keyed('m2', 'c')]).first).toEqual([1, 3]);
    // A swarms history writes one message per call.
    expect(apiCalls([say('a'), say('b')], { oneMessageEach: true }).first).toEqual([0, 1]);
    expect(apiCalls([say('a'), say('b')]).first).toEqual([0]);
  });

  it('without the service’s calls every message stands alone (nothing is grouped in the renderer)', () => {
    const t = turnsOf({ count: 3, flags: [0, FLAGS.toolCall, FLAGS.toolResult] }, undefined);
    expect([...t.turnOf]).toEqual([-1, -1, -1]);
    expect(nextUnit(t, 0, 1, 3)).toBe(1);
  });

  it('↓ and ↑ go from unit to unit: a turn is one, a message in no turn is one', () => {
    const t = turnsFor([user('q'), call('a'), result('a'), result(undefined), user('q2'), say('a2')]);
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
    const kinds = ['user', 'assistant', 'call', 'result', 'side-assistant', 'side-user', 'boundary'] as const;
    const make = (k: (typeof kinds)[number], i: number): MessageView => {
      switch (k) {
        case 'user':
          return user(`u${i}`);
        case 'assistant':
          return say(`a${i}`);
        case 'call':
          return call(`c${i}`);
        case 'result':
          return result(i % 3 === 0 ? undefined : `c${i - 1}`);
        case 'side-assistant':
          return { ...say(`s${i}`), sidechain: true };
        case 'side-user':
          return { ...user(`s${i}`), sidechain: true };
        default:
          return { role: 'system', normalRole: 'system', parts: [], compaction: { trigger: 'auto' } };
      }
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...kinds), { maxLength: 60 }), fc.boolean(), (seq, swarms) => {
        const n = seq.length;
        const views = seq.map(make);
        const calls = apiCalls(views, { oneMessageEach: swarms });
        const t = turnsOf({ count: n, flags: flagsOf(views) }, calls);
        for (let k = 0; k < t.first.length; k++) {
          expect(views[t.first[k]].normalRole).toBe('assistant');
          expect(t.last[k]).toBeGreaterThanOrEqual(t.first[k]);
          if (k > 0) expect(t.first[k]).toBeGreaterThan(t.first[k - 1]);
        }
        seq.forEach((kind, i) => {
          const turn = t.turnOf[i];
          if (kind === 'assistant' || kind === 'call' || kind === 'side-assistant') expect(turn).toBeGreaterThanOrEqual(0);
          if (kind === 'user' || kind === 'side-user' || kind === 'boundary') expect(turn).toBe(-1);
          if (turn >= 0) {
            expect(i >= t.first[turn] && i <= t.last[turn]).toBe(true);
            // A turn's messages are of one chain.
            expect(!!views[i].sidechain).toBe(!!views[t.first[turn]].sidechain);
          }
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

function user(text: string): MessageView {
  return { role: 'user', normalRole: 'user', parts: [{ kind: 'text', text }] };
}
function say(text: string): MessageView {
  return { role: 'assistant', normalRole: 'assistant', parts: [{ kind: 'text', text }] };
}
function call(id: string): MessageView {
  return { role: 'assistant', normalRole: 'assistant', parts: [{ kind: 'tool-call', id, name: 'Read', arguments: '{}' }] };
}
function result(callId: string | undefined): MessageView {
  return { role: 'tool', normalRole: 'tool', parts: [{ kind: 'tool-result', ...(callId ? { callId } : {}), text: 'ok' }] };
}
function flagsOf(views: readonly MessageView[]): number[] {
  return views.map((v) => (v.sidechain ? FLAGS.sidechain : 0));
}
/** The turns the service's reading (apiCalls) makes of these messages, as the transcript decodes them. */
function turnsFor(views: readonly MessageView[]): Turns {
  return turnsOf({ count: views.length, flags: flagsOf(views) }, apiCalls(views));
}
