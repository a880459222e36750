import { FATE_CODE } from '../../../../src/core/window/types.js';

/** What a strip's pixel shows: the messages it covers, by the most telling fate among them. */
export const STRIP = { empty: -1, kept: FATE_CODE.kept, dropped: FATE_CODE.dropped, cut: FATE_CODE.cut, summarised: FATE_CODE.summarised } as const;

// A cut shows over anything; kept over summarised over dropped: a kept message among dropped ones is never lost.
const RANK = [3, 0, 4, 1];

/**
 * `pixels` columns over `n` messages (the history's length), from the fates of the first `fates.length`:
 * each column the highest-ranked fate of its messages, or `empty` past the fates given (a turn's future).
 */
export function fateColumns(fates: ArrayLike<number>, n: number, pixels: number): Int8Array {
  const out = new Int8Array(Math.max(0, pixels)).fill(STRIP.empty);
  if (n === 0) return out;
  for (let p = 0; p < pixels; p++) {
    const from = Math.floor((p * n) / pixels);
    const to = Math.max(from + 1, Math.floor(((p + 1) * n) / pixels));
    let best = -1;
    for (let i = from; i < Math.min(to, fates.length); i++) if (best < 0 || RANK[fates[i]] > RANK[best]) best = fates[i];
    out[p] = best;
  }
  return out;
}

/** Where the kept part begins and ends: message indexes at which a kept run meets one that is not (at most `max`). */
export function keptEdges(fates: ArrayLike<number>, max = 24): number[] {
  const edges: number[] = [];
  const kept = (i: number) => fates[i] === FATE_CODE.kept || fates[i] === FATE_CODE.cut;
  for (let i = 1; i < fates.length && edges.length < max; i++) if (kept(i) !== kept(i - 1)) edges.push(i);
  return edges;
}

/** The message a click at `offset` of `size` pixels stands for. */
export const messageAtPixel = (offset: number, size: number, n: number): number => Math.max(0, Math.min(n - 1, Math.floor((offset / Math.max(1, size)) * n)));
