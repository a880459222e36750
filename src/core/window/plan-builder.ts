import { tokenColumns } from './token-columns.js';
import { FATE_CODE, FATES, type Fate, type InsertedMessage, type MessageFate, type PlanWarning, type SkeletonMessage, type WindowPlan } from './types.js';

const KEPT = FATE_CODE.kept;
const DROPPED = FATE_CODE.dropped;
const CUT = FATE_CODE.cut;
const SUMMARISED = FATE_CODE.summarised;

/**
 * Collects fates into typed arrays. Every message starts dropped; strategies mark what they keep, cut or
 * summarise. Building a plan for 100k messages costs two typed arrays, not 100k objects.
 */
export class PlanBuilder {
  readonly fates: Uint8Array;
  readonly tokensAfter: Float64Array;
  readonly cuts: WindowPlan['cuts'] = {};
  /** Summary index + 1 per message (0: none); allocated only by strategies that summarise. */
  private summaryOf: Int32Array | undefined;
  private readonly columns: ReturnType<typeof tokenColumns>;

  constructor(readonly skeleton: readonly SkeletonMessage[], readonly unit: WindowPlan['unit']) {
    this.fates = new Uint8Array(skeleton.length).fill(DROPPED);
    this.tokensAfter = new Float64Array(skeleton.length);
    this.columns = tokenColumns(skeleton, unit);
  }

  tokensOf(i: number): number {
    return this.columns.tokens[i];
  }

  keep(i: number): void {
    this.fates[i] = KEPT;
    this.tokensAfter[i] = this.columns.tokens[i];
  }

  /** Keeps messages [from, to). */
  keepRange(from: number, to: number): void {
    if (to <= from) return;
    this.fates.fill(KEPT, from, to);
    this.tokensAfter.set(this.columns.tokens.subarray(from, to), from);
  }

  /** Takes a plan of the messages from `offset` on (its fates, counts and cuts), as `planAfterStatic` places one. */
  placeAt(offset: number, sub: Pick<WindowPlan, 'fates' | 'tokensAfter' | 'cuts' | 'summaryOf'>): void {
    this.fates.set(sub.fates, offset);
    this.tokensAfter.set(sub.tokensAfter, offset);
    for (const [j, cut] of Object.entries(sub.cuts)) this.cuts[Number(j) + offset] = cut;
    // Its summaries are not placed (they would need its inserted messages): what they summarise reads as dropped.
    if (sub.summaryOf) for (let j = 0; j < sub.fates.length; j++) if (sub.fates[j] === SUMMARISED) this.drop(j + offset);
  }

  drop(i: number): void {
    this.fates[i] = DROPPED;
    this.tokensAfter[i] = 0;
  }

  cut(i: number, tokensAfter: number, cut: NonNullable<MessageFate['cut']>): void {
    this.fates[i] = CUT;
    this.tokensAfter[i] = tokensAfter;
    this.cuts[i] = cut;
  }

  summarise(i: number, summary: number): void {
    this.fates[i] = SUMMARISED;
    this.tokensAfter[i] = 0;
    (this.summaryOf ??= new Int32Array(this.fates.length))[i] = summary + 1;
  }

  isPresent(i: number): boolean {
    return this.fates[i] === KEPT || this.fates[i] === CUT;
  }

  finish(strategy: string, params: Record<string, unknown>, inserted: InsertedMessage[] = [], warnings: PlanWarning[] = [], extra: Partial<WindowPlan> = {}): WindowPlan {
    const { fates, tokensAfter, cuts, summaryOf, skeleton } = this;
    const counts: Record<Fate, number> = { kept: 0, dropped: 0, cut: 0, summarised: 0 };
    const tally = [0, 0, 0, 0];
    const totalBefore = this.columns.total;
    let totalAfter = 0;
    for (let i = 0; i < fates.length; i++) {
      totalAfter += tokensAfter[i];
      tally[fates[i]]++;
    }
    FATES.forEach((f, k) => (counts[f] = tally[k]));
    for (const m of inserted) totalAfter += m.tokens ?? 0;
    let materialized: MessageFate[] | undefined;
    const plan = { strategy, params, unit: this.unit, fates, tokensAfter, cuts, summaryOf: summaryOf ?? null, inserted, totalBefore, totalAfter, counts, warnings, ...extra } as Omit<WindowPlan, 'messages'>;
    Object.defineProperty(plan, 'messages', {
      enumerable: true,
      get: () =>
        (materialized ??= Array.from(skeleton, (_, index) => {
          const fate: MessageFate = { index, fate: FATES[fates[index]], tokensAfter: tokensAfter[index] };
          if (cuts[index]) fate.cut = cuts[index];
          if (summaryOf && summaryOf[index] > 0) fate.summary = summaryOf[index] - 1;
          return fate;
        })),
    });
    return plan as WindowPlan;
  }
}

/** Reads a numeric parameter, falling back to the default for anything that is not a finite number. */
export function numberParam(params: Record<string, unknown>, key: string, fallback: number, min = 0): number {
  const v = params[key];
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? Math.max(min, Math.floor(n)) : fallback;
}

/** Reads a boolean parameter ("true"/"false" as text too, from a command line or a URL). */
export function booleanParam(params: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const v = params[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 1) return true;
  if (v === 'false' || v === 0) return false;
  return fallback;
}

interface ToolIndex {
  /** Indexes of messages that answer a call, with the index of that call (or -1 when it is not in the history). */
  results: Array<[result: number, call: number]>;
  /** For each call message, the indexes of its results. */
  calls: Array<[call: number, results: number[]]>;
}

const toolIndexes = new WeakMap<readonly SkeletonMessage[], ToolIndex>();

/** Where tool calls and their results stand; computed once per skeleton and reused by every re-plan. */
export function toolIndex(skeleton: readonly SkeletonMessage[]): ToolIndex {
  let index = toolIndexes.get(skeleton);
  if (index) return index;
  const callAt = new Map<string, number>();
  const resultsOf = new Map<number, number[]>();
  const results: ToolIndex['results'] = [];
  skeleton.forEach((m, i) => {
    if (m.toolResultId !== undefined) {
      const call = callAt.get(m.toolResultId) ?? -1;
      results.push([i, call]);
      if (call !== -1) resultsOf.set(call, [...(resultsOf.get(call) ?? []), i]);
    }
    for (const id of m.toolCallIds) callAt.set(id, i);
  });
  index = { results, calls: [...resultsOf.entries()] };
  toolIndexes.set(skeleton, index);
  return index;
}

/** Warnings for kept tool results whose call is gone, and kept calls whose results are gone. */
export function orphanWarnings(builder: PlanBuilder): PlanWarning[] {
  const { results, calls } = toolIndex(builder.skeleton);
  const warnings: PlanWarning[] = [];
  for (const [r, call] of results) {
    if (call !== -1 && builder.isPresent(r) && !builder.isPresent(call)) {
      warnings.push({ code: 'orphaned-tool-result', index: r, message: `message ${r} is a tool result whose call (message ${call}) is not kept` });
    }
  }
  for (const [call, rs] of calls) {
    const lost = rs.filter((r) => !builder.isPresent(r));
    if (builder.isPresent(call) && lost.length > 0) {
      warnings.push({ code: 'orphaned-tool-call', index: call, message: `message ${call} calls a tool whose result (message ${lost[0]}) is not kept` });
    }
  }
  return warnings.sort((a, b) => a.index - b.index);
}

/** Index of the tool call that `index` answers, when that call stands before it. */
export function callIndexFor(skeleton: readonly SkeletonMessage[], index: number): number | undefined {
  const id = skeleton[index].toolResultId;
  if (id === undefined) return undefined;
  for (let j = index - 1; j >= 0; j--) if (skeleton[j].toolCallIds.includes(id)) return j;
  return undefined;
}
