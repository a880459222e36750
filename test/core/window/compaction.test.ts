import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPlan, buildSkeleton, compactAllPlan, compactDroppedPlan, getTokenizer, strategies, summarizing, FATE_CODE, type Message } from '../../../src/core/index.js';
import { history } from './arbitraries.js';

const t = getTokenizer('gpt-5.4');

describe('one compaction path: the plans every compact applies', () => {
  it('compacting what a strategy drops: kept and cut as the strategy has them, the rest one summary where the first of it was', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 6 }), (messages: Message[], budget, k) => {
        const skeleton = buildSkeleton(messages, t);
        for (const s of strategies.list()) {
          const params = { contextLength: budget, limit: k, windowSize: k, keepRecentMessages: k, softThresholdTokens: budget >> 2, contextWindowTokens: budget };
          const plan = strategies.plan(s.id, skeleton, params);
          const compacted = compactDroppedPlan(skeleton, s.id, params);
          const gone = messages.map((_, i) => i).filter((i) => plan.fates[i] === FATE_CODE.dropped || plan.fates[i] === FATE_CODE.summarised);
          if (gone.length === 0) {
            expect(compacted.inserted).toEqual(plan.inserted);
            continue;
          }
          expect(compacted.inserted).toHaveLength(1);
          expect(compacted.inserted[0].replaces).toEqual(gone);
          expect(compacted.inserted[0].before).toBe(gone[0]);
          for (let i = 0; i < messages.length; i++) {
            if (gone.includes(i)) expect(compacted.fates[i]).toBe(FATE_CODE.summarised);
            else {
              expect(compacted.fates[i]).toBe(plan.fates[i]);
              expect(compacted.tokensAfter[i]).toBe(plan.tokensAfter[i]);
            }
          }
          // Applied: the kept messages in order, the summary in the place of the first one it replaces.
          const after = applyPlan(messages, compacted, { summaries: ['SUMMARY'], measure: t });
          const at = after.findIndex((m) => m.content === 'SUMMARY');
          expect(at).toBe(messages.slice(0, gone[0]).filter((_, i) => !gone.includes(i)).length);
          expect(after.length).toBe(messages.length - gone.length + 1);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('the spec compact is the summarizing planner forced, keeping the static context (and the last N when asked)', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 5 }), (messages: Message[], keep) => {
        const skeleton = buildSkeleton(messages, t);
        const plan = compactAllPlan(skeleton, keep);
        const direct = summarizing.plan(skeleton, { force: true, keepRecentMessages: keep });
        expect(Array.from(plan.fates)).toEqual(Array.from(direct.fates));
        expect(plan.inserted).toEqual(direct.inserted);
      }),
    );
  });
});
