import { PlanBuilder } from './plan-builder.js';
import { strategies } from './registry.js';
import { summarizing, SUMMARIZING_DEFAULTS } from './strategies/summarizing.js';
import { FATE_CODE, type WindowPlan, type WindowSkeleton } from './types.js';

/**
 * Compaction as plans, so that the library's `compact`, the CLI's `compact` and the app's compaction all
 * replace the same messages: each summarises a plan's `inserted` and applies it (applyPlan or
 * applyPlanToRecords with the summaries).
 */

/** The spec's compact: the static context kept, everything else (but the last `keepRecentMessages`) one summary. */
export function compactAllPlan(skeleton: WindowSkeleton, keepRecentMessages = 0): WindowPlan {
  return summarizing.plan(skeleton, { force: true, keepRecentMessages });
}

/**
 * What a strategy drops, as one summary in the place of the first dropped message; what it keeps or cuts
 * stays as the strategy leaves it. No summary when it drops nothing.
 */
export function compactDroppedPlan(skeleton: WindowSkeleton, strategyId: string, params: Record<string, unknown>): WindowPlan {
  const plan = strategies.plan(strategyId, skeleton, params);
  const b = new PlanBuilder(skeleton.messages, plan.unit);
  const replaces: number[] = [];
  for (let i = 0; i < plan.fates.length; i++) {
    const fate = plan.fates[i];
    if (fate === FATE_CODE.kept) b.keep(i);
    else if (fate === FATE_CODE.cut) b.cut(i, plan.tokensAfter[i], plan.cuts[i]);
    else {
      // Dropped, or summarised by the strategy itself: the one summary covers both.
      b.summarise(i, 0);
      replaces.push(i);
    }
  }
  if (replaces.length === 0) return plan;
  const role = String(params.summaryRole ?? SUMMARIZING_DEFAULTS.summaryRole);
  return b.finish(plan.strategy, plan.params, [{ kind: 'summary', role, before: replaces[0], replaces, tokens: null }], plan.warnings, plan.renderedStart === undefined ? {} : { renderedStart: plan.renderedStart, renderedFrom: plan.renderedFrom });
}
