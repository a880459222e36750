import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetAt, nudged, positionOf, SLIDER_STEPS } from '../../app/renderer/features/window/budget-scale.js';

describe('the budget slider\'s logarithmic scale', () => {
  it('runs from 0 to the total, in order; every position reads as three significant figures', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 50_000_000 }), (high) => {
        let last = -1;
        for (let p = 0; p <= SLIDER_STEPS; p++) {
          const b = budgetAt(p, high);
          expect(b).toBeGreaterThanOrEqual(last);
          last = b;
          if (p > 0 && p < SLIDER_STEPS && b >= 1000) expect(Number(b.toPrecision(3))).toBe(b);
        }
        expect(budgetAt(0, high)).toBe(0);
        expect(budgetAt(SLIDER_STEPS, high)).toBe(high);
      }),
      { numRuns: 40 },
    );
  });

  it('a position shows the budget nearest it: a budget set in the box puts the thumb where the slider would give it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 50_000_000 }), fc.integer({ min: 1, max: SLIDER_STEPS }), (high, p) => {
        const b = budgetAt(p, high);
        // Where positions round to the same budget the thumb may stand on any of them: it reads that budget.
        const shown = budgetAt(positionOf(b, high), high);
        expect(Math.abs(shown - b) / b).toBeLessThanOrEqual(0.01);
      }),
    );
  });

  it('on a file of 38 million tokens, 8k, 32k and 128k each stand apart on the track', () => {
    const high = 38_517_368;
    const [a, b, c] = [8192, 32_768, 131_072].map((x) => positionOf(x, high));
    expect(a).toBeGreaterThan(300);
    expect(b - a).toBeGreaterThan(80);
    expect(c - b).toBeGreaterThan(80);
  });

  it('a nudge always moves, and up then down comes back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 50_000_000 }), fc.integer({ min: 60, max: SLIDER_STEPS - 60 }), (high, p) => {
        // Away from the ends, where a step is clamped to 0 or to the total.
        const b = budgetAt(p, high);
        const up = nudged(b, high, true);
        expect(up).toBeGreaterThan(b);
        // Back to the same budget, but for the rounding that makes neighbouring positions read alike.
        const back = nudged(up, high, false);
        expect(Math.abs(back - b)).toBeLessThanOrEqual(Math.max(1, b * 0.01));
      }),
      { numRuns: 500 },
    );
  });
});
