import { RENDER_SEPARATOR } from '../skeleton.js';
import { numberParam, orphanWarnings, PlanBuilder } from '../plan-builder.js';
import type { SkeletonText, WindowPlan, WindowSkeleton, WindowStrategy } from '../types.js';
import { DEFAULT_CONTEXT_LENGTH } from './truncate.js';
import { renderedSuffixSums } from '../token-columns.js';
import { keepsStatic, keepStaticParam, planAfterStatic, staticLength, staticWarnings } from '../static-context.js';

export type DynamicBoundary = 'text' | 'message';

/** Smallest i whose suffix of rendered blocks fits (suffix sums never increase). */
function firstFitting(sums: ArrayLike<number>, limit: number): number {
  let lo = 0;
  let hi = sums.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sums[mid] <= limit) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function joinBlocks(text: SkeletonText, from: number, to: number): string {
  const parts: string[] = [];
  for (let j = from; j < to; j++) parts.push(text.block(j));
  return parts.join(RENDER_SEPARATOR);
}

/** Exact plan on the text: the longest suffix of the rendered history that fits, verified by a count. */
function planOnText(skeleton: WindowSkeleton, text: SkeletonText, limit: number, sums: ArrayLike<number>, params: Record<string, unknown>): WindowPlan {
  const m = skeleton.messages;
  const n = m.length;
  // Counts per block are summed, so a junction can be off by a token: start one block early and widen
  // while the whole tail still fits; the tail is then searched exactly.
  let from = Math.max(0, firstFitting(sums, limit) - 1);
  let tail = joinBlocks(text, from, n);
  let fit = text.measure.fitSuffix(tail, limit);
  while (fit.start === 0 && from > 0) {
    from--;
    tail = text.block(from) + RENDER_SEPARATOR + tail;
    fit = text.measure.fitSuffix(tail, limit);
  }
  const start = fit.start;
  const b = new PlanBuilder(m, 'rendered');
  let pos = 0;
  for (let j = from; j < n; j++) {
    const block = text.block(j);
    const end = pos + block.length;
    if (start <= pos) b.keep(j);
    else if (start < end) {
      const blockOffset = start - pos;
      const prefix = block.length - text.content(j).length;
      const sep = j < n - 1 ? RENDER_SEPARATOR : '';
      b.cut(j, text.measure.count(block.slice(blockOffset) + sep), { keep: 'end', offset: Math.max(0, blockOffset - prefix), approximate: false });
    }
    pos = end + RENDER_SEPARATOR.length;
  }
  let before = 0;
  for (let j = 0; j < from; j++) before += text.block(j).length + RENDER_SEPARATOR.length;
  const plan = b.finish('dynamic-context-window', params, [], orphanWarnings(b), { renderedStart: before + start });
  plan.totalAfter = fit.tokens;
  return plan;
}

/** The rendered history trimmed from the front to `contextLength` tokens (the swarms rule). */
function trimFront(skeleton: WindowSkeleton, contextLength: number, boundary: DynamicBoundary, echo: Record<string, unknown>): WindowPlan {
  const m = skeleton.messages;
  const sums = renderedSuffixSums(skeleton.messages);
  const text = skeleton.text;
  if (boundary === 'text' && text) {
    return m.length > 0 ? planOnText(skeleton, text, contextLength, sums, echo) : new PlanBuilder(m, 'rendered').finish('dynamic-context-window', echo, [], [], { renderedStart: 0 });
  }

  let first = firstFitting(sums, contextLength);
  if (boundary === 'message' && text) {
    // Verify with a real count of the kept text; step forward past any junction rounding.
    while (first < m.length && text.measure.count(joinBlocks(text, first, m.length)) > contextLength) first++;
  }
  const b = new PlanBuilder(m, 'rendered');
  b.keepRange(first, m.length);
  const warnings = orphanWarnings(b);
  if (boundary === 'text' && first > 0) {
    const k = first - 1;
    const room = contextLength - sums[first];
    if (room > 0) {
      // Without the text the cut is placed in proportion to the tokens left for it.
      const keepChars = Math.floor((m[k].length * room) / Math.max(1, m[k].renderedTokens));
      b.cut(k, room, { keep: 'end', offset: Math.max(0, m[k].length - keepChars), approximate: true });
      warnings.push({ code: 'approximate-cut', index: k, message: `message ${k}: the cut position is estimated` });
    }
  }
  const plan = b.finish('dynamic-context-window', echo, [], warnings);
  if (boundary === 'message' && text) plan.totalAfter = first < m.length ? text.measure.count(joinBlocks(text, first, m.length)) : 0;
  return plan;
}

/**
 * The dynamic context window: the rendered history (`[timestamp] role: content` blocks separated by a blank
 * line) trimmed from the front to the longest suffix that fits. With `boundary: 'message'`, only whole
 * messages are dropped.
 */
export const dynamicWindow: WindowStrategy<{ contextLength: number; boundary: DynamicBoundary; keepStatic: boolean }> = {
  id: 'dynamic-context-window',
  label: 'Dynamic context window',
  description: 'Trim the rendered history from the front until it fits the budget (what returnHistoryAsString returns).',
  params: [
    { key: 'contextLength', label: 'Token budget', kind: 'tokens', default: DEFAULT_CONTEXT_LENGTH, min: 0 },
    keepStaticParam(false),
    { key: 'boundary', label: 'Trim at', kind: 'choice', default: 'text', choices: ['text', 'message'], help: 'text: cut inside the first kept message; message: drop whole messages' },
  ],
  plan(skeleton, params) {
    const contextLength = numberParam(params, 'contextLength', DEFAULT_CONTEXT_LENGTH);
    const boundary: DynamicBoundary = params.boundary === 'message' ? 'message' : 'text';
    const keepStatic = keepsStatic(params, false);
    const echo = { contextLength, boundary, keepStatic };
    if (keepStatic && staticLength(skeleton) > 0) {
      return planAfterStatic(skeleton, 'rendered', (rest, used) => trimFront(rest, Math.max(0, contextLength - used), boundary, echo), 'dynamic-context-window', echo);
    }
    const plan = trimFront(skeleton, contextLength, boundary, echo);
    for (const w of staticWarnings(plan, skeleton)) plan.warnings.push(w);
    return plan;
  },
};
