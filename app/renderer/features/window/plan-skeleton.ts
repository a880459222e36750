import type { Skeleton, SkeletonDelta, TokenCounts } from '../../../shared/contract.js';
import { FLAGS } from '../../../shared/contract.js';
import { sparseGet } from '../../../shared/sparse.js';
import type { SkeletonMessage, WindowSkeleton } from '../../../../src/core/window/types.js';

const NONE: string[] = [];

function messageAt(skeleton: Skeleton, counts: TokenCounts, i: number, calls: readonly string[], result: string | undefined): SkeletonMessage {
  const flags = skeleton.flags[i];
  return {
    role: skeleton.roles[skeleton.roleOf[i]],
    tokens: counts.tokens[i],
    renderedTokens: counts.renderedTokens[i],
    length: skeleton.lengths[i],
    toolCallIds: calls,
    toolResultId: result,
    toolLike: (flags & FLAGS.toolResult) !== 0,
    isStatic: (flags & FLAGS.static) !== 0,
    contentIsString: (flags & FLAGS.structured) === 0,
    ...((flags & (FLAGS.compaction | FLAGS.summary)) !== 0 ? { startsPart: true } : {}),
  };
}

/** The planners' skeleton, from what the renderer has: the IPC skeleton and the worker's counts. */
export function planSkeleton(skeleton: Skeleton, counts: TokenCounts): WindowSkeleton {
  const messages: SkeletonMessage[] = new Array(skeleton.count);
  // The sparse columns are walked beside the rows (both ascending).
  let call = 0;
  let result = 0;
  const { toolCalls, toolResults } = skeleton;
  for (let i = 0; i < skeleton.count; i++) {
    while (call < toolCalls.at.length && toolCalls.at[call] < i) call++;
    while (result < toolResults.at.length && toolResults.at[result] < i) result++;
    messages[i] = messageAt(skeleton, counts, i, toolCalls.at[call] === i ? toolCalls.values[call] : NONE, toolResults.at[result] === i ? toolResults.values[result] : undefined);
  }
  return { messages };
}

/** One planners' skeleton per (skeleton, counts): built once, and spliced rather than rebuilt after an edit. */
const built = new WeakMap<TokenCounts, { skeleton: Skeleton; plan: WindowSkeleton }>();

export function cachedPlanSkeleton(skeleton: Skeleton, counts: TokenCounts): WindowSkeleton {
  const hit = built.get(counts);
  if (hit && hit.skeleton === skeleton) return hit.plan;
  const plan = planSkeleton(skeleton, counts);
  built.set(counts, { skeleton, plan });
  return plan;
}

/**
 * After a delta: the planners' skeleton of the new state from the old one's, with only the spliced messages
 * made anew (each message object stays immutable), when the old one was built. The same as building it whole.
 */
export function carryPlanSkeleton(before: { skeleton: Skeleton; counts: TokenCounts | undefined }, after: { skeleton: Skeleton; counts: TokenCounts | undefined }, delta: SkeletonDelta): void {
  if (!before.counts || !after.counts) return;
  const hit = built.get(before.counts);
  if (!hit || hit.skeleton !== before.skeleton) return;
  const made: SkeletonMessage[] = [];
  for (let k = 0; k < delta.rows.length; k++) {
    const i = delta.start + k;
    made.push(messageAt(after.skeleton, after.counts, i, sparseGet(after.skeleton.toolCalls, i) ?? NONE, sparseGet(after.skeleton.toolResults, i)));
  }
  const old = hit.plan.messages;
  const messages = old.slice(0, delta.start).concat(made, old.slice(delta.start + delta.deleteCount));
  built.set(after.counts, { skeleton: after.skeleton, plan: { messages } });
}

/** Builds the planners' skeleton when the page is idle, so that opening the window panel finds it made. */
export function preparePlanSkeleton(skeleton: Skeleton, counts: TokenCounts): void {
  const idle = (globalThis as { requestIdleCallback?: (f: () => void) => void }).requestIdleCallback ?? ((f: () => void) => setTimeout(f, 50));
  idle(() => cachedPlanSkeleton(skeleton, counts));
}
