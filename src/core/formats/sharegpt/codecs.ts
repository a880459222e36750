import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument } from '../shared/json-document.js';
import { firstLine, jsonlLineText, parseJsonlConversations, serializeJsonlConversations } from '../shared/jsonl-document.js';
import { toolSchemas } from '../tools.js';
import type { ConversationMeta } from '../codec.js';
import { shareGptProblems } from './validity.js';
import { assembleConversation, extraOf, recordsOfConversation, shareGptFromView, shareGptLoses, shareGptOrder, shareGptView, shareGptVanishes, shareGptWithText } from './view.js';

const capabilities = { conversations: 'many', toolCalls: true, reasoning: false, otherRecords: false, timestamps: false, toolParts: 'one' } as const;

function checkTurns(conv: unknown, where: string, file: string, pos?: { line: number; column: number }): Record<string, unknown> {
  if (!isPlainObject(conv) || !Array.isArray(conv.conversations)) throw new NotThisFormat(`${where} has no "conversations" list`);
  conv.conversations.forEach((t, i) => {
    if (!isPlainObject(t) || typeof t.from !== 'string') throw new ConversationFileError(file, `${where}: turn ${i} has no "from"`, pos);
  });
  return conv;
}

/** A conversation's `tools` (a JSON string in LLaMA-Factory's layout, a list in some datasets). */
function metaOf(conv: Record<string, unknown>): ConversationMeta | undefined {
  const tools = toolSchemas(conv.tools);
  if (!tools && typeof conv.tools !== 'string') return undefined;
  return { ...(tools ? { tools } : {}), ...(typeof conv.tools === 'string' ? { toolsText: conv.tools } : {}) };
}

// An entry's own id is its title; an entry without one is numbered by whoever shows it.
const title = (conv: Record<string, unknown>) => (typeof conv.id === 'string' || typeof conv.id === 'number' ? String(conv.id) : undefined);

/** ShareGPT datasets (LLaMA-Factory's layout): a list of `{conversations: [{from, value}], system, tools}`. */
export const shareGptJson: Codec = {
  id: 'sharegpt',
  label: 'ShareGPT dataset (JSON)',
  tool: 'LLaMA-Factory',
  syntax: 'json',
  extensions: ['.json'],
  capabilities,
  sniffNeeds: ['conversations'],
  sniff: (head) => (head.includes('"conversations"') && /"conversations"\s*:\s*\[/.test(head) && /"from"\s*:/.test(head) ? 30 : 0),
  parse(text, file) {
    return parseJsonDocument(text, file, 'sharegpt', (root, f, at) => {
      const list = Array.isArray(root) ? root : isPlainObject(root) ? [root] : undefined;
      if (!list) throw new NotThisFormat('expected a list of conversations');
      const conversations = list.map((conv, i) => {
        const c = checkTurns(conv, `conversation ${i}`, f, at(Array.isArray(root) ? [i] : []));
        return { c, records: recordsOfConversation(c), title: title(c), meta: metaOf(c) };
      });
      const paths = conversations.map(({ records }, i) => {
        const base = Array.isArray(root) ? [i] : [];
        let turn = 0;
        return records.map((r) => {
          const extra = extraOf(r);
          return extra ? [...base, extra] : [...base, 'conversations', turn++];
        });
      });
      return { conversations: conversations.map(({ records, title: t, meta }) => ({ records, title: t, ...(meta ? { meta } : {}) })), paths };
    });
  },
  serialize(doc, conversations) {
    return serializeJsonDocument(doc, (root) => {
      if (!Array.isArray(root)) return assembleConversation(root as Record<string, unknown>, conversations[0] ?? []);
      return root.map((conv, i) => assembleConversation(conv as Record<string, unknown>, conversations[i] ?? []));
    });
  },
  view: shareGptView,
  fromView: (view) => shareGptFromView(view),
  loses: shareGptLoses,
  withText: shareGptWithText,
  vanishes: shareGptVanishes,
  order: shareGptOrder,
  validate: shareGptProblems,
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};

export const shareGptJsonl: Codec = {
  ...shareGptJson,
  id: 'sharegpt-jsonl',
  label: 'ShareGPT dataset (JSONL)',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  sniffNeeds: ['conversations'],
  sniff: (head) => (head.includes('"conversations"') && /"conversations"\s*:\s*\[/.test(firstLine(head)) && /"from"\s*:/.test(head) ? 30 : 0),
  parse(text, file) {
    return parseJsonlConversations(text, file, 'sharegpt-jsonl', (line, n) => {
      const c = checkTurns(line, `line ${n}`, file, { line: n, column: 1 });
      const records = recordsOfConversation(c);
      let turn = 0;
      const paths = records.map((r) => {
        const extra = extraOf(r);
        return extra ? [extra] : ['conversations', turn++];
      });
      return { records, title: title(c), paths, meta: metaOf(c) };
    });
  },
  serialize: (doc, conversations) => serializeJsonlConversations(doc, conversations, (line, records) => assembleConversation(line as Record<string, unknown>, records)),
  rawText: (doc, _c, record) => jsonlLineText(doc, record),
};
