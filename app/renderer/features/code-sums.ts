/**
 * A column's sums by a dictionary-coded column (role, category), with their names: every name of the
 * dictionary is some message's; `none` names the messages coded -1, last, when there are any.
 */
export function sumsByCode(of: ArrayLike<number>, names: readonly string[], column: ArrayLike<number>, none?: string): Array<[string, number]> {
  const sums = columnByCode(of, names, column, none);
  return sums.map((sum, k) => [k < names.length ? names[k] : none!, sum]);
}

/**
 * Sums of one column by a dictionary-coded column in one pass over typed arrays, nothing allocated per message
 * (the plan charts redo it on every slider step): a sum per name, then the coded -1's when `none` is given and
 * there are any.
 */
export function columnByCode(of: ArrayLike<number>, names: readonly string[], column: ArrayLike<number>, none?: string): number[] {
  const sums = new Float64Array(names.length + 1);
  const last = names.length;
  let unnamed = 0;
  for (let i = 0; i < of.length; i++) {
    const k = of[i];
    if (k < 0) {
      sums[last] += column[i];
      unnamed++;
    } else sums[k] += column[i];
  }
  const out = Array.from(sums.subarray(0, last));
  if (unnamed > 0 && none !== undefined) out.push(sums[last]);
  return out;
}
