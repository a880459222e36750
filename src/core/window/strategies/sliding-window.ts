import { callIndexFor, numberParam, orphanWarnings, PlanBuilder } from '../plan-builder.js';
import type { SkeletonMessage, WindowStrategy } from '../types.js';
import { keepsStatic, keepStaticParam, staticLength, staticWarnings } from '../static-context.js';

export const DEFAULT_WINDOW_SIZE = 40;

/** A tool result at the window's start whose call fell outside it. */
function orphanedAtStart(messages: readonly SkeletonMessage[], start: number): boolean {
  const m = messages[start];
  if (!m.toolLike && m.toolResultId === undefined) return false;
  if (m.toolCallIds.length > 0) return false; // a call (possibly also tool-like) starts a new exchange
  const call = callIndexFor(messages, start);
  // A tool message without an identifiable call answers the message before it, which is outside.
  return call === undefined ? m.toolLike : call < start;
}

/** Sliding window: the most recent `windowSize` messages, never starting on a tool result cut off from its call. */
export const slidingWindow: WindowStrategy<{ windowSize: number; keepStatic: boolean }> = {
  id: 'sliding-window',
  label: 'Sliding window',
  description: 'Keep the most recent messages; the start moves forward past tool results whose call fell out.',
  params: [{ key: 'windowSize', label: 'Window size', kind: 'count', default: DEFAULT_WINDOW_SIZE, min: 0 }, keepStaticParam(true)],
  plan(skeleton, params) {
    const windowSize = numberParam(params, 'windowSize', DEFAULT_WINDOW_SIZE);
    const keepStatic = keepsStatic(params, true);
    const echo = { windowSize, keepStatic };
    const m = skeleton.messages;
    // The static context, when kept, stands apart: the window is over the messages after it.
    const s = keepStatic ? staticLength(skeleton) : 0;
    let start = Math.max(s, m.length - windowSize);
    if (start > s) while (start < m.length && orphanedAtStart(m, start)) start++;
    const b = new PlanBuilder(m, 'content');
    b.keepRange(0, s);
    b.keepRange(start, m.length);
    const plan = b.finish('sliding-window', echo, [], orphanWarnings(b));
    if (!keepStatic) for (const w of staticWarnings(plan, skeleton)) plan.warnings.push(w);
    return plan;
  },
};
