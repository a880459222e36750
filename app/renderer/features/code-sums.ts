/**
 * Sums of some per-message columns by a dictionary-coded column (role, category), in typed arrays: one pass,
 * nothing allocated per message (the summary and the plan charts redo it on every edit and slider step).
 * Every name of the dictionary is some message's; `none` names the messages coded -1, when there are any.
 */
export function sumsByCode(of: readonly number[], names: readonly string[], columns: ReadonlyArray<ArrayLike<number>>, none?: string): Array<[string, number[]]> {
  const size = names.length + 1;
  const sums = columns.map(() => new Float64Array(size));
  let unnamed = 0;
  for (let i = 0; i < of.length; i++) {
    let k = of[i];
    if (k < 0) {
      k = names.length;
      unnamed++;
    }
    for (let c = 0; c < columns.length; c++) sums[c][k] += columns[c][i];
  }
  const rows: Array<[string, number[]]> = names.map((name, k) => [name, sums.map((s) => s[k])]);
  if (unnamed > 0 && none !== undefined) rows.push([none, sums.map((s) => s[names.length])]);
  return rows;
}

/**
 * Sums of one column by a dictionary-coded column, in the order of `sumsByCode`'s rows (the coded -1 last,
 * when `none` is given and there are any): the part of the plan charts that a slider step changes.
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
