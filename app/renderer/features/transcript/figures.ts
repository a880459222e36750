import { FLAGS, type Skeleton, type TurnFiguresData } from '../../../shared/contract.js';
import { addUp, costOf, describeUsage, formatUsd, type UsageReport } from '../../../../src/core/usage.js';
import type { ModelPrice } from '../../../../src/core/pricing/prices.js';
import type { Turns } from './turns.js';

/** What a turn cost: as the API reported it where the file records that, else as counted here (an estimate). */
export interface TurnFigures {
  kind: 'reported' | 'estimated';
  input: number | undefined;
  output: number | undefined;
  /** At list prices; undefined when the model has no price. */
  usd: number | undefined;
  /** The whole story, for the title. */
  title: string;
  /** A floor: some of its calls recorded no input (Copilot CLI's, whose input its run's total holds). */
  atLeast?: boolean;
}

/** Per message, where the part of the thread it is in begins (the last compaction boundary before it, else 0). */
export function partStarts(skeleton: Pick<Skeleton, 'count' | 'flags'>): Int32Array {
  const out = new Int32Array(skeleton.count);
  let start = 0;
  for (let i = 0; i < skeleton.count; i++) {
    if (skeleton.flags[i] & FLAGS.compaction) start = i;
    out[i] = start;
  }
  return out;
}

/** Running sums of the counts: `prefix[i]` is the tokens of messages before i. */
export function prefixSums(tokens: ArrayLike<number>): Float64Array {
  const out = new Float64Array(tokens.length + 1);
  for (let i = 0; i < tokens.length; i++) out[i + 1] = out[i] + tokens[i];
  return out;
}

export interface FigureInputs {
  skeleton: Pick<Skeleton, 'usage' | 'model' | 'count' | 'flags'>;
  turns: Turns;
  /** The counts made here (all of them), with their running sums and where each part begins. */
  tokens?: ArrayLike<number>;
  prefix?: Float64Array;
  parts?: Int32Array;
  /** The model the counts are made for (what an estimate is priced at when the file names none). */
  countedFor?: string;
  encoding?: string;
  prices?: Readonly<Record<string, ModelPrice>>;
  /** What each request holds beside the thread (its system prompt and tool schemas), where a reported call tells. */
  overhead?: number;
}

/** The API's report for turn `t`: every call reported among its messages, added up; undefined when none is. */
function reported(inputs: FigureInputs, t: number): UsageReport | undefined {
  const { at, values } = inputs.skeleton.usage;
  const first = inputs.turns.first[t];
  const last = inputs.turns.last[t];
  // `at` ascending: the first report at or after the turn's start.
  let lo = 0;
  let hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid] < first) lo = mid + 1;
    else hi = mid;
  }
  const calls = [];
  for (let k = lo; k < at.length && at[k] <= last; k++) if (inputs.turns.turnOf[at[k]] === t) calls.push(values[k]);
  return addUp(calls);
}

const n = (x: number) => x.toLocaleString('en-US');

/**
 * A turn's figures. Reported: the usage its call recorded, priced. Estimated (the file records none): the model
 * was sent the thread from its last compaction up to the call, and wrote the call's messages.
 */
export function turnFigures(inputs: FigureInputs, t: number): TurnFigures | undefined {
  const report = reported(inputs, t);
  if (report) {
    const cost = costOf(report, inputs.prices);
    const priced = cost.unpriced.length === 0;
    const atLeast = (report.inputCalls ?? report.calls) < report.calls;
    return {
      kind: 'reported',
      input: report.inputCalls === 0 ? undefined : report.input,
      output: report.outputCalls === 0 ? undefined : report.output,
      usd: priced ? cost.usd : undefined,
      ...(atLeast ? { atLeast: true } : {}),
      title: `Reported by the API for this call: ${describeUsage(report)}${priced ? ` · ${formatUsd(cost.usd)} at list prices (${cost.dated})${atLeast ? ', its input not counted: at least this' : ''}` : ` · no list price for ${cost.unpriced.join(', ')}`}`,
    };
  }
  const { tokens, prefix, parts } = inputs;
  if (!tokens || !prefix || !parts) return undefined;
  const first = inputs.turns.first[t];
  const last = inputs.turns.last[t];
  const overhead = inputs.overhead ?? 0;
  const input = prefix[first] - prefix[parts[first]] + overhead;
  let output = 0;
  for (let i = first; i <= last; i++) if (!(inputs.skeleton.flags[i] & FLAGS.toolResult)) output += tokens[i];
  const model = inputs.skeleton.model ?? inputs.countedFor;
  let usd: number | undefined;
  if (model) {
    const estimate = addUp([{ input, output, model }]);
    const cost = estimate ? costOf(estimate, inputs.prices) : undefined;
    if (cost && cost.unpriced.length === 0) usd = cost.usd;
  }
  return {
    kind: 'estimated',
    input,
    output,
    usd,
    title: `Estimated here (the file records no usage for this call): the thread ${parts[first] > 0 ? `since its compaction at message ${n(parts[first])}` : 'from its start'} up to it${overhead > 0 ? `, and about ${n(overhead)} tokens of system prompt and tools (the first reported call's input less its messages)` : ''}: ${n(input)} tokens sent; its own messages, ${n(output)} tokens, written${inputs.encoding ? `; counted with ${inputs.encoding}` : ''}${usd !== undefined ? ` · about ${formatUsd(usd)} at ${model}'s list prices` : ''}`,
  };
}

/** "12.3k", "845", "1.2M": a margin's figure. */
export function short(x: number): string {
  if (x < 1000) return String(Math.round(x));
  if (x < 1e6) return `${(x / 1000).toFixed(x < 10_000 ? 1 : 0)}k`;
  return `${(x / 1e6).toFixed(1)}M`;
}

/**
 * An estimated turn's figures as the service made them for the turn strip (the same rule everywhere: what the
 * call before it sent counted as cached, as the provider caches it), in place of the transcript's own.
 */
export function servedEstimate(own: TurnFigures | undefined, served: TurnFiguresData | undefined): TurnFigures | undefined {
  if (own?.kind !== 'estimated' || !served?.estimated || served.input === undefined || served.output === undefined) return own;
  const cached = served.cacheRead ?? 0;
  const usd = served.usd;
  return {
    kind: 'estimated',
    input: served.input,
    output: served.output,
    usd,
    title: `Estimated here (the file records no usage for this call): ${n(served.input)} tokens sent${cached > 0 ? `, ${n(cached)} of them sent by the call before it (cached by the provider, priced so)` : ''}; its own messages, ${n(served.output)} tokens, written${usd !== undefined && served.model ? ` · about ${formatUsd(usd)} at ${served.model}'s list prices` : ''}`,
  };
}
