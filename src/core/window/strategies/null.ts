import { finishPlan, kept } from '../plan-builder.js';
import type { WindowStrategy } from '../types.js';

export const nullStrategy: WindowStrategy = {
  id: 'null',
  label: 'Null (keep everything)',
  description: 'No management: the history grows unbounded.',
  params: [],
  plan(skeleton) {
    const m = skeleton.messages;
    return finishPlan('null', {}, 'content', m, m.map((s, i) => kept(i, s.tokens)));
  },
};
