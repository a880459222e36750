import { anthropicFromView } from './anthropic/codec.js';
import type { MessageView } from './model.js';
import { openAiFromView } from './openai-chat/view.js';
import { displayText } from './model.js';

/** The request a format's agent sends its model: Anthropic's Messages API (blocks) or OpenAI's chat messages. */
export type RequestShape = 'anthropic-messages' | 'openai-chat';

const ANTHROPIC = new Set(['anthropic-messages', 'claude-code', 'claude-ai-export']);

export function requestShapeOf(codecId: string): RequestShape {
  return ANTHROPIC.has(codecId) ? 'anthropic-messages' : 'openai-chat';
}

/**
 * What the model is sent, as the request body's messages in the shape of the format's own API: for Anthropic
 * the system prompt apart and content blocks (tool_use, tool_result, thinking); for OpenAI the message list with
 * tool_calls. Messages only: the tool schemas and the provider's own preamble are not in the file.
 */
export function requestBody(shape: RequestShape, views: readonly MessageView[]): Record<string, unknown> {
  if (shape === 'openai-chat') return { messages: views.map((v) => openAiFromView(v)) };
  const system = views.filter((v) => v.normalRole === 'system').map((v) => displayText(v)).filter(Boolean);
  const messages = views.filter((v) => v.normalRole !== 'system').map((v) => anthropicFromView(v));
  return { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages };
}
