import { useMemo } from 'react';
import { FATE_CODE, type WindowPlan } from '../../../../src/core/window/types.js';

const KEPT = FATE_CODE.kept;
const CUT = FATE_CODE.cut;

const W = 300;
const H = 90;

/** Cumulative tokens across the history, what the strategy keeps of them, and the budget drawn across. */
export function CumulativeChart({ plan, budget, onSelect }: { plan: WindowPlan; budget: number | undefined; onSelect(index: number): void }) {
  const { after, max, firstKept } = useMemo(() => {
    const n = plan.fates.length;
    const step = Math.max(1, Math.ceil(n / W));
    const after: string[] = [];
    let a = 0;
    let firstKept = -1;
    const max = Math.max(1, plan.totalBefore, budget ?? 0);
    const x = (i: number) => ((i + 1) / Math.max(1, n)) * W;
    const y = (v: number) => H - (v / max) * (H - 4);
    const { fates, tokensAfter } = plan;
    for (let i = 0; i < n; i++) {
      if (fates[i] === KEPT || fates[i] === CUT) {
        firstKept = i;
        break;
      }
    }
    // A point every `step` messages: summed in runs, not tested message by message.
    for (let from = 0; from < n; from += step) {
      const to = Math.min(n, from + step);
      a += tokensAfter[from];
      after.push(`${x(from).toFixed(1)},${y(a).toFixed(1)}`);
      for (let i = from + 1; i < to; i++) a += tokensAfter[i];
    }
    if (n > 0 && (n - 1) % step !== 0) after.push(`${x(n - 1).toFixed(1)},${y(a).toFixed(1)}`);
    return { after, max, firstKept };
  }, [plan, budget]);
  const n = plan.fates.length;
  const y = (v: number) => H - (v / max) * (H - 4);
  return (
    <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`cumulative tokens kept: ${plan.totalAfter} of ${plan.totalBefore}`} data-testid="cumulative-chart"
      onClick={(e) => {
        const r = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
        onSelect(Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * n))));
      }}>
      <line x1="0" x2={W} y1={y(plan.totalBefore)} y2={y(plan.totalBefore)} className="total-line" />
      {budget !== undefined && <line x1="0" x2={W} y1={y(budget)} y2={y(budget)} className="budget-line" />}
      {firstKept > 0 && <line x1={(firstKept / n) * W} x2={(firstKept / n) * W} y1="0" y2={H} className="cut-line" />}
      <polyline points={after.join(' ')} className="after" />
    </svg>
  );
}
