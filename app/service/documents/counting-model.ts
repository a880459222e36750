import { countingModel, shownSessionModel } from '../../../src/core/models.js';
import { SESSION_MODEL } from '../../../src/core/defaults.js';
import { viewOf, type OpenConversation, type OpenDocument } from './documents.js';
import type { HandlerContext } from '../handlers/context.js';

/** The model a conversation's tokens are counted for: the one picked in the settings, or the session's own. */
export function conversationModel(ctx: Pick<HandlerContext, 'settings'>, doc: Pick<OpenDocument, 'codec' | 'file'>, conv: Pick<OpenConversation, 'records'>): string {
  const picked = ctx.settings.get().model;
  if (picked !== SESSION_MODEL) return picked;
  // As the skeleton names it: the conversation's model, else the file's.
  return countingModel(picked, shownSessionModel(conv.records.map((r) => viewOf(doc.codec, r)), () => doc.file.doc.conversations.flatMap((c) => c.records.map((r) => viewOf(doc.codec, r)))));
}

/** The model a listed file's tokens are counted for: the one picked, or the one its summary says its session ran on. */
export function fileModel(ctx: Pick<HandlerContext, 'settings'>, summaryModel: string | undefined): string {
  return countingModel(ctx.settings.get().model, summaryModel);
}
