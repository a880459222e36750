import { formatUsd } from '../usage.js';

/**
 * A session's cost as the lists say it: blank for a session of no reported call, "no price" where none of its
 * calls' models has one, "≥" where some calls are not priced or record no input, else the sum. The app's session
 * list and the CLI's `sessions` say it alike, as `usage` says its rows.
 */
export function sessionCostText(s: { calls: number; inputCalls: number; costUsd?: number; unpriced: readonly string[] }): string {
  if (s.calls === 0) return '';
  if (s.costUsd === undefined) return s.unpriced.length > 0 ? 'no price' : '';
  return `${s.unpriced.length > 0 || s.inputCalls < s.calls ? '≥ ' : ''}${formatUsd(s.costUsd)}`;
}
