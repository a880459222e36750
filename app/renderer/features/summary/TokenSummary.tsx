import { useMemo, type ReactNode } from 'react';
import { sumsByCode } from '../code-sums.js';
import { useApp, useAppPick } from '../../store/index.js';
import { shortcutOf } from '../commands/registry.js';
import { RoleChip } from '../RoleChip.js';
import { RoleMapping } from './RoleMapping.js';
import { ReportedUsage } from './ReportedUsage.js';
import { formatNumber, roleHue } from '../roles.js';
import { maxOf } from '../../../../src/core/util/numbers.js';
import { estimateNote } from '../../../../src/core/tokenizer/estimate.js';

const BINS = 120;

function Totals({ rows, total, label }: { rows: Array<[string, number]>; total: number; label: (key: string) => ReactNode }) {
  return (
    <table className="totals">
      <tbody>
        {rows.map(([key, n]) => (
          <tr key={key}>
            <td>{label(key)}</td>
            <td className="num">{formatNumber(n)}</td>
            <td className="pct">{total ? Math.round((100 * n) / total) : 0}%</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The role a row's colour follows, as the table's chip does: its normal role, or its name for others. */
function hueRole(skeleton: { roles: string[]; normalRoles: string[]; roleOf: number[] }, i: number): string {
  const normal = skeleton.normalRoles[skeleton.roleOf[i]];
  return normal && normal !== 'other' ? normal : skeleton.roles[skeleton.roleOf[i]];
}

/** Totals by role and category, and a bar per message (binned for long histories) that selects on click. */
export function TokenSummary() {
  const { skeleton, counts, select, selected, provisional, opening } = useAppPick('skeleton', 'counts', 'select', 'selected', 'provisional', 'opening');
  const tokens = counts && skeleton && counts.path === skeleton.path && counts.conversation === skeleton.conversation && counts.tokens.length === skeleton.count ? counts.tokens : undefined;
  const summary = useMemo(() => {
    if (!skeleton || !tokens) return undefined;
    const byRole = sumsByCode(skeleton.roleOf, skeleton.roles, tokens);
    const byCategory = sumsByCode(skeleton.categoryOf, skeleton.categories, tokens, '(none)');
    let differs = 0;
    const stored = skeleton.storedTokens;
    const tools = counts?.toolTokens;
    // A stored token_count counts the content alone (as swarms does): compare it with the content's share.
    for (let i = 0; i < tokens.length; i++) if (stored[i] >= 0 && stored[i] !== tokens[i] - (tools?.[i] ?? 0)) differs++;
    const perBin = Math.max(1, Math.ceil(tokens.length / BINS));
    const bins: Array<{ from: number; max: number; at: number }> = [];
    for (let from = 0; from < tokens.length; from += perBin) {
      let max = -1;
      let at = from;
      for (let i = from; i < Math.min(tokens.length, from + perBin); i++) {
        if (tokens[i] > max) {
          max = tokens[i];
          at = i;
        }
      }
      bins.push({ from, max, at });
    }
    const peak = maxOf(bins.map((b) => b.max), 1);
    return { byRole: byRole.sort((a, b) => b[1] - a[1]), byCategory: byCategory.sort((a, b) => b[1] - a[1]), bins, peak, perBin, differs };
  }, [skeleton, tokens, counts]);
  if (!skeleton) return null;
  if (!summary || !counts)
    return (
      <aside className="summary" aria-label="Token summary">
        <p className="loading">{provisional && opening ? 'Tokens are counted once the whole file is read.' : 'Counting tokens…'}</p>
      </aside>
    );
  const total = counts.total;
  const note = estimateNote(counts.model, skeleton.model);
  return (
    <aside className="summary" aria-label="Token summary" data-testid="summary">
      <h2 className="pane-title">
        Tokens
        <button className="link small" onClick={() => useApp.getState().setTokensHidden(true)} title={`Put the tokens pane away: the table takes its width (${shortcutOf('tokens-pane')} brings it back)`} aria-label="Hide the tokens pane" data-testid="hide-tokens">
          hide
        </button>
      </h2>
      {/* What the file records the API reported leads; the count made here follows, named for what it is. */}
      <ReportedUsage skeleton={skeleton} />
      <h3>Counted here</h3>
      <p className="big" data-testid="total-tokens">
        {note ? <span title={`An estimate: ${note}`}>≈ </span> : null}
        {formatNumber(total)}
      </p>
      <p className="muted" data-testid="count-basis">{note ? `estimate: ${note}` : `${counts.model} · ${counts.encoding}`}</p>
      {summary.differs > 0 && <p className="muted">{summary.differs} stored token_count value{summary.differs === 1 ? '' : 's'} differ from the recount (•)</p>}
      <h3>Per message{summary.perBin > 1 ? ` (max of every ${summary.perBin})` : ''}</h3>
      <div className="bars" role="group" aria-label="Tokens per message">
        {summary.bins.map((b) => (
          <button
            key={b.from}
            className={`bar ${selected !== undefined && selected >= b.from && selected < b.from + summary.perBin ? 'on' : ''}`}
            style={{ height: `${Math.max(2, (100 * b.max) / summary.peak)}%`, ['--hue' as string]: roleHue(hueRole(skeleton, b.at)) }}
            aria-label={`message ${b.at}: ${b.max} tokens`}
            title={`message ${b.at}: ${b.max} tokens`}
            onClick={() => select(b.at)}
          />
        ))}
      </div>
      <h3>By role</h3>
      <Totals rows={summary.byRole} total={total} label={(role) => <RoleChip role={role} normal={skeleton.normalRoles[skeleton.roles.indexOf(role)]} />} />
      <RoleMapping skeleton={skeleton} />
      {/* Categories are a swarms history's own (its records' `category`): a file of none has nothing to show here. */}
      {skeleton.categories.length > 0 && (
        <>
          <h3>By category</h3>
          <Totals rows={summary.byCategory} total={total} label={(c) => c} />
        </>
      )}
    </aside>
  );
}
