import { FATE_CODE, FATES, type MessageFate, type SkeletonMessage, type WindowPlan, type WindowSkeleton, type WindowStrategy } from './types.js';

/**
 * Where the model was called during the run: after each user message (the history up to and with it), and
 * at the end. A history without user messages has a turn per message. Prefix lengths, ascending.
 */
export function turnEnds(normalRoles: ArrayLike<string>): number[] {
  const n = normalRoles.length;
  const ends: number[] = [];
  for (let i = 0; i < n; i++) if (normalRoles[i] === 'user') ends.push(i + 1);
  if (ends.length === 0) return Array.from({ length: n }, (_, i) => i + 1);
  if (ends[ends.length - 1] !== n) ends.push(n);
  return ends;
}

// The first t messages, the same list while t stays (planners keep their columns per list).
const prefixes = new WeakMap<readonly SkeletonMessage[], { t: number; prefix: readonly SkeletonMessage[] }>();

export function messagesUpTo(messages: readonly SkeletonMessage[], t: number): readonly SkeletonMessage[] {
  if (t >= messages.length) return messages;
  const hit = prefixes.get(messages);
  if (hit && hit.t === t) return hit.prefix;
  const prefix = messages.slice(0, t);
  prefixes.set(messages, { t, prefix });
  return prefix;
}

/**
 * Where the part of the history the model was sent at the end of its first t messages begins: the last
 * compaction boundary among them (the model was sent its summary and what came after), else 0.
 */
export function partStart(messages: readonly SkeletonMessage[], t: number): number {
  for (let i = Math.min(t, messages.length) - 1; i > 0; i--) if (messages[i].startsPart) return i;
  return 0;
}

/**
 * The window the strategy would have made when the history was its first t messages: the plan of that
 * prefix, from the last compaction in it on (what came before, replaced by the compaction's summary, reads
 * as summarised). (A rendered block keeps the separator after it, so for the dynamic window the prefix's
 * last message counts the one or two tokens of the blank line that followed it.)
 */
export function planAtTurn(strategy: WindowStrategy, skeleton: WindowSkeleton, params: Record<string, unknown>, t: number): WindowPlan {
  const end = Math.max(0, Math.min(t, skeleton.messages.length));
  const from = partStart(skeleton.messages, end);
  // The text (for exact cuts, where there is one) is indexed by message: the prefix's is the same.
  if (from === 0) return strategy.plan({ messages: messagesUpTo(skeleton.messages, end), text: skeleton.text }, params);
  const text = skeleton.text && { content: (i: number) => skeleton.text!.content(i + from), block: (i: number) => skeleton.text!.block(i + from), measure: skeleton.text.measure };
  return afterEarlier(strategy.plan({ messages: skeleton.messages.slice(from, end), text }, params), skeleton.messages, from);
}

/** A plan of the messages from `from` on, as a plan of them all: the ones before it summarised by a compaction. */
function afterEarlier(part: WindowPlan, messages: readonly SkeletonMessage[], from: number): WindowPlan {
  const n = from + part.fates.length;
  const fates = new Uint8Array(n).fill(FATE_CODE.summarised, 0, from);
  fates.set(part.fates, from);
  const tokensAfter = new Float64Array(n);
  tokensAfter.set(part.tokensAfter, from);
  const cuts: WindowPlan['cuts'] = {};
  for (const [k, cut] of Object.entries(part.cuts)) cuts[Number(k) + from] = cut;
  let summaryOf: Int32Array | null = null;
  if (part.summaryOf) {
    summaryOf = new Int32Array(n);
    summaryOf.set(part.summaryOf, from);
  }
  let earlier = 0;
  for (let i = 0; i < from; i++) earlier += part.unit === 'rendered' ? messages[i].renderedTokens : messages[i].tokens;
  let materialized: MessageFate[] | undefined;
  const plan = {
    ...part,
    fates,
    tokensAfter,
    cuts,
    summaryOf,
    inserted: part.inserted.map((m) => ({ ...m, before: m.before + from, replaces: m.replaces.map((i) => i + from) })),
    warnings: part.warnings.map((w) => ({ ...w, index: w.index + from })),
    totalBefore: part.totalBefore + earlier,
    counts: { ...part.counts, summarised: part.counts.summarised + from },
    ...(part.renderedFrom !== undefined ? { renderedFrom: part.renderedFrom + from } : {}),
    compactedBefore: from,
  } as Omit<WindowPlan, 'messages'>;
  Object.defineProperty(plan, 'messages', {
    enumerable: true,
    get: () =>
      (materialized ??= Array.from({ length: n }, (_, index) => {
        const fate: MessageFate = { index, fate: FATES[fates[index]], tokensAfter: tokensAfter[index] };
        if (cuts[index]) fate.cut = cuts[index];
        if (summaryOf && summaryOf[index] > 0) fate.summary = summaryOf[index] - 1;
        return fate;
      })),
  });
  return plan as WindowPlan;
}

export interface TurnMilestones {
  /** The first turn (index into the ends) at which a plan drops or cuts static context (the system prompt). */
  staticLost?: number;
  /** The first turn at which a plan summarises. */
  summarised?: number;
  /** The first turn at which a plan leaves anything out. */
  trimmed?: number;
}

const losesStatic = (plan: WindowPlan, messages: readonly SkeletonMessage[]) => {
  for (let i = 0; i < plan.fates.length && messages[i].isStatic; i++) if (plan.fates[i] === FATE_CODE.dropped || plan.fates[i] === FATE_CODE.cut) return true;
  return false;
};

/**
 * When the window first changed shape during the run. Each is found by a scan of at most `samples` turns
 * and then, between the last turn without it and the first with it, a binary search (exact where the event
 * stays once it has happened, which it does for a history that only grows, except in rare budget edges).
 * A generator that yields after every plan, so that a screen can spread the work over many short tasks.
 */
export function* milestoneSearch(strategy: WindowStrategy, skeleton: WindowSkeleton, params: Record<string, unknown>, ends: readonly number[], samples = 64): Generator<void, TurnMilestones, void> {
  const tests: Record<keyof TurnMilestones, (p: WindowPlan) => boolean> = {
    staticLost: (p) => losesStatic(p, skeleton.messages),
    summarised: (p) => p.counts.summarised > 0,
    trimmed: (p) => p.counts.dropped + p.counts.cut + p.counts.summarised > 0,
  };
  const out: TurnMilestones = {};
  if (ends.length === 0) return out;
  const step = Math.max(1, Math.ceil(ends.length / samples));
  const probe: number[] = [];
  for (let k = 0; k < ends.length; k += step) probe.push(k);
  if (probe[probe.length - 1] !== ends.length - 1) probe.push(ends.length - 1);
  // What each planned turn showed, kept small: the three answers, not the plans.
  const seen = new Map<number, Record<keyof TurnMilestones, boolean>>();
  const keys = Object.keys(tests) as Array<keyof TurnMilestones>;
  function* look(k: number): Generator<void, Record<keyof TurnMilestones, boolean>, void> {
    let r = seen.get(k);
    if (!r) {
      const p = planAtTurn(strategy, skeleton, params, ends[k]);
      r = { staticLost: tests.staticLost(p), summarised: tests.summarised(p), trimmed: tests.trimmed(p) };
      seen.set(k, r);
      yield;
    }
    return r;
  }
  for (const key of keys) {
    let j = -1;
    for (let q = 0; q < probe.length; q++) {
      if ((yield* look(probe[q]))[key]) {
        j = q;
        break;
      }
    }
    if (j < 0) continue;
    let lo = j === 0 ? 0 : probe[j - 1] + 1;
    let hi = probe[j];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((yield* look(mid))[key]) hi = mid;
      else lo = mid + 1;
    }
    out[key] = lo;
  }
  return out;
}

/** `milestoneSearch` run to its end at once. */
export function turnMilestones(strategy: WindowStrategy, skeleton: WindowSkeleton, params: Record<string, unknown>, ends: readonly number[], samples = 64): TurnMilestones {
  const search = milestoneSearch(strategy, skeleton, params, ends, samples);
  for (;;) {
    const step = search.next();
    if (step.done) return step.value;
  }
}
