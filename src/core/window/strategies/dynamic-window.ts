import { RENDER_SEPARATOR } from '../skeleton.js';
import { dropped, finishPlan, kept, numberParam, orphanWarnings } from '../plan-builder.js';
import type { MessageFate, SkeletonText, WindowPlan, WindowSkeleton, WindowStrategy } from '../types.js';
import { DEFAULT_CONTEXT_LENGTH } from './truncate.js';

export type DynamicBoundary = 'text' | 'message';

function suffixSums(skeleton: WindowSkeleton): number[] {
  const m = skeleton.messages;
  const sums = new Array<number>(m.length + 1);
  sums[m.length] = 0;
  for (let i = m.length - 1; i >= 0; i--) sums[i] = sums[i + 1] + m[i].renderedTokens;
  return sums;
}

/** Smallest i whose suffix of rendered blocks fits (suffix sums never increase). */
function firstFitting(sums: readonly number[], limit: number): number {
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
function planOnText(skeleton: WindowSkeleton, text: SkeletonText, limit: number, sums: number[], params: Record<string, unknown>): WindowPlan {
  const m = skeleton.messages;
  const n = m.length;
  // Counts per block are summed, so a junction can be off by a token: start one block early and widen
  // while the whole tail still fits; the tail is then searched exactly.
  let from = Math.max(0, firstFitting(sums, limit) - 1);
  let tail = joinBlocks(text, from, n);
  let start = text.measure.fitSuffixStart(tail, limit);
  while (start === 0 && from > 0) {
    from--;
    tail = text.block(from) + RENDER_SEPARATOR + tail;
    start = text.measure.fitSuffixStart(tail, limit);
  }
  const fates: MessageFate[] = [];
  for (let j = 0; j < from; j++) fates.push(dropped(j));
  let pos = 0;
  for (let j = from; j < n; j++) {
    const block = text.block(j);
    const end = pos + block.length;
    if (start <= pos) fates.push(kept(j, m[j].renderedTokens));
    else if (start < end) {
      const blockOffset = start - pos;
      const prefix = block.length - text.content(j).length;
      const sep = j < n - 1 ? RENDER_SEPARATOR : '';
      fates.push({
        index: j,
        fate: 'cut',
        tokensAfter: text.measure.count(block.slice(blockOffset) + sep),
        cut: { keep: 'end', offset: Math.max(0, blockOffset - prefix), approximate: false },
      });
    } else fates.push(dropped(j));
    pos = end + RENDER_SEPARATOR.length;
  }
  let before = 0;
  for (let j = 0; j < from; j++) before += text.block(j).length + RENDER_SEPARATOR.length;
  const plan = finishPlan('dynamic-context-window', params, 'rendered', m, fates, [], orphanWarnings(m, fates), {
    renderedStart: before + start,
  });
  plan.totalAfter = text.measure.count(tail.slice(start));
  return plan;
}

/**
 * The dynamic context window: the rendered history (`[timestamp] role: content` blocks separated by a blank
 * line) trimmed from the front to the longest suffix that fits. With `boundary: 'message'`, only whole
 * messages are dropped.
 */
export const dynamicWindow: WindowStrategy<{ contextLength: number; boundary: DynamicBoundary }> = {
  id: 'dynamic-context-window',
  label: 'Dynamic context window',
  description: 'Trim the rendered history from the front until it fits the budget (what returnHistoryAsString returns).',
  params: [
    { key: 'contextLength', label: 'Token budget', kind: 'tokens', default: DEFAULT_CONTEXT_LENGTH, min: 0 },
    { key: 'boundary', label: 'Trim at', kind: 'choice', default: 'text', choices: ['text', 'message'], help: 'text: cut inside the first kept message; message: drop whole messages' },
  ],
  plan(skeleton, params) {
    const contextLength = numberParam(params, 'contextLength', DEFAULT_CONTEXT_LENGTH);
    const boundary: DynamicBoundary = params.boundary === 'message' ? 'message' : 'text';
    const echo = { contextLength, boundary };
    const m = skeleton.messages;
    const sums = suffixSums(skeleton);
    const text = skeleton.text;
    if (boundary === 'text' && text) {
      return m.length > 0 ? planOnText(skeleton, text, contextLength, sums, echo) : finishPlan('dynamic-context-window', echo, 'rendered', m, [], [], [], { renderedStart: 0 });
    }

    let first = firstFitting(sums, contextLength);
    if (boundary === 'message' && text) {
      // Verify with a real count of the kept text; step forward past any junction rounding.
      while (first < m.length && text.measure.count(joinBlocks(text, first, m.length)) > contextLength) first++;
    }
    const fates: MessageFate[] = m.map((s, i) => (i >= first ? kept(i, s.renderedTokens) : dropped(i)));
    const warnings = orphanWarnings(m, fates);
    if (boundary === 'text' && first > 0) {
      const k = first - 1;
      const room = contextLength - sums[first];
      if (room > 0) {
        // Without the text the cut is placed in proportion to the tokens left for it.
        const keepChars = Math.floor((m[k].length * room) / Math.max(1, m[k].renderedTokens));
        fates[k] = { index: k, fate: 'cut', tokensAfter: room, cut: { keep: 'end', offset: Math.max(0, m[k].length - keepChars), approximate: true } };
        warnings.push({ code: 'approximate-cut', index: k, message: `message ${k}: the cut position is estimated` });
      }
    }
    const plan = finishPlan('dynamic-context-window', echo, 'rendered', m, fates, [], warnings);
    if (boundary === 'message' && text) plan.totalAfter = first < m.length ? text.measure.count(joinBlocks(text, first, m.length)) : 0;
    return plan;
  },
};
