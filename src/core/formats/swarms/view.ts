import { isPlainObject, type Message } from '../../message.js';
import { contentToParts, openAiToolCalls } from '../content-parts.js';
import { normalizeRole, type MessageView, type Part } from '../model.js';

/**
 * A swarms message as parts: its content (a string, content blocks, or any JSON value as compact JSON, as the
 * history string shows it), the OpenAI tool calls `add_messages` keeps (top level or under `metadata`), and a
 * tool result for messages that answer a call.
 */
export function swarmsView(record: unknown): MessageView {
  const m = (isPlainObject(record) ? record : { role: '?' }) as Message;
  const meta = isPlainObject(m.metadata) ? m.metadata : {};
  const role = typeof m.role === 'string' ? m.role : '?';
  // A swarms Agent writes its replies under its own name (role "Financial-Analysis-Agent"): an assistant.
  const known = normalizeRole(role);
  const normalRole = known === 'other' && role.trim() !== '' && role !== '?' ? 'assistant' : known;
  const callId = typeof m.tool_call_id === 'string' ? m.tool_call_id : typeof meta.tool_call_id === 'string' ? meta.tool_call_id : undefined;
  let parts: Part[] = contentToParts(m.content);
  if (callId !== undefined || normalRole === 'tool') {
    // A tool's message is its result: one part, linked to the call it answers.
    if (!parts.some((p) => p.kind === 'tool-result')) {
      const text = parts.map((p) => ('text' in p ? p.text : '')).join('\n');
      parts = [{ kind: 'tool-result', callId, text }];
    }
  }
  parts = parts.concat(openAiToolCalls(m.tool_calls), openAiToolCalls(meta.tool_calls));
  return {
    role,
    normalRole,
    parts,
    timestamp: typeof m.timestamp === 'string' ? m.timestamp : undefined,
    id: typeof m.message_id === 'string' ? m.message_id : undefined,
    category: typeof m.category === 'string' ? m.category : undefined,
    name: typeof m.name === 'string' ? m.name : typeof meta.name === 'string' ? meta.name : undefined,
  };
}

/** A swarms message for a view: text content, tool calls as OpenAI `tool_calls`, the result's call id. */
export function swarmsFromView(view: MessageView): Message {
  const text = view.parts.filter((p) => p.kind === 'text' || p.kind === 'tool-result' || p.kind === 'unknown').map((p) => (p as { text: string }).text).join('\n');
  const out: Message = { role: view.role || view.normalRole, content: text };
  if (view.timestamp) out.timestamp = view.timestamp;
  if (view.id) out.message_id = view.id;
  if (view.category) out.category = view.category;
  const calls = view.parts.filter((p) => p.kind === 'tool-call');
  if (calls.length > 0) out.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  const result = view.parts.find((p) => p.kind === 'tool-result');
  if (result?.callId) out.tool_call_id = result.callId;
  return out;
}

export function swarmsLoses(view: MessageView): string[] {
  const lost: string[] = [];
  if (view.parts.some((p) => p.kind === 'reasoning')) lost.push('reasoning (swarms messages have no place for it)');
  if (view.parts.some((p) => p.kind === 'image' || p.kind === 'file')) lost.push('images and files (kept only as their references in the text)');
  return lost;
}

export function swarmsWithText(record: unknown, text: string): unknown {
  if (!isPlainObject(record)) return undefined;
  if (record.content !== undefined && record.content !== null && typeof record.content !== 'string') return undefined;
  return { ...record, content: text };
}
