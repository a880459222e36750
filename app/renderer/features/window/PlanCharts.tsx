import { columnByCode, sumsByCode } from '../code-sums.js';
import { useMemo } from 'react';
import type { Skeleton, TokenCounts } from '../../../shared/contract.js';
import { FATES, type WindowPlan } from '../../../../src/core/window/types.js';
import { RoleChip } from '../RoleChip.js';
import { formatNumber } from '../roles.js';
import { maxOf } from '../../../../src/core/util/numbers.js';

const BINS = 100;

/**
 * Where the tokens go under the plan: a bar per message (binned for long histories; kept bars solid, dropped
 * ones faint; a click selects the message), and tokens kept by role and by category.
 */
export function PlanCharts({ plan, skeleton, counts, onSelect }: { plan: WindowPlan; skeleton: Skeleton; counts: Pick<TokenCounts, 'tokens' | 'renderedTokens'>; onSelect(i: number): void }) {
  // Before and after on the plan's own basis: a strategy that measures the rendered history is charted in it.
  const tokens = plan.unit === 'rendered' ? counts.renderedTokens : counts.tokens;
  // What the history holds (the bars' heights, the "before" sums) is the same at every budget; a slider step
  // recomputes only what the plan keeps.
  const shape = useMemo(() => {
    const n = tokens.length;
    const per = Math.max(1, Math.ceil(n / BINS));
    const tallest: number[] = [];
    const heights: number[] = [];
    for (let from = 0; from < n; from += per) {
      let at = from;
      let before = -1;
      for (let i = from; i < Math.min(n, from + per); i++) {
        if (tokens[i] > before) {
          before = tokens[i];
          at = i;
        }
      }
      tallest.push(at);
      heights.push(before);
    }
    const byRole = sumsByCode(skeleton.roleOf, skeleton.roles, tokens);
    const byCategory = sumsByCode(skeleton.categoryOf, skeleton.categories, tokens, '(none)');
    // Typed codes: the per-step sums read them 200k at a time.
    return { per, tallest, heights, peak: maxOf(heights, 1), byRole, byCategory, roleCodes: Int32Array.from(skeleton.roleOf), categoryCodes: Int32Array.from(skeleton.categoryOf) };
  }, [skeleton, tokens]);
  const data = useMemo(() => {
    const { per, tallest, heights } = shape;
    // A bar is its bin's tallest message: its fate and what the plan keeps of it.
    const bins = tallest.map((at, b) => ({ at, before: heights[b], after: plan.tokensAfter[at], fate: FATES[plan.fates[at]] }));
    const rows = (before: ReadonlyArray<readonly [string, number]>, after: number[]) =>
      before.map(([k, b], i) => [k, [b, after[i]]] as [string, [number, number]]).sort((a, b) => b[1][0] - a[1][0]);
    const byRole = rows(shape.byRole, columnByCode(shape.roleCodes, skeleton.roles, plan.tokensAfter));
    const byCategory = rows(shape.byCategory, columnByCode(shape.categoryCodes, skeleton.categories, plan.tokensAfter, '(none)'));
    return { bins, peak: shape.peak, per, byRole, byCategory };
  }, [plan, skeleton, shape]);
  const table = (rows: Array<[string, [number, number]]>, label: (k: string) => React.ReactNode) => (
    <table className="totals">
      <tbody>
        {rows.map(([k, [before, after]]) => (
          <tr key={k}>
            <td>{label(k)}</td>
            <td className="num">{formatNumber(before)}</td>
            <td className="num">→ {formatNumber(after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className="plan-charts" data-testid="plan-charts">
      <h3>Per message{data.per > 1 ? ` (max of every ${data.per})` : ''}</h3>
      <div className="bars" role="group" aria-label="Tokens per message under the strategy">
        {data.bins.map((b) => (
          <button
            key={b.at}
            className={`bar fate-${b.fate}`}
            style={{ height: `${Math.max(2, (100 * b.before) / data.peak)}%`, ['--hue' as string]: 210 }}
            aria-label={`message ${b.at}: ${b.before} tokens, ${b.fate}`}
            // A bar per message is a mouse's way to a row; the keyboard's is the table (one Tab stop, not hundreds).
            tabIndex={-1}
            title={`message ${b.at}: ${b.before} → ${b.after} tokens (${b.fate})`}
            onClick={() => onSelect(b.at)}
          />
        ))}
      </div>
      <h3>By role (before → after, {plan.unit === 'rendered' ? 'rendered history' : 'message contents'})</h3>
      {table(data.byRole, (k) => <RoleChip role={k} />)}
      {skeleton.categories.length > 0 && (
        <>
          <h3>By category (before → after, {plan.unit === 'rendered' ? 'rendered history' : 'message contents'})</h3>
          {table(data.byCategory, (k) => k)}
        </>
      )}
    </div>
  );
}
