import { isPlainObject } from '../message.js';

/**
 * What the Anthropic Messages API refuses in a request's `messages`, checked the way it checks them: roles
 * alternate (user, assistant), no message or text block is empty, every `tool_use` is answered by a
 * `tool_result` in the very next message (a user message, the results before anything else in it), every
 * `tool_result` answers a `tool_use` of the message right before it, and no call id is used twice.
 */
export interface RequestProblem {
  /** The message (its index in `messages`) the problem is in. */
  message: number;
  text: string;
}

type Block = Record<string, unknown>;

const blocksOf = (content: unknown): Block[] => (Array.isArray(content) ? content.filter(isPlainObject) : typeof content === 'string' ? [{ type: 'text', text: content }] : []);

export function anthropicRequestProblems(messages: readonly unknown[]): RequestProblem[] {
  const problems: RequestProblem[] = [];
  const calls = new Set<string>();
  let before: { role: string; uses: string[] } | undefined;
  messages.forEach((m, i) => {
    const say = (text: string) => problems.push({ message: i, text });
    if (!isPlainObject(m)) return say('a message is not an object');
    const role = m.role;
    if (role !== 'user' && role !== 'assistant') say(`the role "${String(role)}" is neither user nor assistant`);
    if (before && before.role === role) say(`two ${String(role)} messages in a row`);
    const blocks = blocksOf(m.content);
    if (blocks.length === 0) say('the message is empty');
    const uses: string[] = [];
    const answered = new Set<string>();
    let pastResults = false;
    for (const b of blocks) {
      if (b.type === 'text' && (typeof b.text !== 'string' || b.text.trim() === '')) say('a text block is empty');
      if (b.type === 'tool_use') {
        if (role !== 'assistant') say('a tool_use block in a user message');
        const id = typeof b.id === 'string' ? b.id : '';
        if (id === '') say('a tool_use block has no id');
        else if (calls.has(id)) say(`the tool_use id ${id} is used twice`);
        calls.add(id);
        uses.push(id);
      }
      if (b.type === 'tool_result') {
        const id = typeof b.tool_use_id === 'string' ? b.tool_use_id : '';
        if (role !== 'user') say('a tool_result block in an assistant message');
        if (pastResults) say(`the tool_result for ${id} comes after other content (results go first)`);
        if (!before || before.role !== 'assistant' || !before.uses.includes(id)) say(`a tool_result answers ${id || 'no id'}, which the message before does not call`);
        if (answered.has(id)) say(`two tool_results answer ${id}`);
        answered.add(id);
      } else pastResults = true;
    }
    if (before?.role === 'assistant') for (const id of before.uses) if (!answered.has(id)) problems.push({ message: i, text: `the tool_use ${id} of the message before has no tool_result here` });
    before = { role: String(role), uses };
  });
  if (before?.role === 'assistant' && before.uses.length > 0) problems.push({ message: messages.length - 1, text: `the tool_use ${before.uses.join(', ')} is answered by no message after it` });
  return problems;
}
