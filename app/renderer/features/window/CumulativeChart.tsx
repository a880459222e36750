import { useMemo } from 'react';
import { FATE_CODE, type WindowPlan } from '../../../../src/core/window/types.js';
import { formatNumber } from '../roles.js';

const KEPT = FATE_CODE.kept;
const CUT = FATE_CODE.cut;

export const CHART_W = 300;
export const CHART_H = 90;
/** How far apart (in the chart's units) two values on the y axis are written: a line of text at the chart's height. */
export const TICK_CLEAR = 10;
const PAD = 4;

/** Height on a log scale from 1 token to `top`: an 8k budget and a 20-million-token history both show. */
export function logY(v: number, top: number): number {
  const span = Math.log10(Math.max(10, top));
  return CHART_H - PAD - (Math.log10(Math.max(1, v)) / span) * (CHART_H - 2 * PAD);
}

/** The message each column of the chart starts at. */
const columnStart = (c: number, n: number) => Math.floor((c * n) / CHART_W);

/** Tokens from each column's first message to the end, for every column and the end (0). */
function suffixAtColumns(tokens: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(CHART_W + 1);
  let sum = 0;
  let c = CHART_W;
  for (let i = n - 1; i >= 0; i--) {
    sum += tokens[i];
    while (c > 0 && columnStart(c - 1, n) === i) out[--c] = sum;
  }
  return out;
}

/**
 * Where the budget cuts: every message's tokens from it to the end of the history (the curve, on a log scale),
 * the budget across it, and the columns the strategy keeps shaded. A strategy that keeps the end keeps what lies
 * right of where the curve crosses the budget; the second curve is what it keeps, counted the same way.
 */
export function CumulativeChart({ plan, tokens, budget, onSelect }: { plan: WindowPlan; tokens: ArrayLike<number>; budget: number | undefined; onSelect(index: number): void }) {
  const n = plan.fates.length;
  const before = useMemo(() => suffixAtColumns(tokens, n), [tokens, n]);
  const { after, kept, firstKept } = useMemo(() => {
    const { fates } = plan;
    let firstKept = -1;
    for (let i = 0; i < n; i++) {
      if (fates[i] === KEPT || fates[i] === CUT) {
        firstKept = i;
        break;
      }
    }
    // Runs of columns holding a kept (or cut) message, as [from, to) column ranges.
    const kept: Array<[number, number]> = [];
    for (let c = 0; c < CHART_W; c++) {
      const from = columnStart(c, n);
      const to = Math.max(from + 1, columnStart(c + 1, n));
      let any = false;
      for (let i = from; i < Math.min(n, to) && !any; i++) any = fates[i] === KEPT || fates[i] === CUT;
      if (!any) continue;
      const last = kept[kept.length - 1];
      if (last && last[1] === c) last[1] = c + 1;
      else kept.push([c, c + 1]);
    }
    return { after: suffixAtColumns(plan.tokensAfter, n), kept, firstKept };
  }, [plan, n]);
  const top = Math.max(before[0], budget ?? 0, 10);
  const points = (sums: Float64Array) => Array.from(sums, (v, c) => `${c.toFixed(0)},${logY(v, top).toFixed(1)}`).join(' ');
  const label = `tokens from each message to the end, ${formatNumber(before[0])} in all${budget !== undefined ? `; the budget ${formatNumber(budget)}` : ''}; kept: ${formatNumber(plan.totalAfter)}${firstKept > 0 ? `, from message ${formatNumber(firstKept)}` : ''}`;
  // Tick values at powers of ten under the top (log scale), and the x axis in message numbers.
  const ticks: number[] = [];
  for (let v = 10; v <= top; v *= 10) ticks.push(v);
  // A tick as near the budget as a line of text is tall would be written over by the budget's value: it gives way.
  const shownTicks = (ticks.length > 4 ? ticks.filter((_, k) => (ticks.length - 1 - k) % 2 === 0) : ticks).filter((v) => budget === undefined || Math.abs(logY(v, top) - logY(budget, top)) >= TICK_CLEAR);
  const pct = (y: number) => `${(100 * y) / CHART_H}%`;
  return (
    <div className="chart-frame" data-testid="cumulative-frame">
      <div className="axis-y" aria-hidden="true">
        {shownTicks.map((v) => (
          <span key={v} style={{ top: pct(logY(v, top)) }} data-testid="axis-y-tick">{compact(v)}</span>
        ))}
        {budget !== undefined && (
          <span className="budget" style={{ top: pct(logY(budget, top)) }} data-testid="axis-budget">{compact(budget)}</span>
        )}
      </div>
    <svg className="chart" viewBox={`0 0 ${CHART_W} ${CHART_H}`} preserveAspectRatio="none" role="img" aria-label={label} data-testid="cumulative-chart"
      onClick={(e) => {
        const r = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
        onSelect(Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * n))));
      }}>
      {kept.map(([from, to]) => (
        <rect key={from} x={from} width={to - from} y={0} height={CHART_H} className="kept-band" data-testid="kept-band" />
      ))}
      {firstKept > 0 && <line x1={(firstKept / n) * CHART_W} x2={(firstKept / n) * CHART_W} y1="0" y2={CHART_H} className="cut-line" />}
      <polyline points={points(before)} className="before" data-testid="curve-before" />
      <polyline points={points(after)} className="after" data-testid="curve-after" />
      {/* Over the curves: a plan that fills its budget runs along it. */}
      {budget !== undefined && <line x1="0" x2={CHART_W} y1={logY(budget, top)} y2={logY(budget, top)} className="budget-line" data-testid="budget-line" />}
    </svg>
      <div className="axis-x muted" aria-hidden="true" data-testid="axis-x">
        {/* An end's number gives way to the cut's where they would overlap. */}
        <span style={{ visibility: firstKept > 0 && firstKept / n < 0.14 ? 'hidden' : undefined }}>#0</span>
        {firstKept > 0 && (
          <span className="cut" style={{ left: `${(100 * firstKept) / n}%` }}>
            #{formatNumber(firstKept)}
          </span>
        )}
        <span style={{ visibility: firstKept > 0 && firstKept / n > 0.86 ? 'hidden' : undefined }}>#{formatNumber(Math.max(0, n - 1))}</span>
      </div>
    </div>
  );
}

/** 12,400 as "12k", 3,100,000 as "3.1M": axis labels stay short. */
export function compact(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(v >= 1e7 ? 0 : 1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k`;
  return String(Math.round(v));
}

/** What the cut chart's marks mean (beside the chart in the panel and in its larger view). */
export function ChartLegend() {
  return (
    <p className="legend small">
      <span><span className="swatch before" /> tokens from here to the end</span>
      <span><span className="swatch after" /> of them kept</span>
      <span><span className="swatch budget" /> budget</span>
      <span><span className="swatch kept" /> kept messages</span>
      <span>log scale</span>
    </p>
  );
}
