import { countingModel, sessionModel } from '../../src/core/models.js';
import { viewOf, type OpenConversation, type OpenDocument } from './documents.js';
import type { HandlerContext } from './handlers/context.js';

/** The model a conversation's tokens are counted for: the one picked in the settings, or the session's own. */
export function conversationModel(ctx: Pick<HandlerContext, 'settings'>, doc: Pick<OpenDocument, 'codec'>, conv: Pick<OpenConversation, 'records'>): string {
  const picked = ctx.settings.get().model;
  return countingModel(picked, countingModel(picked, undefined) === picked ? undefined : sessionModel(conv.records.map((r) => viewOf(doc.codec, r))));
}

/** The model a listed file's tokens are counted for: the one picked, or the one its summary says its session ran on. */
export function fileModel(ctx: Pick<HandlerContext, 'settings'>, summaryModel: string | undefined): string {
  return countingModel(ctx.settings.get().model, summaryModel);
}
