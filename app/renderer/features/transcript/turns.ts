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

type TurnSource = Pick<Skeleton, 'count' | 'flags' | 'roleOf' | 'normalRoles' | 'toolCalls' | 'toolResults'> & Partial<Pick<Skeleton, 'swarms'>>;

/**
 * Groups a skeleton's messages into turns. With `turnIds` (one per message, the service's, -1 for none), a turn is
 * the run of messages that share an id. Without, from what every skeleton has: a turn begins at a model's message
 * that follows no other of the same call, takes the model's messages right after it and the tool results that
 * answer its calls (or that name no call and follow it), and ends at anything else. A swarms file writes one
 * message per call (its agents under their own names): there each model's message begins a turn. A response whose lines the
 * file interleaves with results (a parallel call answered before the next is written) is read as two turns until
 * the service says otherwise.
 */
export function groupTurns(skeleton: TurnSource, turnIds?: ArrayLike<number>): Turns {
  const n = skeleton.count;
  const turnOf = new Int32Array(n).fill(-1);
  const first: number[] = [];
  const last: number[] = [];
  if (turnIds) {
    let prev = -1;
    for (let i = 0; i < n; i++) {
      const id = turnIds[i] ?? -1;
      if (id < 0) {
        prev = -1;
        continue;
      }
      if (id !== prev) {
        first.push(i);
        last.push(i);
      }
      prev = id;
      turnOf[i] = first.length - 1;
      last[last.length - 1] = i;
    }
    return { turnOf, first, last };
  }
  const callsAt = new Map<number, string[]>();
  skeleton.toolCalls.at.forEach((at, k) => callsAt.set(at, skeleton.toolCalls.values[k]));
  const answersAt = new Map<number, string>();
  skeleton.toolResults.at.forEach((at, k) => answersAt.set(at, skeleton.toolResults.values[k]));
  // A sub-agent's messages written inline (a side chain) interleave with the main thread's: each goes on apart.
  const chains = [0, 1].map(() => ({ turn: -1, answering: false, open: new Set<string>() }));
  for (let i = 0; i < n; i++) {
    const f = skeleton.flags[i];
    const c = chains[f & FLAGS.sidechain ? 1 : 0];
    const role = skeleton.normalRoles[skeleton.roleOf[i]];
    const model = role === 'assistant' && !(f & (FLAGS.compaction | FLAGS.toolResult));
    if (model) {
      if (c.turn < 0 || c.answering || skeleton.swarms) {
        first.push(i);
        last.push(i);
        c.turn = first.length - 1;
        c.answering = false;
        c.open.clear();
      }
      for (const id of callsAt.get(i) ?? []) c.open.add(id);
      turnOf[i] = c.turn;
      last[c.turn] = i;
      continue;
    }
    const answer = answersAt.get(i);
    const result = (f & FLAGS.toolResult) !== 0 && !(f & FLAGS.compaction);
    if (c.turn >= 0 && result && (answer === undefined || c.open.has(answer))) {
      turnOf[i] = c.turn;
      last[c.turn] = i;
      c.answering = true;
      continue;
    }
    c.turn = -1;
    c.answering = false;
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
