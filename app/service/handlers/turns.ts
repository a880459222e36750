import { shownSessionModel } from '../../../src/core/models.js';
import { PRICES_DATED } from '../../../src/core/pricing/prices.js';
import { turnFigures } from '../../../src/core/turn-figures.js';
import { sentText } from '../../../src/core/formats/model.js';
import { addUp, callsOf, costOf, reportedTotalsOf, requestOverhead, withReportedTotals } from '../../../src/core/usage.js';
import type { Handlers } from '../dispatch.js';
import { viewOf } from '../documents/documents.js';
import type { MessageView } from '../../../src/core/formats/model.js';
import { swarmsCodec } from '../documents/skeleton.js';
import type { HandlerContext } from './context.js';
import type { ConversationState } from './conversation-state.js';
import { openConversation } from './open-document.js';

/**
 * A conversation's turns with their tokens and cost, for the turn strip: reported usage per call where the file
 * has it; elsewhere an estimate from the counts made for the model asked (counted now where not yet), priced as
 * the session's own model where it names one.
 */
export function turnHandlers(ctx: HandlerContext, state: ConversationState): Pick<Handlers, 'conversation:turns'> {
  return {
    'conversation:turns': async ({ path, conversation, model }) => {
      const { doc, conv } = openConversation(ctx, path, conversation);
      const records = conv.records;
      // As the transcript and the calls request read them (tool results linked to their calls): the same turns.
      const views = state.linkedViews(doc, records);
      const { entries } = await state.countsOf(doc, records, records.map((_, i) => i), model);
      const sessionModel = shownSessionModel(views as MessageView[], () => doc.file.doc.conversations.flatMap((c) => c.records.map((r) => viewOf(doc.codec, r))));
      // As the transcript estimates a turn: with what each request holds beside the messages (its system prompt, its tools).
      // Only the messages before the first call that reports its input are measured (not every text of a long session).
      const reported = callsOf(views);
      const first = reported.find((c) => c.usage.input !== undefined);
      const overhead = first ? requestOverhead({ at: [first.at], values: [first.usage] }, views.slice(0, first.at).map((v) => sentText(v).length)) : 0;
      const turns = turnFigures(views, { tokens: entries.map((e) => e.tokens), model: sessionModel ?? model, prices: ctx.settings.get().prices ?? {}, eachMessage: swarmsCodec(doc), overhead });
      // A run's totals the file reports beside its calls cost what its calls alone do not say (their input).
      const totals = reportedTotalsOf(doc.codec, doc.file.doc, conversation, records.length);
      const session = totals.length > 0 ? addUp(withReportedTotals(reported, totals).map((c) => c.usage)) : undefined;
      const sessionCost = session ? costOf(session, ctx.settings.get().prices ?? {}) : undefined;
      return { turns, pricesDated: PRICES_DATED, ...(sessionCost && sessionCost.unpriced.length === 0 ? { sessionUsd: sessionCost.usd } : {}) };
    },
  };
}
