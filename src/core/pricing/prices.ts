/**
 * List prices per million tokens, as the providers publish them: each row names the page it was read from and
 * the day it was read, so a figure of money can say what it was computed from. The app's settings can put a
 * row of the user's own in the place of any of these (prices change, and contracts differ).
 *
 * A model is priced by its own row only: its exact id, or that id with a snapshot date, a provider prefix or
 * Claude Code's `[1m]` mark taken off. A model no row names has no price here, rather than an older
 * generation's (claude-opus-4-6 is not claude-opus-4: $5/$25, not $15/$75).
 *
 * Cross-checked against LiteLLM's model_prices_and_context_window.json (read the same day); not copied.
 */
export interface Rates {
  /** Prompt tokens not read from a cache nor written to it. */
  input: number;
  /** Prompt tokens read from the cache. */
  cacheRead: number;
  /** Prompt tokens written to the cache (Anthropic's 5-minute write; OpenAI's where it charges one). Absent: at `input`. */
  cacheWrite?: number;
  /** Prompt tokens written to Anthropic's 1-hour cache. Absent: at `cacheWrite`. */
  cacheWrite1h?: number;
  output: number;
}

/** What a price is, wherever it comes from: the table's rates, or a row of the user's settings. */
export interface ModelPrice extends Rates {
  /** Rates for a whole call whose prompt is over `above` tokens (Gemini 2.5 Pro over 200k, GPT-5.4 over 272k). */
  long?: Rates & { above: number };
}

export interface PriceRow extends ModelPrice {
  /** The provider's model ids this row prices (snapshot dates aside). */
  ids: readonly string[];
  label: string;
  /** The provider's page the figures were read from. */
  source: string;
  /** The day they were read (YYYY-MM-DD). */
  read: string;
  note?: string;
}

const READ = '2026-12-05';
/** The date of the table: the day its rows were read. */
export const PRICES_DATED = READ;

const ANTHROPIC = 'https://platform.claude.com/docs/en/about-claude/pricing';
const OPENAI = 'https://developers.openai.com/api/docs/pricing';
const GOOGLE = 'https://ai.google.dev/gemini-api/docs/pricing';

const claude = (label: string, ids: string[], input: number, output: number, extra: Partial<PriceRow> = {}): PriceRow => ({
  ids,
  label,
  // Anthropic's multipliers, as its page tabulates them: a 5-minute write 1.25×, a 1-hour write 2×, a read 0.1× the input.
  input,
  cacheWrite: input * 1.25,
  cacheWrite1h: input * 2,
  cacheRead: input / 10,
  output,
  source: ANTHROPIC,
  read: READ,
  ...extra,
});
const openai = (label: string, ids: string[], input: number, cacheRead: number, output: number, extra: Partial<PriceRow> = {}): PriceRow => ({ ids, label, input, cacheRead, output, source: OPENAI, read: READ, ...extra });
const gemini = (label: string, ids: string[], input: number, cacheRead: number, output: number, extra: Partial<PriceRow> = {}): PriceRow => ({ ids, label, input, cacheRead, output, source: GOOGLE, read: READ, note: 'Standard paid tier; context cache storage (per hour) is not counted', ...extra });

/** Claude Sonnet 4 and 4.5 with the 1M-token window: a call whose prompt is over 200k tokens is charged at these. */
const SONNET_LONG = { above: 200_000, input: 6, cacheWrite: 7.5, cacheWrite1h: 12, cacheRead: 0.6, output: 22.5 };
/** OpenAI's GPT-5.4 and later: a call of more than 272k input tokens, the whole of it at 2× input and 1.5× output. */
const gptLong = (input: number, cacheRead: number, output: number, cacheWrite?: number) => ({ above: 272_000, input: input * 2, cacheRead: cacheRead * 2, output: output * 1.5, ...(cacheWrite !== undefined ? { cacheWrite: cacheWrite * 2 } : {}) });

export const PRICE_TABLE: readonly PriceRow[] = [
  claude('Claude Opus 5', ['claude-opus-5'], 5, 25),
  claude('Claude Sonnet 5', ['claude-sonnet-5'], 2, 10),
  claude('Claude Opus 4.8', ['claude-opus-4-8'], 5, 25),
  claude('Claude Opus 4.7', ['claude-opus-4-7'], 5, 25),
  claude('Claude Opus 4.6', ['claude-opus-4-6'], 5, 25, { note: 'fast mode (speed "fast") is charged more and is not counted here' }),
  claude('Claude Opus 4.5', ['claude-opus-4-5'], 5, 25),
  claude('Claude Opus 4.1', ['claude-opus-4-1'], 15, 75),
  claude('Claude Opus 4', ['claude-opus-4', 'claude-opus-4-0', 'claude-4-opus'], 15, 75),
  claude('Claude Sonnet 4.6', ['claude-sonnet-4-6'], 3, 15),
  claude('Claude Sonnet 4.5', ['claude-sonnet-4-5'], 3, 15, { long: SONNET_LONG }),
  claude('Claude Sonnet 4', ['claude-sonnet-4', 'claude-sonnet-4-0', 'claude-4-sonnet'], 3, 15, { long: SONNET_LONG }),
  claude('Claude Sonnet 3.7', ['claude-3-7-sonnet'], 3, 15),
  claude('Claude Haiku 4.5', ['claude-haiku-4-5'], 1, 5),
  claude('Claude Haiku 3.5', ['claude-3-5-haiku'], 0.8, 4),
  claude('Claude Opus 3', ['claude-3-opus'], 15, 75),
  claude('Claude Haiku 3', ['claude-3-haiku'], 0.25, 1.25, { cacheWrite: 0.3, cacheWrite1h: 0.5, cacheRead: 0.03 }),
  {
    ids: ['<synthetic>'],
    label: "Claude Code's own reply",
    input: 0,
    cacheRead: 0,
    output: 0,
    // Not a provider's price: what Claude Code's own files say of these lines.
    source: 'Claude Code names a reply it writes itself (an API error, an interruption) model "<synthetic>": no call was made, nothing charged',
    read: READ,
  },
  openai('GPT-5.6 Sol', ['gpt-5.6-sol', 'gpt-5.6'], 5, 0.5, 30, { cacheWrite: 6.25, long: gptLong(5, 0.5, 30, 6.25), note: 'the model page listed a promotional $4 / $20 until at least 2026-11-21' }),
  openai('GPT-5.6 Terra', ['gpt-5.6-terra'], 2.5, 0.25, 15, { cacheWrite: 3.125, long: gptLong(2.5, 0.25, 15, 3.125) }),
  openai('GPT-5.6 Luna', ['gpt-5.6-luna'], 1, 0.1, 6, { cacheWrite: 1.25, long: gptLong(1, 0.1, 6, 1.25) }),
  openai('GPT-5.5', ['gpt-5.5'], 5, 0.5, 30, { long: gptLong(5, 0.5, 30) }),
  openai('GPT-5.4', ['gpt-5.4'], 2.5, 0.25, 15, { long: gptLong(2.5, 0.25, 15) }),
  openai('GPT-5.4 mini', ['gpt-5.4-mini'], 0.75, 0.075, 4.5),
  openai('GPT-5.4 nano', ['gpt-5.4-nano'], 0.2, 0.02, 1.25),
  openai('GPT-5.3-Codex', ['gpt-5.3-codex'], 1.75, 0.175, 14),
  openai('GPT-5.2', ['gpt-5.2'], 1.75, 0.175, 14),
  openai('GPT-5.2-Codex', ['gpt-5.2-codex'], 1.75, 0.175, 14),
  openai('GPT-5.1', ['gpt-5.1'], 1.25, 0.125, 10),
  openai('GPT-5.1-Codex', ['gpt-5.1-codex'], 1.25, 0.125, 10),
  openai('GPT-5.1-Codex-Max', ['gpt-5.1-codex-max'], 1.25, 0.125, 10),
  openai('GPT-5.1-Codex-Mini', ['gpt-5.1-codex-mini'], 0.25, 0.025, 2),
  openai('GPT-5', ['gpt-5'], 1.25, 0.125, 10),
  openai('GPT-5-Codex', ['gpt-5-codex'], 1.25, 0.125, 10),
  openai('GPT-5 mini', ['gpt-5-mini'], 0.25, 0.025, 2),
  openai('GPT-5 nano', ['gpt-5-nano'], 0.05, 0.005, 0.4),
  openai('codex-mini-latest', ['codex-mini-latest', 'codex-mini'], 1.5, 0.375, 6),
  openai('GPT-4.1', ['gpt-4.1'], 2, 0.5, 8),
  openai('GPT-4.1 mini', ['gpt-4.1-mini'], 0.4, 0.1, 1.6),
  openai('GPT-4.1 nano', ['gpt-4.1-nano'], 0.1, 0.025, 0.4),
  openai('GPT-4o', ['gpt-4o'], 2.5, 1.25, 10),
  // The first GPT-4o snapshot kept its launch price, and had no cached rate.
  openai('GPT-4o (2024-05-13)', ['gpt-4o-2024-05-13'], 5, 5, 15),
  openai('GPT-4o mini', ['gpt-4o-mini'], 0.15, 0.075, 0.6),
  openai('o3', ['o3'], 2, 0.5, 8),
  openai('o4-mini', ['o4-mini'], 1.1, 0.275, 4.4),
  openai('o3-mini', ['o3-mini'], 1.1, 0.55, 4.4),
  openai('o1', ['o1'], 15, 7.5, 60),
  gemini('Gemini 3 Pro Preview', ['gemini-3-pro-preview'], 2, 0.2, 12, { long: { above: 200_000, input: 4, cacheRead: 0.4, output: 18 } }),
  gemini('Gemini 3 Flash Preview', ['gemini-3-flash-preview'], 0.5, 0.05, 3),
  gemini('Gemini 2.5 Pro', ['gemini-2.5-pro'], 1.25, 0.125, 10, { long: { above: 200_000, input: 2.5, cacheRead: 0.25, output: 15 } }),
  gemini('Gemini 2.5 Flash', ['gemini-2.5-flash'], 0.3, 0.03, 2.5),
  gemini('Gemini 2.5 Flash-Lite', ['gemini-2.5-flash-lite'], 0.1, 0.01, 0.4),
  gemini('Gemini 2.0 Flash', ['gemini-2.0-flash'], 0.1, 0.025, 0.4),
];

const BY_ID = new Map<string, PriceRow>(PRICE_TABLE.flatMap((row) => row.ids.map((id) => [id, row] as const)));

/** Where a tool names a model through a router or a provider it is not: the model's own id follows. */
const ROUTED = /^(?:(?:anthropic|openai|google|gemini|models|copilot|github-copilot|openrouter|vertex_ai)\/)+/;

const keys = new Map<string, string>();

/**
 * A model id as a row names it: lower case, no router or provider prefix, no `[1m]`, Copilot's dotted Claude
 * versions as Anthropic spells them (claude-sonnet-4.6 → claude-sonnet-4-6), a display name's spaces as
 * dashes (Continue's "Gemini 2.5 Pro").
 */
export function modelKey(model: string): string {
  // Asked once per call a file reports (thousands per session): a handful of models, worked out once each.
  const known = keys.get(model);
  if (known !== undefined) return known;
  const id = keyOf(model);
  if (keys.size > 10_000) keys.clear();
  keys.set(model, id);
  return id;
}

function keyOf(model: string): string {
  let id = model.trim().toLowerCase().replace(ROUTED, '').replace(/\[1m\]$/, '').replace(/\s+/g, '-');
  if (id.startsWith('claude-')) id = id.replace(/(\d)\.(\d)/g, '$1-$2');
  return id;
}

/** A snapshot of a model, priced as the model: `-20251101`, `-2025-08-07`. */
const SNAPSHOT = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/** The table's row for a model: its exact id, else its id without a snapshot date; undefined when none names it. */
const rows = new Map<string, PriceRow | null>();

export function priceRowOf(model: string): PriceRow | undefined {
  // Asked for every call: each model's row looked up once.
  const known = rows.get(model);
  if (known !== undefined) return known ?? undefined;
  const id = modelKey(model);
  const row = BY_ID.get(id) ?? BY_ID.get(id.replace(SNAPSHOT, ''));
  if (rows.size > 10_000) rows.clear();
  rows.set(model, row ?? null);
  return row;
}

/**
 * The price of a model: a row of the user's own first (by name, or by a prefix of it, as the settings say), else
 * the table's own row for it. `row` is the table's row, which names its source; undefined for the user's.
 */
export function priceOf(model: string, overrides: Readonly<Record<string, ModelPrice>> = {}): { key: string; price: ModelPrice; row?: PriceRow } | undefined {
  let best: string | undefined;
  const own = Object.keys(overrides);
  // Asked for every call a catalog reads: the key worked out only where the user's own prices are to be matched.
  const id = own.length > 0 ? modelKey(model) : '';
  for (const key of own) {
    const k = modelKey(key);
    if ((id === k || id.startsWith(k)) && (best === undefined || k.length > modelKey(best).length)) best = key;
  }
  if (best !== undefined) return { key: best, price: overrides[best] };
  const row = priceRowOf(model);
  return row && { key: row.ids[0], price: row, row };
}
