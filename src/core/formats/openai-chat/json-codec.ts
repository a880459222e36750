import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';
import { toolSchemas } from '../tools.js';
import { openAiDocumentProblems } from './validity.js';
import { openAiFromView, openAiLoses, openAiView, openAiWithText } from './view.js';

function checkMessages(list: unknown[], file: string, at: (path: (string | number)[]) => { line: number; column: number } | undefined, base: (string | number)[]): void {
  list.forEach((m, i) => {
    if (!isPlainObject(m) || typeof m.role !== 'string') throw new ConversationFileError(file, `message ${i} has no "role"`, at([...base, i]));
  });
}

/** A list of Chat Completions messages, or a request body `{model, messages: [...], tools}`. */
export const openAiChatJson: Codec = {
  id: 'openai-chat',
  label: 'OpenAI chat messages (JSON)',
  tool: 'the OpenAI API',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: false, timestamps: false },
  sniffNeeds: ['role'],
  sniff(head) {
    const start = head.trimStart()[0];
    if (start === '{' && /"messages"\s*:\s*\[/.test(head) && /"role"\s*:/.test(head)) return 25;
    if (start === '[' && /"role"\s*:/.test(head) && (head.includes('"tool_call') || head.includes('"type"') || head.includes('"function_call"')) && /"tool_calls"\s*:\s*\[\s*\{\s*"(id|type|function)"|"tool_call_id"\s*:|"type"\s*:\s*"(image_url|input_audio)"|"function_call"\s*:/.test(head)) return 15;
    return 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'openai-chat', (root, f, at) => {
      const path = Array.isArray(root) ? [] : isPlainObject(root) && Array.isArray(root.messages) ? ['messages'] : undefined;
      if (!path) throw new NotThisFormat('expected a list of messages or an object with "messages"');
      const list = (path.length ? (root as Record<string, unknown>).messages : root) as unknown[];
      checkMessages(list, f, at, path);
      const tools = isPlainObject(root) ? toolSchemas(root.tools ?? root.functions) : undefined;
      return { conversations: [{ records: list, ...(tools ? { meta: { tools } } : {}) }], paths: [list.map((_, i) => [...path, i])] };
    });
  },
  serialize(doc, conversations) {
    return serializeJsonDocument(doc, (root) => (Array.isArray(root) ? (conversations[0] ?? []).slice() : replaceAt(root, ['messages'], (conversations[0] ?? []).slice())));
  },
  view: openAiView,
  fromView: (view) => openAiFromView(view),
  loses: openAiLoses,
  withText: openAiWithText,
  validate: (doc) => openAiDocumentProblems(doc, false),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
