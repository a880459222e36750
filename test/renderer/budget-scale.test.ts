import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetAt, nudged, positionOf, SLIDER_STEPS, stepped } from '../../app/renderer/features/window/budget-scale.js';

describe('the budget slider\'s logarithmic scale', () => {
  it('runs from 0 to the total, in order; every position reads as three significant figures', () => {
    // Besides any total, those just below a budget people set or a round figure (a track to 497,627 read 500,000 one step before its end).
    const nearRound = fc.constantFrom(497_627, 4_099, 8_150, 126_500, 199_000, 995_000, 1_980_000, 99_950);
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 100, max: 50_000_000 }), nearRound), (high) => {
        let last = -1;
        for (let p = 0; p <= SLIDER_STEPS; p++) {
          const b = budgetAt(p, high);
          expect(b).toBeGreaterThanOrEqual(last);
          last = b;
          // Three significant figures, or a budget people set (8,192, 32,768, 128,000).
          if (p > 0 && p < SLIDER_STEPS && b >= 1000 && ![4096, 8192, 16_384, 32_768, 65_536].includes(b)) expect(Number(b.toPrecision(3))).toBe(b);
        }
        expect(budgetAt(0, high)).toBe(0);
        expect(budgetAt(SLIDER_STEPS, high)).toBe(high);
      }),
      { numRuns: 60 },
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
        // (or a budget people set, snapped to within 1.5 %, on either side)
        expect(Math.abs(back - b)).toBeLessThanOrEqual(Math.max(1, b * 0.035));
      }),
      { numRuns: 500 },
    );
  });

  it('the budgets people set are on the track, and [ then ] from one comes back to it', () => {
    for (const high of [38_517_368, 2_000_000, 300_000]) {
      const on = new Set(Array.from({ length: SLIDER_STEPS + 1 }, (_, p) => budgetAt(p, high)));
      for (const b of [4096, 8192, 32_768, 128_000, 200_000].filter((x) => x < high)) {
        expect(on.has(b), `${b} on a track to ${high}`).toBe(true);
        // Away from the end of the track, where a step up is clamped.
        if (positionOf(b, high) + SLIDER_STEPS / 20 < SLIDER_STEPS) expect(nudged(nudged(b, high, true), high, false)).toBe(b);
      }
    }
  });

  it('an arrow key always changes the budget, at the low end too, until the track ends', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 50_000_000 }), fc.integer({ min: 0, max: SLIDER_STEPS }), fc.constantFrom(1, -1), (high, p, dir) => {
        const b = budgetAt(p, high);
        const next = stepped(b, high, dir);
        const atEnd = (dir > 0 && b >= high) || (dir < 0 && b === 0);
        if (atEnd) expect(next).toBe(b);
        else expect(dir > 0 ? next > b : next < b).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
