import { FLAGS, type Skeleton } from '../../../shared/contract.js';

/**
 * The transcript's turns: one API call each, its lines (Claude Code writes a response a line per content block)
 * and the results of the tools it called; a message that is no call's (a prompt, a system message, a compaction
 * boundary) belongs to none.
 */
export interface Turns {
  /** Per message, its turn (-1: none). */
  turnOf: Int32Array;
  /** Per turn, its first and last message. */
  first: number[];
  last: number[];
}

/** The skeleton's per-message flags, and the calls the service found (`conversation:calls`). */
type TurnSource = Pick<Skeleton, 'count' | 'flags'>;

/**
 * The turns the service read (core/api-calls: one model call each, its lines and the results of its tool
 * calls), per message: a call's range may hold a sub-agent's lines written inline, which are not its (the
 * other chain's). Nothing is grouped here: without the service's calls every message stands alone.
 */
export function turnsOf(skeleton: TurnSource, calls: { first: readonly number[]; last: readonly number[] } | undefined): Turns {
  const n = skeleton.count;
  const turnOf = new Int32Array(n).fill(-1);
  if (!calls) return { turnOf, first: [], last: [] };
  const first: number[] = [];
  const last: number[] = [];
  for (let k = 0; k < calls.first.length; k++) {
    const a = calls.first[k];
    const b = Math.min(calls.last[k], n - 1);
    if (a < 0 || a >= n || b < a) continue;
    const side = skeleton.flags[a] & FLAGS.sidechain;
    const t = first.length;
    first.push(a);
    last.push(a);
    for (let i = a; i <= b; i++) {
      if ((skeleton.flags[i] & FLAGS.sidechain) !== side) continue;
      turnOf[i] = t;
      last[t] = i;
    }
  }
  return { turnOf, first, last };
}

/** The message that begins the unit `i` is in: its turn's first, or itself. */
export function unitStart(turns: Turns, i: number): number {
  const t = turns.turnOf[i];
  return t < 0 ? i : turns.first[t];
}

/** The first message of the unit after (`step` 1) or before (-1) the one `i` is in; `i` itself at either end. */
export function nextUnit(turns: Turns, i: number, step: 1 | -1, count: number): number {
  if (count === 0) return i;
  const t = turns.turnOf[i];
  if (step === 1) {
    const after = t < 0 ? i + 1 : turns.last[t] + 1;
    return after < count ? after : i;
  }
  const before = (t < 0 ? i : turns.first[t]) - 1;
  return before < 0 ? unitStart(turns, Math.max(0, i)) : unitStart(turns, before);
}
