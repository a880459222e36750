import { numberParam } from '../plan-builder.js';
import type { WindowStrategy } from '../types.js';
import { summarizing } from './summarizing.js';

export const AUTO_COMPACT_DEFAULTS = { contextWindowTokens: 200_000, compactAt: 0.92, keepRecentMessages: 0, fixedTokens: 0 };

/**
 * What Claude Code and Codex do to their own context: nothing until the conversation nears the model's
 * window, then the whole of it (but the last `keepRecentMessages`) becomes one summary. The summarizing
 * planner, with its threshold where the agent compacts.
 */
export const autoCompact: WindowStrategy = {
  id: 'auto-compact',
  label: 'Auto-compact (as the agent does)',
  description: 'Everything is sent until the conversation nears the model’s window; then it all becomes one summary, as Claude Code and Codex compact.',
  summarises: true,
  params: [
    { key: 'contextWindowTokens', label: 'Model window (tokens)', kind: 'tokens', default: AUTO_COMPACT_DEFAULTS.contextWindowTokens, min: 1 },
    { key: 'compactAt', label: 'Compacts at (share of the window)', kind: 'choice', choices: ['0.8', '0.85', '0.9', '0.92', '0.95'], default: String(AUTO_COMPACT_DEFAULTS.compactAt) },
    { key: 'keepRecentMessages', label: 'Keep recent messages', kind: 'count', default: AUTO_COMPACT_DEFAULTS.keepRecentMessages, min: 0 },
    // The agent compacts on what a request holds: its system prompt and tool schemas too, which the file does not keep.
    { key: 'fixedTokens', label: 'System prompt and tools (tokens)', kind: 'tokens', default: AUTO_COMPACT_DEFAULTS.fixedTokens, min: 0 },
  ],
  plan(skeleton, params) {
    const window = numberParam(params, 'contextWindowTokens', AUTO_COMPACT_DEFAULTS.contextWindowTokens, 1);
    const share = Number(params.compactAt ?? AUTO_COMPACT_DEFAULTS.compactAt);
    const at = Number.isFinite(share) && share > 0 && share <= 1 ? share : AUTO_COMPACT_DEFAULTS.compactAt;
    const keepRecentMessages = numberParam(params, 'keepRecentMessages', AUTO_COMPACT_DEFAULTS.keepRecentMessages);
    const fixed = numberParam(params, 'fixedTokens', AUTO_COMPACT_DEFAULTS.fixedTokens);
    // The messages get what the window leaves beside the system prompt and tools.
    const room = Math.max(1, window - fixed);
    const plan = summarizing.plan(skeleton, { contextWindowTokens: room, softThresholdTokens: Math.max(1, Math.floor(window * at) - fixed), keepRecentMessages, summaryRole: 'user' });
    // Said with the window as set (the planner saw only the room the system prompt and tools leave).
    for (const w of plan.warnings) {
      if (w.code !== 'budget-exceeded') continue;
      w.message = fixed > 0 ? `after compacting, ${plan.totalAfter} tokens and the ${fixed} of the system prompt and tools exceed the ${window}-token window` : `after compacting, ${plan.totalAfter} tokens still exceed the ${window}-token window`;
    }
    // The plan is fresh and its messages are made on first read: named as this strategy's, not copied.
    return Object.assign(plan, { strategy: 'auto-compact', params: { contextWindowTokens: window, compactAt: at, keepRecentMessages, fixedTokens: fixed } });
  },
};
