/**
 * List prices per million tokens, as the providers publish them. Kept here, dated, so a figure of money can
 * say what it was computed from; the app's settings can override any row (prices change, and contracts differ).
 */
export interface ModelPrice {
  /** Prompt tokens not read from a cache. */
  input: number;
  /** Prompt tokens read from the cache. */
  cacheRead: number;
  /** Prompt tokens written to the cache (Anthropic charges for the write; OpenAI does not). */
  cacheWrite?: number;
  output: number;
}

export const PRICES_DATED = '2025-11-30';

/** By model name prefix: the longest prefix of a model's name that has a row prices it. */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-5': { input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 },
  'claude-opus-4': { input: 15, cacheRead: 1.5, cacheWrite: 18.75, output: 75 },
  'claude-sonnet-4': { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-3-7-sonnet': { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-3-5-sonnet': { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-haiku-4-5': { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 },
  'claude-3-5-haiku': { input: 0.8, cacheRead: 0.08, cacheWrite: 1, output: 4 },
  'gpt-5-nano': { input: 0.05, cacheRead: 0.005, output: 0.4 },
  'gpt-5-mini': { input: 0.25, cacheRead: 0.025, output: 2 },
  'gpt-5': { input: 1.25, cacheRead: 0.125, output: 10 },
  'codex-mini': { input: 1.5, cacheRead: 0.375, output: 6 },
  'gpt-4.1-nano': { input: 0.1, cacheRead: 0.025, output: 0.4 },
  'gpt-4.1-mini': { input: 0.4, cacheRead: 0.1, output: 1.6 },
  'gpt-4.1': { input: 2, cacheRead: 0.5, output: 8 },
  'gpt-4o-mini': { input: 0.15, cacheRead: 0.075, output: 0.6 },
  'gpt-4o': { input: 2.5, cacheRead: 1.25, output: 10 },
  'o4-mini': { input: 1.1, cacheRead: 0.275, output: 4.4 },
  'o3-mini': { input: 1.1, cacheRead: 0.55, output: 4.4 },
  o3: { input: 2, cacheRead: 0.5, output: 8 },
};

/** The price row for a model: the longest prefix among the table (and its overrides) that its name starts with. */
export function priceOf(model: string, overrides: Readonly<Record<string, ModelPrice>> = {}): { key: string; price: ModelPrice } | undefined {
  const name = model.toLowerCase().replace(/^(anthropic|openai)\//, '');
  let best: string | undefined;
  const table = { ...PRICES, ...overrides };
  for (const key of Object.keys(table)) if (name.startsWith(key.toLowerCase()) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? undefined : { key: best, price: table[best] };
}
