import { sumsByCode } from '../code-sums.js';
import { useMemo } from 'react';
import type { Skeleton } from '../../../shared/contract.js';
import { FATES, type WindowPlan } from '../../../../src/core/window/types.js';
import { RoleChip } from '../RoleChip.js';
import { formatNumber } from '../roles.js';
import { maxOf } from '../../../../src/core/util/numbers.js';

const BINS = 100;

/**
 * Where the tokens go under the plan: a bar per message (binned for long histories; kept bars solid, dropped
 * ones faint; a click selects the message), and tokens kept by role and by category.
 */
export function PlanCharts({ plan, skeleton, tokens, onSelect }: { plan: WindowPlan; skeleton: Skeleton; tokens: readonly number[]; onSelect(i: number): void }) {
  const data = useMemo(() => {
    const n = plan.fates.length;
    const per = Math.max(1, Math.ceil(n / BINS));
    const bins: Array<{ at: number; before: number; after: number; fate: string }> = [];
    for (let from = 0; from < n; from += per) {
      let at = from;
      let before = -1;
      let after = 0;
      for (let i = from; i < Math.min(n, from + per); i++) {
        if (tokens[i] > before) {
          before = tokens[i];
          at = i;
        }
        after = Math.max(after, plan.tokensAfter[i]);
      }
      bins.push({ at, before, after, fate: FATES[plan.fates[at]] });
    }
    const peak = maxOf(bins.map((b) => b.before), 1);
    const pair = (rows: Array<[string, number[]]>) => rows.map(([k, [before, after]]) => [k, [before, after]] as [string, [number, number]]);
    const byRole = pair(sumsByCode(skeleton.roleOf, skeleton.roles, [tokens, plan.tokensAfter]));
    const byCategory = pair(sumsByCode(skeleton.categoryOf, skeleton.categories, [tokens, plan.tokensAfter], '(none)'));
    return { bins, peak, per, byRole: byRole.sort((a, b) => b[1][0] - a[1][0]), byCategory: byCategory.sort((a, b) => b[1][0] - a[1][0]) };
  }, [plan, skeleton, tokens]);
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
            title={`message ${b.at}: ${b.before} → ${b.after} tokens (${b.fate})`}
            onClick={() => onSelect(b.at)}
          />
        ))}
      </div>
      <h3>By role (before → after)</h3>
      {table(data.byRole, (k) => <RoleChip role={k} />)}
      <h3>By category (before → after)</h3>
      {table(data.byCategory, (k) => k)}
    </div>
  );
}
