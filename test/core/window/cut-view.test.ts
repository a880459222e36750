import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPlan, buildSkeleton, cutView, getTokenizer, renderedTail, strategies, FATE_CODE, type Message } from '../../../src/core/index.js';
import { history } from './arbitraries.js';

const t = getTokenizer('gpt-5.4');

describe('the cut the detail pane shows is the cut the planner makes', () => {
  it('for random histories and budgets: the dimmed part is exactly what “What the model sees” leaves out', () => {
    let cuts = 0;
    let afterStatic = 0;
    fc.assert(
      fc.property(history, fc.integer({ min: 1, max: 600 }), (messages: Message[], budget) => {
        const skeleton = buildSkeleton(messages, t);
        for (const [id, keepStatic] of [['dynamic-context-window', false], ['dynamic-context-window', true], ['truncate', false], ['truncate', true]] as const) {
          const plan = strategies.plan(id, skeleton, { contextLength: budget, keepStatic });
          for (let i = 0; i < messages.length; i++) {
            const view = cutView(skeleton, plan, i);
            if (plan.fates[i] !== FATE_CODE.cut) {
              expect(view).toBeUndefined();
              continue;
            }
            cuts++;
            expect(view).toBeDefined();
            const sent = view!.keep === 'end' ? view!.text.slice(view!.offset) : view!.text.slice(0, view!.offset);
            const dimmed = view!.keep === 'end' ? view!.text.slice(0, view!.offset) : view!.text.slice(view!.offset);
            // The dynamic window cuts the rendered history, with the system prompt kept or not.
            if (id === 'dynamic-context-window') expect(view!.basis).toBe('rendered');
            if (view!.basis === 'rendered') {
              // The model is sent the static blocks whole (with the system prompt kept), then the rendered rest
              // from renderedStart: that begins with the block's kept part, and what is left out ends with the
              // dimmed part.
              const from = plan.renderedFrom ?? 0;
              const blocks = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => skeleton.text!.block(a + k)).join('\n\n');
              const rest = blocks(from, messages.length);
              const tail = rest.slice(plan.renderedStart!);
              expect(tail.startsWith(sent)).toBe(true);
              expect(rest.slice(0, plan.renderedStart!).endsWith(dimmed)).toBe(true);
              expect(renderedTail(skeleton, plan.renderedStart!, from)).toBe(from > 0 ? blocks(0, from) + (tail ? '\n\n' + tail : '') : tail);
              if (keepStatic) expect(i).toBeGreaterThanOrEqual(from);
              if (from > 0) afterStatic++;
            } else {
              // The message the model gets holds the kept part as its content, and nothing of the dimmed part.
              const after = applyPlan(messages, plan, { measure: t });
              const k = Array.from(plan.fates.subarray(0, i)).filter((f) => f === FATE_CODE.kept || f === FATE_CODE.cut).length;
              expect(after[k].content).toBe(sent);
              expect(sent + dimmed === view!.text || dimmed + sent === view!.text).toBe(true);
            }
          }
        }
      }),
      { numRuns: 200 },
    );
    // The property looked at cuts (a history whose budget never cuts tells nothing).
    expect(cuts).toBeGreaterThan(20);
    // …and at cuts in the rest after a system prompt kept whole.
    expect(afterStatic).toBeGreaterThan(5);
  });
});
