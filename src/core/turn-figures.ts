import type { MessageView } from './formats/model.js';
import { priceOf, type ModelPrice } from './pricing/prices.js';
import { addUp, callsOf, costOf, type CallUsage } from './usage.js';
import { apiCalls, type ApiCalls } from './api-calls.js';

/**
 * One turn of a conversation as it was run: one API call, its lines (a response written a line per content block
 * or item) and the tool results it waited for. `first` and `last` are rows of the messages given.
 */
export interface TurnFigures {
  first: number;
  last: number;
  /** Tokens sent (every prompt token, the cached among them), read from and written to the cache, and written. */
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** At list prices; absent where the model has no price. */
  usd?: number;
  /** The model the figures and the price are of. */
  model?: string;
  /**
   * True where the file reports no usage for the call: the input is then the tokens counted here of what came
   * before it (since the last compaction), the output those of its own lines, and the price the model's at that.
   */
  estimated: boolean;
}

type TurnView = Pick<MessageView, 'normalRole' | 'parts' | 'usage' | 'model' | 'compaction' | 'summary' | 'meta'>;

/** A message a model wrote (an agent's under its own name too): not a result, a summary or the tool's own line. */
function byModel(v: TurnView): boolean {
  if (v.compaction || v.summary || v.meta) return false;
  if (v.normalRole !== 'assistant' && v.normalRole !== 'other') return false;
  return !(v.parts.length > 0 && v.parts.every((p) => p.kind === 'tool-result'));
}

export interface TurnFigureOptions {
  /** Tokens counted here per message (for the turns the file reports nothing of). */
  tokens?: ArrayLike<number>;
  /** The model an estimated turn is priced as (the session's own, or the one counted for). */
  model?: string;
  prices?: Readonly<Record<string, ModelPrice>>;
  /** What each request holds beside the messages (requestOverhead): in every estimated turn's input. */
  overhead?: number;
  /** The file writes one message per call (a swarms history): see apiCalls. */
  eachMessage?: boolean;
  /** The calls, where the caller has them already (apiCalls of the same views). */
  calls?: ApiCalls;
}

const usdOf = (calls: readonly CallUsage[], prices: Readonly<Record<string, ModelPrice>> | undefined): number | undefined => {
  const report = addUp(calls);
  if (!report) return undefined;
  const cost = costOf(report, prices);
  return cost.unpriced.length === Object.keys(report.byModel).length ? undefined : cost.usd;
};

/**
 * Each turn's tokens and cost: what the API reported for its call where the file records it (each call once,
 * from its last line), an estimate from the counts made here where not.
 */
export function turnFigures(views: readonly MessageView[], options: TurnFigureOptions = {}): TurnFigures[] {
  // The turns are the calls every view names (the transcript's, the compare's): one grouping everywhere.
  const calls = options.calls ?? apiCalls(views, { oneMessageEach: options.eachMessage });
  const turns = calls.first.map((first, k) => ({ first, last: calls.last[k] }));
  const turnAt = new Int32Array(views.length).fill(-1);
  turns.forEach((t, k) => turnAt.fill(k, t.first, t.last + 1));
  const reported: CallUsage[][] = turns.map(() => []);
  for (const call of callsOf(views)) {
    const k = turnAt[call.at];
    if (k >= 0) reported[k].push(call.usage);
  }
  const tokens = options.tokens;
  // What came before a turn since the last compaction: the prompt it was sent (a running sum, reset at each).
  const before = new Float64Array(views.length + 1);
  for (let i = 0; i < views.length; i++) {
    const v = views[i];
    before[i + 1] = (v.compaction || v.summary ? 0 : before[i]) + (tokens ? Number(tokens[i] ?? 0) : 0);
  }
  // The prompt the last reported call was sent: a call after it sends that again first, which the provider has
  // cached (an estimate priced as all new input would count it at up to ten times its price).
  // A compaction sends a new prompt: nothing before it is cached.
  let sent = 0;
  let sentAt = 0;
  const compactions = new Int32Array(views.length + 1);
  for (let i = 0; i < views.length; i++) compactions[i + 1] = compactions[i] + (views[i].compaction || views[i].summary ? 1 : 0);
  return turns.map((t, k) => {
    const calls = reported[k];
    if (compactions[t.first] !== compactions[sentAt]) sent = 0;
    if (calls.length > 0) {
      sent = calls[calls.length - 1].input ?? sent;
      sentAt = t.last;
      const sum = (f: (u: CallUsage) => number | undefined) => (calls.some((u) => f(u) !== undefined) ? calls.reduce((n, u) => n + (f(u) ?? 0), 0) : undefined);
      const model = calls.find((u) => u.model)?.model ?? views[t.first].model ?? options.model;
      const priced = calls.map((u) => (u.model || !model ? u : { ...u, model }));
      return { first: t.first, last: t.last, input: sum((u) => u.input), output: sum((u) => u.output), cacheRead: sum((u) => u.cacheRead), cacheWrite: sum((u) => u.cacheWrite), usd: usdOf(priced, options.prices), model, estimated: false };
    }
    // The turn's own model where it has a price; else the session's (Gemini CLI names a turn by its router,
    // `auto-gemini-3`, no model of its own), as the transcript prices an estimate.
    const own = views[t.first].model;
    const model = own && (priceOf(own, options.prices) || !options.model) ? own : options.model ?? own;
    if (!tokens) return { first: t.first, last: t.last, model, estimated: true };
    let output = 0;
    for (let i = t.first; i <= t.last; i++) if (byModel(views[i])) output += Number(tokens[i] ?? 0);
    const input = before[t.first] + (options.overhead ?? 0);
    const cacheRead = Math.min(input, sent);
    return { first: t.first, last: t.last, input, output, ...(cacheRead > 0 ? { cacheRead } : {}), usd: model ? usdOf([{ input, output, cacheRead, model }], options.prices) : undefined, model, estimated: true };
  });
}
