import { isPlainObject } from '../../message.js';
import { NotThisFormat, quotedIn, type Codec, type Quoted } from '../codec.js';
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

/**
 * A mark only OpenAI's chat format makes: tool calls, a tool result's call id, image or audio parts, a function
 * call. One pattern per mark, each behind its word from the registry's pass over the head (one alternation of
 * them cost a listing 2 µs a file, a plain search 1 µs).
 */
function openAiMarks(head: string, quoted: Quoted | undefined): boolean {
  const has = (word: string) => quotedIn(head, quoted, word);
  return (
    (has('tool_calls') && /"tool_calls"\s*:\s*\[\s*\{\s*"(id|type|function)"/.test(head)) ||
    (has('tool_call_id') && /"tool_call_id"\s*:/.test(head)) ||
    ((has('image_url') || has('input_audio')) && /"type"\s*:\s*"(image_url|input_audio)"/.test(head)) ||
    (has('function_call') && /"function_call"\s*:/.test(head))
  );
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
  sniffMarks: ['tool_calls', 'tool_call_id', 'image_url', 'input_audio', 'function_call'],
  sniff(head, _name, quoted) {
    const start = head.trimStart()[0];
    if (start === '{' && /"messages"\s*:\s*\[/.test(head) && /"role"\s*:/.test(head)) return 25;
    if (start === '[' && /"role"\s*:/.test(head) && openAiMarks(head, quoted)) return 15;
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
