/** A text that is a JSON object (a tool's arguments, a result some tools wrap), parsed; undefined for any other text. */
export function jsonObjectIn(text: string): Record<string, unknown> | undefined {
  if (text.length > 200_000 || !/^\s*\{/.test(text)) return undefined;
  try {
    const o = JSON.parse(text) as unknown;
    return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a tool result says, for a one-line look at it: a result some tools wrap in JSON (older Codex rollouts
 * wrote `{"output": "...", "metadata": {"exit_code": 0, ...}}`) shows its output; any other text is itself. What
 * the model was sent (and what is counted) stays the text as written.
 */
export function resultHeadline(text: string): string {
  const o = jsonObjectIn(text);
  const inner = o && INNER_KEYS.map((k) => o[k]).find((v) => typeof v === 'string' && v.trim() !== '');
  return typeof inner === 'string' ? inner : text;
}

const INNER_KEYS = ['output', 'stdout', 'content', 'result', 'text'];
