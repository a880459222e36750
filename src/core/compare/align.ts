import { diffArrays } from 'diff';
import { longestIncreasing } from '../util/longest-increasing.js';

/** A run of items the two sequences share: `a[a .. a+length)` is `b[b .. b+length)`. */
export interface Run {
  a: number;
  b: number;
  length: number;
}

/**
 * Past this many items left to align once the common ends and the items only one side has are set aside, the
 * sequences are cut at the items each holds once (patience diff) and each piece aligned on its own: Myers' diff
 * costs the length times the differences, which two 10,000-message sessions in another order make minutes.
 */
const EXACT_LIMIT = 4000;

/**
 * The longest run of items the two sequences share, in order (a diff's common part), as runs. Items are
 * compared as numbers (keys the caller made of its items). Exact (Myers, through jsdiff's diffArrays) up to
 * EXACT_LIMIT items left to align, patience diff past it.
 */
export function alignSequences(a: ArrayLike<number>, b: ArrayLike<number>): Run[] {
  const pairs: Array<[number, number]> = [];
  const n = a.length;
  const m = b.length;
  let head = 0;
  while (head < n && head < m && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < n - head && tail < m - head && a[n - 1 - tail] === b[m - 1 - tail]) tail++;
  // Only items both sides hold can be matched: the others are set aside, which makes two different sessions cheap.
  const inB = new Map<number, number>();
  for (let j = head; j < m - tail; j++) inB.set(b[j], (inB.get(b[j]) ?? 0) + 1);
  const inA = new Map<number, number>();
  for (let i = head; i < n - tail; i++) inA.set(a[i], (inA.get(a[i]) ?? 0) + 1);
  const ra: number[] = [];
  const rb: number[] = [];
  for (let i = head; i < n - tail; i++) if (inB.has(a[i])) ra.push(i);
  for (let j = head; j < m - tail; j++) if (inA.has(b[j])) rb.push(j);
  const matched: Array<[number, number]> = [];
  alignReduced(a, b, ra, rb, inA, inB, matched);
  for (let k = 0; k < head; k++) pairs.push([k, k]);
  for (const p of matched) pairs.push(p);
  for (let k = tail; k > 0; k--) pairs.push([n - k, m - k]);
  return runsOf(pairs);
}

/** Aligns the items at positions `ra` of `a` and `rb` of `b`, adding each matched pair to `out`, in order. */
function alignReduced(a: ArrayLike<number>, b: ArrayLike<number>, ra: readonly number[], rb: readonly number[], inA: ReadonlyMap<number, number>, inB: ReadonlyMap<number, number>, out: Array<[number, number]>): void {
  if (ra.length === 0 || rb.length === 0) return;
  if (ra.length + rb.length <= EXACT_LIMIT) {
    myers(a, b, ra, rb, out);
    return;
  }
  // Anchors: items each side holds exactly once, in an order both agree on (the longest such run).
  const whereInB = new Map<number, number>();
  for (let k = 0; k < rb.length; k++) if (inB.get(b[rb[k]]) === 1 && inA.get(b[rb[k]]) === 1) whereInB.set(b[rb[k]], k);
  const candidates: Array<[number, number]> = [];
  for (let k = 0; k < ra.length; k++) {
    const at = whereInB.get(a[ra[k]]);
    if (at !== undefined) candidates.push([k, at]);
  }
  const keep = longestIncreasing(candidates.map((c) => c[1]));
  const anchors = candidates.filter((_, k) => keep.has(k));
  if (anchors.length === 0) {
    // No anchor to cut at (every item repeated): Myers on the whole, as slow as it must be.
    myers(a, b, ra, rb, out);
    return;
  }
  let fromA = 0;
  let fromB = 0;
  for (const [ka, kb] of [...anchors, [ra.length, rb.length] as [number, number]]) {
    const ga = ra.slice(fromA, ka);
    const gb = rb.slice(fromB, kb);
    if (ga.length > 0 && gb.length > 0) alignReduced(a, b, ga, gb, countsOf(a, ga), countsOf(b, gb), out);
    if (ka < ra.length) out.push([ra[ka], rb[kb]]);
    fromA = ka + 1;
    fromB = kb + 1;
  }
}

/** The common items of `a` at `ra` and `b` at `rb`, by Myers' diff (jsdiff), added to `out` as pairs. */
function myers(a: ArrayLike<number>, b: ArrayLike<number>, ra: readonly number[], rb: readonly number[], out: Array<[number, number]>): void {
  let i = 0;
  let j = 0;
  for (const change of diffArrays(ra.map((k) => a[k]), rb.map((k) => b[k]))) {
    const count = change.count ?? change.value.length;
    if (change.added) j += count;
    else if (change.removed) i += count;
    else {
      for (let k = 0; k < count; k++) out.push([ra[i + k], rb[j + k]]);
      i += count;
      j += count;
    }
  }
}

function countsOf(s: ArrayLike<number>, at: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const i of at) out.set(s[i], (out.get(s[i]) ?? 0) + 1);
  return out;
}

function runsOf(pairs: ReadonlyArray<[number, number]>): Run[] {
  const runs: Run[] = [];
  for (const [i, j] of pairs) {
    const last = runs[runs.length - 1];
    if (last && last.a + last.length === i && last.b + last.length === j) last.length++;
    else runs.push({ a: i, b: j, length: 1 });
  }
  return runs;
}

/** Interns values as small numbers: equal values get the same key, so sequences of them can be aligned. */
export class Keys<T> {
  private readonly ids = new Map<T, number>();
  of(value: T): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(value, id);
    }
    return id;
  }
}
