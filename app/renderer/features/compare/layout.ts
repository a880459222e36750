import type { CompareAnswer } from '../../../shared/contract.js';

type Row = CompareAnswer['rows'][number];

/** A line of the side-by-side view. */
export type Line =
  | { type: 'turn'; turn: number; key: string }
  | { type: 'pair'; kind: Row['kind'] | 'replaced'; left?: number; right?: number; row: number; words?: Row['words']; whitespaceOnly?: boolean; tokens: number; cost?: number; costEstimated?: boolean; key: string }
  | { type: 'fold'; run: number; from: number; to: number; turns: number; key: string };

/** Runs of rows the same on both sides longer than this are folded, their ends kept. */
export const FOLD_OVER = 6;
const KEEP = 2;

/**
 * The rows as lines to draw: each turn a header, each row a line, and in a turn the messages only one side has
 * side by side (the left's k-th beside the right's k-th: after a fork, the two ways' calls face each other).
 * Long runs of rows the same are folded (unless `open` holds their first row).
 */
export function layoutLines(a: CompareAnswer, open: ReadonlySet<number>): Line[] {
  const out: Line[] = [];
  const rows = a.rows;
  let k = 0;
  let turn = -1;
  while (k < rows.length) {
    const r = rows[k];
    if (r.kind === 'same') {
      let end = k;
      while (end < rows.length && rows[end].kind === 'same') end++;
      if (end - k > FOLD_OVER && !open.has(k)) {
        for (let x = k; x < k + KEEP; x++) turn = pushRow(out, rows, x, turn);
        const turns = new Set(rows.slice(k + KEEP, end - KEEP).map((x) => x.turn)).size;
        out.push({ type: 'fold', run: k, from: k + KEEP, to: end - KEEP, turns, key: `f${k}` });
        // The turn of the rows after a fold is said again.
        turn = -1;
        for (let x = end - KEEP; x < end; x++) turn = pushRow(out, rows, x, turn);
      } else for (let x = k; x < end; x++) turn = pushRow(out, rows, x, turn);
      k = end;
      continue;
    }
    if (r.kind === 'changed') {
      turn = pushRow(out, rows, k, turn);
      k++;
      continue;
    }
    // A run of rows only one side has, within one turn: the two sides' side by side.
    let end = k;
    while (end < rows.length && (rows[end].kind === 'only-left' || rows[end].kind === 'only-right') && rows[end].turn === r.turn) end++;
    if (r.turn !== turn) {
      out.push({ type: 'turn', turn: r.turn, key: `t${r.turn}` });
      turn = r.turn;
    }
    const lefts = rows.slice(k, end).map((x, i) => ({ x, i: k + i })).filter(({ x }) => x.left !== undefined);
    const rights = rows.slice(k, end).map((x, i) => ({ x, i: k + i })).filter(({ x }) => x.right !== undefined);
    for (let n = 0; n < Math.max(lefts.length, rights.length); n++) {
      const l = lefts[n];
      const rr = rights[n];
      const both = l !== undefined && rr !== undefined;
      const tokens = (l ? l.x.tokens : 0) + (rr ? rr.x.tokens : 0);
      const costs = [l?.x.cost, rr?.x.cost].filter((c): c is number => c !== undefined);
      out.push({
        type: 'pair',
        kind: both ? 'replaced' : l ? 'only-left' : 'only-right',
        left: l?.x.left,
        right: rr?.x.right,
        row: Math.min(l?.i ?? Infinity, rr?.i ?? Infinity),
        tokens,
        ...(costs.length ? { cost: costs.reduce((s, c) => s + c, 0) } : {}),
        ...(l?.x.costEstimated || rr?.x.costEstimated ? { costEstimated: true } : {}),
        key: `r${l?.i ?? 'x'}-${rr?.i ?? 'x'}`,
      });
    }
    k = end;
  }
  return out;
}

function pushRow(out: Line[], rows: CompareAnswer['rows'], k: number, turn: number): number {
  const r = rows[k];
  if (r.turn !== turn) out.push({ type: 'turn', turn: r.turn, key: `t${r.turn}` });
  out.push({ type: 'pair', kind: r.kind, left: r.left, right: r.right, row: k, words: r.words, whitespaceOnly: r.whitespaceOnly, tokens: r.tokens, cost: r.cost, costEstimated: r.costEstimated, key: `r${k}` });
  return r.turn;
}
