import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { differenceStarts, laneItems, MIN_FOLDED_RUN, nextDifference } from '../../app/renderer/features/window/lane-rows.js';

const lanes = fc.integer({ min: 1, max: 4 }).chain((k) => fc.integer({ min: 0, max: 300 }).chain((n) => fc.array(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }), { minLength: k, maxLength: k }).map((f) => ({ n, fates: f.map((a) => Uint8Array.from(a)) }))));

describe('compare lanes: identical runs folded', () => {
  it('covers every message once, in order; folds exactly the agreeing runs of one fate that are long enough', () => {
    fc.assert(
      fc.property(lanes, fc.array(fc.integer({ min: 0, max: 300 })), ({ n, fates }, open) => {
        const unfolded = new Set(open);
        const items = laneItems(fates, n, unfolded);
        const covered: number[] = [];
        for (const it of items) {
          if (it.kind === 'message') {
            covered.push(it.index);
            expect(it.differs).toBe(fates.some((f) => f[it.index] !== fates[0][it.index]));
          } else {
            expect(it.end - it.start).toBeGreaterThanOrEqual(MIN_FOLDED_RUN);
            expect(unfolded.has(it.start)).toBe(false);
            for (let i = it.start; i < it.end; i++) {
              covered.push(i);
              for (const f of fates) expect(f[i]).toBe(it.fate);
            }
            // Maximal: the messages either side do not continue the run.
            for (const edge of [it.start - 1, it.end]) if (edge >= 0 && edge < n) expect(fates.every((f) => f[edge] === it.fate)).toBe(false);
          }
        }
        expect(covered).toEqual(Array.from({ length: n }, (_, i) => i));
        // No two agreeing messages of the same fate stand as rows in a run long enough to fold, unless it was unfolded.
        let run = 0;
        for (let k = 0; k <= items.length; k++) {
          const it = items[k];
          const prev = items[k - 1];
          const same = it?.kind === 'message' && !it.differs && prev?.kind === 'message' && !prev.differs && fates[0][it.index] === fates[0][prev.index];
          if (it?.kind === 'message' && !it.differs) run = same ? run + 1 : 1;
          else {
            if (run >= MIN_FOLDED_RUN) {
              const startIndex = (items[k - run] as { index: number }).index;
              expect(unfolded.has(startIndex)).toBe(true);
            }
            run = 0;
          }
        }
      }),
    );
  });

  it('steps from difference to difference, both ways, wrapping', () => {
    const a = Uint8Array.from([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0]);
    const b = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const items = laneItems([a, b], a.length);
    expect(items.map((it) => (it.kind === 'run' ? `run ${it.start}-${it.end}` : `${it.index}${it.differs ? '!' : ''}`))).toEqual(['run 0-5', '5!', '6!', 'run 7-12', '12!', 'run 13-17']);
    const starts = differenceStarts(items);
    expect(starts).toEqual([1, 4]);
    expect(nextDifference(starts, -1, 1)).toBe(1);
    expect(nextDifference(starts, 1, 1)).toBe(4);
    expect(nextDifference(starts, 4, 1)).toBe(1);
    expect(nextDifference(starts, 1, -1)).toBe(4);
    expect(nextDifference([], 0, 1)).toBeUndefined();
    // Unfolded, the run's rows come back one by one.
    expect(laneItems([a, b], a.length, new Set([7])).filter((it) => it.kind === 'message' && !it.differs).map((it) => (it as { index: number }).index)).toEqual([7, 8, 9, 10, 11]);
  });
});
