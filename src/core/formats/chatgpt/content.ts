import { isPlainObject } from '../../message.js';
import type { Part } from '../model.js';

/**
 * The parts of a ChatGPT export message's `content`, by its `content_type`: text, code (what the model sent to
 * a tool), execution_output and browsing results (what came back), multimodal parts (text and image
 * pointers), thoughts and their recap (reasoning), the user's custom instructions. A type this reader does
 * not know is kept as an unread part with its JSON.
 */
export function contentParts(content: unknown, toolCall: { recipient?: string; id?: string } | undefined, isTool: boolean): Part[] {
  if (!isPlainObject(content)) return [];
  const type = typeof content.content_type === 'string' ? content.content_type : '';
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const text = (t: string): Part[] => (t === '' ? [] : [toolCall ? { kind: 'tool-call', id: toolCall.id, name: toolCall.recipient ?? 'tool', arguments: t } : isTool ? { kind: 'tool-result', callId: undefined, text: t } : { kind: 'text', text: t }]);
  switch (type) {
    case 'text':
      return text(strings(content.parts).join('\n'));
    case 'code':
      return text(typeof content.text === 'string' ? content.text : '');
    case 'execution_output':
    case 'system_error':
      return [{ kind: 'tool-result', text: typeof content.text === 'string' ? content.text : '', ...(type === 'system_error' ? { isError: true } : {}) }];
    case 'tether_browsing_display':
      return text([content.summary, content.result].filter((x): x is string => typeof x === 'string' && x !== '').join('\n'));
    case 'tether_quote':
      return text([content.title, content.url, content.text].filter((x): x is string => typeof x === 'string' && x !== '').join('\n'));
    case 'multimodal_text': {
      const parts: Part[] = [];
      for (const p of Array.isArray(content.parts) ? content.parts : []) {
        if (typeof p === 'string') for (const part of text(p)) parts.push(part);
        else if (isPlainObject(p) && typeof p.asset_pointer === 'string') parts.push({ kind: p.content_type === 'audio_asset_pointer' ? 'file' : 'image', ref: p.asset_pointer });
        else if (isPlainObject(p) && typeof p.text === "string") for (const part of text(p.text)) parts.push(part);
      }
      return parts;
    }
    case 'thoughts': {
      const thoughts = Array.isArray(content.thoughts) ? content.thoughts.filter(isPlainObject) : [];
      const said = thoughts.map((t) => [t.summary, t.content].filter((x): x is string => typeof x === 'string' && x !== '').join('\n')).filter(Boolean);
      return said.length > 0 ? [{ kind: 'reasoning', text: said.join('\n\n'), vendor: 'openai' }] : [];
    }
    case 'reasoning_recap':
      return typeof content.content === 'string' && content.content !== '' ? [{ kind: 'reasoning', text: content.content, vendor: 'openai' }] : [];
    case 'user_editable_context': {
      const said = [content.user_profile, content.user_instructions].filter((x): x is string => typeof x === 'string' && x !== '');
      return said.length > 0 ? [{ kind: 'text', text: said.join('\n\n') }] : [];
    }
    case 'model_editable_context':
      return typeof content.model_set_context === 'string' && content.model_set_context !== '' ? [{ kind: 'text', text: content.model_set_context }] : [];
    default:
      return [{ kind: 'unknown', type: type || 'content', text: JSON.stringify(content) }];
  }
}

/** The one text a message's content holds where an editor can change it: its `parts` string, or its code. */
export function editableText(content: unknown): { get: string; set: (text: string) => unknown } | undefined {
  if (!isPlainObject(content)) return undefined;
  if ((content.content_type === 'text' || content.content_type === 'multimodal_text') && Array.isArray(content.parts)) {
    const parts: unknown[] = content.parts;
    const at = parts.flatMap((p, i) => (typeof p === 'string' ? [i] : []));
    if (at.length !== 1) return parts.length === 0 ? { get: '', set: (text) => ({ ...content, parts: [text] }) } : undefined;
    return { get: parts[at[0]] as string, set: (text) => ({ ...content, parts: parts.map((p, i) => (i === at[0] ? text : p)) }) };
  }
  if ((content.content_type === 'code' || content.content_type === 'execution_output') && typeof content.text === 'string') return { get: content.text, set: (text) => ({ ...content, text }) };
  return undefined;
}
