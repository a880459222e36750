import type { Codec, ConversationDocument } from '../formats/codec.js';
import { readableText, reasoningText, sentText, type MessageView } from '../formats/model.js';
import type { SearchableMessage } from './segment.js';

/** Every message of a parsed file as search sees it: text, tool calls and results, and reasoning. */
export function searchableMessages(codec: Codec, doc: ConversationDocument): { messages: SearchableMessage[]; conversationSizes: number[] } {
  const messages: SearchableMessage[] = [];
  doc.conversations.forEach((conv, conversation) => {
    conv.records.forEach((record, index) => {
      const view = codec.view(record);
      const reasoning = reasoningText(view);
      const sent = sentText(view);
      const text = reasoning ? `${sent}\n${reasoning}` : sent;
      const readable = readableOf(view, text);
      messages.push({ conversation, index, role: view.normalRole, text, ...(readable !== undefined ? { readable } : {}), ...(view.role !== view.normalRole ? { spelled: view.role } : {}) });
    });
  });
  return { messages, conversationSizes: doc.conversations.map((c) => c.records.length) };
}

/** The text as results show it, where it differs from the searched text: only a message with a tool call or a JSON result can. */
export function readableOf(view: Pick<MessageView, 'parts'>, searched: string): string | undefined {
  if (!view.parts.some((p) => p.kind === 'tool-call' || (p.kind === 'tool-result' && /^\s*\{/.test(p.text)))) return undefined;
  const readable = readableText(view);
  return readable === searched ? undefined : readable;
}
