import { isPlainObject } from '../../message.js';
import type { ConversationDocument } from '../codec.js';
import type { Problem } from '../validity.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/**
 * OpenAI's rules for chat messages (the Chat Completions API and the fine-tuning data checks): known roles,
 * content where it must be, every tool message answering a call of the assistant message before it, every
 * call answered before the conversation goes on; for a fine-tuning example (`dataset`) also an assistant
 * message to learn from, `weight` 0 or 1 on assistant messages only, and `tools` that name the calls.
 */
export function openAiConversationProblems(records: readonly unknown[], conversation: number, options: { dataset: boolean; tools?: unknown }): Problem[] {
  const problems: Problem[] = [];
  const at = (message: number, text: string) => problems.push({ conversation, message, text });
  const open = new Map<string, number>();
  const ids = new Set<string>();
  const closeOpen = (before: number) => {
    for (const [id, k] of open) at(k, `the tool call ${id} is not answered by a tool message before message ${before}`);
    open.clear();
  };
  const toolNames = Array.isArray(options.tools)
    ? new Set(options.tools.map((t) => (isPlainObject(t) && isPlainObject(t.function) ? t.function.name : isPlainObject(t) ? t.name : undefined)).filter((n): n is string => typeof n === 'string'))
    : undefined;
  if (records.length === 0) problems.push({ conversation, text: 'the conversation has no messages' });
  let assistants = 0;
  records.forEach((r, i) => {
    if (!isPlainObject(r)) return at(i, 'the message is not an object');
    const role = r.role;
    if (typeof role !== 'string' || !ROLES.has(role)) return at(i, `the role ${JSON.stringify(role)} is not one OpenAI takes (system, developer, user, assistant, tool)`);
    const calls = Array.isArray(r.tool_calls) ? r.tool_calls : [];
    if (role === 'tool') {
      const id = r.tool_call_id;
      if (typeof id !== 'string' || id === '') at(i, 'the tool message has no tool_call_id');
      else if (!open.has(id)) at(i, `the tool message answers ${id}, which no assistant message before it called (or it was answered already)`);
      else open.delete(id);
    } else {
      if (open.size > 0) closeOpen(i);
      if (role === 'assistant') {
        assistants++;
        for (const c of calls) {
          const id = isPlainObject(c) ? c.id : undefined;
          if (typeof id !== 'string' || id === '') at(i, 'a tool call has no id');
          else if (ids.has(id)) at(i, `the tool call id ${id} is used twice`);
          else {
            ids.add(id);
            open.set(id, i);
          }
          const name = isPlainObject(c) && isPlainObject(c.function) ? c.function.name : undefined;
          if (toolNames && typeof name === 'string' && !toolNames.has(name)) at(i, `the tool call names ${name}, which is not among the example's tools`);
        }
      } else if (calls.length > 0) at(i, `a ${role} message cannot hold tool_calls`);
    }
    const content = r.content;
    const empty = content === undefined || content === null || (typeof content === 'string' && content === '') || (Array.isArray(content) && content.length === 0);
    if (empty && !(role === 'assistant' && (calls.length > 0 || isPlainObject(r.function_call)))) at(i, `the ${role} message has no content`);
    if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content)) at(i, 'the content is neither text nor a list of parts');
    if (options.dataset && r.weight !== undefined && (role !== 'assistant' || (r.weight !== 0 && r.weight !== 1))) at(i, 'weight may only be 0 or 1, on assistant messages');
  });
  // A conversation may end on the calls the model makes (a fine-tuning example teaching it to call a tool).
  const last = records[records.length - 1];
  if (open.size > 0 && !(isPlainObject(last) && last.role === 'assistant')) closeOpen(records.length);
  if (options.dataset && records.length > 0 && assistants === 0) problems.push({ conversation, text: 'the example has no assistant message to learn from' });
  return problems;
}

export function openAiDocumentProblems(doc: ConversationDocument, dataset: boolean): Problem[] {
  return doc.conversations.flatMap((c, i) => openAiConversationProblems(c.records, i, { dataset, tools: c.meta?.tools?.length ? c.meta.tools.map((t) => ({ name: t.name })) : undefined }));
}
