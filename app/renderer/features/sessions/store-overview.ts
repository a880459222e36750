import type { SessionEntry } from '../../../shared/contract.js';
import { lastActive, looseAgents } from './session-rows.js';

/** What the opened folders hold, told before a session is chosen: from the session list's own answer. */
export interface StoreOverview {
  sessions: number;
  agents: number;
  /** Of them, those listed on their own (their session is not here). */
  looseAgents: number;
  messages: number;
  /** The reported cost added up, and whether some of it is missing (calls of no price, or no input recorded). */
  costUsd: number;
  costFloor: boolean;
  /** Sessions by tool, the most first. */
  tools: Array<[string, number]>;
  /** First and last activity (ms), where any session says. */
  from?: number;
  to?: number;
  recent: SessionEntry[];
  costliest: SessionEntry[];
}

const SHOWN = 5;

export function storeOverview(all: readonly SessionEntry[]): StoreOverview {
  const sessions = all.filter((s) => s.kind === 'session');
  const agents = all.filter((s) => s.kind === 'subagent');
  let costUsd = 0;
  let costFloor = false;
  let messages = 0;
  let from: number | undefined;
  let to: number | undefined;
  const tools = new Map<string, number>();
  for (const s of all) {
    messages += s.messages;
    if (s.costUsd !== undefined) costUsd += s.costUsd;
    if (s.calls > 0 && (s.costUsd === undefined || s.unpriced.length > 0 || s.inputCalls < s.calls)) costFloor = true;
    const first = s.firstAt ? Date.parse(s.firstAt) : NaN;
    const last = lastActive(s);
    if (!Number.isNaN(first) && (from === undefined || first < from)) from = first;
    if (Number.isFinite(last) && last > 0 && (to === undefined || last > to)) to = last;
  }
  for (const s of sessions) tools.set(s.tool ?? s.formatLabel ?? 'other', (tools.get(s.tool ?? s.formatLabel ?? 'other') ?? 0) + 1);
  const byRecent = [...sessions].sort((a, b) => lastActive(b) - lastActive(a));
  // Sessions whose sub-agents cost with them: a session's own figure, as the list gives it.
  const byCost = sessions.filter((s) => (s.costUsd ?? 0) > 0).sort((a, b) => (b.costUsd ?? 0) - (a.costUsd ?? 0));
  return {
    sessions: sessions.length,
    agents: agents.length,
    looseAgents: looseAgents(all),
    messages,
    costUsd,
    costFloor,
    tools: [...tools].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    recent: byRecent.slice(0, SHOWN),
    costliest: byCost.slice(0, SHOWN),
  };
}
