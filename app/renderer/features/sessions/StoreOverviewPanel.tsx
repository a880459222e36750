import { useMemo } from 'react';
import { sessionCostText } from '../../../../src/core/catalog/session-cost.js';
import { formatUsd } from '../../../../src/core/usage.js';
import type { SessionEntry } from '../../../shared/contract.js';
import { useApp } from '../../store/index.js';
import { filtering } from '../../store/catalog.js';
import { shortcutOf } from '../commands/registry.js';
import { formatNumber } from '../roles.js';
import { agentsText, lastActive, relativeTime, sessionName } from './session-rows.js';
import { storeOverview } from './store-overview.js';

const day = (t: number) => new Date(t).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * Before a session is chosen, what the opened folders hold: how many sessions, what they cost, by which tools and
 * over what time, the ones last active and the costliest a click away (as the sidebar's filters narrow them).
 */
export function StoreOverviewPanel() {
  const answer = useApp((s) => s.sessionsAnswer);
  const filters = useApp((s) => s.sessionFilters);
  const open = useApp((s) => s.openConversation);
  const openUsage = useApp((s) => s.setUsageOpen);
  const openSearch = useApp((s) => s.setSearchAllOpen);
  const o = useMemo(() => (answer ? storeOverview(answer.sessions) : undefined), [answer]);
  if (!o || o.sessions + o.agents === 0) return null;
  const now = Date.now();
  const line = (s: SessionEntry) => (
    <li key={`${s.path}#${s.conversation}`}>
      <button className="link overview-session" data-testid="overview-session" data-path={s.path} onClick={() => void open(s.path, s.conversation)} title={s.path}>
        {sessionName(s)}
      </button>
      <span className="muted"> · {[relativeTime(lastActive(s), now), sessionCostText(s) || undefined, s.tool].filter(Boolean).join(' · ')}</span>
    </li>
  );
  return (
    <section className="store-overview" data-testid="store-overview" aria-label="What the opened folders hold">
      <h2>
        {formatNumber(o.sessions)} {o.sessions === 1 ? 'session' : 'sessions'}
        {agentsText(o.agents, o.looseAgents)}
        {filtering(filters) ? ' (with the sidebar’s filters)' : ''}
      </h2>
      <p data-testid="overview-figures">
        {formatNumber(o.messages)} messages in sessions
        {o.costUsd > 0 ? ` · ${o.costFloor ? '≥ ' : ''}${formatUsd(o.costUsd)} at list prices` : ''}
        {o.from !== undefined && o.to !== undefined ? ` · ${day(o.from)} – ${day(o.to)}` : ''}
      </p>
      <p className="muted" data-testid="overview-tools">
        {o.tools.map(([tool, n]) => `${tool} ${formatNumber(n)}`).join(' · ')}
      </p>
      <div className="overview-lists">
        <div>
          <h3>Last active</h3>
          <ul>{o.recent.map(line)}</ul>
        </div>
        {o.costliest.length > 0 && (
          <div>
            <h3>Costliest</h3>
            <ul>{o.costliest.map(line)}</ul>
          </div>
        )}
      </div>
      <p>
        <button className="link" onClick={() => openUsage(true)}>
          Usage by day, project, model and tool…
        </button>
        {' · '}
        <button className="link" onClick={() => openSearch(true)}>
          Search every conversation{shortcutOf('search-all') ? ` (${shortcutOf('search-all')})` : ''}
        </button>
      </p>
    </section>
  );
}
