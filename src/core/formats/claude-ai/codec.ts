import { isPlainObject } from '../../message.js';
import { contentToParts } from '../content-parts.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { normalizeRole, type MessageView } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument } from '../shared/json-document.js';
import { anthropicBlocks } from '../anthropic/codec.js';

/** A message of a Claude.ai account export: `sender` human/assistant, `text`, and `content` blocks when present. */
function view(record: unknown): MessageView {
  const m = isPlainObject(record) ? record : {};
  const sender = typeof m.sender === 'string' ? m.sender : '?';
  const blocks = Array.isArray(m.content) && m.content.length > 0 ? contentToParts(m.content) : undefined;
  const parts = blocks ?? (typeof m.text === 'string' && m.text !== '' ? [{ kind: 'text' as const, text: m.text }] : []);
  const attachments = Array.isArray(m.attachments) ? m.attachments : [];
  for (const a of attachments) if (isPlainObject(a)) parts.push({ kind: 'file', ref: String(a.file_name ?? 'attachment') });
  return { role: sender, normalRole: normalizeRole(sender), parts, timestamp: typeof m.created_at === 'string' ? m.created_at : undefined, id: typeof m.uuid === 'string' ? m.uuid : undefined };
}

/** `conversations.json` of a Claude.ai data export: every conversation with its `chat_messages`. */
export const claudeAiExport: Codec = {
  id: 'claude-ai-export',
  label: 'Claude.ai export (conversations.json)',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'many', toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'any' },
  sniffNeeds: ['chat_messages'],
  sniff: (head) => (head.includes('"chat_messages"') && (/"chat_messages"\s*:\s*\[/.test(head) || /"uuid"\s*:/.test(head)) ? 40 : 0),
  parse(text, file) {
    return parseJsonDocument(text, file, 'claude-ai-export', (root) => {
      if (!Array.isArray(root) || !root.every((c) => isPlainObject(c) && Array.isArray(c.chat_messages))) throw new NotThisFormat('expected a list of conversations with "chat_messages"');
      const convs = root as Array<Record<string, unknown>>;
      return {
        conversations: convs.map((c) => ({ records: c.chat_messages as unknown[], title: typeof c.name === 'string' && c.name ? c.name : undefined })),
        paths: convs.map((c, i) => (c.chat_messages as unknown[]).map((_, k) => [i, 'chat_messages', k])),
      };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => (root as Array<Record<string, unknown>>).map((c, i) => ({ ...c, chat_messages: (conversations[i] ?? []).slice() }))),
  view,
  fromView(v) {
    const text = v.parts.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text).join('\n');
    const now = new Date().toISOString();
    return { uuid: crypto.randomUUID(), text, content: anthropicBlocks(v.parts), sender: v.normalRole === 'assistant' ? 'assistant' : 'human', created_at: v.timestamp ?? now, updated_at: v.timestamp ?? now, attachments: [], files: [] };
  },
  loses: (v) => (v.normalRole === 'system' ? ['the system role (an export has human and assistant only)'] : []),
  withText(record, text) {
    if (!isPlainObject(record)) return undefined;
    const blocks = Array.isArray(record.content) ? record.content : [];
    const texts = blocks.filter((b) => isPlainObject(b) && b.type === 'text');
    if (blocks.length > 0 && texts.length !== 1) return undefined;
    return { ...record, text, ...(blocks.length > 0 ? { content: blocks.map((b) => (b === texts[0] ? { ...(b as object), text } : b)) } : {}) };
  },
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
