import { numberParam, orphanWarnings, PlanBuilder } from '../plan-builder.js';
import type { WindowStrategy } from '../types.js';
import { keepsStatic, keepStaticParam, planAfterStatic, staticWarnings } from '../static-context.js';

export const DEFAULT_LAST_N = 10;

/** Polos `conversation_history`: the last `limit` messages of a conversation id; the oldest are dropped. */
export const lastN: WindowStrategy<{ limit: number; keepStatic: boolean }> = {
  id: 'last-n',
  label: 'Last N messages',
  description: 'Keep the most recent N messages (Polos conversation_history); older ones are dropped. The system prompt stays unless you say otherwise.',
  params: [{ key: 'limit', label: 'Messages kept', kind: 'count', default: DEFAULT_LAST_N, min: 0 }, keepStaticParam(true)],
  plan(skeleton, params) {
    const limit = numberParam(params, 'limit', DEFAULT_LAST_N);
    const keepStatic = keepsStatic(params, true);
    const echo = { limit, keepStatic };
    const lastOf = (s: typeof skeleton) => {
      const n = s.messages.length;
      const b = new PlanBuilder(s.messages, 'content');
      b.keepRange(Math.max(0, n - limit), n);
      return b.finish('last-n', echo, [], orphanWarnings(b));
    };
    if (keepStatic) return planAfterStatic(skeleton, 'content', lastOf, 'last-n', echo);
    const plan = lastOf(skeleton);
    for (const w of staticWarnings(plan, skeleton)) plan.warnings.push(w);
    return plan;
  },
};
