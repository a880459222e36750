/**
 * A slider over budgets from a few tokens to a whole 100 MB file: positions are logarithmic, so 8k, 32k and
 * 128k each get room on the track whatever the file's size, and every position reads as a round number.
 */
export const SLIDER_STEPS = 1000;
/**
 * Where a budget's track ends for a plan of this total: a quarter past it, so that its end sends everything even
 * under auto-compact, which acts at 80–95% of its window (a window of the total alone still compacts).
 */
export const budgetHigh = (total: number): number => Math.max(100, Math.ceil(total * 1.25));

/** The smallest budget past 0 a position gives (a count's is 1). */
const LOW_TOKENS = 16;

/** Three significant figures: 8,190, 31,600, 1,250,000. */
function round3(x: number): number {
  if (x < 1000) return Math.round(x);
  const unit = 10 ** (Math.floor(Math.log10(x)) - 2);
  return Math.round(x / unit) * unit;
}

/** Budgets people set (model windows, round figures): a position this close to one reads as it. */
const COMMON = [1000, 2000, 4096, 5000, 8192, 10_000, 16_384, 20_000, 32_768, 50_000, 65_536, 100_000, 128_000, 200_000, 400_000, 500_000, 1_000_000, 2_000_000];
const SNAP = 0.015;

function snapped(x: number): number {
  for (const c of COMMON) if (Math.abs(x - c) <= c * SNAP) return c;
  return round3(x);
}

/**
 * The largest round budget not past `top`: what a position near the track's end reads when rounding or a budget
 * people set would take it past the end (a track to 497,627 read 500,000 one step before it).
 */
function roundAtMost(top: number): number {
  const unit = top < 1000 ? 1 : 10 ** (Math.floor(Math.log10(top)) - 2);
  const common = COMMON.filter((c) => c <= top);
  return Math.max(Math.floor(top / unit) * unit, common.length ? common[common.length - 1] : 0);
}

/** The budget at a slider position (0 is 0; the last position is `high`). */
export function budgetAt(position: number, high: number, low = LOW_TOKENS): number {
  if (position <= 0) return 0;
  const top = Math.max(low + 1, high);
  if (position >= SLIDER_STEPS) return Math.round(top);
  const t = (position - 1) / (SLIDER_STEPS - 1);
  const raw = Math.exp(Math.log(low) + t * (Math.log(top) - Math.log(low)));
  // A count's scale (low 1) is whole numbers only; a budget's snaps to the budgets people set.
  if (low !== LOW_TOKENS) return Math.max(1, Math.round(raw));
  const b = snapped(raw);
  return Math.max(1, b > top ? roundAtMost(top) : b);
}

/** The slider position that shows a budget (the nearest one; past `high` the end). */
export function positionOf(budget: number, high: number, low = LOW_TOKENS): number {
  if (budget <= 0) return 0;
  const top = Math.max(low + 1, high);
  if (budget >= top) return SLIDER_STEPS;
  if (budget <= low) return 1;
  return Math.min(SLIDER_STEPS, Math.max(1, Math.round(1 + ((Math.log(budget) - Math.log(low)) / (Math.log(top) - Math.log(low))) * (SLIDER_STEPS - 1))));
}

/**
 * A budget `positions` along the track from this one (negative: back), always a different one where there is
 * one: the arrow keys step a position, [ and ] a twentieth of the track.
 */
export function stepped(budget: number, high: number, positions: number, low = LOW_TOKENS): number {
  const dir = Math.sign(positions);
  let p = Math.min(SLIDER_STEPS, Math.max(0, positionOf(budget, high, low) + positions));
  // Where neighbouring positions read alike (the low end, a snapped budget), go on to the next figure.
  while (budgetAt(p, high, low) === budget && p > 0 && p < SLIDER_STEPS) p += dir;
  return budgetAt(p, high, low);
}

/** `[` and `]`: a twentieth of the track down or up. */
export function nudged(budget: number, high: number, up: boolean): number {
  return stepped(budget, high, (up ? 1 : -1) * (SLIDER_STEPS / 20));
}
