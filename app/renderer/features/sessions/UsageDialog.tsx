import { moveAmongButtons } from '../arrow-keys.js';
import { useShallow } from 'zustand/react/shallow';
import type { SkeletonDelta } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { formatUsd } from '../../../../src/core/usage.js';
import { useApp } from '../../store/index.js';
import type { UsageBy } from '../../store/catalog.js';
import { closeOnEscape } from '../close-on-escape.js';
import { useModalFocus } from '../modal-focus.js';
import { formatNumber } from '../roles.js';

const BY: Array<{ by: UsageBy; label: string }> = [
  { by: 'day', label: 'Day' },
  { by: 'project', label: 'Project' },
  { by: 'model', label: 'Model' },
  { by: 'tool', label: 'Tool' },
];

/** A call's time as a reader tells calls apart: "Jun 2, 07:08" (the year where it is not this one's). */
function callTime(at: string): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return at;
  const thisYear = d.getFullYear() === new Date().getFullYear();
  return d.toLocaleString('en', { ...(thisYear ? {} : { year: 'numeric' }), month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

const short = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)}B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : formatNumber(n));

/**
 * What the sessions of the opened folders cost, as their files report it (each API call once, at list prices):
 * by day, project, model or tool, and the costliest sessions and calls, each a click from its messages.
 */
export function UsageDialog() {
  const { answer, error, by, status } = useApp(useShallow((s) => ({ answer: s.usageAnswer, error: s.usageError, by: s.usageBy, status: s.catalogStatus })));
  const { setUsageOpen, loadUsage } = useApp(useShallow((s) => ({ setUsageOpen: s.setUsageOpen, loadUsage: s.loadUsage })));
  const dialog = useModalFocus<HTMLDivElement>();
  const close = () => setUsageOpen(false);
  const rows = answer?.by === by ? answer.rows : [];
  const total = rows.reduce((n, r) => n + r.costUsd, 0);
  // As each row says it: calls of no price, or whose input is not recorded, make the cost a lower bound.
  const atLeast = rows.some((r) => r.unpricedCalls > 0 || r.inputCalls < r.calls);
  const most = rows.reduce((n, r) => Math.max(n, r.costUsd), 0);
  // A call names its message as the file holds it: the thread (or part) that shows it is opened at it.
  const go = async (path: string, conversation: number, index?: number) => {
    close();
    let where: { conversation: number; index: number; delta?: SkeletonDelta } = { conversation, index: index ?? 0 };
    if (index !== undefined) {
      try {
        where = await request('conversation:reveal', { path, conversation, index });
      } catch {
        // Changed since the catalog read it: it opens as it is now.
      }
    }
    const s = useApp.getState();
    if (s.openPath !== path || s.openConversationIndex !== where.conversation || !s.skeleton) await s.openConversation(path, where.conversation);
    else if (where.delta) await s.applyChange(where.delta);
    if (index !== undefined && useApp.getState().openPath === path) useApp.getState().select(where.index);
  };
  return (
    <div ref={dialog} className="dialog" role="dialog" aria-modal="true" aria-label="Usage and cost" onKeyDown={closeOnEscape(close)}>
      <div className="dialog-body usage-view" data-testid="usage-view">
        <div className="panel-head">
          <h2>Usage · {answer ? `${atLeast ? '≥ ' : ''}${formatUsd(total)} over ${formatNumber(rows.reduce((n, r) => n + r.calls, 0))} calls` : 'reading…'}</h2>
          <span className="spacer" />
          <button autoFocus onClick={close} aria-label="Close">
            ×
          </button>
        </div>
        <p className="muted">
          As the session files report it: each API call once (a streamed response by its last line), sub-agents’ calls in their own sessions, priced at list prices{answer ? ` (${answer.pricesDated})` : ''}. A model with no list price is counted but not priced. Input counts every prompt token, the cached ones among them: cache reads and writes are part of it, not more.
          {status?.building && !status.listed ? ` Still listing the sessions: ${formatNumber(status.done)} of ${formatNumber(status.total)} files read.` : ''}
        </p>
        {error && <p className="error-text">{error}</p>}
        <div role="tablist" aria-label="Group usage by" className="usage-tabs" onKeyDown={(e) => moveAmongButtons(e, e.currentTarget, false)?.click()}>
          {BY.map((b) => (
            <button key={b.by} role="tab" aria-selected={by === b.by} tabIndex={by === b.by ? 0 : -1} className={by === b.by ? 'active' : ''} onClick={() => void loadUsage(b.by)}>
              {b.label}
            </button>
          ))}
        </div>
        <table className="usage-table" data-testid="usage-table">
          <thead>
            <tr>
              <th scope="col">{BY.find((b) => b.by === by)?.label}</th>
              <th scope="col" className="num">Cost</th>
              <th scope="col" aria-label="Share of the cost" />
              <th scope="col" className="num">Calls</th>
              {/* Each sub-agent has its own file and calls: counted here as the overview counts neither. */}
              <th scope="col" className="num" title="Sessions and their sub-agents, each counted once">Sessions & sub-agents</th>
              <th scope="col" className="num">Input</th>
              <th scope="col" className="num">Output</th>
              <th scope="col" className="num">Cache read</th>
              <th scope="col" className="num">Cache write</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-testid="usage-row">
                <th scope="row" title={r.key}>
                  {r.key || '(none)'}
                </th>
                <td className="num" title={r.unpricedCalls > 0 ? `${formatNumber(r.unpricedCalls)} of its calls are of a model with no list price: counted, not priced` : undefined}>
                  {r.unpricedCalls === r.calls ? 'no price' : `${r.unpricedCalls > 0 || r.inputCalls < r.calls ? '≥ ' : ''}${formatUsd(r.costUsd)}`}
                </td>
                <td>
                  <span className="usage-bar" style={{ width: `${most > 0 ? Math.max(1, Math.round((r.costUsd / most) * 100)) : 0}%` }} />
                </td>
                <td className="num">{formatNumber(r.calls)}</td>
                <td className="num">{formatNumber(r.sessions)}</td>
                <td className="num" title={r.inputCalls < r.calls ? `${formatNumber(r.calls - r.inputCalls)} of its calls do not record their input` : undefined}>
                  {r.inputCalls === 0 ? 'not recorded' : `${r.inputCalls < r.calls ? '≥ ' : ''}${short(r.input)}`}
                </td>
                <td className="num">{short(r.output)}</td>
                <td className="num">{short(r.cacheRead)}</td>
                <td className="num">{short(r.cacheWrite)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {answer && (
          <div className="usage-top">
            <section>
              <h3>Costliest sessions</h3>
              <ol>
                {answer.sessions.map((s) => (
                  <li key={`${s.path}:${s.conversation}`}>
                    <button className="link" data-testid="costly-session" onClick={() => void go(s.path, s.conversation)} title={s.path}>
                      {formatUsd(s.costUsd ?? 0)} · {s.kind === 'subagent' ? 'sub-agent · ' : ''}
                      {s.title ?? s.path}
                    </button>
                  </li>
                ))}
              </ol>
            </section>
            <section>
              <h3>Costliest calls</h3>
              <ol>
                {answer.calls.map((c) => (
                  <li key={`${c.path}:${c.conversation}:${c.index}`}>
                    <button className="link" data-testid="costly-call" onClick={() => void go(c.path, c.conversation, c.index)} title={`${c.path}, message ${c.index + 1}`}>
                      {formatUsd(c.costUsd)} · {c.model ?? 'a call'}
                      {/* When it was made (and its row): two calls of one session at one price are told apart. */}
                      {c.at ? ` · ${callTime(c.at)}` : ` · #${c.index}`} · {c.title ?? c.path}
                    </button>
                  </li>
                ))}
              </ol>
            </section>
          </div>
        )}
      </div>
    </div>
  );
}
