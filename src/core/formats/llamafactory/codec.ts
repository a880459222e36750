import { isPlainObject } from '../../message.js';
import type { Codec } from '../codec.js';
import type { MessageView } from '../model.js';
import { firstLine } from '../shared/jsonl-document.js';
import type { Problem } from '../validity.js';
import { openAiChatJsonl } from '../openai-chat/jsonl-codec.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const TYPES = new Set(['text', 'reasoning', 'tool_call', 'image_url', 'video_url', 'audio_url']);

/** A message of LLaMA-Factory's v1 data: every part `{type, value}`, a loss weight (1 on what the model learns). */
function fromView(view: MessageView): Record<string, unknown> {
  const role = view.normalRole === 'other' ? 'user' : view.normalRole;
  const content: Array<{ type: string; value: string }> = [];
  for (const p of view.parts) {
    if (p.kind === 'text' || p.kind === 'unknown' || p.kind === 'tool-result') content.push({ type: 'text', value: p.text });
    else if (p.kind === 'reasoning' && !p.encrypted && !p.signature) content.push({ type: 'reasoning', value: p.text });
    else if (p.kind === 'tool-call') {
      let args: unknown = p.arguments;
      try {
        args = JSON.parse(p.arguments);
      } catch {
        // arguments that are not JSON stay the string they are
      }
      content.push({ type: 'tool_call', value: JSON.stringify({ name: p.name, arguments: args }) });
    } else if (p.kind === 'image') content.push({ type: 'image_url', value: p.ref });
  }
  return { role, content, loss_weight: role === 'assistant' ? 1.0 : 0.0 };
}

/** What LLaMA-Factory's v1 data engine reads: known roles, parts of known types each with a string value. */
function problems(records: readonly unknown[], conversation: number): Problem[] {
  const out: Problem[] = [];
  records.forEach((r, i) => {
    const at = (text: string) => out.push({ conversation, message: i, text });
    if (!isPlainObject(r) || typeof r.role !== 'string' || !ROLES.has(r.role)) return at(`the role must be system, user, assistant or tool`);
    if (!Array.isArray(r.content)) return at('the content is not a list of {type, value} parts');
    for (const part of r.content) {
      if (!isPlainObject(part) || typeof part.type !== 'string' || !TYPES.has(part.type) || typeof part.value !== 'string') at('a part is not a {type, value} part of a known type');
      else if (part.type === 'tool_call') {
        try {
          const call = JSON.parse(part.value) as unknown;
          if (!isPlainObject(call) || typeof call.name !== 'string') at('a tool_call part is not JSON with a "name"');
        } catch {
          at('a tool_call part is not JSON');
        }
      }
    }
  });
  return out;
}

/** LLaMA-Factory v1's messages format: `{"messages": [{"role", "content": [{"type", "value"}], "loss_weight"}], "tools"}` per line. */
export const llamaFactoryV1: Codec = {
  ...openAiChatJsonl,
  id: 'llamafactory-v1',
  label: 'LLaMA-Factory v1 messages (JSONL)',
  tool: 'LLaMA-Factory',
  capabilities: { ...openAiChatJsonl.capabilities, reasoning: true },
  sniffNeeds: ['messages'],
  sniff(head) {
    const line = firstLine(head);
    if (!/"messages"\s*:\s*\[/.test(line)) return 0;
    return /"loss_weight"\s*:/.test(line) || /"type"\s*:\s*"(text|tool_call|reasoning)"\s*,\s*"value"\s*:/.test(line) ? 34 : 0;
  },
  parse(text, file) {
    return { ...openAiChatJsonl.parse(text, file), codec: 'llamafactory-v1' };
  },
  fromView,
  loses: (view) => (view.parts.some((p) => p.kind === 'reasoning' && (p.encrypted || p.signature)) ? ['encrypted reasoning'] : []),
  validate: (doc) => doc.conversations.flatMap((c, i) => problems(c.records, i)),
};
