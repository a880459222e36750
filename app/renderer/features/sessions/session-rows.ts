import { claudeAgentKind } from '../../../../src/core/sessions/agent-kind.js';
import type { SessionEntry } from '../../../shared/contract.js';
import { formatNumber } from '../roles.js';

export type SessionRow =
  | { kind: 'group'; key: string; label: string; title: string; sessions: number; costUsd: number; /** Of costUsd, what the sessions' sub-agents cost (their rows show it once unfolded). */ agentsCostUsd: number }
  | { kind: 'session'; key: string; session: SessionEntry; agents: number; open: boolean }
  | { kind: 'agent'; key: string; session: SessionEntry };

const DAY = 24 * 60 * 60 * 1000;

/** A session as the lists name it: its title, else (a title that says nothing) its file's name. */
export const sessionName = (s: Pick<SessionEntry, 'title' | 'path'>): string => (s.title && /[\p{L}\p{N}]/u.test(s.title) ? s.title : s.path.slice(s.path.lastIndexOf('/') + 1));

/**
 * What a sub-agent is called beside its title, where its file says: Codex's nickname ("Copernicus"), the kind of
 * helper a Claude Code agent file's id names (`aprompt_suggestion-…`: "prompt suggestion"). A plain id says nothing.
 */
export function agentLabel(s: Pick<SessionEntry, 'agentId'>): string | undefined {
  const id = s.agentId;
  if (!id) return undefined;
  const kind = claudeAgentKind(id);
  if (kind !== 'sub-agent') return kind;
  return /^\p{Lu}\p{Ll}+$/u.test(id) ? id : undefined;
}

/** When a session was last active: its last message's time, else its file's. */
export const lastActive = (s: SessionEntry): number => {
  const t = s.lastAt ? Date.parse(s.lastAt) : NaN;
  return Number.isNaN(t) ? s.modifiedMs : t;
};

const startOfDay = (t: number) => {
  const d = new Date(t);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
};

/** The time group a moment falls in, seen from `now`: Today, Yesterday, the last 7 days, then by month. */
export function timeGroup(t: number, now: number): { key: string; label: string } {
  const today = startOfDay(now);
  if (t >= today) return { key: '0', label: 'Today' };
  if (t >= today - DAY) return { key: '1', label: 'Yesterday' };
  if (t >= today - 6 * DAY) return { key: '2', label: 'Last 7 days' };
  const d = new Date(t);
  const month = d.toLocaleString('en', { month: 'long', year: 'numeric' });
  return { key: `3-${9999 - d.getFullYear()}-${String(99 - d.getMonth()).padStart(2, '0')}`, label: month };
}

/** How long ago, briefly: "now", "5 min", "3 h", "yesterday", "4 d", then the date. */
export function relativeTime(t: number, now: number): string {
  const ago = now - t;
  if (ago < 60_000) return 'now';
  if (ago < 3_600_000) return `${Math.floor(ago / 60_000)} min`;
  if (t >= startOfDay(now)) return `${Math.floor(ago / 3_600_000)} h`;
  if (t >= startOfDay(now) - DAY) return 'yesterday';
  if (ago < 7 * DAY) return `${Math.ceil(ago / DAY)} d`;
  const d = new Date(t);
  return d.getFullYear() === new Date(now).getFullYear() ? d.toLocaleDateString('en', { month: 'short', day: 'numeric' }) : d.toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A project's folder as the list names it: its last two parts (the whole path on hover). */
export function projectLabel(project: string): string {
  const parts = project.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? project : `…/${parts.slice(-2).join('/')}`;
}

const projectOf = (s: SessionEntry) => s.project ?? (s.path.includes('/') ? s.path.slice(0, s.path.lastIndexOf('/')) : '(this folder)');

/** Sub-agents the list shows on their own: their session is not listed (not in the opened folders, or filtered out). */
export function looseAgents(sessions: readonly SessionEntry[]): number {
  const listed = new Set(sessions.filter((s) => s.kind === 'session').map((s) => s.path));
  return sessions.filter((s) => s.kind === 'subagent' && !(s.parentPath && listed.has(s.parentPath))).length;
}

/**
 * "8 sub-agents", and how many of them the list shows on their own, their session not in it (not in the opened
 * folders, or filtered out): so that the list's lines add up to the count.
 */
export function agentsText(agents: number, loose: number): string {
  if (agents === 0) return '';
  const without = loose === 0 ? '' : loose === agents ? ` (without ${agents === 1 ? 'its session' : 'their sessions'})` : ` (${formatNumber(loose)} without ${loose === 1 ? 'its session' : 'their sessions'})`;
  return ` · ${formatNumber(agents)} sub-agent${agents === 1 ? '' : 's'}${without}`;
}

/**
 * The Sessions list as lines: a heading per project (or time group), each session under it (most recently
 * active first) and, when it is open, its sub-agents under it. A sub-agent whose session is not listed (a
 * filter left it out) stands on its own.
 */
export function sessionRows(sessions: readonly SessionEntry[], group: 'project' | 'time', open: ReadonlySet<string>, now: number): SessionRow[] {
  const listed = new Set(sessions.filter((s) => s.kind === 'session').map((s) => s.path));
  const agents = new Map<string, SessionEntry[]>();
  const tops: SessionEntry[] = [];
  for (const s of sessions) {
    if (s.kind === 'subagent' && s.parentPath && listed.has(s.parentPath)) {
      const list = agents.get(s.parentPath) ?? [];
      list.push(s);
      agents.set(s.parentPath, list);
    } else tops.push(s);
  }
  const groups = new Map<string, { label: string; title: string; sessions: SessionEntry[]; last: number }>();
  for (const s of tops) {
    const at = lastActive(s);
    const g = group === 'time' ? { ...timeGroup(at, now), title: '' } : { key: projectOf(s), label: projectLabel(projectOf(s)), title: projectOf(s) };
    const kept = groups.get(g.key) ?? { label: g.label, title: g.title || g.label, sessions: [], last: 0 };
    kept.sessions.push(s);
    kept.last = Math.max(kept.last, at);
    groups.set(g.key, kept);
  }
  // Time groups in time order; projects by their most recent session.
  const order = [...groups.entries()].sort(([a, x], [b, y]) => (group === 'time' ? (a < b ? -1 : a > b ? 1 : 0) : y.last - x.last || (a < b ? -1 : 1)));
  const rows: SessionRow[] = [];
  for (const [key, g] of order) {
    const agentsCostUsd = g.sessions.reduce((n, s) => n + (agents.get(s.path) ?? []).reduce((m, a) => m + (a.costUsd ?? 0), 0), 0);
    const costUsd = g.sessions.reduce((n, s) => n + (s.costUsd ?? 0), 0) + agentsCostUsd;
    rows.push({ kind: 'group', key: `g:${key}`, label: g.label, title: g.title, sessions: g.sessions.length, costUsd, agentsCostUsd });
    g.sessions.sort((a, b) => lastActive(b) - lastActive(a) || (a.path < b.path ? -1 : 1));
    for (const s of g.sessions) {
      const under = agents.get(s.path) ?? [];
      const isOpen = open.has(s.path);
      rows.push({ kind: 'session', key: `s:${s.path}:${s.conversation}`, session: s, agents: under.length, open: isOpen });
      if (isOpen) for (const a of under) rows.push({ kind: 'agent', key: `a:${a.path}:${a.conversation}`, session: a });
    }
  }
  return rows;
}

