/**
 * What a tool result says, for a one-line look at it: a result some tools wrap in JSON (Codex before 0.30 wrote
 * `{"output": "...", "metadata": {"exit_code": 0, ...}}`) shows its output; any other text is itself. What the model
 * was sent (and what is counted) stays the text as written.
 */
export function resultHeadline(text: string): string {
  if (text.length > 200_000 || !/^\s*\{/.test(text)) return text;
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return text;
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return text;
  const inner = INNER_KEYS.map((k) => (o as Record<string, unknown>)[k]).find((v) => typeof v === 'string' && v.trim() !== '');
  return typeof inner === 'string' ? inner : text;
}

const INNER_KEYS = ['output', 'stdout', 'content', 'result', 'text'];
