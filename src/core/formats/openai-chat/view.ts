import { isPlainObject } from '../../message.js';
import { contentToParts, openAiToolCalls, argumentsText, textKeyOf } from '../content-parts.js';
import { normalizeRole, type MessageView, type Part } from '../model.js';

/** An OpenAI Chat Completions message: content (a string, null, or content parts), tool calls, tool results. */
export function openAiView(record: unknown): MessageView {
  const m = isPlainObject(record) ? record : {};
  const role = typeof m.role === 'string' ? m.role : '?';
  let parts: Part[] = contentToParts(m.content);
  if (role === 'tool' || role === 'function') {
    const text = parts.map((p) => ('text' in p ? p.text : '')).join('\n');
    parts = [{ kind: 'tool-result', callId: typeof m.tool_call_id === 'string' ? m.tool_call_id : undefined, text }];
  }
  parts = parts.concat(openAiToolCalls(m.tool_calls));
  if (isPlainObject(m.function_call)) parts.push({ kind: 'tool-call', name: String(m.function_call.name ?? ''), arguments: argumentsText(m.function_call.arguments) });
  if (typeof m.reasoning_content === 'string' && m.reasoning_content) parts.unshift({ kind: 'reasoning', text: m.reasoning_content });
  return { role, normalRole: normalizeRole(role), parts, name: typeof m.name === 'string' ? m.name : undefined };
}

export function openAiFromView(view: MessageView): Record<string, unknown> {
  const role = view.normalRole === 'other' ? 'user' : view.normalRole;
  const text = view.parts.filter((p) => p.kind === 'text' || p.kind === 'unknown').map((p) => (p as { text: string }).text).join('\n');
  const result = view.parts.find((p) => p.kind === 'tool-result');
  if (role === 'tool' || result) return { role: 'tool', tool_call_id: result?.kind === 'tool-result' ? (result.callId ?? '') : '', content: result?.kind === 'tool-result' ? result.text : text };
  const out: Record<string, unknown> = { role, content: text };
  const calls = view.parts.filter((p) => p.kind === 'tool-call');
  if (calls.length > 0) {
    out.content = text === '' ? null : text;
    out.tool_calls = calls.map((c, i) => ({ id: c.id ?? `call_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  if (view.name) out.name = view.name;
  return out;
}

export function openAiLoses(view: MessageView): string[] {
  const lost: string[] = [];
  if (view.parts.some((p) => p.kind === 'reasoning')) lost.push('reasoning (chat messages have no place for it)');
  if (view.timestamp) lost.push('timestamps');
  return lost;
}

export function openAiWithText(record: unknown, text: string): unknown {
  if (!isPlainObject(record)) return undefined;
  if (record.content === null || record.content === undefined || typeof record.content === 'string') return { ...record, content: text };
  if (Array.isArray(record.content)) {
    if (record.content.length === 0) return { ...record, content: text };
    const texts = record.content.filter((b) => isPlainObject(b) && b.type === 'text');
    if (texts.length !== 1) return undefined;
    return { ...record, content: record.content.map((b) => (b === texts[0] ? { ...(b as object), [textKeyOf(b as Record<string, unknown>)]: text } : b)) };
  }
  return undefined;
}
