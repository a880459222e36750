import type { Skeleton } from '../../../shared/contract.js';
import { formatNumber } from '../roles.js';
import { partStart } from './part-start.js';

const plural = (n: number, one: string, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/**
 * How the rows shown stand to the session's messages as the session list counts them (every thread, every branch,
 * the history before each compaction), where they are fewer: the total, and in words what the rest are.
 */
export function sessionOf(skeleton: Skeleton): { messages: number; says: string } | undefined {
  const earlier = skeleton.whole ? 0 : (skeleton.earlier ?? 0);
  const { branches = 0, threads = 0 } = skeleton.session ?? {};
  const messages = skeleton.session?.messages ?? skeleton.count + earlier;
  if (messages <= skeleton.count) return undefined;
  const shown = skeleton.whole || earlier === 0 ? `${plural(skeleton.count, 'message')} shown` : `${plural(skeleton.count, 'message')} since ${partStart(skeleton).last} (what the model is sent now)`;
  const rest = [
    earlier > 0 ? `${plural(earlier, 'message')} before it ("+${formatNumber(earlier)} before ${partStart(skeleton).since}" shows them)` : undefined,
    branches > 0 ? `${plural(branches, 'message')} on branches not taken (a rewind, an edited prompt, a regenerated answer: ‹ › at the forks)` : undefined,
    threads > 0 ? `${plural(threads, 'message')} in its sub-agents' threads (the thread menu)` : undefined,
  ].filter(Boolean);
  return { messages, says: `${formatNumber(messages)} messages in all, as the list of sessions counts them: ${[shown, ...rest].join('; ')}.` };
}
