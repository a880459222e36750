import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useShallow } from 'zustand/react/shallow';
import { formatUsd } from '../../../../src/core/usage.js';
import { useApp } from '../../store/index.js';
import { formatNumber } from '../roles.js';
import { lastActive, relativeTime, sessionRows, type SessionRow } from './session-rows.js';

const HEIGHT: Record<SessionRow['kind'], number> = { group: 26, session: 44, agent: 40 };

/** A title that says nothing of the session: its file name is the better name then. */
const untitled = (t: string | undefined) => !t || !/[\p{L}\p{N}]/u.test(t);
const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

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
  // ↑/↓ between the rows' buttons, as in the file list.
  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button.session-open') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = buttons[at + (e.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };
  const building = status?.building ?? answer?.status.building;
  return (
    <div className="session-list-wrap">
      <div className="session-filters">
        <select aria-label="Group sessions" value={group} onChange={(e) => setSessionGroup(e.target.value as 'project' | 'time')}>
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
        <input type="date" aria-label="Sessions active since" value={filters.from ?? ''} onChange={(e) => setSessionFilters({ from: e.target.value || undefined })} />
        <button className="link" onClick={() => setUsageOpen(true)} title="Reported usage and cost over every session, by day, project, model and tool (Ctrl+K: Usage)">
          Usage…
        </button>
      </div>
      <p className="muted session-status" data-testid="session-status" aria-live="polite">
        {answer ? `${formatNumber(answer.total)} session${answer.total === 1 ? '' : 's'}` : 'Reading the sessions…'}
        {building && status ? ` · reading ${formatNumber(status.done)} of ${formatNumber(status.total)} files` : ''}
      </p>
      {error && <p className="error-text">{error}</p>}
      {answer && answer.total === 0 && !building && <p className="empty">No sessions here{filters.tool || filters.model || filters.from ? ' with these filters' : ''}.</p>}
      <div className="sidebar-list" ref={listRef} data-testid="session-list" data-rows={rows.length} onKeyDown={move}>
        <ul style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0 }}>
          {virtualizer.getVirtualItems().map((item) => {
            const r = rows[item.index];
            return (
              <li key={item.key} data-index={item.index} className={`sidebar-row line-${r.kind === 'group' ? 'folder' : 'file'}`} style={{ transform: `translateY(${item.start}px)`, height: HEIGHT[r.kind] }}>
                {r.kind === 'group' ? (
                  <div className="session-group" title={r.title} data-testid="session-group">
                    <span className="session-group-name">{r.label}</span>
                    <span className="muted">
                      {formatNumber(r.sessions)}
                      {r.costUsd > 0 ? ` · ${formatUsd(r.costUsd)}` : ''}
                    </span>
                  </div>
                ) : (
                  <SessionLine row={r} now={now} active={openPath === r.session.path && openIndex === r.session.conversation} open={() => void openConversation(r.session.path, r.session.conversation)} toggle={r.kind === 'session' && r.agents > 0 ? () => toggle(r.session.path) : undefined} />
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

function SessionLine({ row, now, active, open, toggle }: { row: Extract<SessionRow, { kind: 'session' | 'agent' }>; now: number; active: boolean; open(): void; toggle?: () => void }) {
  const s = row.session;
  const agent = row.kind === 'agent';
  const name = untitled(s.title) ? fileName(s.path) : s.title!;
  const when = lastActive(s);
  const figures = [relativeTime(when, now), `${formatNumber(s.messages)} msg`, s.costUsd !== undefined && s.costUsd > 0 ? formatUsd(s.costUsd) : undefined, s.tool].filter(Boolean).join(' · ');
  return (
    <div className={`session-line ${agent ? 'agent' : ''} ${active ? 'active' : ''}`}>
      {toggle ? (
        <button className="session-toggle" aria-expanded={row.kind === 'session' && row.open} aria-label={`${row.kind === 'session' && row.open ? 'Hide' : 'Show'} its ${row.kind === 'session' ? row.agents : 0} sub-agents`} onClick={toggle}>
          {row.kind === 'session' && row.open ? '▾' : '▸'}
        </button>
      ) : (
        <span className="session-toggle" aria-hidden="true" />
      )}
      <button className="session-open" data-testid={agent ? 'agent-item' : 'session-item'} data-path={s.path} aria-current={active ? 'true' : undefined} onClick={open} title={`${s.title ?? name}\n${s.path}${s.project ? `\nin ${s.project}` : ''}${s.models.length ? `\n${s.models.join(', ')}` : ''}${s.lastAt ? `\nlast active ${new Date(when).toLocaleString()}` : ''}`}>
        <span className="session-title">
          {agent ? `↳ ${s.agentId ? 'sub-agent · ' : ''}` : ''}
          {name}
        </span>
        <span className="session-figures muted">
          {figures}
          {row.kind === 'session' && row.agents > 0 ? ` · ${row.agents} sub-agent${row.agents === 1 ? '' : 's'}` : ''}
        </span>
      </button>
    </div>
  );
}
