import { numberParam, orphanWarnings, PlanBuilder } from '../plan-builder.js';
import type { WindowStrategy } from '../types.js';

export const DEFAULT_LAST_N = 10;

/** Polos `conversation_history`: the last `limit` messages of a conversation id; the oldest are dropped. */
export const lastN: WindowStrategy<{ limit: number }> = {
  id: 'last-n',
  label: 'Last N messages',
  description: 'Keep the most recent N messages (Polos conversation_history); older ones are dropped.',
  params: [{ key: 'limit', label: 'Messages kept', kind: 'count', default: DEFAULT_LAST_N, min: 0 }],
  plan(skeleton, params) {
    const limit = numberParam(params, 'limit', DEFAULT_LAST_N);
    const n = skeleton.messages.length;
    const b = new PlanBuilder(skeleton.messages, 'content');
    b.keepRange(Math.max(0, n - limit), n);
    return b.finish('last-n', { limit }, [], orphanWarnings(b));
  },
};
