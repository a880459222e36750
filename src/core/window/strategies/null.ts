import { PlanBuilder } from '../plan-builder.js';
import type { WindowStrategy } from '../types.js';

export const nullStrategy: WindowStrategy = {
  id: 'null',
  label: 'Null (keep everything)',
  description: 'No management: the history grows unbounded.',
  params: [],
  plan(skeleton) {
    const b = new PlanBuilder(skeleton.messages, 'content');
    b.keepRange(0, skeleton.messages.length);
    return b.finish('null', {});
  },
};
