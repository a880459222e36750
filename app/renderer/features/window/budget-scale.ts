/**
 * A slider over budgets from a few tokens to a whole 100 MB file: positions are logarithmic, so 8k, 32k and
 * 128k each get room on the track whatever the file's size, and every position reads as a round number.
 */
export const SLIDER_STEPS = 1000;
/** The smallest budget past 0 a position gives (a count's is 1). */
const LOW_TOKENS = 16;

/** Three significant figures: 8,190, 31,600, 1,250,000. */
function round3(x: number): number {
  if (x < 1000) return Math.round(x);
  const unit = 10 ** (Math.floor(Math.log10(x)) - 2);
  return Math.round(x / unit) * unit;
}

/** The budget at a slider position (0 is 0; the last position is `high`). */
export function budgetAt(position: number, high: number, low = LOW_TOKENS): number {
  if (position <= 0) return 0;
  const top = Math.max(low + 1, high);
  if (position >= SLIDER_STEPS) return Math.round(top);
  const t = (position - 1) / (SLIDER_STEPS - 1);
  return Math.max(1, round3(Math.exp(Math.log(low) + t * (Math.log(top) - Math.log(low)))));
}

/** The slider position that shows a budget (the nearest one; past `high` the end). */
export function positionOf(budget: number, high: number, low = LOW_TOKENS): number {
  if (budget <= 0) return 0;
  const top = Math.max(low + 1, high);
  if (budget >= top) return SLIDER_STEPS;
  if (budget <= low) return 1;
  return Math.min(SLIDER_STEPS, Math.max(1, Math.round(1 + ((Math.log(budget) - Math.log(low)) / (Math.log(top) - Math.log(low))) * (SLIDER_STEPS - 1))));
}

/** `[` and `]`: a budget a step smaller or larger on the same scale (a twentieth of the track). */
export function nudged(budget: number, high: number, up: boolean): number {
  const from = positionOf(budget, high);
  const to = Math.min(SLIDER_STEPS, Math.max(0, from + (up ? 1 : -1) * (SLIDER_STEPS / 20)));
  const next = budgetAt(to, high);
  // Always a move, even where the rounding makes two positions read alike.
  return next === budget ? Math.max(0, budget + (up ? 1 : -1)) : next;
}
