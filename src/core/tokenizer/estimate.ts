import type { EncodingChoice } from './encoding.js';

/**
 * What an estimate counts with, for people: "o200k_base stands in for claude-opus-4-6" where the model's own
 * tokenizer is not public (Claude, Gemini, …); undefined where the count is the model's own.
 */
export function standsIn(choice: Pick<EncodingChoice, 'model' | 'encoding' | 'approximate'>): string | undefined {
  return choice.approximate ? `${choice.encoding} stands in for ${choice.model}` : undefined;
}

/** A token count as it should read: "≈ 12,276 tok (o200k_base stands in for claude-opus-4-6)", or "12,276 tok". */
export function tokensText(n: number, choice: Pick<EncodingChoice, 'model' | 'encoding' | 'approximate'>): string {
  const note = standsIn(choice);
  return note ? `≈ ${n.toLocaleString('en-US')} tok (${note})` : `${n.toLocaleString('en-US')} tok`;
}
