import { isPlainObject } from '../../message.js';
import { argumentsObject, argumentsText, contentToParts, openAiToolCalls } from '../content-parts.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { normalizeRole, type MessageView, type Part } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument } from '../shared/json-document.js';

const ROLE: Record<string, string> = { human: 'user', ai: 'assistant', AIMessageChunk: 'assistant', system: 'system', tool: 'tool', function: 'tool', chat: 'other' };

/** LangChain's message dicts (`messages_to_dict`): `{type, data: {content, tool_calls, additional_kwargs, …}}`. */
function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const data = isPlainObject(r.data) ? r.data : {};
  const type = typeof r.type === 'string' ? r.type : '?';
  const role = type === 'chat' && typeof data.role === 'string' ? data.role : type;
  let parts: Part[] = contentToParts(data.content);
  if (type === 'tool' || type === 'function') {
    parts = [{ kind: 'tool-result', callId: typeof data.tool_call_id === 'string' ? data.tool_call_id : undefined, text: parts.map((p) => ('text' in p ? p.text : '')).join('\n'), isError: data.status === 'error' || undefined }];
  }
  if (Array.isArray(data.tool_calls) && data.tool_calls.length > 0) {
    for (const c of data.tool_calls) if (isPlainObject(c)) parts.push({ kind: 'tool-call', id: typeof c.id === 'string' ? c.id : undefined, name: String(c.name ?? ''), arguments: argumentsText(c.args) });
  } else if (isPlainObject(data.additional_kwargs)) parts = parts.concat(openAiToolCalls(data.additional_kwargs.tool_calls));
  const usage = isPlainObject(data.usage_metadata) ? data.usage_metadata : undefined;
  const normal = normalizeRole(ROLE[type] ?? type);
  return {
    role,
    normalRole: type === 'chat' ? normalizeRole(role) : normal,
    parts,
    id: typeof data.id === 'string' ? data.id : undefined,
    name: typeof data.name === 'string' ? data.name : undefined,
    usage: usage ? { input: Number(usage.input_tokens) || undefined, output: Number(usage.output_tokens) || undefined, key: typeof data.id === 'string' ? data.id : undefined } : undefined,
  };
}

const TYPE: Record<string, string> = { user: 'human', assistant: 'ai', system: 'system', tool: 'tool', other: 'human' };

export const langchainHistory: Codec = {
  id: 'langchain',
  label: 'LangChain message history (JSON)',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: false, timestamps: false },
  sniffNeeds: ['data'],
  sniff: (head) => (head.trimStart().startsWith('[') && head.includes('"data"') && /"type"\s*:\s*"(human|ai|system|tool|chat|function|AIMessageChunk)"/.test(head) && /"data"\s*:\s*\{/.test(head) ? 35 : 0),
  parse(text, file) {
    return parseJsonDocument(text, file, 'langchain', (root, f, at) => {
      if (!Array.isArray(root)) throw new NotThisFormat('expected a list of {type, data} messages');
      root.forEach((m, i) => {
        if (!isPlainObject(m) || typeof m.type !== 'string' || !isPlainObject(m.data)) throw new ConversationFileError(f, `message ${i} is not a {"type", "data"} message`, at([i]));
      });
      return { conversations: [{ records: root }], paths: [root.map((_, i) => [i])] };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, () => (conversations[0] ?? []).slice()),
  view,
  fromView(v) {
    const type = TYPE[v.normalRole] ?? 'human';
    const text = v.parts.filter((p) => p.kind === 'text' || p.kind === 'tool-result' || p.kind === 'unknown').map((p) => (p as { text: string }).text).join('\n');
    const data: Record<string, unknown> = { content: text, additional_kwargs: {}, response_metadata: {}, type, name: v.name ?? null, id: v.id ?? null };
    const calls = v.parts.filter((p) => p.kind === 'tool-call');
    if (type === 'ai') {
      data.tool_calls = calls.map((c) => {
        const args = argumentsObject(c.arguments);
        return { name: c.name, args, id: c.id ?? null, type: 'tool_call' };
      });
      data.invalid_tool_calls = [];
    }
    const result = v.parts.find((p) => p.kind === 'tool-result');
    if (type === 'tool') data.tool_call_id = result?.kind === 'tool-result' ? (result.callId ?? '') : '';
    return { type, data };
  },
  loses: (v) => (v.parts.some((p) => p.kind === 'reasoning') ? ['reasoning'] : []),
  withText(record, text) {
    if (!isPlainObject(record) || !isPlainObject(record.data)) return undefined;
    if (typeof record.data.content !== 'string') return undefined;
    return { ...record, data: { ...record.data, content: text } };
  },
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
