import { callUsd } from '../usage.js';
import type { ReportedUsage } from '../formats/model.js';
import type { CallFacts } from './facts.js';

/** A call's figures, without where it is. */
export type CallFigures = Omit<CallFacts, 'conversation' | 'key' | 'index' | 'at' | 'day' | 'costUsd'>;

/** Days by the minute they were worked out for: a zone's offset is whole minutes, so a minute is in one day. */
const daysByMinute = new Map<string, string | undefined>();

/** The local calendar day of an ISO time, as the usage view groups calls. */
export function localDay(at: string | undefined): string | undefined {
  if (!at) return undefined;
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:[0-5]\d(\.\d+)?)?Z$/.test(at)) {
    const minute = at.slice(0, 16);
    if (daysByMinute.has(minute)) return daysByMinute.get(minute);
    if (daysByMinute.size > 100_000) daysByMinute.clear();
    const day = dayOf(at);
    daysByMinute.set(minute, day);
    return day;
  }
  return dayOf(at);
}

function dayOf(at: string): string | undefined {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return undefined;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** A call's figures as the usage module reads them. */
export const reportedOf = (c: CallFigures): ReportedUsage => ({ model: c.model, input: c.input, output: c.output, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite, cacheWrite1h: c.cacheWrite1h || undefined, reasoning: c.reasoning, calls: c.n === 1 ? undefined : c.n });

/** One call's price at list prices, or undefined when its model has none. */
export function callCost(c: CallFigures): number | undefined {
  return c.model ? callUsd(reportedOf(c)) : undefined;
}

/**
 * Each call's day and price worked out where the file was read (a reader thread), so that the thread writing
 * the catalog only inserts them.
 */
export function withDayAndCost(calls: CallFacts[]): CallFacts[] {
  for (const c of calls) {
    c.day = localDay(c.at) ?? null;
    c.costUsd = callCost(c) ?? null;
  }
  return calls;
}
