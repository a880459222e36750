import { contentText, type Message } from './message.js';
import type { Tokenizer } from './tokenizer/tokenizer.js';
import { oneLine } from './util/one-line.js';
import { toolCallTexts } from './window/tool-links.js';

/** What the model is sent for a message, in tokens: its content, and the name and arguments of each tool call. */
export function sentTokens(message: Message, tokenizer: Pick<Tokenizer, 'count' | 'countContent'>): { tokens: number; toolTokens: number } {
  const content = tokenizer.countContent(message.content);
  let toolTokens = 0;
  for (const t of toolCallTexts(message)) toolTokens += tokenizer.count(t);
  return { tokens: content + toolTokens, toolTokens };
}

export interface MessageTokens {
  index: number;
  role: string;
  tokens: number;
  /** Of `tokens`, those for tool calls (names and arguments), when there are any. */
  toolTokens?: number;
  /** The file's own `token_count`, when it has one. */
  storedTokens?: number;
  category?: string;
}

export interface TokenSummary {
  messages: MessageTokens[];
  totalTokens: number;
  byRole: Record<string, number>;
  byCategory: Record<string, number>;
  categories: { input_tokens: number; output_tokens: number; total_tokens: number };
}

/** Per-message recounts and totals by role and category (messages without a category under "(none)"). */
export function summarizeTokens(messages: readonly Message[], tokenizer: Tokenizer): TokenSummary {
  const byRole: Record<string, number> = {};
  const byCategory: Record<string, number> = {};
  let total = 0;
  let input = 0;
  let output = 0;
  const rows = messages.map((m, index) => {
    const { tokens, toolTokens } = sentTokens(m, tokenizer);
    total += tokens;
    byRole[m.role] = (byRole[m.role] ?? 0) + tokens;
    const category = typeof m.category === 'string' ? m.category : undefined;
    const key = category ?? '(none)';
    byCategory[key] = (byCategory[key] ?? 0) + tokens;
    if (category === 'input') input += tokens;
    if (category === 'output') output += tokens;
    const row: MessageTokens = { index, role: m.role, tokens };
    if (toolTokens > 0) row.toolTokens = toolTokens;
    if (typeof m.token_count === 'number') row.storedTokens = m.token_count;
    if (category !== undefined) row.category = category;
    return row;
  });
  return {
    messages: rows,
    totalTokens: total,
    byRole,
    byCategory,
    categories: { input_tokens: input, output_tokens: output, total_tokens: input + output },
  };
}

/** A one-line preview of a message's content for tables. */
export function contentPreview(content: unknown, max = 80): string {
  return oneLine(contentText(content), max);
}
