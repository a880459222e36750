/**
 * The largest value of a list of any length, or `floor` when it is empty or smaller. A loop, never
 * `Math.max(...values)`: spreading a history-sized array overflows the call stack past ~150k elements.
 */
export function maxOf(values: ArrayLike<number>, floor = -Infinity): number {
  let max = floor;
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  return max;
}
