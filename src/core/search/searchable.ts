import type { Codec, ConversationDocument } from '../formats/codec.js';
import { reasoningText, sentText } from '../formats/model.js';
import type { SearchableMessage } from './segment.js';

/** Every message of a parsed file as search sees it: text, tool calls and results, and reasoning. */
export function searchableMessages(codec: Codec, doc: ConversationDocument): { messages: SearchableMessage[]; conversationSizes: number[] } {
  const messages: SearchableMessage[] = [];
  doc.conversations.forEach((conv, conversation) => {
    conv.records.forEach((record, index) => {
      const view = codec.view(record);
      const reasoning = reasoningText(view);
      const sent = sentText(view);
      messages.push({ conversation, index, role: view.normalRole, text: reasoning ? `${sent}\n${reasoning}` : sent, ...(view.role !== view.normalRole ? { spelled: view.role } : {}) });
    });
  });
  return { messages, conversationSizes: doc.conversations.map((c) => c.records.length) };
}
