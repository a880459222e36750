import { resolveEncoding, type EncodingChoice } from './encoding.js';

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

/**
 * Whether a count made for `countedFor` is an estimate of what the session's model saw, and what stands in:
 * its tokenizer is not public (counted for claude-opus-4-6: o200k_base stands in), or another model's
 * encoding was picked for a session whose own is not public (gpt-5.4 picked for a Claude session).
 */
export function estimateNote(countedFor: string, sessionModel?: string): string | undefined {
  const counted = resolveEncoding(countedFor);
  const own = standsIn(counted);
  if (own) return own;
  if (sessionModel && sessionModel !== countedFor && resolveEncoding(sessionModel).approximate) return `${counted.encoding} (${countedFor}'s) stands in for ${sessionModel}`;
  return undefined;
}
