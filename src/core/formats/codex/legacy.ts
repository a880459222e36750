import { isPlainObject } from '../../message.js';

/**
 * Codex rollouts before `session_meta` (codex-rs until the end of August 2025): a first line of the session
 * itself (`{id, timestamp, instructions, git}`), then each response item as it is, bare (`{type: "message",
 * role, content}`, `{type: "function_call", …}`), and `{record_type: "state"}` lines between turns. Newer ones
 * wrap each item as `{timestamp, type: "response_item", payload}`.
 */

/** The response item types a rollout records. */
const ITEMS = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'web_search_call', 'tool_search_call', 'tool_search_output']);

/** A response item as a legacy rollout writes it: bare, on its own line. */
export const isLegacyItem = (v: unknown): v is Record<string, unknown> => isPlainObject(v) && typeof v.type === 'string' && ITEMS.has(v.type) && !('payload' in v) && !('record_type' in v);

/** A legacy rollout's first line: the session's id and start, its instructions and git state; no type. */
export const isLegacyHeader = (v: unknown): v is Record<string, unknown> => isPlainObject(v) && !('type' in v) && typeof v.id === 'string' && typeof v.timestamp === 'string';

/** A head that opens as a legacy rollout does (serde writes the session's id, then its timestamp). */
export const LEGACY_HEAD = /^\s*\{\s*"id"\s*:\s*"[^"]*"\s*,\s*"timestamp"\s*:\s*"[^"]*"\s*[,}]/;

/** The response item a record holds: a newer line's payload, or the legacy line itself. */
export function itemOf(record: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(record)) return undefined;
  if (isPlainObject(record.payload)) return record.payload;
  return isLegacyItem(record) ? record : undefined;
}

/** The folder a session ran in, as Codex told the model in its first environment_context. */
export function cwdOfContext(values: readonly unknown[]): string | undefined {
  for (const v of values.slice(0, 40)) {
    const item = itemOf(v);
    if (!item || item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const b of item.content) {
      const m = isPlainObject(b) && typeof b.text === 'string' ? /<environment_context>[\s\S]*?<cwd>([^<]*)<\/cwd>/.exec(b.text) : null;
      if (m) return m[1].trim();
    }
  }
  return undefined;
}
