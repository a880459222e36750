import { renderHistory } from '../../../src/core/render.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import { applyPlan } from '../../../src/core/window/apply.js';
import { strategies } from '../../../src/core/window/registry.js';
import { renderedTail, SkeletonCache } from '../../../src/core/window/skeleton-cache.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';
import { openDocument } from './open-document.js';

/** What the model sees after a strategy, planned in main with the full text so every cut is exact. */
export function windowHandlers(ctx: HandlerContext): Pick<Handlers, 'window:preview'> {
  const cache = new SkeletonCache();
  return {
    'window:preview': ({ path, model, strategy, params }) => {
      if (!strategies.get(strategy)) throw new HandlerError('BAD_INPUT', `unknown strategy "${strategy}"`);
      const { messages } = openDocument(ctx, path).doc;
      const tokenizer = getTokenizer(model);
      const skeleton = cache.skeleton(messages, tokenizer, undefined, { countToolCalls: true });
      const plan = strategies.plan(strategy, skeleton, params);
      if (plan.renderedStart !== undefined) {
        const text = renderedTail(skeleton, plan.renderedStart);
        return { text, tokens: plan.totalAfter, messages: plan.counts.kept + plan.counts.cut, summaries: 0 };
      }
      // Summaries have no text until a summariser writes one: the preview shows where they go.
      const summaries = plan.inserted.map((ins) => `[summary of ${ins.replaces.length} messages goes here]`);
      const kept = applyPlan(messages, plan, { summaries, measure: tokenizer });
      const text = renderHistory(kept);
      return { text, tokens: text ? tokenizer.count(text) : 0, messages: kept.length, summaries: plan.inserted.length };
    },
  };
}
