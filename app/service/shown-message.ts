import type { MessageView } from '../../src/core/formats/model.js';

/** How much of one message the detail pane is sent at first: a message of many megabytes waits for "Show all". */
export const SHOW_LIMIT = 256 * 1024;

const cut = (s: string) => (s.length > SHOW_LIMIT ? s.slice(0, SHOW_LIMIT) : s);

/** A value with every string longer than the limit cut to it (records, parts). */
function cutStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cut(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = cutStrings(v, depth + 1);
  return out;
}

export interface ShownMessage {
  message: Record<string, unknown>;
  view: MessageView;
  text: string;
  raw: string;
  /** The full sizes, when what is sent is cut. */
  truncated?: { text: number; raw: number };
}

/** A message as the detail pane is first sent it: whole, or (past the limit) with its long strings cut. */
export function shownMessage(m: ShownMessage, full: boolean): ShownMessage {
  if (full || (m.raw.length <= SHOW_LIMIT && m.text.length <= SHOW_LIMIT)) return m;
  return {
    message: cutStrings(m.message) as Record<string, unknown>,
    view: cutStrings(m.view) as MessageView,
    text: cut(m.text),
    raw: cut(m.raw),
    truncated: { text: m.text.length, raw: m.raw.length },
  };
}
