import { isPlainObject } from '../../message.js';
import type { Problem } from '../validity.js';

const blocksOf = (m: Record<string, unknown>): unknown[] => (Array.isArray(m.content) ? m.content : []);
const isBlock = (type: string) => (b: unknown) => isPlainObject(b) && b.type === type;

/**
 * The Messages API's rules, on turns as the API sees them (it joins consecutive messages of one role into a
 * turn): roles user and assistant only, content in every message but a final assistant one, tool_use only
 * from the assistant, and each tool_use answered by a tool_result in the very next turn (a user turn,
 * whose results come before its other blocks).
 */
export function anthropicConversationProblems(records: readonly unknown[], conversation: number, offset = 0): Problem[] {
  const problems: Problem[] = [];
  const at = (message: number, text: string) => problems.push({ conversation, message: message + offset, text });
  const turns: Array<{ role: string; first: number; blocks: unknown[] }> = [];
  records.forEach((r, i) => {
    if (!isPlainObject(r)) return at(i, 'the message is not an object');
    const role = r.role;
    if (role !== 'user' && role !== 'assistant') return at(i, `the role ${JSON.stringify(role)} is not user or assistant`);
    const empty = r.content === '' || r.content === undefined || r.content === null || (Array.isArray(r.content) && r.content.length === 0);
    if (empty && !(role === 'assistant' && i === records.length - 1)) at(i, 'the message has no content');
    const last = turns[turns.length - 1];
    if (last && last.role === role) for (const b of blocksOf(r)) last.blocks.push(b);
    else turns.push({ role, first: i, blocks: blocksOf(r) });
  });
  turns.forEach((t, k) => {
    const uses = t.blocks.filter(isBlock('tool_use')) as Array<Record<string, unknown>>;
    const results = t.blocks.filter(isBlock('tool_result')) as Array<Record<string, unknown>>;
    if (uses.length > 0 && t.role !== 'assistant') at(t.first, 'only the assistant calls tools');
    if (results.length > 0 && t.role !== 'user') at(t.first, 'tool results belong in a user message');
    const firstOther = t.blocks.findIndex((b) => !isBlock('tool_result')(b));
    if (results.length > 0 && firstOther !== -1 && firstOther < t.blocks.findLastIndex(isBlock('tool_result'))) at(t.first, 'tool results must come before other blocks of the turn');
    const called = new Set((k > 0 ? (turns[k - 1].blocks.filter(isBlock('tool_use')) as Array<Record<string, unknown>>) : []).map((b) => String(b.id)));
    for (const b of results) if (!called.has(String(b.tool_use_id))) at(t.first, `a tool_result answers ${String(b.tool_use_id)}, which the turn before it did not call`);
    const next = turns[k + 1];
    if (uses.length > 0 && next) {
      const answered = new Set((next.blocks.filter(isBlock('tool_result')) as Array<Record<string, unknown>>).map((b) => String(b.tool_use_id)));
      const missing = uses.map((b) => String(b.id)).filter((id) => !answered.has(id));
      if (missing.length > 0) at(t.first, `the tool_use ${missing.join(', ')} is not answered by a tool_result in the next turn`);
    }
  });
  return problems;
}
