import { basename } from 'node:path';
import { isPlainObject, lineage } from '../../message.js';
import { contentToParts } from '../content-parts.js';
import { NotThisFormat, quotedIn, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { normalizeRole, type MessageView, type Part } from '../model.js';
import { toolSchemas } from '../tools.js';
import { anthropicConversationProblems } from './validity.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';

/** An Anthropic MessageParam: role user/assistant, content a string or blocks (text, tool_use, tool_result, thinking). */
export function anthropicView(record: unknown): MessageView {
  const m = isPlainObject(record) ? record : {};
  const role = typeof m.role === 'string' ? m.role : '?';
  const parts = contentToParts(m.content);
  return { role, normalRole: normalizeRole(role), parts, timestamp: typeof m.ts === 'number' ? new Date(m.ts).toISOString() : undefined, model: isPlainObject(m.modelInfo) && typeof m.modelInfo.modelId === 'string' ? m.modelInfo.modelId : undefined };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A tool_use's input must be an object: arguments that are JSON of one stay it; anything else is wrapped. */
function toolInput(args: string): Record<string, unknown> {
  try {
    const v = JSON.parse(args) as unknown;
    if (isPlainObject(v)) return v;
    return { input: v };
  } catch {
    return { input: args };
  }
}

export function anthropicBlocks(parts: readonly Part[]): unknown[] {
  return parts.flatMap((p): unknown[] => {
    switch (p.kind) {
      case 'text':
      case 'unknown':
        return [{ type: 'text', text: p.text }];
      case 'tool-call': {
        return [{ type: 'tool_use', id: p.id ?? `toolu_${Math.random().toString(36).slice(2, 12)}`, name: p.name, input: toolInput(p.arguments) }];
      }
      case 'tool-result':
        return [{ type: 'tool_result', tool_use_id: p.callId ?? '', content: p.text, ...(p.isError ? { is_error: true } : {}) }];
      case 'reasoning':
        // The API takes back only thinking its own models wrote (signed, or redacted by it).
        if (p.vendor !== 'anthropic') return [];
        return p.encrypted ? [{ type: 'redacted_thinking', data: p.text }] : [{ type: 'thinking', thinking: p.text, ...(p.signed ? { signature: p.signed } : {}) }];
      default:
        return [];
    }
  });
}

/** Tool results go in user messages; other roles map onto user and assistant, the only two the API has. */
export function anthropicFromView(view: MessageView): Record<string, unknown> {
  const role = view.normalRole === 'assistant' ? 'assistant' : 'user';
  const blocks = anthropicBlocks(view.parts);
  const onlyText = blocks.length === 1 && (blocks[0] as { type: string }).type === 'text';
  // A new, empty message is text the editor can fill in.
  return { role, content: onlyText ? (blocks[0] as { text: string }).text : blocks.length === 0 ? '' : blocks };
}

export function anthropicLoses(view: MessageView): string[] {
  const lost: string[] = [];
  if (view.normalRole === 'system') lost.push('the system role (Messages have only user and assistant; it becomes a user message)');
  if (view.parts.some((p) => p.kind === 'image' || p.kind === 'file')) lost.push('images and files');
  if (view.parts.some((p) => p.kind === 'reasoning' && p.vendor !== 'anthropic')) lost.push("reasoning another provider's model wrote (the API takes back only its own)");
  if (view.parts.some((p) => p.kind === 'tool-call' && !isPlainObject(safeJson(p.arguments)))) lost.push('tool-call arguments that are not a JSON object (wrapped as {"input": …})');
  return lost;
}

export function blocksWithText(record: unknown, text: string): unknown {
  if (!isPlainObject(record)) return undefined;
  if (typeof record.content === 'string') return { ...record, content: text };
  if (Array.isArray(record.content)) {
    if (record.content.length === 0) return { ...record, content: text };
    const texts = record.content.filter((b) => isPlainObject(b) && b.type === 'text');
    if (texts.length !== 1) return undefined;
    return { ...record, content: record.content.map((b) => (b === texts[0] ? { ...(b as object), text } : b)) };
  }
  return undefined;
}

// The system prompt of a request body, held as a record of its own (a WeakSet: records are never changed in place).
const systemRecords = new WeakSet<object>();
const isSystemRecord = (r: unknown): boolean => {
  if (r === null || typeof r !== 'object') return false;
  for (const x of lineage(r)) if (systemRecords.has(x)) return true;
  return false;
};

/** A list of Anthropic MessageParams, as Cline keeps in `api_conversation_history.json`; extra keys are kept. */
export const anthropicMessages: Codec = {
  id: 'anthropic-messages',
  label: 'Anthropic messages (JSON)',
  tool: 'the Anthropic API',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: false, timestamps: false, toolParts: 'any' },
  sniffNeeds: ['role'],
  sniffMarks: ['type'],
  sniff(head, name, quoted) {
    if (!/"role"\s*:/.test(head)) return 0;
    const start = head.trimStart()[0];
    const blocks = quotedIn(head, quoted, 'type') && /"type"\s*:\s*"(tool_use|tool_result|thinking|redacted_thinking)"/.test(head);
    if (basename(name) === 'api_conversation_history.json') return 45;
    if (start === '[' && blocks) return 18;
    if (start === '{' && blocks && /"messages"\s*:\s*\[/.test(head)) return 26;
    return 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'anthropic-messages', (root, f, at) => {
      const path = Array.isArray(root) ? [] : isPlainObject(root) && Array.isArray(root.messages) ? ['messages'] : undefined;
      if (!path) throw new NotThisFormat('expected a list of messages');
      const list = (path.length ? (root as Record<string, unknown>).messages : root) as unknown[];
      list.forEach((m, i) => {
        if (!isPlainObject(m) || typeof m.role !== 'string') throw new ConversationFileError(f, `message ${i} has no "role"`, at([...path, i]));
      });
      const tools = isPlainObject(root) ? toolSchemas(root.tools) : undefined;
      // A request's `system` is the conversation's first message, shown and edited like the others.
      const system = isPlainObject(root) && (typeof root.system === 'string' || Array.isArray(root.system)) ? { role: 'system', content: root.system } : undefined;
      if (system) systemRecords.add(system);
      const records = system ? [system, ...list] : list;
      const paths = [...(system ? [['system']] : []), ...list.map((_, i) => [...path, i])];
      return { conversations: [{ records, ...(tools ? { meta: { tools } } : {}) }], paths: [paths] };
    });
  },
  serialize(doc, conversations) {
    const records = conversations[0] ?? [];
    const system = records.find(isSystemRecord) as { content?: unknown } | undefined;
    const messages = records.filter((r) => !isSystemRecord(r));
    return serializeJsonDocument(doc, (root) => {
      if (Array.isArray(root)) return messages.slice();
      const next = replaceAt(root, ['messages'], messages.slice()) as Record<string, unknown>;
      if (system) return { ...next, system: system.content };
      const { system: _gone, ...rest } = next;
      return rest;
    });
  },
  order: (records) => [...records.filter(isSystemRecord), ...records.filter((r) => !isSystemRecord(r))],
  view: anthropicView,
  fromView: (view) => anthropicFromView(view),
  loses: anthropicLoses,
  withText: blocksWithText,
  validate: (doc) =>
    doc.conversations.flatMap((c, i) => {
      const offset = c.records.length > 0 && isSystemRecord(c.records[0]) ? 1 : 0;
      return anthropicConversationProblems(c.records.slice(offset), i, offset);
    }),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
