import type { Message } from '../message.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * OpenAI's documented chat-format estimate: +3 tokens per message, +1 per `name`, +3 for the reply primer.
 * Labelled as an estimate wherever it is shown.
 */
export function chatTokenEstimate(messages: readonly Message[], tokenizer: Tokenizer): number {
  let total = 3;
  for (const m of messages) {
    total += 3 + tokenizer.count(String(m.role)) + tokenizer.countContent(m.content);
    const name = m.name ?? (m.metadata && typeof m.metadata === 'object' ? (m.metadata as Record<string, unknown>).name : undefined);
    if (typeof name === 'string') total += 1 + tokenizer.count(name);
  }
  return total;
}
