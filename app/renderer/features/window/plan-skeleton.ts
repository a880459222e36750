import type { Skeleton, TokenCounts } from '../../../shared/contract.js';
import { FLAGS } from '../../../shared/contract.js';
import type { SkeletonMessage, WindowSkeleton } from '../../../../src/core/window/types.js';

const NONE: string[] = [];

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
    const flags = skeleton.flags[i];
    messages[i] = {
      role: skeleton.roles[skeleton.roleOf[i]],
      tokens: counts.tokens[i],
      renderedTokens: counts.renderedTokens[i],
      length: skeleton.lengths[i],
      toolCallIds: toolCalls.at[call] === i ? toolCalls.values[call] : NONE,
      toolResultId: toolResults.at[result] === i ? toolResults.values[result] : undefined,
      toolLike: (flags & FLAGS.toolResult) !== 0,
      isStatic: (flags & FLAGS.static) !== 0,
      contentIsString: (flags & FLAGS.structured) === 0,
    };
  }
  return { messages };
}
