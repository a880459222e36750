import type { Fate, InsertedMessage, MessageFate, PlanWarning, SkeletonMessage, WindowPlan } from './types.js';

/** Assembles a WindowPlan from per-message fates, computing totals and counts in one place. */
export function finishPlan(
  strategy: string,
  params: Record<string, unknown>,
  unit: WindowPlan['unit'],
  skeleton: readonly SkeletonMessage[],
  fates: MessageFate[],
  inserted: InsertedMessage[] = [],
  warnings: PlanWarning[] = [],
  extra: Partial<WindowPlan> = {},
): WindowPlan {
  const tokensOf = (m: SkeletonMessage) => (unit === 'content' ? m.tokens : m.renderedTokens);
  const counts: Record<Fate, number> = { kept: 0, dropped: 0, cut: 0, summarised: 0 };
  let totalBefore = 0;
  let totalAfter = 0;
  for (let i = 0; i < skeleton.length; i++) {
    totalBefore += tokensOf(skeleton[i]);
    counts[fates[i].fate]++;
    totalAfter += fates[i].tokensAfter;
  }
  for (const m of inserted) totalAfter += m.tokens ?? 0;
  return { strategy, params, unit, messages: fates, inserted, totalBefore, totalAfter, counts, warnings, ...extra };
}

export function kept(index: number, tokens: number): MessageFate {
  return { index, fate: 'kept', tokensAfter: tokens };
}

export function dropped(index: number): MessageFate {
  return { index, fate: 'dropped', tokensAfter: 0 };
}

/** Reads a numeric parameter, falling back to the default for anything that is not a finite number. */
export function numberParam(params: Record<string, unknown>, key: string, fallback: number, min = 0): number {
  const v = params[key];
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? Math.max(min, Math.floor(n)) : fallback;
}

/** Warnings for kept tool results whose call is gone, and kept calls whose results are gone. */
export function orphanWarnings(skeleton: readonly SkeletonMessage[], fates: readonly MessageFate[]): PlanWarning[] {
  const present = (i: number) => fates[i].fate === 'kept' || fates[i].fate === 'cut';
  const callAt = new Map<string, number>();
  const resultsOf = new Map<string, number[]>();
  skeleton.forEach((m, i) => {
    for (const id of m.toolCallIds) callAt.set(id, i);
    if (m.toolResultId !== undefined) resultsOf.set(m.toolResultId, [...(resultsOf.get(m.toolResultId) ?? []), i]);
  });
  const warnings: PlanWarning[] = [];
  skeleton.forEach((m, i) => {
    if (!present(i)) return;
    if (m.toolResultId !== undefined) {
      const call = callAt.get(m.toolResultId);
      if (call !== undefined && !present(call)) {
        warnings.push({ code: 'orphaned-tool-result', index: i, message: `message ${i} is a tool result whose call (message ${call}) is not kept` });
      }
    }
    for (const id of m.toolCallIds) {
      const lost = (resultsOf.get(id) ?? []).filter((r) => !present(r));
      if (lost.length > 0) {
        warnings.push({ code: 'orphaned-tool-call', index: i, message: `message ${i} calls a tool whose result (message ${lost[0]}) is not kept` });
      }
    }
  });
  return warnings;
}

/** Index of the tool call that `index` answers, when that call stands before it. */
export function callIndexFor(skeleton: readonly SkeletonMessage[], index: number): number | undefined {
  const id = skeleton[index].toolResultId;
  if (id === undefined) return undefined;
  for (let j = index - 1; j >= 0; j--) if (skeleton[j].toolCallIds.includes(id)) return j;
  return undefined;
}
