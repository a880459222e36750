import { isPlainObject } from '../message.js';
import { looseText, type Part } from './model.js';

const json = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/** A tool call's arguments as sent: a string stays as it is (OpenAI stores JSON in a string), else its JSON. */
/**
 * A call's arguments as the object formats that hold them as one want (Gemini's `args`, LangChain's, ATIF's,
 * Inspect's): the JSON object the text is, else the text (or the other JSON value) as `{input: …}`.
 */
export function argumentsObject(text: string): Record<string, unknown> {
  let args: unknown;
  try {
    args = JSON.parse(text || '{}');
  } catch {
    return { input: text };
  }
  return isPlainObject(args) ? args : { input: args };
}

export function argumentsText(args: unknown): string {
  if (args === undefined || args === null) return '';
  return typeof args === 'string' ? args : json(args);
}

/**
 * A block's text: `text` in OpenAI, Anthropic and Responses blocks, `value` in LLaMA-Factory's v1 messages
 * (`{"type": "text", "value": …}`).
 */
function blockText(block: Record<string, unknown>): string {
  const t = block.text ?? block.value;
  return typeof t === 'string' ? t : looseText(t);
}

/** The key a block keeps its text under (an edit writes there, never beside it). */
export function textKeyOf(block: Record<string, unknown>): 'text' | 'value' {
  return block.text === undefined && typeof block.value === 'string' ? 'value' : 'text';
}

/** One content block (OpenAI content parts, Anthropic blocks, Responses items, LLaMA-Factory v1 parts) as a part. */
export function blockToPart(block: unknown): Part {
  if (typeof block === 'string') return { kind: 'text', text: block };
  if (!isPlainObject(block)) return { kind: 'unknown', type: typeof block, text: json(block) };
  const type = typeof block.type === 'string' ? block.type : '';
  switch (type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return { kind: 'text', text: blockText(block) };
    case 'refusal':
      return { kind: 'text', text: typeof block.refusal === 'string' ? block.refusal : '' };
    case 'tool_use':
    case 'server_tool_use':
      return { kind: 'tool-call', id: typeof block.id === 'string' ? block.id : undefined, name: String(block.name ?? ''), arguments: argumentsText(block.input) };
    case 'tool_result':
    case 'web_search_tool_result': {
      const text = looseText(block.content);
      // Claude Code says a refused or failed call in the result's text (<tool_use_error>), not by is_error.
      return { kind: 'tool-result', callId: typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined, text, isError: block.is_error === true || /^\s*<tool_use_error>/.test(text) || undefined };
    }
    case 'thinking':
      return { kind: 'reasoning', text: typeof block.thinking === 'string' ? block.thinking : '', vendor: 'anthropic', ...(typeof block.signature === 'string' ? { signed: block.signature } : {}) };
    case 'reasoning':
      // LLaMA-Factory v1: {"type": "reasoning", "value": …}
      if (typeof block.value === 'string') return { kind: 'reasoning', text: block.value };
      break;
    case 'tool_call':
      // LLaMA-Factory v1: the call as JSON text {"name", "arguments"}.
      if (typeof block.value === 'string') {
        try {
          const call = JSON.parse(block.value) as unknown;
          if (isPlainObject(call) && typeof call.name === 'string') return { kind: 'tool-call', name: call.name, arguments: argumentsText(call.arguments) };
        } catch {
          // not JSON: kept as an unknown part below
        }
      }
      break;
    case 'video_url':
    case 'audio_url':
      if (typeof block.value === 'string') return { kind: 'file', ref: block.value };
      break;
    case 'redacted_thinking':
      return { kind: 'reasoning', text: typeof block.data === 'string' ? block.data : '', encrypted: true, vendor: 'anthropic' };
    case 'image':
    case 'input_image':
    case 'image_url': {
      const source = isPlainObject(block.source) ? block.source : undefined;
      const url = isPlainObject(block.image_url) ? block.image_url.url : (block.image_url ?? source?.url ?? block.value);
      const ref = typeof url === 'string' ? (url.startsWith('data:') ? `${url.slice(0, url.indexOf(',') + 1)}… (${url.length} characters)` : url) : source?.type === 'base64' ? `base64 image (${String(source.data ?? '').length} characters)` : 'image';
      return { kind: 'image', ref, mediaType: typeof source?.media_type === 'string' ? source.media_type : undefined };
    }
    case 'document':
    case 'file':
    case 'input_file':
      return { kind: 'file', ref: String((isPlainObject(block.file) ? block.file.filename : block.filename) ?? (isPlainObject(block.source) ? block.source.type : 'file')) };
    default:
      break;
  }
  return { kind: 'unknown', type: type || 'object', text: json(block) };
}

/** Content that is a string, a list of blocks, or any other JSON value, as parts. */
export function contentToParts(content: unknown): Part[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  if (Array.isArray(content) && content.every((b) => typeof b === 'string' || (isPlainObject(b) && typeof b.type === 'string'))) return content.map(blockToPart);
  // Any other value (a tool's result object, say) is its compact JSON, as the swarms history string shows it.
  return [{ kind: 'text', text: json(content) }];
}

/** OpenAI `tool_calls` ([{id, type: function, function: {name, arguments}}]) as parts. */
export function openAiToolCalls(calls: unknown): Part[] {
  if (!Array.isArray(calls)) return [];
  return calls.filter(isPlainObject).map((c) => {
    const fn = isPlainObject(c.function) ? c.function : c;
    return { kind: 'tool-call' as const, id: typeof c.id === 'string' ? c.id : undefined, name: String(fn.name ?? ''), arguments: argumentsText(fn.arguments) };
  });
}

/** The text of parts as a content value a plain-text format can hold. */
export function partsToPlainText(parts: readonly Part[]): string {
  return parts
    .filter((p) => p.kind === 'text' || p.kind === 'tool-result' || p.kind === 'unknown')
    .map((p) => (p as { text: string }).text)
    .join('\n');
}
