import type { MessageView } from './formats/model.js';
import { priceOf, PRICES_DATED, type ModelPrice } from './pricing/prices.js';

/**
 * What the APIs reported for a conversation's model calls, added up once per call. Every format's usage is
 * read into one meaning (see ReportedUsage): `input` is every prompt token of the call, the cached ones among
 * them; `output` every token written, the reasoning among them.
 */
export interface UsageTotals {
  /** Model calls that reported usage (a call written as several lines counts once). */
  calls: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
}

export interface UsageReport extends UsageTotals {
  byModel: Record<string, UsageTotals>;
}

const zero = (): UsageTotals => ({ calls: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 });

function add(t: UsageTotals, u: NonNullable<MessageView['usage']>): void {
  t.calls++;
  t.input += u.input ?? 0;
  t.cacheRead += u.cacheRead ?? 0;
  t.cacheWrite += u.cacheWrite ?? 0;
  t.output += u.output ?? 0;
  t.reasoning += u.reasoning ?? 0;
}

/** The usage the file records, each call once (by its key), by model; undefined when it records none. */
export function reportedUsage(views: readonly MessageView[]): UsageReport | undefined {
  const seen = new Set<string>();
  const calls: Array<NonNullable<MessageView['usage']>> = [];
  for (const v of views) {
    const u = v.usage;
    if (!u) continue;
    if (u.key !== undefined) {
      if (seen.has(u.key)) continue;
      seen.add(u.key);
    }
    calls.push(u.model || !v.model ? u : { ...u, model: v.model });
  }
  return addUp(calls);
}

/** Calls' usage (each one once already) added up, by model; undefined for none. */
export function addUp(calls: ReadonlyArray<NonNullable<MessageView['usage']>>): UsageReport | undefined {
  const total = zero();
  const byModel: Record<string, UsageTotals> = {};
  for (const u of calls) {
    add(total, u);
    add((byModel[u.model ?? '(model not recorded)'] ??= zero()), u);
  }
  return total.calls === 0 ? undefined : { ...total, byModel };
}

export interface Cost {
  usd: number;
  /** Models the price table has no row for (their calls are not in `usd`). */
  unpriced: string[];
  /** The date of the price table. */
  dated: string;
}

/** What the usage cost at list prices: uncached input, cache reads and writes, and output, each at its rate. */
export function costOf(report: UsageReport, overrides: Readonly<Record<string, ModelPrice>> = {}): Cost {
  let usd = 0;
  const unpriced: string[] = [];
  for (const [model, t] of Object.entries(report.byModel)) {
    const row = priceOf(model, overrides);
    if (!row) {
      unpriced.push(model);
      continue;
    }
    const p = row.price;
    const uncached = Math.max(0, t.input - t.cacheRead - t.cacheWrite);
    usd += (uncached * p.input + t.cacheRead * p.cacheRead + t.cacheWrite * (p.cacheWrite ?? p.input) + t.output * p.output) / 1e6;
  }
  return { usd, unpriced, dated: PRICES_DATED };
}

/** What a cost says for people: the sum and the models without a price, or only those when none has one. */
export function costText(cost: Cost, models: number): string {
  const none = cost.unpriced.length > 0 && cost.unpriced.length === models;
  if (none) return `no list price for ${cost.unpriced.join(', ')} (prices of ${cost.dated})`;
  return `${formatUsd(cost.usd)} at list prices (${cost.dated})${cost.unpriced.length ? `; no price for ${cost.unpriced.join(', ')}` : ''}`;
}

/** "$1.23", or "$0.0042" for small sums. */
export function formatUsd(usd: number): string {
  return usd >= 0.1 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}

const n = (x: number) => x.toLocaleString('en-US');

/** One call's (or a total's) reported usage in words: "44,218 in (42,880 of them cached) · 410 out (256 of them reasoning)". */
export function describeUsage(u: { input?: number; cacheRead?: number; cacheWrite?: number; output?: number; reasoning?: number }): string {
  const cache = [u.cacheRead ? `${n(u.cacheRead)} of them read from the cache` : '', u.cacheWrite ? `${n(u.cacheWrite)} written to it` : ''].filter(Boolean).join(', ');
  const input = u.input !== undefined ? `${n(u.input)} in${cache ? ` (${cache})` : ''}` : '';
  const output = u.output !== undefined ? `${n(u.output)} out${u.reasoning ? ` (${n(u.reasoning)} of them reasoning)` : ''}` : '';
  return [input, output].filter(Boolean).join(' · ');
}
