import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSkeleton, getTokenizer, planAtTurn, strategies, turnEnds, turnMilestones, type Message, type WindowPlan } from '../../../src/core/index.js';
import { normalizeRole } from '../../../src/core/formats/model.js';
import { history } from './arbitraries.js';

const t = getTokenizer('gpt-5.4');
const skeletonOf = (messages: Message[]) => buildSkeleton(messages, t);
const roles = (messages: Message[]) => messages.map((m) => normalizeRole(m.role));

const sameWindow = (a: WindowPlan, b: WindowPlan) => {
  expect(Array.from(a.fates)).toEqual(Array.from(b.fates));
  expect(Array.from(a.tokensAfter)).toEqual(Array.from(b.tokensAfter));
  expect([a.totalBefore, a.totalAfter, a.counts]).toEqual([b.totalBefore, b.totalAfter, b.counts]);
  expect(a.inserted.map((i) => [i.before, i.replaces])).toEqual(b.inserted.map((i) => [i.before, i.replaces]));
};

// Budgets around the history's own size, so that every strategy trims at some turns and not at others.
const paramsOf = (id: string, budget: number, k: number) => ({ contextLength: budget, limit: k, windowSize: k, contextWindowTokens: budget, keepRecentMessages: Math.max(1, k >> 1), softThresholdTokens: Math.max(1, budget >> 3) });

describe('the turn scrubber: the window at turn t', () => {
  it('turns end after each user message and at the end; without users, one per message', () => {
    expect(turnEnds(['system', 'user', 'assistant', 'user', 'assistant', 'tool'])).toEqual([2, 4, 6]);
    expect(turnEnds(['system', 'user'])).toEqual([2]);
    expect(turnEnds(['assistant', 'assistant'])).toEqual([1, 2]);
    expect(turnEnds([])).toEqual([]);
  });

  it('is the plan of the first t messages, for every strategy that counts contents (a skeleton built from the prefix alone)', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 8 }), fc.nat(), (messages, budget, k, pick) => {
        const whole = skeletonOf(messages);
        const ends = turnEnds(roles(messages));
        if (ends.length === 0) return;
        const end = ends[pick % ends.length];
        const prefix = skeletonOf(messages.slice(0, end));
        for (const s of strategies.list()) {
          const params = paramsOf(s.id, budget, k);
          const at = planAtTurn(s, whole, params, end);
          if (at.unit === 'rendered') {
            // The prefix's last block still counts the blank line after it in the whole history: a token or two.
            expect(at.fates.length).toBe(end);
            expect(Math.abs(at.totalBefore - s.plan(prefix, params).totalBefore)).toBeLessThanOrEqual(2);
          } else {
            sameWindow(at, s.plan(prefix, params));
            // As the renderer plans: from counts alone, without the text.
            sameWindow(planAtTurn(s, { messages: whole.messages }, params, end), s.plan({ messages: prefix.messages }, params));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('finds the turn the window first trimmed, lost its system prompt and summarised (exact, and by sampling)', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 6 }), (messages, budget, k) => {
        const whole = skeletonOf(messages);
        const ends = turnEnds(roles(messages));
        for (const s of strategies.list()) {
          const params = paramsOf(s.id, budget, k);
          const plans = ends.map((e) => planAtTurn(s, whole, params, e));
          const tests = {
            trimmed: (p: WindowPlan) => p.counts.dropped + p.counts.cut + p.counts.summarised > 0,
            summarised: (p: WindowPlan) => p.counts.summarised > 0,
            staticLost: (p: WindowPlan) => {
              for (let i = 0; i < p.fates.length && whole.messages[i].isStatic; i++) if (p.fates[i] === 1 || p.fates[i] === 2) return true;
              return false;
            },
          };
          // Every turn looked at: the first where each holds.
          const exact = turnMilestones(s, whole, params, ends, ends.length + 1);
          for (const [key, test] of Object.entries(tests)) {
            const first = plans.findIndex(test);
            expect(exact[key as keyof typeof exact], `${s.id} ${key}`).toBe(first < 0 ? undefined : first);
          }
          // Sampled: a turn where it holds, right after one where it does not.
          const sampled = turnMilestones(s, whole, params, ends, 2);
          for (const [key, test] of Object.entries(tests)) {
            const found = sampled[key as keyof typeof sampled];
            if (found === undefined) continue;
            expect(test(plans[found])).toBe(true);
            if (found > 0) expect(test(plans[found - 1])).toBe(false);
          }
        }
      }),
      { numRuns: 80 },
    );
  });
});
