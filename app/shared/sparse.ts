/**
 * A sparse column of a skeleton: values for a few message indexes, as two dense arrays (`at` ascending).
 * Objects keyed by large integers are slow to build and copy in V8 (about 4 µs a key); these splice in
 * microseconds at 200k messages.
 */
export interface Sparse<T> {
  at: number[];
  values: T[];
}

export function emptySparse<T>(): Sparse<T> {
  return { at: [], values: [] };
}

/** The first position in `at` whose index is ≥ i. */
function lowerBound(at: readonly number[], i: number): number {
  let lo = 0;
  let hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at[mid] < i) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function sparseGet<T>(s: Sparse<T>, i: number): T | undefined {
  const k = lowerBound(s.at, i);
  return s.at[k] === i ? s.values[k] : undefined;
}

/** From values by index (tests, and code that builds a column out of order). */
export function sparseFrom<T>(byIndex: Record<number, T>): Sparse<T> {
  const at = Object.keys(byIndex)
    .map(Number)
    .sort((a, b) => a - b);
  return { at, values: at.map((i) => byIndex[i]) };
}

export function sparseRecord<T>(s: Sparse<T>): Record<number, T> {
  const out: Record<number, T> = {};
  s.at.forEach((i, k) => (out[i] = s.values[k]));
  return out;
}

/** The column with the rows [start, start + deleteCount) replaced by `insert` (undefined: no value). */
export function splicedSparse<T>(s: Sparse<T>, start: number, deleteCount: number, insert: ReadonlyArray<T | undefined>): Sparse<T> {
  const shift = insert.length - deleteCount;
  const from = lowerBound(s.at, start);
  const to = lowerBound(s.at, start + deleteCount);
  const midAt: number[] = [];
  const midValues: T[] = [];
  insert.forEach((v, j) => {
    if (v === undefined) return;
    midAt.push(start + j);
    midValues.push(v);
  });
  const tailAt = shift === 0 ? s.at.slice(to) : s.at.slice(to).map((i) => i + shift);
  return { at: s.at.slice(0, from).concat(midAt, tailAt), values: s.values.slice(0, from).concat(midValues, s.values.slice(to)) };
}
