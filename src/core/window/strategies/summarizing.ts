import { numberParam, PlanBuilder, toolIndex } from '../plan-builder.js';
import type { WindowStrategy } from '../types.js';

export const SUMMARIZING_DEFAULTS = {
  contextWindowTokens: 50_000,
  keepRecentMessages: 10,
  softThresholdTokens: 4_000,
  summaryModel: 'claude-haiku-4-5',
  summaryRole: 'System',
};
/** Used when contextWindowTokens is null ("the model's window"): gpt-5.4's input window. */
export const MODEL_WINDOW_FALLBACK = 400_000;

export interface SummarizingParams extends Record<string, unknown> {
  contextWindowTokens: number | null;
  keepRecentMessages: number;
  softThresholdTokens: number;
  summaryModel: string;
  summaryRole: string;
  /** Tokens of the summary once its text exists; the plan counts it then. */
  summaryTokens: number | null;
  /** Summarise even under the thresholds (the spec's compact: everything but the static context). */
  force: boolean;
}

/**
 * Summarizing: once the history passes the soft threshold (or the hard window), everything except the static
 * context and the last `keepRecentMessages` (moved so no tool call is split from its result) becomes one summary.
 */
export const summarizing: WindowStrategy<SummarizingParams> = {
  id: 'summarizing',
  label: 'Summarizing',
  description: 'Past a soft threshold, older messages (not the static context or the most recent ones) become one summary.',
  summarises: true,
  params: [
    { key: 'contextWindowTokens', label: 'Context window (tokens)', kind: 'tokens', default: SUMMARIZING_DEFAULTS.contextWindowTokens, min: 1 },
    { key: 'keepRecentMessages', label: 'Keep recent messages', kind: 'count', default: SUMMARIZING_DEFAULTS.keepRecentMessages, min: 0 },
    { key: 'softThresholdTokens', label: 'Soft threshold (tokens)', kind: 'tokens', default: SUMMARIZING_DEFAULTS.softThresholdTokens, min: 0 },
    { key: 'summaryModel', label: 'Summary model', kind: 'text', default: SUMMARIZING_DEFAULTS.summaryModel },
  ],
  plan(skeleton, params) {
    const m = skeleton.messages;
    const rawWindow = params.contextWindowTokens;
    const contextWindowTokens = rawWindow === null ? null : numberParam(params, 'contextWindowTokens', SUMMARIZING_DEFAULTS.contextWindowTokens, 1);
    const window = contextWindowTokens ?? MODEL_WINDOW_FALLBACK;
    const keepRecent = numberParam(params, 'keepRecentMessages', SUMMARIZING_DEFAULTS.keepRecentMessages);
    const soft = numberParam(params, 'softThresholdTokens', SUMMARIZING_DEFAULTS.softThresholdTokens);
    const summaryRole = typeof params.summaryRole === 'string' ? params.summaryRole : SUMMARIZING_DEFAULTS.summaryRole;
    const summaryTokens = typeof params.summaryTokens === 'number' ? params.summaryTokens : null;
    const force = params.force === true;
    const echo = {
      contextWindowTokens,
      keepRecentMessages: keepRecent,
      softThresholdTokens: soft,
      summaryModel: typeof params.summaryModel === 'string' ? params.summaryModel : SUMMARIZING_DEFAULTS.summaryModel,
      ...(force ? { force } : {}),
    };
    const total = m.reduce((n, s) => n + s.tokens, 0);
    const b = new PlanBuilder(m, 'content');
    const allKept = () => {
      b.keepRange(0, m.length);
      return b.finish('summarizing', echo);
    };
    if (!force && total <= soft && total <= window) return allKept();

    let staticEnd = 0;
    while (staticEnd < m.length && m[staticEnd].isStatic) staticEnd++;
    let recentStart = Math.max(staticEnd, m.length - keepRecent);
    // Keep a tool exchange together: pull its call into the recent part rather than summarising half of it.
    // Results come after their calls, so one pass from the latest result backwards settles every pull.
    const { results } = toolIndex(m);
    for (let k = results.length - 1; k >= 0; k--) {
      const [r, call] = results[k];
      if (r >= recentStart && call >= staticEnd && call < recentStart) recentStart = call;
    }
    if (recentStart <= staticEnd) return allKept();

    b.keepRange(0, staticEnd);
    b.keepRange(recentStart, m.length);
    const replaces = new Array<number>(recentStart - staticEnd);
    for (let i = staticEnd; i < recentStart; i++) {
      b.summarise(i, 0);
      replaces[i - staticEnd] = i;
    }
    const inserted = [{ kind: 'summary' as const, role: summaryRole, before: staticEnd, replaces, tokens: summaryTokens }];
    const plan = b.finish('summarizing', echo, inserted);
    if (plan.totalAfter > window) {
      plan.warnings.push({ code: 'budget-exceeded', index: recentStart, message: `after summarising, ${plan.totalAfter} tokens still exceed the ${window}-token window` });
    }
    return plan;
  },
};
