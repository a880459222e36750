import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument } from '../shared/json-document.js';
import { toolSchemas } from '../tools.js';
import { openAiDocumentProblems } from './validity.js';
import { openAiFromView, openAiLoses, openAiView, openAiWithText } from './view.js';

/**
 * A JSON list of `{messages: [...]}` conversations, with whatever else each entry keeps (`images`, `tools`,
 * `videos`): LLaMA-Factory's OpenAI-style datasets (its multimodal demo among them) and many others.
 */
export const openAiChatDataset: Codec = {
  id: 'openai-chat-dataset',
  label: 'OpenAI-style chat dataset (JSON)',
  tool: 'a dataset loader',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'many', toolCalls: true, reasoning: false, otherRecords: false, timestamps: false },
  sniffNeeds: ['messages'],
  sniff(head) {
    const start = head.trimStart();
    return start[0] === '[' && /^\[\s*\{\s*("[^"]*"\s*:\s*[^{[]*,\s*)*"messages"\s*:\s*\[/.test(start) && /"role"\s*:/.test(head) ? 32 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'openai-chat-dataset', (root, f, at) => {
      if (!Array.isArray(root) || root.length === 0 || !root.every((e) => isPlainObject(e) && Array.isArray(e.messages))) throw new NotThisFormat('expected a list of {"messages": [...]} entries');
      const conversations = root.map((entry, i) => {
        const e = entry as Record<string, unknown>;
        const messages = e.messages as unknown[];
        messages.forEach((m, k) => {
          if (!isPlainObject(m) || typeof m.role !== 'string') throw new ConversationFileError(f, `entry ${i}: message ${k} has no "role"`, at([i, 'messages', k]));
        });
        const tools = toolSchemas(e.tools ?? e.functions);
        return { records: messages, ...(tools ? { meta: { tools } } : {}), ...(typeof e.id === 'string' || typeof e.id === 'number' ? { title: String(e.id) } : {}) };
      });
      return { conversations, paths: conversations.map((c, i) => c.records.map((_, k) => [i, 'messages', k])) };
    });
  },
  serialize(doc, conversations) {
    return serializeJsonDocument(doc, (root) => (root as unknown[]).map((entry, i) => ({ ...(entry as object), messages: (conversations[i] ?? []).slice() })));
  },
  view: openAiView,
  fromView: (view) => openAiFromView(view),
  loses: openAiLoses,
  withText: openAiWithText,
  validate: (doc) => openAiDocumentProblems(doc, true),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
