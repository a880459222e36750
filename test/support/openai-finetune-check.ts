/**
 * OpenAI's published checks for chat fine-tuning data (the "data preparation and analysis" cookbook's
 * format errors, with the tool-calling fields the format has since gained), written apart from the codec's
 * validator so the two can disagree: each line an object with a non-empty `messages` list; every message a
 * known role with only known keys; text content unless it is an assistant's call; every tool message
 * answering an id an assistant message before it called; at least one assistant message per example.
 */
import type { Loose } from './loose.js';
const KEYS = new Set(['role', 'content', 'name', 'function_call', 'weight', 'tool_calls', 'tool_call_id', 'refusal']);
const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

export function openAiFineTuneErrors(text: string): string[] {
  const errors: string[] = [];
  text.split('\n').forEach((line, n) => {
    if (line.trim() === '') return;
    const where = `line ${n + 1}`;
    let ex: Loose;
    try {
      ex = JSON.parse(line);
    } catch {
      errors.push(`${where}: not JSON`);
      return;
    }
    if (ex === null || typeof ex !== 'object' || Array.isArray(ex)) return void errors.push(`${where}: data_type`);
    const messages = ex.messages;
    if (!Array.isArray(messages) || messages.length === 0) return void errors.push(`${where}: missing_messages_list`);
    const called = new Set<string>();
    for (const m of messages) {
      if (!('role' in m) || (!('content' in m) && !m.tool_calls && !m.function_call)) errors.push(`${where}: message_missing_key`);
      if (Object.keys(m).some((k) => !KEYS.has(k))) errors.push(`${where}: message_unrecognized_key`);
      if (!ROLES.has(m.role)) errors.push(`${where}: unrecognized_role ${m.role}`);
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      for (const c of calls) if (typeof c?.id === 'string' && c.id !== '') called.add(c.id);
      const hasCall = calls.length > 0 || m.function_call;
      if ((!m.content && !hasCall) || (m.content !== null && m.content !== undefined && typeof m.content !== 'string' && !Array.isArray(m.content))) errors.push(`${where}: missing_content`);
      if (m.role === 'tool' && !(typeof m.tool_call_id === 'string' && called.has(m.tool_call_id))) errors.push(`${where}: tool message without a call (${JSON.stringify(m.tool_call_id)})`);
    }
    if (!messages.some((m: Loose) => m.role === 'assistant')) errors.push(`${where}: example_missing_assistant_message`);
  });
  return errors;
}
