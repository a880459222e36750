import { dropped, finishPlan, kept, numberParam, orphanWarnings } from '../plan-builder.js';
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
    const m = skeleton.messages;
    const start = Math.max(0, m.length - limit);
    const fates = m.map((s, i) => (i >= start ? kept(i, s.tokens) : dropped(i)));
    return finishPlan('last-n', { limit }, 'content', m, fates, [], orphanWarnings(m, fates));
  },
};
