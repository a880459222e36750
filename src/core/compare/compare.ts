import { alignSequences, Keys } from './align.js';
import { bagSimilarity, wordBag, wordDiff, type Range } from './words.js';

/** One message of a side, as the comparison sees it. */
export interface CompareMessage {
  /** As the file spells it, and normalised (messages are matched by the normalised role). */
  role: string;
  normalRole: string;
  /** What is compared: the message's text, tool calls and results (reasoning marked; see compareText). */
  text: string;
  /** Its tokens, counted by the caller (one tokenizer for both sides). */
  tokens: number;
  /** What its model call cost at list prices: on a reply of the model (see compareSide). */
  cost?: number;
  /** The cost is estimated from the tokens counted here: the file reports no usage for the call. */
  costEstimated?: boolean;
  /** A prompt of the user's (not a tool result, nothing the tool wrote). */
  prompt: boolean;
  /** Where it is in what the side shows (its first line), and how many lines it is (a response's lines are one message). */
  at?: number;
  lines?: number;
  /** The file's id of its first line. */
  id?: string;
}

export type RowKind = 'same' | 'changed' | 'only-left' | 'only-right';

export interface CompareRow {
  kind: RowKind;
  /** The message's position on each side (absent on the side that has none). */
  left?: number;
  right?: number;
  /** The turn the row is in (see Comparison.turns). */
  turn: number;
  /** Right's tokens less left's (a side without the message counts 0). */
  tokens: number;
  /** Right's cost less left's, where either side's message carries a cost. */
  cost?: number;
  /** Either cost is an estimate. */
  costEstimated?: boolean;
  /** For a changed row: the words that differ, as ranges of each side's text (see wordDiff). */
  words?: { left: Range[]; right: Range[] };
  /** A changed row whose texts differ in white space only. */
  whitespaceOnly?: boolean;
}

export interface SideFigures {
  messages: number;
  tokens: number;
  /** The sum of the messages' costs, where any has one. */
  cost?: number;
  /** Some of the cost is estimated (calls the file reports no usage for). */
  costEstimated?: boolean;
}

/**
 * A turn: one call of the model, what was sent since the last reply (a prompt, tool results) and the reply
 * (on either side); what follows the last reply is a turn of its own.
 */
export interface TurnFigures {
  /** Its rows, [start, end). */
  start: number;
  end: number;
  left: SideFigures;
  right: SideFigures;
  /** Whether any of its rows is not the same on both sides. */
  differs: boolean;
}

export interface Comparison {
  rows: CompareRow[];
  turns: TurnFigures[];
  /** Where each run of differing rows begins, a turn's run apart from the next turn's (a row index): what "next difference" steps through. */
  differences: number[];
  counts: Record<RowKind, number>;
  left: SideFigures;
  right: SideFigures;
  /** Right's figures less left's. */
  delta: { messages: number; tokens: number; cost?: number; costEstimated?: boolean };
}

export interface CompareOptions {
  /** Work out the changed words of each changed row (true); the app asks for them a page at a time instead. */
  words?: boolean;
}

/**
 * How alike two messages of one role must be to be one message changed rather than one taken away and
 * another put in its place (see similarity): half their words in common.
 */
export const CHANGED_SIMILARITY = 0.5;
/** A block of this many pairs at most is paired exactly; a bigger one looks this far ahead for each message. */
const EXACT_PAIRING = 40_000;
const LOOK_AHEAD = 64;

/**
 * Two sessions (or two branches of one) side by side: the messages both have, in order (the same role and
 * text), and between those, each message of one side paired with the one of the other that it was edited into
 * (same role, most words in common) as a changed row, the rest only on their side. Each row carries the token
 * and cost difference; turns (from each prompt of the user's) and the whole carry their sums.
 */
export function compareSessions(left: readonly CompareMessage[], right: readonly CompareMessage[], options: CompareOptions = {}): Comparison {
  const keys = new Keys<string>();
  const key = (m: CompareMessage) => keys.of(`${m.normalRole}\u0000${m.text}`);
  const runs = alignSequences(left.map(key), right.map(key));
  const rows: CompareRow[] = [];
  const sameTurn = new Set<number>();
  let i = 0;
  let j = 0;
  const same = (a: number, b: number) => rows.push(row('same', left, right, a, b));
  for (const run of [...runs, { a: left.length, b: right.length, length: 0 }]) {
    pairBlock(left, right, i, run.a, j, run.b, rows, sameTurn, options.words !== false);
    for (let k = 0; k < run.length; k++) same(run.a + k, run.b + k);
    i = run.a + run.length;
    j = run.b + run.length;
  }
  return summarise(rows, left, right, sameTurn);
}

function row(kind: RowKind, left: readonly CompareMessage[], right: readonly CompareMessage[], a: number | undefined, b: number | undefined): CompareRow {
  const l = a === undefined ? undefined : left[a];
  const r = b === undefined ? undefined : right[b];
  const out: CompareRow = { kind, turn: 0, tokens: (r?.tokens ?? 0) - (l?.tokens ?? 0) };
  if (a !== undefined) out.left = a;
  if (b !== undefined) out.right = b;
  if (l?.cost !== undefined || r?.cost !== undefined) out.cost = (r?.cost ?? 0) - (l?.cost ?? 0);
  if (l?.costEstimated || r?.costEstimated) out.costEstimated = true;
  return out;
}

/**
 * The rows of a block where the sides differ (left [i0, i1), right [j0, j1)): pairs of one role alike enough
 * in order, as changed rows; between them each side's other messages call by call, the left's k-th call then
 * the right's k-th, one turn (`sameTurn` gets the rows that go on with the turn before them): after a fork the
 * two ways' first calls are side by side, not one way's whole then the other's.
 */
function pairBlock(left: readonly CompareMessage[], right: readonly CompareMessage[], i0: number, i1: number, j0: number, j1: number, rows: CompareRow[], sameTurn: Set<number>, words: boolean): void {
  const k = i1 - i0;
  const m = j1 - j0;
  if (k === 0 && m === 0) return;
  const pairs = k === 0 || m === 0 ? [] : k * m <= EXACT_PAIRING ? pairExactly(left, right, i0, i1, j0, j1) : pairAhead(left, right, i0, i1, j0, j1);
  let i = i0;
  let j = j0;
  for (const [a, b] of [...pairs, [i1, j1] as [number, number]]) {
    const lc = callsIn(left, i, a);
    const rc = callsIn(right, j, b);
    for (let k = 0; k < Math.max(lc.length, rc.length); k++) {
      for (let x = lc[k]?.[0] ?? 0; x < (lc[k]?.[1] ?? 0); x++) rows.push(row('only-left', left, right, x, undefined));
      if (k < lc.length && k < rc.length) sameTurn.add(rows.length);
      for (let y = rc[k]?.[0] ?? 0; y < (rc[k]?.[1] ?? 0); y++) rows.push(row('only-right', left, right, undefined, y));
    }
    i = a;
    j = b;
    if (a === i1) break;
    const changed = row('changed', left, right, a, b);
    if (words) Object.assign(changed, wordsOf(left[a].text, right[b].text));
    rows.push(changed);
    i = a + 1;
    j = b + 1;
  }
}

/** A side's messages [from, to) as calls: what was sent, then the reply ([from, to) pieces; the first may be a reply alone). */
function callsIn(side: readonly CompareMessage[], from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let x = from; x < to; x++) {
    const last = out[out.length - 1];
    const starts = !last || (side[x - 1].normalRole === 'assistant' && side[x].normalRole !== 'assistant');
    if (starts) out.push([x, x + 1]);
    else last[1] = x + 1;
  }
  return out;
}

/** A changed row's words, and whether only white space differs. */
export function wordsOf(left: string, right: string): Pick<CompareRow, 'words' | 'whitespaceOnly'> {
  const d = wordDiff(left, right);
  return { words: { left: d.left, right: d.right }, ...(d.whitespaceOnly ? { whitespaceOnly: true } : {}) };
}

type Bags = Map<number, Map<string, number>>;
const bagAt = (bags: Bags, side: readonly CompareMessage[], i: number, tag: number) => {
  let bag = bags.get(i * 2 + tag);
  if (!bag) bags.set(i * 2 + tag, (bag = wordBag(side[i].text)));
  return bag;
};

/** How alike left[a] and right[b] are, 0 when their roles differ or they are too little alike to pair. */
function alike(left: readonly CompareMessage[], right: readonly CompareMessage[], a: number, b: number, bags: Bags): number {
  if (left[a].normalRole !== right[b].normalRole) return 0;
  const s = bagSimilarity(bagAt(bags, left, a, 0), bagAt(bags, right, b, 1));
  return s >= CHANGED_SIMILARITY ? s : 0;
}

/** The order-keeping pairing with the most pairs (then the most alike): a table of the block's pairs. */
function pairExactly(left: readonly CompareMessage[], right: readonly CompareMessage[], i0: number, i1: number, j0: number, j1: number): Array<[number, number]> {
  const k = i1 - i0;
  const m = j1 - j0;
  const bags: Bags = new Map();
  // score[x][y]: the best pairing of the first x left and first y right messages of the block (pairs, then likeness).
  const pairsAt = new Float64Array((k + 1) * (m + 1));
  const at = (x: number, y: number) => x * (m + 1) + y;
  const sim = new Float64Array(k * m);
  for (let x = 1; x <= k; x++) {
    for (let y = 1; y <= m; y++) {
      const s = alike(left, right, i0 + x - 1, j0 + y - 1, bags);
      sim[(x - 1) * m + (y - 1)] = s;
      // A pair is worth one, and its likeness breaks ties between pairings of as many pairs.
      const take = s > 0 ? pairsAt[at(x - 1, y - 1)] + 1 + s / (k + m + 1) : -1;
      pairsAt[at(x, y)] = Math.max(take, pairsAt[at(x - 1, y)], pairsAt[at(x, y - 1)]);
    }
  }
  const out: Array<[number, number]> = [];
  let x = k;
  let y = m;
  while (x > 0 && y > 0) {
    const s = sim[(x - 1) * m + (y - 1)];
    if (s > 0 && pairsAt[at(x, y)] === pairsAt[at(x - 1, y - 1)] + 1 + s / (k + m + 1)) {
      out.push([i0 + x - 1, j0 + y - 1]);
      x--;
      y--;
    } else if (pairsAt[at(x, y)] === pairsAt[at(x - 1, y)]) x--;
    else y--;
  }
  return out.reverse();
}

/** A big block: each left message, in order, paired with the first message of its role alike enough a little further on. */
function pairAhead(left: readonly CompareMessage[], right: readonly CompareMessage[], i0: number, i1: number, j0: number, j1: number): Array<[number, number]> {
  const bags: Bags = new Map();
  const out: Array<[number, number]> = [];
  let from = j0;
  for (let a = i0; a < i1 && from < j1; a++) {
    for (let b = from; b < Math.min(j1, from + LOOK_AHEAD); b++) {
      if (alike(left, right, a, b, bags) > 0) {
        out.push([a, b]);
        from = b + 1;
        break;
      }
    }
  }
  return out;
}

const addCost = (x: number | undefined, y: number | undefined) => (x === undefined ? y : y === undefined ? x : x + y);

function addTo(f: SideFigures, m: CompareMessage | undefined): void {
  if (!m) return;
  f.messages++;
  f.tokens += m.tokens;
  const cost = addCost(f.cost, m.cost);
  if (cost !== undefined) f.cost = cost;
  if (m.costEstimated) f.costEstimated = true;
}

function figures(side: readonly CompareMessage[]): SideFigures {
  const f: SideFigures = { messages: 0, tokens: 0 };
  for (const m of side) addTo(f, m);
  return f;
}

/** Turns, differences and totals of the rows. */
function summarise(rows: CompareRow[], left: readonly CompareMessage[], right: readonly CompareMessage[], sameTurn: ReadonlySet<number>): Comparison {
  const counts: Record<RowKind, number> = { same: 0, changed: 0, 'only-left': 0, 'only-right': 0 };
  const differences: number[] = [];
  const turns: TurnFigures[] = [];
  const blank = (): SideFigures => ({ messages: 0, tokens: 0 });
  let turn: TurnFigures | undefined;
  rows.forEach((r, k) => {
    counts[r.kind]++;
    const reply = (x: CompareRow | undefined) => x !== undefined && roleOf(x, left, right) === 'assistant';
    // A reply of the model ends its turn: what comes after it was sent in the next call.
    if (!turn || (reply(rows[k - 1]) && !reply(r) && !sameTurn.has(k))) {
      turn = { start: k, end: k, left: blank(), right: blank(), differs: false };
      turns.push(turn);
    }
    turn.end = k + 1;
    if (r.kind !== 'same') turn.differs = true;
    r.turn = turns.length - 1;
    // A difference is a run of rows that differ within a turn: the next one is in this turn or a later one.
    if (r.kind !== 'same' && (k === 0 || rows[k - 1].kind === 'same' || rows[k - 1].turn !== r.turn)) differences.push(k);
    addTo(turn.left, r.left === undefined ? undefined : left[r.left]);
    addTo(turn.right, r.right === undefined ? undefined : right[r.right]);
  });
  const l = figures(left);
  const r = figures(right);
  const cost = l.cost !== undefined || r.cost !== undefined ? (r.cost ?? 0) - (l.cost ?? 0) : undefined;
  const estimated = l.costEstimated || r.costEstimated ? { costEstimated: true } : {};
  return { rows, turns, differences, counts, left: l, right: r, delta: { messages: r.messages - l.messages, tokens: r.tokens - l.tokens, ...(cost !== undefined ? { cost, ...estimated } : {}) } };
}

const roleOf = (r: CompareRow, left: readonly CompareMessage[], right: readonly CompareMessage[]) => (r.left !== undefined ? left[r.left] : right[r.right!]).normalRole;
