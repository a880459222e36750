import type { Skeleton, TokenCounts } from '../../../shared/contract.js';
import { FLAGS } from '../../../shared/contract.js';
import type { SkeletonMessage, WindowSkeleton } from '../../../../src/core/window/types.js';

const NONE: string[] = [];

/** The planners' skeleton, from what the renderer has: the IPC skeleton and the worker's counts. */
export function planSkeleton(skeleton: Skeleton, counts: TokenCounts): WindowSkeleton {
  const messages: SkeletonMessage[] = new Array(skeleton.count);
  for (let i = 0; i < skeleton.count; i++) {
    const flags = skeleton.flags[i];
    messages[i] = {
      role: skeleton.roles[skeleton.roleOf[i]],
      tokens: counts.tokens[i],
      renderedTokens: counts.renderedTokens[i],
      length: skeleton.lengths[i],
      toolCallIds: skeleton.toolCalls[i] ?? NONE,
      toolResultId: skeleton.toolResults[i],
      toolLike: (flags & FLAGS.toolResult) !== 0,
      isStatic: (flags & FLAGS.static) !== 0,
      contentIsString: (flags & FLAGS.structured) === 0,
    };
  }
  return { messages };
}
