import { contentText, isPlainObject, type Message } from '../message.js';
import { displayText, type MessageView } from '../formats/model.js';

/** What an offline summary reads of a message: who, what kind of turn, its words, and the tools it touches. */
export interface SummaryItem {
  role: string;
  kind: 'request' | 'answer' | 'result' | 'system';
  text: string;
  calls: Array<{ id?: string; name: string }>;
  /** For a tool result: the call it answers (when the file says), and whether it reports a failure. */
  answers?: string;
  failed?: boolean;
  /** For a tool result without a call to link it to: the tool it names itself (swarms tool messages). */
  tool?: string;
}

/** A result that says which tool it comes from: `{"tool": "search_logs", …}`, Python's `{'tool': …}` too. */
const TOOL_NAME = /^\s*\{\s*['"](?:tool|tool_name|name)['"]\s*:\s*['"]([\w.:-]{1,64})['"]/;

const FAILURE = /^\s*(error|exception|traceback|failed|failure|fatal)\b|"is_error"\s*:\s*true/i;

function callsOf(m: Message): SummaryItem['calls'] {
  const calls: SummaryItem['calls'] = [];
  const list = (m as { tool_calls?: unknown }).tool_calls;
  if (Array.isArray(list)) {
    for (const c of list) {
      if (!isPlainObject(c)) continue;
      const fn = isPlainObject(c.function) ? c.function : c;
      if (typeof fn.name === 'string') calls.push({ id: typeof c.id === 'string' ? c.id : undefined, name: fn.name });
    }
  }
  // Typed content blocks (Anthropic's shape) kept in a swarms message.
  if (Array.isArray(m.content)) {
    for (const b of m.content) if (isPlainObject(b) && b.type === 'tool_use' && typeof b.name === 'string') calls.push({ id: typeof b.id === 'string' ? b.id : undefined, name: b.name });
  }
  return calls;
}

function kindOf(role: string, m: Message): SummaryItem['kind'] {
  const r = role.toLowerCase();
  if (r === 'user' || r === 'human') return 'request';
  if (r === 'system' || r === 'developer') return 'system';
  if (r === 'tool' || r === 'function' || r === 'ipython' || /\btool\b/.test(r) || typeof (m as { tool_call_id?: unknown }).tool_call_id === 'string') return 'result';
  return 'answer';
}

/** What a tool result says of itself: the call it answers, whether it failed, the tool it names. */
function asResult(item: SummaryItem, found: { callId?: string; isError?: boolean; name?: string }): SummaryItem {
  const head = item.text.slice(0, 200);
  if (found.callId) item.answers = found.callId;
  item.failed = found.isError === true || FAILURE.test(head);
  const named = found.name ?? TOOL_NAME.exec(head)?.[1];
  if (named) item.tool = named;
  return item;
}

/** A message as the summary reads it (swarms messages, and the OpenAI-shaped ones other formats are given as). */
export function summaryItemOf(m: Message): SummaryItem {
  const role = String(m.role);
  const kind = kindOf(role, m);
  const text = contentText(m.content);
  const item: SummaryItem = { role, kind, text, calls: callsOf(m) };
  if (kind !== 'result') return item;
  const { tool_call_id: id, is_error: isError, name } = m as { tool_call_id?: unknown; is_error?: unknown; name?: unknown };
  return asResult(item, { callId: typeof id === 'string' ? id : undefined, isError: isError === true, name: typeof name === 'string' ? name : undefined });
}

/** A message of any format as the summary reads it, from its view: calls and results by their parts. */
export function summaryItemOfView(v: MessageView): SummaryItem {
  const calls: SummaryItem['calls'] = [];
  let result: Extract<MessageView['parts'][number], { kind: 'tool-result' }> | undefined;
  for (const p of v.parts) {
    if (p.kind === 'tool-call') calls.push({ id: p.id, name: p.name });
    else if (p.kind === 'tool-result') result ??= p;
  }
  const hasText = v.parts.some((p) => p.kind === 'text' && p.text.trim() !== '');
  // A user record that only carries results (Anthropic, Claude Code) is a tool's turn, not a request.
  const kind: SummaryItem['kind'] = result && !hasText ? 'result' : v.normalRole === 'user' ? 'request' : v.normalRole === 'system' ? 'system' : v.normalRole === 'tool' ? 'result' : 'answer';
  const item: SummaryItem = { role: v.role, kind, text: kind === 'result' ? (result?.text ?? displayText(v)) : hasText ? displayText(v) : '', calls };
  return kind === 'result' ? asResult(item, { callId: result?.callId, isError: result?.isError }) : item;
}
