import { useMemo } from 'react';
import { strategies } from '../../../../src/core/window/registry.js';
import type { WindowPlan, WindowSkeleton, WindowStrategy } from '../../../../src/core/window/types.js';
import { useAppPick } from '../../store/index.js';
import { cachedPlanSkeleton } from './plan-skeleton.js';
import { planAtTurn } from '../../../../src/core/window/turns.js';

/** The parameters in force: the strategy's defaults under what the user set. */
export function effectiveParams(strategy: WindowStrategy, set: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of strategy.params) out[p.key] = p.default;
  return { ...out, ...set };
}

// The table, the detail pane and the panel each ask for the plan in the same render: one plan serves them.
let lastPlan: { input: WindowSkeleton; strategy: WindowStrategy; key: string; plan: WindowPlan } | undefined;

function planOnce(input: WindowSkeleton, strategy: WindowStrategy, params: Record<string, unknown>, key: string): WindowPlan {
  if (lastPlan && lastPlan.input === input && lastPlan.strategy === strategy && lastPlan.key === key) return lastPlan.plan;
  // As the model was sent it: a history through a compaction is planned from its summary on.
  const plan = planAtTurn(strategy, input, params, input.messages.length);
  lastPlan = { input, strategy, key, plan };
  return plan;
}

/** Re-plans from counts on every parameter change (no tokenizer in the renderer): well under a frame. */
export function useWindowPlan(): { plan: WindowPlan | undefined; strategy: WindowStrategy; params: Record<string, unknown>; total: number } {
  const { skeleton, counts, windowOpen, strategyId, windowParams } = useAppPick('skeleton', 'counts', 'windowOpen', 'strategyId', 'windowParams');
  const strategy = strategies.get(strategyId) ?? strategies.list()[0];
  const ready = skeleton && counts && counts.path === skeleton.path && counts.conversation === skeleton.conversation && counts.tokens.length === skeleton.count;
  // Made when the page is idle after a count, and spliced after an edit (plan-skeleton.ts): here it is found.
  const planInput = useMemo(() => (ready && windowOpen ? cachedPlanSkeleton(skeleton, counts) : undefined), [ready, windowOpen, skeleton, counts]);
  const params = effectiveParams(strategy, windowParams[strategy.id]);
  const key = JSON.stringify(params);
  const plan = useMemo(() => (windowOpen && planInput ? planOnce(planInput, strategy, params, key) : undefined), [windowOpen, planInput, strategy, key]);
  const total = counts?.total ?? 0;
  return { plan, strategy, params, total };
}
