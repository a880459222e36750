import { isPlainObject } from '../../message.js';
import { argumentsText } from '../content-parts.js';
import { looseText, sentText, type MessageView, type Part } from '../model.js';

/**
 * The `timeline` of a Copilot CLI session from before 0.0.342: what the terminal showed, one entry each
 * `{id, timestamp, type}`: `user` (`text` as typed, `expandedText` with mentions expanded, `imageAttachments`),
 * `copilot` (the model's `text`), `tool_call_requested` (`callId`, `name`, `toolTitle`, `intentionSummary`,
 * `arguments`), `tool_call_completed` (the same, and `result: {type: "success" | …, log}`) and `info` (a notice:
 * "Operation cancelled by user"). A session whose `chatMessages` were not kept is read from it.
 */
type Entry = Record<string, unknown>;

const TYPES = new Set(['user', 'copilot', 'tool_call_requested', 'tool_call_completed', 'info']);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A timeline entry (not a chat message: those have a role). */
export const isTimelineEntry = (v: unknown): v is Entry => isPlainObject(v) && typeof v.type === 'string' && !('role' in v);

/** Whether a timeline reads as one: at least one entry of a type the CLI wrote. */
export const holdsTimeline = (list: readonly unknown[]): boolean => list.some((e) => isTimelineEntry(e) && TYPES.has(e.type as string));

/** Completions whose call the timeline never recorded as requested: the call is shown with its result. */
const lone = new WeakSet<object>();

/** Notes the completions with no request before them (the CLI recorded some runs only once they finished). */
export function noteLoneCompletions(entries: readonly unknown[]): void {
  const requested = new Set<string>();
  for (const e of entries) {
    if (!isTimelineEntry(e)) continue;
    const id = str(e.callId);
    if (e.type === 'tool_call_requested' && id) requested.add(id);
    if (e.type === 'tool_call_completed' && !(id && requested.has(id))) lone.add(e);
  }
}

const callOf = (e: Entry): Part => ({ kind: 'tool-call', id: str(e.callId), name: str(e.name) ?? str(e.toolTitle) ?? '', arguments: argumentsText(e.arguments ?? {}) });

export function timelineView(record: unknown): MessageView {
  const e = isTimelineEntry(record) ? record : {};
  const type = str(e.type) ?? '?';
  const base = { timestamp: str(e.timestamp), id: str(e.id) };
  const text = (t: unknown): Part[] => (typeof t === 'string' && t !== '' ? [{ kind: 'text', text: t }] : []);
  switch (type) {
    case 'user': {
      const parts = text(e.text);
      for (const a of Array.isArray(e.imageAttachments) ? e.imageAttachments : []) {
        const ref = typeof a === 'string' ? a : isPlainObject(a) ? (str(a.path) ?? str(a.url) ?? str(a.name)) : undefined;
        parts.push({ kind: 'image', ref: ref ?? 'image' });
      }
      return { ...base, role: 'user', normalRole: 'user', parts };
    }
    case 'copilot':
      return { ...base, role: 'copilot', normalRole: 'assistant', parts: text(e.text) };
    case 'tool_call_requested':
      return { ...base, role: 'tool_call_requested', normalRole: 'assistant', parts: [callOf(e)] };
    case 'tool_call_completed': {
      const result = isPlainObject(e.result) ? e.result : {};
      const log = str(result.log) ?? (e.result === undefined ? '' : looseText(e.result));
      const done: Part = { kind: 'tool-result', callId: str(e.callId), text: log, isError: (result.type !== undefined && result.type !== 'success') || undefined };
      // A run the timeline has only as finished: its call and its result, as the model made and got them.
      if (lone.has(e)) return { ...base, role: 'tool_call_completed', normalRole: 'assistant', parts: [callOf(e), done] };
      return { ...base, role: 'tool_call_completed', normalRole: 'tool', parts: [done] };
    }
    case 'info':
      return { ...base, role: 'info', normalRole: 'other', parts: text(e.text), meta: true };
    default:
      return { ...base, role: type, normalRole: 'other', parts: [{ kind: 'unknown', type, text: JSON.stringify(e) }] };
  }
}

/** Arguments as Copilot keeps them: an object where the text is one, else the text. */
function argumentsValue(text: string): unknown {
  try {
    const v = JSON.parse(text) as unknown;
    if (isPlainObject(v)) return v;
  } catch {
    // not JSON: kept as the text it is
  }
  return text;
}

/** A timeline entry saying `v` (an entry of the type that holds it: a prompt, an answer, a call, a result). */
export function timelineFromView(v: MessageView): Entry {
  const base = { id: crypto.randomUUID(), timestamp: v.timestamp ?? new Date().toISOString() };
  const result = v.parts.find((p) => p.kind === 'tool-result');
  const call = v.parts.find((p) => p.kind === 'tool-call');
  if (result?.kind === 'tool-result') {
    const named = call?.kind === 'tool-call' ? { name: call.name, toolTitle: call.name, arguments: argumentsValue(call.arguments) } : {};
    return { ...base, type: 'tool_call_completed', callId: result.callId ?? '', ...named, result: { type: result.isError ? 'failure' : 'success', log: result.text } };
  }
  const text = sentText({ parts: v.parts.filter((p) => p.kind !== 'tool-call') });
  if (call?.kind === 'tool-call' && text === '') return { ...base, type: 'tool_call_requested', callId: call.id ?? `call_${Date.now()}`, name: call.name, toolTitle: call.name, arguments: argumentsValue(call.arguments) };
  if (v.normalRole === 'user') return { ...base, type: 'user', text };
  if (v.normalRole === 'other' || v.normalRole === 'system') return { ...base, type: 'info', text };
  return { ...base, type: 'copilot', text: sentText(v) };
}

export function timelineWithText(record: unknown, text: string): unknown {
  if (!isTimelineEntry(record) || typeof record.text !== 'string' || !['user', 'copilot', 'info'].includes(record.type as string)) return undefined;
  // What the model was sent with mentions expanded follows the prompt as typed.
  return { ...record, text, ...(typeof record.expandedText === 'string' ? { expandedText: text } : {}) };
}
