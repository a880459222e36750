import { numberParam, orphanWarnings, PlanBuilder } from '../plan-builder.js';
import type { WindowStrategy } from '../types.js';
import { keepsStatic, keepStaticParam, staticLength, staticWarnings } from '../static-context.js';

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
    const n = skeleton.messages.length;
    // The static context, when kept, stands apart: the last `limit` of the messages after it.
    const s = keepStatic ? staticLength(skeleton) : 0;
    const b = new PlanBuilder(skeleton.messages, 'content');
    b.keepRange(0, s);
    b.keepRange(Math.max(s, n - limit), n);
    const plan = b.finish('last-n', echo, [], orphanWarnings(b));
    if (!keepStatic) for (const w of staticWarnings(plan, skeleton)) plan.warnings.push(w);
    return plan;
  },
};
