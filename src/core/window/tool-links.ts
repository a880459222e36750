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

function callText(call: unknown): string {
  if (!isPlainObject(call)) return '';
  const fn = isPlainObject(call.function) ? call.function : call;
  const name = typeof fn.name === 'string' ? fn.name : '';
  const args = fn.arguments ?? fn.input;
  const argText = args === undefined ? '' : typeof args === 'string' ? args : JSON.stringify(args);
  return argText ? `${name}\n${argText}` : name;
}

/**
 * The tool calls a message makes, as the text the model is sent for them: each call's function name and its
 * arguments. OpenAI `tool_calls` (top level or under `metadata`) and the older `function_call`. Empty when
 * the message makes none. (Calls inside structured content, such as `tool_use` blocks, are part of the
 * content's own text already.)
 */
export function toolCallText(message: Message): string {
  return toolCallTexts(message).join('\n');
}

/** Each tool call's text (name and arguments): a message's tokens count each call on its own. */
export function toolCallTexts(message: Message): string[] {
  if (message.metadata === undefined && message.tool_calls === undefined && message.function_call === undefined) return [];
  const meta = isPlainObject(message.metadata) ? message.metadata : {};
  const parts: string[] = [];
  for (const calls of [message.tool_calls, meta.tool_calls]) {
    if (Array.isArray(calls)) for (const c of calls) parts.push(callText(c));
  }
  for (const single of [message.function_call, meta.function_call]) if (single !== undefined) parts.push(callText(single));
  return parts.filter((p) => p !== '');
}
