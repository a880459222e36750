import { isPlainObject } from '../../message.js';
import type { Problem } from '../validity.js';

const blocksOf = (m: Record<string, unknown>): unknown[] => (Array.isArray(m.content) ? m.content : []);

/**
 * The Messages API's rules: roles user and assistant only, content in every message but a final assistant
 * one, tool_use only from the assistant, and each tool_use answered by a tool_result in the very next
 * message (a user message, its results first).
 */
export function anthropicConversationProblems(records: readonly unknown[], conversation: number): Problem[] {
  const problems: Problem[] = [];
  const at = (message: number, text: string) => problems.push({ conversation, message, text });
  let pending: string[] = [];
  let pendingAt = -1;
  records.forEach((r, i) => {
    if (!isPlainObject(r)) return at(i, 'the message is not an object');
    const role = r.role;
    if (role !== 'user' && role !== 'assistant') return at(i, `the role ${JSON.stringify(role)} is not user or assistant`);
    const blocks = blocksOf(r);
    const results = blocks.filter((b) => isPlainObject(b) && b.type === 'tool_result') as Array<Record<string, unknown>>;
    const answered = new Set(results.map((b) => b.tool_use_id));
    if (pending.length > 0) {
      const missing = pending.filter((id) => !answered.has(id));
      if (missing.length > 0) at(pendingAt, `the tool_use ${missing.join(', ')} is not answered by a tool_result in the next message`);
    }
    for (const b of results) if (!pending.includes(String(b.tool_use_id))) at(i, `a tool_result answers ${String(b.tool_use_id)}, which the message before it did not call`);
    if (results.length > 0 && role !== 'user') at(i, 'tool results belong in a user message');
    if (results.length > 0 && blocks.findIndex((b) => !(isPlainObject(b) && b.type === 'tool_result')) !== -1 && blocks.findIndex((b) => !(isPlainObject(b) && b.type === 'tool_result')) < blocks.findIndex((b) => isPlainObject(b) && b.type === 'tool_result')) at(i, 'tool results must come before other blocks of the message');
    const uses = blocks.filter((b) => isPlainObject(b) && b.type === 'tool_use') as Array<Record<string, unknown>>;
    if (uses.length > 0 && role !== 'assistant') at(i, 'only the assistant calls tools');
    pending = uses.map((b) => String(b.id));
    pendingAt = i;
    const empty = r.content === '' || r.content === undefined || r.content === null || (Array.isArray(r.content) && r.content.length === 0);
    if (empty && !(role === 'assistant' && i === records.length - 1)) at(i, 'the message has no content');
  });
  if (pending.length > 0) at(pendingAt, `the tool_use ${pending.join(', ')} is not answered`);
  return problems;
}
