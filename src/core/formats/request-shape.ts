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
  /** What was changed so the provider would take it (a call without its result answered, and so on). */
  notes?: string[];
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
  const { messages, notes } = acceptedMessages(sent.filter((v) => v.normalRole !== 'system').map((v) => anthropicFromView(v) as { role: string; content: unknown }));
  return { body: { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages }, messages: messages.length, system: system.length > 0, ...(notes.length > 0 ? { notes } : {}) };
}

type Block = Record<string, unknown>;
const blank = (b: Block) => b.type === 'text' && (typeof b.text !== 'string' || b.text.trim() === '');
const resultText = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (isPlainObject(b) && typeof b.text === 'string' ? b.text : '')).join('\n') : '');

/**
 * Messages as the Messages API takes them (request-validity.ts says what it refuses): consecutive lines of
 * one role one message (Claude Code writes each block of a response as a line), no blank text, each call
 * answered in the next message with the results first. A call the file has no result for is answered as
 * having none, and a result whose call is not in the message before is sent as text: Claude Code does the
 * same before it resumes a session whose last call never finished.
 */
function acceptedMessages(list: ReadonlyArray<{ role: string; content: unknown }>): { messages: Array<{ role: string; content: unknown }>; notes: string[] } {
  const runs: Array<{ role: string; blocks: Block[] }> = [];
  for (const m of list) {
    const blocks = (blocksOf(m.content) as Block[]).filter((b) => isPlainObject(b) && !blank(b));
    if (blocks.length === 0) continue;
    const last = runs[runs.length - 1];
    if (last && last.role === m.role) for (const b of blocks) last.blocks.push(b);
    else runs.push({ role: m.role, blocks });
  }
  let unanswered = 0;
  let orphans = 0;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    if (run.role === 'assistant') {
      const ids = run.blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id ?? ''));
      if (ids.length === 0) continue;
      if (runs[i + 1]?.role !== 'user') runs.splice(i + 1, 0, { role: 'user', blocks: [] });
      const next = runs[i + 1];
      const answered = new Set(next.blocks.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id ?? '')));
      const missing = ids.filter((id) => !answered.has(id));
      unanswered += missing.length;
      next.blocks = [...missing.map((id) => ({ type: 'tool_result', tool_use_id: id, content: NO_RESULT, is_error: true })), ...next.blocks];
      continue;
    }
    const before = runs[i - 1];
    const calls = new Set(before?.role === 'assistant' ? before.blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id ?? '')) : []);
    const seen = new Set<string>();
    const results: Block[] = [];
    const rest: Block[] = [];
    for (const b of run.blocks) {
      if (b.type !== 'tool_result') rest.push(b);
      else if (calls.has(String(b.tool_use_id)) && !seen.has(String(b.tool_use_id))) {
        seen.add(String(b.tool_use_id));
        results.push(b);
      } else {
        orphans++;
        rest.push({ type: 'text', text: `[the result of ${String(b.tool_use_id ?? 'a call')}, whose call is not sent]${resultText(b.content).trim() ? `\n${resultText(b.content)}` : ''}` });
      }
    }
    run.blocks = [...results, ...rest];
  }
  const notes = [
    unanswered > 0 ? `${unanswered} tool call${unanswered === 1 ? ' has' : 's have'} no result in the file: answered "${NO_RESULT}", as the API needs every call answered` : '',
    orphans > 0 ? `${orphans} tool result${orphans === 1 ? '' : 's'} without ${orphans === 1 ? 'its call' : 'their calls'} in the message before: sent as text` : '',
  ].filter(Boolean);
  const messages = runs.map((r) => ({ role: r.role, content: r.blocks.length === 1 && r.blocks[0].type === 'text' ? r.blocks[0].text : r.blocks }));
  return { messages, notes };
}

/** What a call the file has no result for is answered with. */
export const NO_RESULT = '(no result was recorded)';
