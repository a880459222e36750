import { renderHistory } from '../../../src/core/render.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import { buildViewSkeleton, applyPlanToRecords } from '../../../src/core/views.js';
import { requestBody, requestShapeOf } from '../../../src/core/formats/request-shape.js';
import { applyPlan } from '../../../src/core/window/apply.js';
import { strategies } from '../../../src/core/window/registry.js';
import { renderedTail, SkeletonCache } from '../../../src/core/window/skeleton-cache.js';
import { FATES, type WindowSkeleton } from '../../../src/core/window/types.js';
import { cutView } from '../../../src/core/window/cut-view.js';
import { planAtTurn } from '../../../src/core/window/turns.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import { viewOf, type OpenDocument } from '../documents/documents.js';
import type { HandlerContext } from './context.js';
import { swarmsCodec } from '../documents/skeleton.js';
import { openConversation } from './open-document.js';
import type { Message } from '../../../src/core/message.js';
import type { Tokenizer } from '../../../src/core/tokenizer/tokenizer.js';

/**
 * The planner skeleton of a conversation, with the full text: the swarms formats by their own rules (the
 * history string, content and tool calls), every other format through its parts.
 */
export function skeletonFor(doc: OpenDocument, records: readonly Message[], tokenizer: Tokenizer, cache: SkeletonCache): WindowSkeleton {
  if (swarmsCodec(doc)) return cache.skeleton(records, tokenizer, undefined, { countToolCalls: true });
  return buildViewSkeleton(records.map((r) => viewOf(doc.codec, r)), tokenizer);
}

/** What the model sees after a strategy, planned in the document service with the full text so every cut is exact. */
export function windowHandlers(ctx: HandlerContext): Pick<Handlers, 'window:preview' | 'window:cut'> {
  const cache = new SkeletonCache();
  // `asSent`: the plan the panel shows, of the history as the model was sent it (from a compaction's summary on).
  const planned = (path: string, conversation: number, model: string, strategy: string, params: Record<string, unknown>, asSent = false) => {
    const chosen = strategies.get(strategy);
    if (!chosen) throw new HandlerError('BAD_INPUT', `unknown strategy "${strategy}"`);
    const { doc, conv } = openConversation(ctx, path, conversation);
    const tokenizer = getTokenizer(model);
    const skeleton = skeletonFor(doc, conv.records, tokenizer, cache);
    const plan = asSent ? planAtTurn(chosen, skeleton, params, skeleton.messages.length) : strategies.plan(strategy, skeleton, params);
    return { doc, records: conv.records, tokenizer, skeleton, plan };
  };
  return {
    'window:cut': ({ path, conversation, model, strategy, params, index }) => {
      const { skeleton, plan } = planned(path, conversation, model, strategy, params, true);
      if (index >= plan.fates.length) throw new HandlerError('NOT_FOUND', `${path} has ${plan.fates.length} messages; there is no message ${index}`);
      const cut = cutView(skeleton, plan, index);
      return { fate: FATES[plan.fates[index]], ...(cut ? { cut } : {}) };
    },
    'window:preview': ({ path, conversation, model, strategy, params }) => {
      const { doc, records, tokenizer, skeleton, plan } = planned(path, conversation, model, strategy, params);
      if (plan.renderedStart !== undefined) {
        const text = renderedTail(skeleton, plan.renderedStart, plan.renderedFrom);
        return { text, tokens: plan.totalAfter, messages: plan.counts.kept + plan.counts.cut, summaries: 0 };
      }
      // Summaries have no text until a summariser writes one: the preview shows where they go.
      const summaries = plan.inserted.map((ins) => `[summary of ${ins.replaces.length} messages goes here]`);
      let text: string;
      let count: number;
      if (swarmsCodec(doc)) {
        const kept = applyPlan(records, plan, { summaries, measure: tokenizer });
        text = renderHistory(kept);
        count = kept.length;
      } else {
        // The request in the agent's own API shape; its figure the panel's (the message contents kept).
        const kept = applyPlanToRecords(doc.codec, records, records.map((r) => viewOf(doc.codec, r)), plan, summaries, { sent: true });
        const shape = requestShapeOf(doc.codec.id);
        const request = requestBody(shape, kept.map((r) => doc.codec.view(r)), kept);
        text = JSON.stringify(request.body, null, 2);
        // A path shown through its compactions was never one request: said beside the body.
        const compactions = records.filter((r, i) => i > 0 && viewOf(doc.codec, r).compaction).length;
        return { text, tokens: plan.totalAfter, messages: request.messages, summaries: plan.inserted.length, shape, system: request.system, ...(compactions > 0 ? { compactions } : {}), ...(request.notes ? { notes: request.notes } : {}) };
      }
      return { text, tokens: text ? tokenizer.count(text) : 0, messages: count, summaries: plan.inserted.length, shape: 'swarms-history' as const };
    },
  };
}

