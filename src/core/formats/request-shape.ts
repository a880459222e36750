import { isPlainObject } from '../message.js';
import { anthropicFromView } from './anthropic/codec.js';
import type { MessageView } from './model.js';
import { openAiFromView } from './openai-chat/view.js';
import { displayText } from './model.js';

/**
 * The request a format's agent sends its model: Anthropic's Messages API (blocks), OpenAI's Responses API
 * (Codex: the rollout's own items) or OpenAI's chat messages.
 */
export type RequestShape = 'anthropic-messages' | 'openai-responses' | 'openai-chat';

const ANTHROPIC = new Set(['anthropic-messages', 'claude-code', 'claude-ai-export']);
const RESPONSES = new Set(['codex-rollout']);

export function requestShapeOf(codecId: string): RequestShape {
  return ANTHROPIC.has(codecId) ? 'anthropic-messages' : RESPONSES.has(codecId) ? 'openai-responses' : 'openai-chat';
}

export interface RequestBody {
  body: Record<string, unknown>;
  /** Messages (or input items) the body holds: one API call's lines are one message. */
  messages: number;
  /** Whether the file holds a system prompt the body carries (Responses: the instructions go apart, unsaid). */
  system?: boolean;
}

/** A record the model is not sent: a compaction's boundary marker, a line with nothing in it. */
const notSent = (v: MessageView) => v.parts.length === 0 && (v.compaction !== undefined || v.meta === true || v.normalRole === 'other');

const blocksOf = (content: unknown): unknown[] => (Array.isArray(content) ? content : typeof content === 'string' && content !== '' ? [{ type: 'text', text: content }] : []);

/**
 * What the model is sent, as the request body in the shape of the format's own API: for Anthropic the system
 * prompt apart and content blocks, consecutive lines of one role one message (Claude Code writes each block of
 * one response as a line of its own; the API takes one turn per role); for Codex the rollout's items as the
 * Responses API's `input` (a compaction's replacement history in place of what it replaced); for OpenAI chat the
 * message list with tool_calls. Messages only: the tool schemas and the provider's own preamble are not in the file.
 */
export function requestBody(shape: RequestShape, views: readonly MessageView[], records: readonly unknown[] = []): RequestBody {
  if (shape === 'openai-responses') {
    const input = records.flatMap((r): unknown[] => {
      if (!isPlainObject(r) || !isPlainObject(r.payload)) return [];
      if (r.type !== 'compacted') return [r.payload];
      const history = r.payload.replacement_history;
      if (Array.isArray(history)) return history;
      const message = r.payload.message;
      return typeof message === 'string' && message !== '' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: message }] }] : [];
    });
    return { body: { input }, messages: input.length };
  }
  const sent = views.filter((v) => !notSent(v));
  if (shape === 'openai-chat') {
    const messages = sent.map((v) => openAiFromView(v));
    return { body: { messages }, messages: messages.length, system: sent.some((v) => v.normalRole === 'system') };
  }
  const system = sent.filter((v) => v.normalRole === 'system').map((v) => displayText(v)).filter(Boolean);
  const messages: Array<{ role: string; content: unknown }> = [];
  for (const v of sent) {
    if (v.normalRole === 'system') continue;
    const m = anthropicFromView(v) as { role: string; content: unknown };
    const last = messages[messages.length - 1];
    if (last && last.role === m.role) last.content = [...blocksOf(last.content), ...blocksOf(m.content)];
    else if (blocksOf(m.content).length > 0) messages.push(m);
  }
  return { body: { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages }, messages: messages.length, system: system.length > 0 };
}
