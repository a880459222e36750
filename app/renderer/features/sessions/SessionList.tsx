import { sessionCostText } from '../../../../src/core/catalog/session-cost.js';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useShallow } from 'zustand/react/shallow';
import { formatUsd } from '../../../../src/core/usage.js';
import { useApp } from '../../store/index.js';
import { filtering } from '../../store/catalog.js';
import { formatNumber } from '../roles.js';
import { agentLabel, agentsText, lastActive, looseAgents, relativeTime, sessionName, sessionRows, type SessionRow } from './session-rows.js';
import { NotListedLine } from './NotListedLine.js';

const HEIGHT: Record<SessionRow['kind'], number> = { group: 26, session: 44, agent: 40 };

/** How many sessions are listed, sub-agents apart: "4 sessions · 3 sub-agents" (of how many, when not all are). */
function countsLine(answer: NonNullable<ReturnType<typeof useApp.getState>['sessionsAnswer']>): string {
  const agents = answer.sessions.filter((s) => s.kind === 'subagent').length;
  const sessions = answer.sessions.length - agents;
  const line = `${formatNumber(sessions)} session${sessions === 1 ? '' : 's'}${agentsText(agents, looseAgents(answer.sessions))}`;
  return answer.total > answer.sessions.length ? `${line}, the latest of ${formatNumber(answer.total)}` : line;
}

/**
 * The sidebar's sessions, from the catalog: by project or by time, each with its title, when it was last
 * active, its messages and what it cost; its sub-agents under it. Filters by tool, model and date.
 */
export function SessionList() {
  const { answer, error, group, filters, status, openPath, openIndex } = useApp(
    useShallow((s) => ({ answer: s.sessionsAnswer, error: s.sessionsError, group: s.sessionGroup, filters: s.sessionFilters, status: s.catalogStatus, openPath: s.openPath, openIndex: s.openConversationIndex })),
  );
  const { setSessionGroup, setSessionFilters, openConversation, setUsageOpen } = useApp(useShallow((s) => ({ setSessionGroup: s.setSessionGroup, setSessionFilters: s.setSessionFilters, openConversation: s.openConversation, setUsageOpen: s.setUsageOpen })));
  const [open, setOpen] = useState<Set<string>>(new Set());
  const now = Date.now();
  const rows = useMemo(() => sessionRows(answer?.sessions ?? [], group, open, now), [answer, group, open, now]);
  const listRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => listRef.current, estimateSize: (i) => HEIGHT[rows[i].kind], getItemKey: (i) => rows[i].key, overscan: 12, initialRect: { width: 260, height: 800 } });
  const toggle = (path: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  // The list is one Tab stop (its focused row, else the open session's, else its first); inside it ↑/↓ move,
  // → unfolds a session's sub-agents and ← folds them (or goes from a sub-agent to its session), Home/End.
  const [focused, setFocused] = useState<string | undefined>();
  const rowKey = (r: SessionRow) => (r.kind === 'group' ? r.key : `${r.session.path}#${r.session.conversation}`);
  const rendered = virtualizer.getVirtualItems().map((i) => rows[i.index]).filter((r) => r.kind !== 'group');
  const openKey = openPath ? `${openPath}#${openIndex}` : undefined;
  // A session opened from elsewhere (the overview, search-all, Usage) is brought into the list's view, or its
  // session where it is a folded sub-agent; once, not again as the list changes under it.
  useEffect(() => {
    if (!openKey) return;
    let at = rows.findIndex((r) => r.kind !== 'group' && rowKey(r) === openKey);
    if (at === -1) {
      const parent = answer?.sessions.find((s) => `${s.path}#${s.conversation}` === openKey)?.parentPath;
      at = rows.findIndex((r) => r.kind === 'session' && r.session.path === parent);
    }
    if (at !== -1) virtualizer.scrollToIndex(at, { align: 'auto' });
  }, [openKey]);
  const tabStop = [focused, openKey].find((k) => k !== undefined && rendered.some((r) => rowKey(r) === k)) ?? (rendered[0] ? rowKey(rendered[0]) : undefined);
  const focusRow = (index: number) => {
    virtualizer.scrollToIndex(index);
    const key = rowKey(rows[index]);
    // The row may be drawn only once scrolled to: focused when it is, unless the focus has moved on meanwhile
    // (to another element: the row it left, scrolled out of the list, gives it to the page's body).
    const from = document.activeElement;
    const tryFocus = (frames: number) =>
      requestAnimationFrame(() => {
        const now = document.activeElement;
        if (now !== from && now !== null && now !== document.body) return;
        const button = listRef.current?.querySelector<HTMLButtonElement>(`button.session-open[data-key="${CSS.escape(key)}"]`);
        if (button) button.focus();
        else if (frames > 0) tryFocus(frames - 1);
      });
    tryFocus(30);
  };
  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button.session-open') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const index = rows.findIndex((r) => rowKey(r) === (document.activeElement as HTMLElement | null)?.dataset.key);
    const row = rows[index];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const next = buttons[at + (e.key === 'ArrowDown' ? 1 : -1)];
      if (next) {
        e.preventDefault();
        next.focus();
      }
    } else if (e.key === 'Home' || e.key === 'End') {
      const target = e.key === 'Home' ? rows.findIndex((r) => r.kind !== 'group') : rows.findLastIndex((r) => r.kind !== 'group');
      if (target !== -1) {
        e.preventDefault();
        focusRow(target);
      }
    } else if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && row && row.kind !== 'group') {
      e.preventDefault();
      if (row.kind === 'session' && row.agents > 0 && row.open === (e.key === 'ArrowLeft')) toggle(row.session.path);
      else if (row.kind === 'agent' && e.key === 'ArrowLeft') {
        const parent = rows.findLastIndex((r, i) => i < index && r.kind === 'session');
        if (parent !== -1) focusRow(parent);
      }
    }
  };
  const building = status?.building ?? answer?.status.building;
  const pending = (status ?? answer?.status)?.secretsPending ?? 0;
  return (
    <div className="session-list-wrap">
      <div className="session-filters">
        <select
          aria-label="Group sessions"
          value={group}
          onChange={(e) => {
            setSessionGroup(e.target.value as 'project' | 'time');
            // Another grouping is another list: it is read from its top, not from where the last one was.
            listRef.current?.scrollTo({ top: 0 });
          }}
        >
          <option value="project">by project</option>
          <option value="time">by time</option>
        </select>
        <select aria-label="Filter sessions by tool" value={filters.tool ?? ''} onChange={(e) => setSessionFilters({ tool: e.target.value || undefined })}>
          <option value="">every tool</option>
          {(answer?.tools ?? []).map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <select aria-label="Filter sessions by model" value={filters.model ?? ''} onChange={(e) => setSessionFilters({ model: e.target.value || undefined })}>
          <option value="">every model</option>
          {(answer?.models ?? []).map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <div className="session-dates" role="group" aria-label="Dates">
          <input type="date" aria-label="From: sessions active on or after" title="Sessions active on or after this day" value={filters.from ?? ''} max={filters.to} onChange={(e) => setSessionFilters({ from: e.target.value || undefined })} />
          <span className="muted" aria-hidden="true">–</span>
          <input type="date" aria-label="To: sessions begun on or before" title="Sessions begun on or before this day" value={filters.to ?? ''} min={filters.from} onChange={(e) => setSessionFilters({ to: e.target.value || undefined })} />
        </div>
        <label className="session-secrets-filter" title={pending > 0 ? `Still looking into ${formatNumber(pending)} files: more may show` : 'Sessions whose files hold secrets (keys, tokens, passwords)'}>
          <input type="checkbox" checked={!!filters.secrets} onChange={(e) => setSessionFilters({ secrets: e.target.checked || undefined })} data-testid="filter-secrets" />
          with secrets
        </label>
        <span className="spacer" />
        {filtering(filters) && (
          <button className="link" onClick={() => setSessionFilters({ tool: undefined, model: undefined, from: undefined, to: undefined, secrets: undefined })}>
            Clear filters
          </button>
        )}
        <button className="link" onClick={() => setUsageOpen(true)} title="Reported usage and cost over every session, by day, project, model and tool (Ctrl+K: Usage)">
          Usage…
        </button>
      </div>
      <p className="muted session-status" data-testid="session-status" aria-live="polite">
        {answer ? countsLine(answer) : 'Reading the sessions…'}
        {building && status ? (status.listed ? ` · reading ${formatNumber(status.done)} of ${formatNumber(status.total)} files whole for search` : ` · listing: ${formatNumber(status.done)} of ${formatNumber(status.total)} files read`) : ''}
        {!building && filters.secrets && pending > 0 ? ` · looking for secrets in ${formatNumber(pending)} more files` : ''}
      </p>
      <NotListedLine notListed={answer?.notListed} />
      {error && <p className="error-text">{error}</p>}
      {answer && answer.total === 0 && !building && <p className="empty">No sessions here{filtering(filters) ? ' with these filters' : ''}.</p>}
      <div className="sidebar-list" ref={listRef} data-testid="session-list" data-rows={rows.length} onKeyDown={move}>
        <ul style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0 }}>
          {virtualizer.getVirtualItems().map((item) => {
            const r = rows[item.index];
            return (
              <li key={item.key} data-index={item.index} className={`sidebar-row line-${r.kind === 'group' ? 'folder' : 'file'}`} style={{ transform: `translateY(${item.start}px)`, height: HEIGHT[r.kind] }}>
                {r.kind === 'group' ? (
                  <div className="session-group" title={r.title} data-testid="session-group">
                    <GroupName label={r.label} />
                    {/* A group's cost adds its sessions' sub-agents, which its rows show only once unfolded: said on hover. */}
                    <span className="muted" data-testid="session-group-figures" title={`${formatNumber(r.sessions)} session${r.sessions === 1 ? '' : 's'}${r.costUsd > 0 ? `, ${formatUsd(r.costUsd)}${r.agentsCostUsd > 0 ? ` with their sub-agents (${formatUsd(r.agentsCostUsd)} of it; a session's row shows its own cost)` : ''}` : ''}`}>
                      {formatNumber(r.sessions)}
                      {r.costUsd > 0 ? ` · ${formatUsd(r.costUsd)}` : ''}
                    </span>
                  </div>
                ) : (
                  <SessionLine row={r} now={now} active={openPath === r.session.path && openIndex === r.session.conversation} tabStop={rowKey(r) === tabStop} onFocus={() => setFocused(rowKey(r))} open={() => void openConversation(r.session.path, r.session.conversation)} toggle={r.kind === 'session' && r.agents > 0 ? () => toggle(r.session.path) : undefined} />
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

/**
 * A group's name cut where it does not tell groups apart: a project's folders before its own name give way first
 * (`…/code/shop-admin` narrows to `…/shop-admin`, never to `…/code/shop-a…`).
 */
function GroupName({ label }: { label: string }) {
  const cut = label.search(/[^\\/]+$/);
  if (cut <= 0) return <span className="session-group-name">{label}</span>;
  return (
    <span className="session-group-name split">
      <span className="session-group-parent">{label.slice(0, cut)}</span>
      <span className="session-group-leaf">{label.slice(cut)}</span>
    </span>
  );
}

function SessionLine({ row, now, active, tabStop, onFocus, open, toggle }: { row: Extract<SessionRow, { kind: 'session' | 'agent' }>; now: number; active: boolean; tabStop: boolean; onFocus(): void; open(): void; toggle?: () => void }) {
  const s = row.session;
  const agent = row.kind === 'agent';
  const name = sessionName(s);
  const label = s.kind === 'subagent' ? agentLabel(s) : undefined;
  const when = lastActive(s);
  const agents = row.kind === 'session' && row.agents > 0 ? `${row.agents} sub-agent${row.agents === 1 ? '' : 's'}` : undefined;
  // What tells sessions apart first (when, how much, what it cost); the tool, the same down a project, last.
  const figures = [relativeTime(when, now), `${formatNumber(s.messages)} msg`, sessionCostText(s) || undefined, s.secrets ? `⚠ ${s.secrets} secret${s.secrets === 1 ? '' : 's'}` : undefined, agents, s.tool].filter((f): f is string => !!f);
  return (
    <div className={`session-line ${agent ? 'agent' : ''} ${active ? 'active' : ''}`}>
      {toggle ? (
        <button className="session-toggle" tabIndex={-1} aria-expanded={row.kind === 'session' && row.open} aria-label={`${row.kind === 'session' && row.open ? 'Hide' : 'Show'} its ${row.kind === 'session' && row.agents === 1 ? 'sub-agent' : `${row.kind === 'session' ? row.agents : 0} sub-agents`}`} onClick={toggle}>
          {row.kind === 'session' && row.open ? '▾' : '▸'}
        </button>
      ) : (
        <span className="session-toggle" aria-hidden="true" />
      )}
      <button className="session-open" data-testid={agent ? 'agent-item' : 'session-item'} data-path={s.path} data-key={`${s.path}#${s.conversation}`} tabIndex={tabStop ? 0 : -1} onFocus={onFocus} aria-expanded={row.kind === 'session' && row.agents > 0 ? row.open : undefined} aria-current={active ? 'true' : undefined} onClick={open} title={`${s.title ?? name}\n${s.path}${s.project ? `\nin ${s.project}` : ''}${s.tool ? `\n${s.tool}` : ''}${agents ? `\n${agents}` : ''}${s.models.length ? `\n${s.models.join(', ')}` : ''}${s.lastAt ? `\nlast active ${new Date(when).toLocaleString()}` : ''}`}>
        <span className="session-title">
          {/* Under its session, the arrow says what it is; on its own (its session filtered out), the words do. */}
          {agent ? `↳ ${label ? `${label} · ` : ''}` : s.kind === 'subagent' ? `${label ?? 'sub-agent'} · ` : ''}
          {name}
        </span>
        {/* Each figure whole or not at all (never "Claud…"): one that does not fit wraps onto a line the row hides. */}
        <span className="session-figures muted">
          {figures.map((f, i) => (
            <span key={i}>{i === 0 ? f : ` · ${f}`}</span>
          ))}
        </span>
      </button>
    </div>
  );
}
