/** A line of the compare lanes: one message, or a run of messages every lane treats alike, folded. */
export type LaneItem = { kind: 'message'; index: number; differs: boolean } | { kind: 'run'; start: number; end: number; fate: number };

/** Runs shorter than this stay as rows: folding two rows saves nothing. */
export const MIN_FOLDED_RUN = 4;

/**
 * The lanes' lines: messages where the lanes disagree one by one, and runs of at least MIN_FOLDED_RUN
 * messages they agree on folded into one line ("412 rows agree"), unless that run is unfolded (by its start).
 */
export function laneItems(fates: readonly ArrayLike<number>[], n: number, unfolded: ReadonlySet<number> = new Set(), minRun = MIN_FOLDED_RUN): LaneItem[] {
  const items: LaneItem[] = [];
  const agrees = (i: number) => fates.every((f) => f[i] === fates[0][i]);
  let i = 0;
  while (i < n) {
    if (!agrees(i)) {
      items.push({ kind: 'message', index: i, differs: true });
      i++;
      continue;
    }
    // A run: agreeing messages with one fate (a change of fate that all lanes share still ends it).
    const fate = fates.length ? fates[0][i] : 0;
    let end = i + 1;
    while (end < n && agrees(end) && (fates.length === 0 || fates[0][end] === fate)) end++;
    if (end - i >= minRun && !unfolded.has(i)) items.push({ kind: 'run', start: i, end, fate });
    else for (let k = i; k < end; k++) items.push({ kind: 'message', index: k, differs: false });
    i = end;
  }
  return items;
}

/** Where each difference begins: the items that differ and follow one that does not (or start the list). */
export function differenceStarts(items: readonly LaneItem[]): number[] {
  const out: number[] = [];
  items.forEach((item, k) => {
    const differs = item.kind === 'message' && item.differs;
    const before = items[k - 1];
    if (differs && !(before && before.kind === 'message' && before.differs)) out.push(k);
  });
  return out;
}

/** The next (or previous) difference from item `from`; wraps around; undefined when nothing differs. */
export function nextDifference(starts: readonly number[], from: number, step: 1 | -1): number | undefined {
  if (starts.length === 0) return undefined;
  if (step === 1) return starts.find((k) => k > from) ?? starts[0];
  for (let j = starts.length - 1; j >= 0; j--) if (starts[j] < from) return starts[j];
  return starts[starts.length - 1];
}
