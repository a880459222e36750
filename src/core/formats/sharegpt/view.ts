import { isPlainObject, lineage } from '../../message.js';
import { normalizeRole, type MessageView, type Part } from '../model.js';

/** Records that stand for a key of the conversation rather than a turn of its list. */
export type Extra = 'system' | 'chosen' | 'rejected';
const extras = new WeakMap<object, Extra>();

export function markExtra(record: object, extra: Extra): void {
  extras.set(record, extra);
}

export function extraOf(record: unknown): Extra | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  for (const r of lineage(record)) {
    const e = extras.get(r);
    if (e) return e;
  }
  return undefined;
}

/** How LLaMA-Factory joins the results of parallel calls into one observation turn. */
export const RESULT_SEPARATOR = '\n</tool_response>\n<tool_response>\n';

const ROLE: Record<string, string> = { human: 'user', user: 'user', gpt: 'assistant', assistant: 'assistant', system: 'system', function_call: 'assistant', observation: 'tool', tool: 'tool' };

/** A ShareGPT turn `{from, value}`; `function_call` turns are calls (their value is the call's JSON), `observation` results. */
export function shareGptView(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const from = typeof r.from === 'string' ? r.from : '?';
  const value = typeof r.value === 'string' ? r.value : JSON.stringify(r.value ?? '');
  let parts: Part[] = value === '' ? [] : [{ kind: 'text', text: value }];
  if (from === 'function_call') {
    parts = [{ kind: 'tool-call', name: '', arguments: value }];
    try {
      // One call, or parallel calls as a list (LLaMA-Factory's layout).
      const parsed = JSON.parse(value) as unknown;
      const calls = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ name?: unknown; arguments?: unknown }>;
      if (calls.length > 0 && calls.every((c) => isPlainObject(c))) parts = calls.map((c) => ({ kind: 'tool-call', name: String(c.name ?? ''), arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}) }));
    } catch {
      // a call that is not JSON is shown as its text
    }
  } else if (from === 'observation' || from === 'tool') parts = value.split(RESULT_SEPARATOR).map((text) => ({ kind: 'tool-result', text }));
  const extra = extraOf(record);
  return { role: from, normalRole: normalizeRole(ROLE[from] ?? from), parts, category: extra === 'chosen' || extra === 'rejected' ? extra : undefined };
}

const FROM: Record<string, string> = { user: 'human', assistant: 'gpt', system: 'system', tool: 'observation', other: 'human' };

export function shareGptFromView(view: MessageView): Record<string, unknown> {
  const calls = view.parts.filter((p) => p.kind === 'tool-call');
  const hasText = view.parts.some((p) => p.kind === 'text' && p.text !== '');
  if (calls.length > 0 && !hasText) {
    const values = calls.map((call) => {
      let args: unknown = call.arguments;
      try {
        args = JSON.parse(call.arguments);
      } catch {
        // kept as a string
      }
      return { name: call.name, arguments: args };
    });
    return { from: 'function_call', value: JSON.stringify(values.length === 1 ? values[0] : values) };
  }
  const results = view.parts.filter((p) => p.kind === 'tool-result');
  if (results.length > 0 && results.length === view.parts.length) return { from: 'observation', value: results.map((r) => r.text).join(RESULT_SEPARATOR) };
  const text = view.parts
    .map((p) => (p.kind === 'text' || p.kind === 'tool-result' || p.kind === 'unknown' ? p.text : p.kind === 'tool-call' ? `${p.name}(${p.arguments})` : ''))
    .filter((t) => t !== '')
    .join('\n');
  return { from: FROM[view.normalRole] ?? 'human', value: text };
}

export function shareGptLoses(view: MessageView): string[] {
  const lost: string[] = [];
  if (view.parts.some((p) => p.kind === 'reasoning')) lost.push('reasoning');
  if (view.timestamp) lost.push('timestamps');
  return lost;
}

export function shareGptWithText(record: unknown, text: string): unknown {
  return isPlainObject(record) && typeof record.value === 'string' && record.from !== 'function_call' ? { ...record, value: text } : undefined;
}

/** An emptied system prompt is no message: the reader skips an empty `system`, so a save cannot keep one. */
export function shareGptVanishes(record: unknown): boolean {
  return extraOf(record) === 'system' && isPlainObject(record) && record.value === '';
}

/** A conversation object's records: the system prompt, the turns, then the preferred and rejected answers. */
export function recordsOfConversation(conv: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  if (typeof conv.system === 'string' && conv.system !== '') {
    const sys = { from: 'system', value: conv.system };
    markExtra(sys, 'system');
    out.push(sys);
  }
  for (const t of conv.conversations as unknown[]) out.push(t);
  for (const key of ['chosen', 'rejected'] as const) {
    if (isPlainObject(conv[key])) {
      markExtra(conv[key] as object, key);
      out.push(conv[key]);
    }
  }
  return out;
}

/** The conversation object holding `records`: extras go back to their keys, the rest into `conversations`. */
export function assembleConversation(conv: Record<string, unknown>, records: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...conv };
  const turns: unknown[] = [];
  let system: string | undefined;
  for (const r of records) {
    const extra = extraOf(r);
    if (extra === 'system') system = isPlainObject(r) && typeof r.value === 'string' ? r.value : '';
    else if (extra === 'chosen' || extra === 'rejected') out[extra] = r;
    else turns.push(r);
  }
  out.conversations = turns;
  if (system !== undefined) out.system = system;
  else if (typeof conv.system === 'string' && conv.system !== '') delete out.system;
  for (const key of ['chosen', 'rejected'] as const) if (conv[key] !== undefined && !records.some((r) => extraOf(r) === key)) delete out[key];
  return out;
}

const RANK: Record<string, number> = { system: 0, chosen: 2, rejected: 3 };

/** System prompt first, then the turns, then the preferred and the rejected answer: where the format keeps them. */
export function shareGptOrder(records: readonly unknown[]): unknown[] {
  return records
    .map((r, i) => ({ r, i, rank: RANK[extraOf(r) ?? ''] ?? 1 }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.r);
}
