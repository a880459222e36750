import type { MessageView } from './formats/model.js';
import { priceOf, priceRowOf, PRICES_DATED, type ModelPrice, type Rates } from './pricing/prices.js';
import { isNotAModel } from './models.js';
import type { Codec, ConversationDocument, ReportedTotal } from './formats/codec.js';

/**
 * What the APIs reported for a conversation's model calls, added up once per call. Every format's usage is
 * read into one meaning (see ReportedUsage): `input` is every prompt token of the call, the cached ones among
 * them; `output` every token written, the reasoning among them.
 */
export interface UsageTotals {
  /** Model calls that reported usage (a call written as several lines counts once). */
  calls: number;
  /** Of them, those that recorded their input, and their output (all of them when not given). */
  inputCalls?: number;
  outputCalls?: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, what was written to Anthropic's 1-hour cache (charged more than its 5-minute one). */
  cacheWrite1h?: number;
  output: number;
  reasoning: number;
  /**
   * Of these calls, those whose prompt was over the tier their model's list price changes at (Gemini 2.5 Pro
   * over 200k tokens): the whole of such a call is charged at the higher rates.
   */
  longPrompt?: LongPromptTotals;
}

export type LongPromptTotals = Omit<UsageTotals, 'longPrompt'> & { above: number };

export interface UsageReport extends UsageTotals {
  byModel: Record<string, UsageTotals>;
  /** Of the calls, those on branches the session did not go on with (a rewind's abandoned replies): in the figures above too. */
  otherBranches?: UsageTotals;
}

/** One model call's reported usage. */
export type CallUsage = NonNullable<MessageView['usage']> & {
  /** Made on a branch the session did not go on with (a rewind's abandoned replies, an answer regenerated). */
  branch?: boolean;
};

/** What calls of no recorded model are added up under. */
const NO_MODEL = '(model not recorded)';

const zero = (): UsageTotals => ({ calls: 0, inputCalls: 0, outputCalls: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 });

// A figure a call does not record is counted as missing, not as 0 (a file may keep only the output per call).
function add(t: Omit<UsageTotals, 'longPrompt'>, u: NonNullable<MessageView['usage']>): void {
  const n = u.calls ?? 1;
  t.calls += n;
  if (u.input !== undefined) t.inputCalls = (t.inputCalls ?? 0) + n;
  if (u.output !== undefined) t.outputCalls = (t.outputCalls ?? 0) + n;
  t.input += u.input ?? 0;
  t.cacheRead += u.cacheRead ?? 0;
  t.cacheWrite += u.cacheWrite ?? 0;
  if (u.cacheWrite1h) t.cacheWrite1h = (t.cacheWrite1h ?? 0) + u.cacheWrite1h;
  t.output += u.output ?? 0;
  t.reasoning += u.reasoning ?? 0;
}

/** A call of a model priced higher past a prompt size, whose prompt was past it: added up apart too. */
function addLong(t: UsageTotals, u: NonNullable<MessageView['usage']>): void {
  const above = u.model === undefined ? undefined : priceRowOf(u.model)?.long?.above;
  if (above === undefined || (u.input ?? 0) <= above) return;
  add((t.longPrompt ??= { ...zero(), above }), u);
}

/**
 * Each model call's usage once, with its final figures, and where it is: the index of the call's last line.
 * A call written as several lines (Claude Code: a line per content block, one `message.id`) carries the
 * figures of the stream so far on each, the output growing; its last line has what the call produced. A call
 * is known by its key; one without a key is a call of its own. `branch` says which lines are on a branch the
 * session did not go on with: their calls are marked so.
 */
export function callsOf(views: readonly MessageView[], branch?: (index: number) => boolean): Array<{ at: number; usage: CallUsage }> {
  const out: Array<{ at: number; usage: CallUsage }> = [];
  const slot = new Map<string, number>();
  views.forEach((v, i) => {
    const u = v.usage;
    if (!u) return;
    const call: CallUsage = u.model || !v.model ? { ...u } : { ...u, model: v.model };
    if (branch?.(i)) call.branch = true;
    const k = u.key === undefined ? undefined : slot.get(u.key);
    if (k === undefined) {
      if (u.key !== undefined) slot.set(u.key, out.length);
      out.push({ at: i, usage: call });
      return;
    }
    // A later line of the same call: its figures are the later ones; the model stays as either line said it.
    if (!call.model && out[k].usage.model) call.model = out[k].usage.model;
    out[k] = { at: i, usage: call };
  });
  return out;
}

/**
 * Calls (callsOf's, of a conversation's records in file order) with the totals its file reports beside its
 * messages put in (Copilot CLI's per-run figures: Codec.usageTotals), as the catalog adds them up (facts.ts): each
 * total a call at its row, adding up the calls it covers; those keep only their output (what the total does not
 * say per call), counted in it, not as calls of their own. Without totals, the calls as they are.
 */
export function withReportedTotals(calls: ReadonlyArray<{ at: number; usage: CallUsage }>, totals: readonly ReportedTotal[]): Array<{ at: number; usage: CallUsage }> {
  if (totals.length === 0) return [...calls];
  const out = [...calls];
  const byRow = new Map(out.map((c, k) => [c.at, k]));
  for (const t of totals) {
    let theirs = 0;
    let covered = 0;
    for (const row of t.covers) {
      const k = byRow.get(row);
      if (k === undefined) continue;
      const { usage } = out[k];
      theirs += usage.output ?? 0;
      covered++;
      out[k] = { at: row, usage: { ...(usage.key !== undefined ? { key: usage.key } : {}), ...(usage.model !== undefined ? { model: usage.model } : {}), ...(usage.output !== undefined ? { output: usage.output } : {}), calls: 0, ...(usage.branch ? { branch: true } : {}) } };
    }
    out.push({ at: t.index, usage: runTotal(t, theirs, covered) });
  }
  return out.sort((a, b) => a.at - b.at);
}

/**
 * A run's total as one call (the catalog's rule and the opened session's alike): its output less what the `covered`
 * calls it adds up record of their own (`theirs`), and as many calls as it says, else those it covers.
 */
export function runTotal(t: ReportedTotal, theirs: number, covered: number): CallUsage & { calls: number } {
  const u = t.usage;
  return { ...u, key: t.key, ...(u.output !== undefined ? { output: Math.max(0, u.output - theirs) } : {}), calls: u.calls ?? Math.max(1, covered) };
}

/**
 * The totals a file reports beside a conversation's messages (Codec.usageTotals), for views of `count` rows: only
 * where they are every record of it (a part's or a thread's rows would not line up with the rows totals cover).
 */
export function reportedTotalsOf(codec: Pick<Codec, 'usageTotals'>, doc: ConversationDocument, conversation: number, count: number): ReportedTotal[] {
  return codec.usageTotals && doc.conversations[conversation]?.records.length === count ? codec.usageTotals(doc, conversation) : [];
}

/**
 * What a request holds beside the file's messages (the system prompt, the tool schemas): the first reported
 * call's input less the messages before it (`lengths`: their sent text's length; about 4 characters a token, an
 * estimate the user can change). The transcript, the turn strip and the window's default plan add it alike.
 */
export function requestOverhead(usage: { at: readonly number[]; values: ReadonlyArray<{ input?: number }> }, lengths?: ArrayLike<number>): number {
  const first = usage.values.findIndex((u) => u.input !== undefined);
  if (first < 0) return 0;
  const at = usage.at[first];
  let before = 0;
  for (let i = 0; i < at && i < (lengths?.length ?? 0); i++) before += lengths![i];
  return Math.max(0, Math.round(usage.values[first].input! - before / 4));
}

/**
 * The usage the file records, each call once (by its key, its last line's figures), by model; undefined when
 * it records none. With `branch`, the calls of lines on other branches are counted too and said apart.
 */
export function reportedUsage(views: readonly MessageView[], branch?: (index: number) => boolean): UsageReport | undefined {
  return addUp(callsOf(views, branch).map((c) => c.usage));
}

/**
 * Calls' usage (each one once already) added up, by model; undefined for none. A reply the tool wrote itself
 * (Claude Code's `<synthetic>`: an API error, "No response requested.") is no call, as the usage view counts.
 */
export function addUp(calls: readonly CallUsage[]): UsageReport | undefined {
  const total = zero();
  const byModel: Record<string, UsageTotals> = {};
  let elsewhere: UsageTotals | undefined;
  for (const u of calls) {
    if (u.model !== undefined && isNotAModel(u.model)) continue;
    add(total, u);
    const t = (byModel[u.model ?? NO_MODEL] ??= zero());
    add(t, u);
    addLong(t, u);
    if (u.branch) add((elsewhere ??= zero()), u);
  }
  return total.calls === 0 ? undefined : { ...total, byModel, ...(elsewhere ? { otherBranches: elsewhere } : {}) };
}

/** Where a model's price came from: the table's row (its page and the day it was read), or the user's settings. */
export interface PriceSource {
  model: string;
  label: string;
  source: string;
  read?: string;
}

export interface Cost {
  usd: number;
  /** Models the price table has no row for (their calls are not in `usd`). */
  unpriced: string[];
  /** The date of the price table. */
  dated: string;
  /** Priced calls that record no input: `usd` is then a floor. */
  missingInput: number;
  /** What each priced model's rates were taken from. */
  sources: PriceSource[];
}

/** Usage at one set of rates: uncached input, cache reads, 5-minute and 1-hour cache writes, and output. */
function usdAt(t: Omit<UsageTotals, 'longPrompt'>, p: Rates): number {
  const uncached = Math.max(0, t.input - t.cacheRead - t.cacheWrite);
  const hour = Math.min(t.cacheWrite1h ?? 0, t.cacheWrite);
  const write = p.cacheWrite ?? p.input;
  return (uncached * p.input + t.cacheRead * p.cacheRead + (t.cacheWrite - hour) * write + hour * (p.cacheWrite1h ?? write) + t.output * p.output) / 1e6;
}

const minus = (a: Omit<UsageTotals, 'longPrompt'>, b: Omit<UsageTotals, 'longPrompt'>): Omit<UsageTotals, 'longPrompt'> => ({
  calls: a.calls - b.calls,
  input: a.input - b.input,
  cacheRead: a.cacheRead - b.cacheRead,
  cacheWrite: a.cacheWrite - b.cacheWrite,
  cacheWrite1h: (a.cacheWrite1h ?? 0) - (b.cacheWrite1h ?? 0),
  output: a.output - b.output,
  reasoning: a.reasoning - b.reasoning,
});

/**
 * What the usage cost at list prices, each model at its own row's rates: uncached input, cache reads and
 * writes (Anthropic's 1-hour writes at theirs), and output; a call past its model's long-prompt tier wholly at
 * the tier's rates (a price of the user's own has no tier: all at its rates).
 */
export function costOf(report: UsageReport, overrides: Readonly<Record<string, ModelPrice>> = {}): Cost {
  let usd = 0;
  let missingInput = 0;
  const unpriced: string[] = [];
  const sources: PriceSource[] = [];
  for (const [model, t] of Object.entries(report.byModel)) {
    const found = priceOf(model, overrides);
    if (!found) {
      unpriced.push(model);
      continue;
    }
    missingInput += t.calls - (t.inputCalls ?? t.calls);
    const p = found.price;
    const long = p.long && t.longPrompt && t.longPrompt.above === p.long.above ? t.longPrompt : undefined;
    usd += long ? usdAt(minus(t, long), p) + usdAt(long, p.long!) : usdAt(t, p);
    sources.push(found.row ? { model, label: found.row.label, source: found.row.source, read: found.row.read } : { model, label: found.key, source: 'your settings' });
  }
  return { usd, unpriced, dated: PRICES_DATED, missingInput, sources };
}

/**
 * One call's price at list prices (costOf of that call alone, without building a report): undefined when its
 * model has no row. Asked once per call a store reports, hundreds of thousands of times while it is listed.
 */
export function callUsd(u: NonNullable<MessageView['usage']>): number | undefined {
  if (u.model === undefined) return undefined;
  const found = priceOf(u.model);
  if (!found) return undefined;
  const t = zero();
  add(t, u);
  const p = found.price;
  const above = p.long?.above;
  // As addLong and costOf: the whole call at the tier's rates when its prompt was past the tier.
  if (p.long && above !== undefined && (u.input ?? 0) > above && priceRowOf(u.model)?.long?.above === above) return usdAt(t, p.long);
  return usdAt(t, p);
}

/** Where a cost's rates come from, for people: "Claude Opus 4.6: https://…, read 2026-12-05", one per line. */
export function priceSourcesText(cost: Cost): string {
  return cost.sources.map((s) => `${s.model === s.label ? s.model : `${s.model} (${s.label})`}: ${s.source}${s.read ? `, read ${s.read}` : ''}`).join('\n');
}

/** Models without a price, for people (calls of no recorded model said so). */
export const priceless = (models: readonly string[]): string => models.map((m) => (m === NO_MODEL ? 'calls whose model is not recorded' : m)).join(', ');

/** What a cost leaves out, for people: "at least: 2 calls record no input", or nothing. */
export function costFloorText(cost: Cost): string {
  return cost.missingInput > 0 ? `at least: ${cost.missingInput.toLocaleString('en-US')} call${cost.missingInput === 1 ? '' : 's'} record${cost.missingInput === 1 ? 's' : ''} no input` : '';
}

/** What a cost says for people: the sum and the models without a price, or only those when none has one. */
export function costText(cost: Cost, models: number): string {
  const none = cost.unpriced.length > 0 && cost.unpriced.length === models;
  if (none) return `no list price for ${priceless(cost.unpriced)} (prices of ${cost.dated})`;
  const floor = costFloorText(cost);
  return `${formatUsd(cost.usd)} at list prices (${cost.dated})${floor ? `, ${floor}` : ''}${cost.unpriced.length ? `; no price for ${priceless(cost.unpriced)}` : ''}`;
}

/** "$1.23", or "$0.0042" for small sums. */
export function formatUsd(usd: number): string {
  return usd >= 0.1 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}

const n = (x: number) => x.toLocaleString('en-US');

/**
 * One call's (or a total's) reported usage in words: "44,218 in (42,880 of them cached) · 410 out (256 of them
 * reasoning)"; "input not recorded" where no call recorded it, and how many did where only some did.
 */
export function describeUsage(u: { input?: number; cacheRead?: number; cacheWrite?: number; output?: number; reasoning?: number; calls?: number; inputCalls?: number; outputCalls?: number }): string {
  const recorded = (k: number | undefined) => (u.calls === undefined || k === undefined || k === u.calls ? '' : `recorded by ${n(k)} of ${n(u.calls)} calls`);
  const cache = [recorded(u.inputCalls), u.cacheRead ? `${n(u.cacheRead)} of them read from the cache` : '', u.cacheWrite ? `${n(u.cacheWrite)} written to ${u.cacheRead ? 'it' : 'the cache'}` : ''].filter(Boolean).join(', ');
  const written = [recorded(u.outputCalls), u.reasoning ? `${n(u.reasoning)} of them reasoning` : ''].filter(Boolean).join(', ');
  const noInput = u.input === undefined || u.inputCalls === 0;
  const noOutput = u.output === undefined || u.outputCalls === 0;
  const input = noInput ? (noOutput ? '' : 'input not recorded') : `${n(u.input!)} in${cache ? ` (${cache})` : ''}`;
  const output = noOutput ? (noInput ? '' : 'output not recorded') : `${n(u.output!)} out${written ? ` (${written})` : ''}`;
  return [input, output].filter(Boolean).join(' · ');
}
