import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { firstLine, jsonlLineText, parseJsonlConversations, serializeJsonlConversations } from '../shared/jsonl-document.js';
import { toolSchemas } from '../tools.js';
import { openAiDocumentProblems } from './validity.js';
import { openAiFromView, openAiLoses, openAiView, openAiWithText } from './view.js';

/** Chat fine-tuning data (and eval sets): one `{"messages": [...]}` conversation per line. */
export const openAiChatJsonl: Codec = {
  id: 'openai-chat-jsonl',
  label: 'OpenAI chat dataset (JSONL)',
  tool: 'OpenAI fine-tuning',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  capabilities: { conversations: 'many', toolCalls: true, reasoning: false, otherRecords: false, timestamps: false },
  sniffNeeds: ['messages'],
  sniff: (head) => (/^\s*\{\s*"messages"\s*:\s*\[/.test(head) || (/"messages"\s*:\s*\[/.test(firstLine(head)) && /"role"\s*:/.test(firstLine(head))) ? 30 : 0),
  parse(text, file) {
    return parseJsonlConversations(text, file, 'openai-chat-jsonl', (line, n) => {
      if (!isPlainObject(line) || !Array.isArray(line.messages)) throw new NotThisFormat(`line ${n} is not a {"messages": [...]} record`);
      line.messages.forEach((m, i) => {
        if (!isPlainObject(m) || typeof m.role !== 'string') throw new ConversationFileError(file, `line ${n}: message ${i} has no "role"`, { line: n, column: 1 });
      });
      const tools = toolSchemas(line.tools ?? line.functions);
      return { records: line.messages, paths: line.messages.map((_, i) => ['messages', i]), ...(tools ? { meta: { tools } } : {}) };
    });
  },
  serialize(doc, conversations) {
    return serializeJsonlConversations(doc, conversations, (line, records) => ({ ...(line as object), messages: records.slice() }));
  },
  view: openAiView,
  fromView: (view) => openAiFromView(view),
  loses: openAiLoses,
  withText: openAiWithText,
  validate: (doc) => openAiDocumentProblems(doc, true),
  rawText: (doc, _c, record) => jsonlLineText(doc, record),
};
