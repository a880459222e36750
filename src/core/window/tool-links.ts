import { isPlainObject, type Message } from '../message.js';

export interface ToolLinks {
  callIds: string[];
  resultId?: string;
  /** role tool/function, or a tool block, even without ids. */
  toolLike: boolean;
}

function idsOfCalls(calls: unknown): string[] {
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((c) => (isPlainObject(c) && typeof c.id === 'string' ? [c.id] : []));
}

/**
 * Tool calls and results in every shape agents write them: OpenAI `tool_calls` / `tool_call_id` (top level or
 * under `metadata`, where addMessages puts them), and Anthropic `tool_use` / `tool_result` content blocks.
 */
const NO_CALLS: string[] = [];

export function toolLinks(message: Message): ToolLinks {
  // Most messages are plain text with no tool fields: answer those without allocating.
  if (message.metadata === undefined && message.tool_calls === undefined && message.tool_call_id === undefined && !Array.isArray(message.content)) {
    const role = message.role.toLowerCase();
    return { callIds: NO_CALLS, toolLike: role === 'tool' || role === 'function' };
  }
  const meta = isPlainObject(message.metadata) ? message.metadata : {};
  const callIds = [...idsOfCalls(message.tool_calls), ...idsOfCalls(meta.tool_calls)];
  let resultId = typeof message.tool_call_id === 'string' ? message.tool_call_id : typeof meta.tool_call_id === 'string' ? meta.tool_call_id : undefined;
  let toolBlock = false;
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isPlainObject(block)) continue;
      if (block.type === 'tool_use' && typeof block.id === 'string') callIds.push(block.id);
      if (block.type === 'tool_result') {
        toolBlock = true;
        if (typeof block.tool_use_id === 'string') resultId ??= block.tool_use_id;
      }
    }
  }
  const role = message.role.toLowerCase();
  return { callIds, resultId, toolLike: role === 'tool' || role === 'function' || toolBlock || resultId !== undefined };
}
