import { isPlainObject } from '../../message.js';
import { argumentsText, blockToPart } from '../content-parts.js';
import type { Codec, ConversationDocument, ConversationMeta } from '../codec.js';
import { looseText, normalizeRole, type MessageView, type Part } from '../model.js';
import { appendJsonlRecords, jsonlLineText, parseJsonlRecords, type JsonlRecordsBaseline } from '../shared/jsonl-document.js';
import { planJsonl, renderJsonl } from '../syntax/jsonl.js';
import { cwdOfContext, isLegacyHeader, isLegacyItem, itemOf, LEGACY_HEAD } from './legacy.js';
import { keepTwinsInStep } from './twins.js';
import { codexProblems } from './validity.js';

const usageOf = new WeakMap<object, MessageView['usage']>();
const MODEL_ITEMS = new Set(['message', 'reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);

function outputText(output: unknown): { text: string; isError?: boolean } {
  if (typeof output === 'string') return { text: output };
  if (isPlainObject(output)) return { text: looseText(output.content ?? output), isError: output.success === false || undefined };
  return { text: looseText(output) };
}

/**
 * A `compacted` line: Codex replaced the history before it with a summary (its `message`, or the
 * `replacement_history` it now sends), or with the provider's own encrypted one (remote compaction).
 */
function compactedView(r: Record<string, unknown>, p: Record<string, unknown>): MessageView {
  const history = Array.isArray(p.replacement_history) ? p.replacement_history : [];
  const texts = typeof p.message === 'string' && p.message !== '' ? [p.message] : history.flatMap((h) => (isPlainObject(h) && Array.isArray(h.content) ? h.content.filter((b) => isPlainObject(b) && typeof b.text === 'string').map((b) => (b as { text: string }).text) : []));
  const encrypted = texts.length === 0 && (typeof p.encrypted_content === 'string' || history.some((h) => isPlainObject(h) && typeof h.encrypted_content === 'string'));
  return {
    role: 'compacted',
    normalRole: 'user',
    parts: texts.map((text) => ({ kind: 'text' as const, text })),
    timestamp: typeof r.timestamp === 'string' ? r.timestamp : undefined,
    summary: true,
    meta: true,
    compaction: { ...(encrypted ? { encrypted: true } : {}) },
  };
}

/**
 * The context Codex writes as user messages (codex-rs/core: environment_context, user_instructions, AGENTS.md, and
 * since the 0.14x desktop builds the skills, plugins, apps and collaboration mode it offers, AGENTS.md without its
 * folder), and the fragments codex-rs/core/src/model_visible_context.rs registers as not the user's intent: a
 * skill's instructions, a shell command the user ran (`!cmd`), a sub-agent's notification, the turn and context
 * updates. Matched without regard to case, as Codex matches them.
 */
const CODEX_CONTEXT =
  /^\s*(<(environment_context|user_instructions|turn_aborted|skills_instructions|plugins_instructions|recommended_plugins|apps_instructions|collaboration_mode|multi_agent_mode|skill|plugins|subagents|subagent_notification|user_shell_command|context_update|tool_context|reasoning_context|pinned_notes)[\s>]|# AGENTS\.md instructions(?: for |\s*\n))/i;

/**
 * The line Codex's IDE extension (and its desktop app) puts between the context it gathered and the user's words:
 * "# Context from my IDE setup:" (the open files), "# Files mentioned by the user:", "## Referenced ChatGPT
 * conversation:", "# Selected text:", each under a heading of its own, then this line and the request.
 */
const REQUEST_LINE = /^## My request for Codex:[ \t]*\r?$/gm;

/** A prompt's request, where the extension wrapped it in context: what follows the last request line. */
export function codexRequest(text: string): string | undefined {
  if (!/^\s*#/.test(text)) return undefined;
  let end = -1;
  for (const m of text.matchAll(REQUEST_LINE)) end = m.index + m[0].length;
  return end === -1 ? undefined : text.slice(end).trim();
}

/** One `response_item` of a Codex rollout (a legacy rollout's bare item), by its type: a message, reasoning, a call or its output. */
function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const p = itemOf(record) ?? {};
  if (r.type === 'compacted') return compactedView(r, p);
  const type = typeof p.type === 'string' ? p.type : '?';
  const timestamp = typeof r.timestamp === 'string' ? r.timestamp : undefined;
  const base = { timestamp, usage: usageOf.get(record as object) };
  switch (type) {
    case 'message': {
      const role = typeof p.role === 'string' ? p.role : '?';
      const parts = Array.isArray(p.content) ? p.content.map(blockToPart) : typeof p.content === 'string' ? [{ kind: 'text' as const, text: p.content }] : [];
      // What Codex puts in the user's turn itself (the environment, AGENTS.md): the tool's words, not a prompt.
      const injected = role === 'user' && parts.length > 0 && parts.every((q) => q.kind === 'text' && CODEX_CONTEXT.test(q.text));
      return { ...base, role, normalRole: normalizeRole(role), parts, id: typeof p.id === 'string' ? p.id : undefined, ...(injected ? { meta: true } : {}) };
    }
    case 'reasoning': {
      const parts: Part[] = [];
      for (const s of Array.isArray(p.summary) ? p.summary : []) if (isPlainObject(s)) parts.push({ kind: 'reasoning', text: String(s.text ?? '') });
      for (const c of Array.isArray(p.content) ? p.content : []) if (isPlainObject(c)) parts.push({ kind: 'reasoning', text: String(c.text ?? '') });
      if (typeof p.encrypted_content === 'string') parts.push({ kind: 'reasoning', text: p.encrypted_content, encrypted: true, vendor: 'openai' });
      return { ...base, role: 'reasoning', normalRole: 'assistant', parts };
    }
    case 'function_call':
    case 'custom_tool_call':
      return { ...base, role: type, normalRole: 'assistant', parts: [{ kind: 'tool-call', id: typeof p.call_id === 'string' ? p.call_id : undefined, name: String(p.name ?? ''), arguments: argumentsText(type === 'function_call' ? p.arguments : p.input) }] };
    case 'local_shell_call':
    case 'web_search_call':
      return { ...base, role: type, normalRole: 'assistant', parts: [{ kind: 'tool-call', id: typeof p.call_id === 'string' ? p.call_id : undefined, name: type === 'local_shell_call' ? 'local_shell' : 'web_search', arguments: argumentsText(p.action) }] };
    // The model looking for tools to load (Codex's tool search), and the tools it found: their definitions, as the
    // model is sent them (the transcript shows a JSON result folded and laid out).
    case 'tool_search_call':
      return { ...base, role: type, normalRole: 'assistant', parts: [{ kind: 'tool-call', id: typeof p.call_id === 'string' ? p.call_id : undefined, name: 'tool_search', arguments: argumentsText(p.arguments ?? {}) }] };
    case 'tool_search_output':
      return { ...base, role: type, normalRole: 'tool', parts: [{ kind: 'tool-result', callId: typeof p.call_id === 'string' ? p.call_id : undefined, text: JSON.stringify(p.tools ?? []) }] };
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const out = outputText(p.output);
      return { ...base, role: type, normalRole: 'tool', parts: [{ kind: 'tool-result', callId: typeof p.call_id === 'string' ? p.call_id : undefined, text: out.text, isError: out.isError }] };
    }
    default:
      return { ...base, role: type, normalRole: 'other', parts: [{ kind: 'unknown', type, text: JSON.stringify(p) }] };
  }
}

const isRolloutRecord = (v: unknown): boolean => (isPlainObject(v) && (v.type === 'response_item' || v.type === 'compacted') && isPlainObject(v.payload)) || isLegacyItem(v);

/** The session's own record: `session_meta`'s payload, or a legacy rollout's first line. */
function sessionOf(values: unknown[]): Record<string, unknown> | undefined {
  const meta = values.find((v: unknown) => isPlainObject(v) && v.type === 'session_meta') as Record<string, unknown> | undefined;
  if (meta) return isPlainObject(meta.payload) ? meta.payload : undefined;
  const first = values.find((v) => v !== undefined);
  return isLegacyHeader(first) ? first : undefined;
}

/** A session is titled by its folder (its first prompt says more: the listing goes on to it). */
const rolloutTitle = (values: unknown[]): string | undefined => {
  const p = sessionOf(values);
  return p && typeof p.cwd === 'string' ? p.cwd : p ? cwdOfContext(values) : undefined;
};

const rolloutMeta = (values: unknown[]): ConversationMeta | undefined => {
  const p = sessionOf(values);
  if (!p) return undefined;
  const s = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { sessionId: s(p.id), cwd: s(p.cwd) ?? cwdOfContext(values), version: s(p.cli_version), instructions: s(p.instructions), gitBranch: isPlainObject(p.git) ? s(p.git.branch) : undefined, startedAt: s(p.timestamp) };
};

type TokenUsage = Record<string, unknown>;
const FIELDS = ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'output_tokens', 'reasoning_output_tokens', 'total_tokens'] as const;
const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

/** One call's usage from a running total and the one before it (older Codex wrote only the total); a total that went down started over. */
function sinceLast(total: TokenUsage, before: TokenUsage | undefined): TokenUsage {
  if (!before || FIELDS.some((f) => (num(total[f]) ?? 0) < (num(before[f]) ?? 0))) return total;
  return Object.fromEntries(FIELDS.filter((f) => num(total[f]) !== undefined).map((f) => [f, num(total[f])! - (num(before[f]) ?? 0)]));
}

/** A call's usage in ReportedUsage's meaning: OpenAI counts cached input (and cache writes) inside input_tokens, reasoning inside output_tokens, as ReportedUsage does. */
const reported = (u: TokenUsage, model: string | undefined, key: string): NonNullable<MessageView['usage']> => ({
  input: num(u.input_tokens),
  output: num(u.output_tokens),
  cacheRead: num(u.cached_input_tokens),
  ...(num(u.cache_write_input_tokens) ? { cacheWrite: num(u.cache_write_input_tokens) } : {}),
  reasoning: num(u.reasoning_output_tokens),
  model,
  key,
});

/** Two calls' usage on one item (a call that wrote nothing of its own): added up, and said to be two. */
function merged(a: NonNullable<MessageView['usage']>, b: NonNullable<MessageView['usage']>): NonNullable<MessageView['usage']> {
  const sum = (x?: number, y?: number) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return { input: sum(a.input, b.input), output: sum(a.output, b.output), cacheRead: sum(a.cacheRead, b.cacheRead), cacheWrite: sum(a.cacheWrite, b.cacheWrite), reasoning: sum(a.reasoning, b.reasoning), model: a.model === b.model ? a.model : (b.model ?? a.model), key: a.key, calls: (a.calls ?? 1) + (b.calls ?? 1) };
}

/**
 * Each model call's reported usage, from the `token_count` event Codex writes after the call: its
 * `info.last_token_usage` is the call's own (older Codex wrote only `total_token_usage`: the call is what the
 * total grew by). Codex writes the event again with the same totals when nothing new was used: one call, once.
 * The call's model is the one the `turn_context` before it names; its usage belongs to the last item the model
 * wrote (not to a tool's output), or, where it wrote none since the call before, to the next it writes.
 */
function withUsage(doc: ConversationDocument): ConversationDocument {
  const b = doc.baseline as JsonlRecordsBaseline;
  let last: object | undefined;
  let owned = false;
  let pending: NonNullable<MessageView['usage']> | undefined;
  let model: string | undefined;
  let total: string | undefined;
  let before: TokenUsage | undefined;
  const attach = (item: object, u: NonNullable<MessageView['usage']>) => {
    const had = usageOf.get(item);
    usageOf.set(item, had ? merged(had, u) : u);
  };
  b.lines.lines.forEach((line, i) => {
    const v = line.value;
    if (!isPlainObject(v)) return;
    const p = isPlainObject(v.payload) ? v.payload : undefined;
    if (v.type === 'response_item' && p && MODEL_ITEMS.has(String(p.type)) && (p.type !== 'message' || p.role === 'assistant')) {
      last = v;
      owned = false;
      usageOf.delete(v);
      if (pending) {
        attach(v, pending);
        pending = undefined;
        owned = true;
      }
    }
    if (v.type === 'turn_context' && typeof p?.model === 'string') model = p.model;
    if (v.type !== 'event_msg' || p?.type !== 'token_count' || !isPlainObject(p.info)) return;
    const running = isPlainObject(p.info.total_token_usage) ? p.info.total_token_usage : undefined;
    const seen = running ? JSON.stringify(running) : undefined;
    if (seen !== undefined && seen === total) return;
    total = seen;
    const call = isPlainObject(p.info.last_token_usage) ? p.info.last_token_usage : running ? sinceLast(running, before) : undefined;
    before = running ?? before;
    if (!call) return;
    const u = reported(call, model, `line ${i}`);
    if (!last) pending = pending ? merged(pending, u) : u;
    else if (owned) attach(last, u);
    else {
      usageOf.set(last, u);
      owned = true;
    }
  });
  return doc;
}

/**
 * An item of what a tool gave back (or the model's reasoning) as Codex writes it: its time, its type and the call it
 * answers, in that order (the serializer's), before the bulk of it. Another order, or a legacy rollout's bare item,
 * is read as it is.
 */
const SLIMMED_ITEM = /^\{"timestamp":("[^"\\]*"),"type":"response_item","payload":\{"type":"(function_call_output|custom_tool_call_output|reasoning|tool_search_output)"(?:,"call_id":("[^"\\]*"))?[,}]/;

/** The line without the output or reasoning the session list needs none of (the whole read has it): the same record. */
function slimItemLine(line: Buffer): Buffer | undefined {
  const m = SLIMMED_ITEM.exec(line.subarray(0, 512).toString('latin1'));
  // Its time and call id as they are (printable ASCII), or the line as it is.
  if (!m || !/^[\x20-\x7e]*$/.test(m[1] + (m[3] ?? ''))) return undefined;
  return Buffer.from(`{"timestamp":${m[1]},"type":"response_item","payload":{"type":"${m[2]}"${m[3] !== undefined ? `,"call_id":${m[3]}` : ''}}}`);
}

/** Codex CLI's session rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl`): every response_item is a message record. */
export const codexRollout: Codec = {
  id: 'codex-rollout',
  label: 'Codex CLI rollout (JSONL)',
  tool: 'Codex',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: true, timestamps: true, toolParts: 'one' },
  sniffNeeds: ['payload', 'timestamp'],
  sniff(head, name) {
    if (head.includes('"payload"') && /"type"\s*:\s*"(session_meta|response_item|turn_context|event_msg)"/.test(head) && /"payload"\s*:/.test(head)) return 40;
    // A legacy rollout: the session's own line first, then bare items and state lines (or only that line in the head).
    if (!LEGACY_HEAD.test(head)) return 0;
    if (/(^|[\\/])rollout-[^\\/]*\.jsonl$/i.test(name)) return 40;
    return /\n\s*\{\s*"(record_type"\s*:\s*"state"|type"\s*:\s*"message")/.test(head) ? 35 : 0;
  },
  listingLine: slimItemLine,
  parse: (text, file) => withUsage(parseJsonlRecords(text, file, 'codex-rollout', isRolloutRecord, rolloutTitle, rolloutMeta)),
  parseBytes: (text, file) => withUsage(parseJsonlRecords(text, file, 'codex-rollout', isRolloutRecord, rolloutTitle, rolloutMeta)),
  // Codex appends each item and event as the session goes on.
  append: (doc, added, file) => withUsage(appendJsonlRecords(doc, added, file, isRolloutRecord, rolloutTitle, rolloutMeta)),
  // The event_msg that repeats a message's text for Codex's own transcript follows the message: edited,
  // removed or added with it.
  serialize(doc, conversations) {
    const b = doc.baseline as JsonlRecordsBaseline;
    const out = keepTwinsInStep(b.lines.lines, planJsonl(b.lines, b.slots, conversations[0] ?? []));
    return renderJsonl(doc.text, b.lines, out);
  },
  view,
  requestText(v) {
    if (v.normalRole !== 'user') return undefined;
    const texts = v.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
    const requests = texts.map(codexRequest);
    return requests.some((r) => r !== undefined) ? requests.map((r, i) => r ?? texts[i]).join('\n') : undefined;
  },
  fromView(v, near) {
    const made = newItem(v);
    // A legacy rollout's items are bare: a new one is written as its neighbours are.
    return isLegacyItem(near) ? made.payload : made;
  },
  // Conversions give each call and result an item of its own (toolParts: 'one'): nothing of them is lost.
  loses: () => [],
  withText(record, text) {
    if (isPlainObject(record) && record.type === 'compacted' && isPlainObject(record.payload) && typeof record.payload.message === 'string') return { ...record, payload: { ...record.payload, message: text } };
    const item = itemOf(record);
    if (!item || item.type !== 'message' || !Array.isArray(item.content)) return undefined;
    const content = item.content;
    const texts = content.filter((b) => isPlainObject(b) && typeof b.text === 'string');
    if (texts.length !== 1) return undefined;
    const edited = { ...item, content: content.map((b) => (b === texts[0] ? { ...(b as object), text } : b)) };
    return item === record ? edited : { ...(record as object), payload: edited };
  },
  validate: codexProblems,
  // One path; a compaction starts it anew, continuing what came before it.
  tree(_doc, _c, records) {
    const n = records.length;
    const parent = new Int32Array(n);
    const continues = new Map<number, number>();
    records.forEach((r, i) => {
      const compacted = isPlainObject(r) && r.type === 'compacted';
      parent[i] = compacted ? -1 : i - 1;
      if (compacted && i > 0) continues.set(i, i - 1);
    });
    return { parent, thread: new Array<string>(n).fill('main'), active: n - 1, continues };
  },
  rawText: (doc, _c, record) => jsonlLineText(doc, record),
};

/** A rollout line saying `v`: a `response_item` of the one item type that holds it. */
function newItem(v: MessageView): { timestamp: string; type: 'response_item'; payload: Record<string, unknown> } {
  const timestamp = v.timestamp ?? new Date().toISOString();
  // Reasoning alone is a reasoning item: its summary readable, OpenAI's encrypted content kept as it was.
  if (v.parts.length > 0 && v.parts.every((p) => p.kind === 'reasoning')) {
    const parts = v.parts as Array<Extract<Part, { kind: 'reasoning' }>>;
    const encrypted = parts.find((p) => p.encrypted && p.vendor === 'openai');
    return { timestamp, type: 'response_item', payload: { type: 'reasoning', summary: parts.filter((p) => !p.encrypted).map((p) => ({ type: 'summary_text', text: p.text })), content: null, ...(encrypted ? { encrypted_content: encrypted.text } : {}) } };
  }
  const text = v.parts.filter((p) => p.kind === 'text' || p.kind === 'unknown').map((p) => (p as { text: string }).text).join('\n');
  const call = v.parts.find((p) => p.kind === 'tool-call');
  // A rollout item holds one thing: a call alone becomes a function_call, a call beside text stays in the text.
  if (call?.kind === 'tool-call' && text === '') return { timestamp, type: 'response_item', payload: { type: 'function_call', name: call.name, arguments: call.arguments, call_id: call.id ?? `call_${Date.now()}` } };
  const result = v.parts.find((p) => p.kind === 'tool-result');
  if (result?.kind === 'tool-result' && text === '') return { timestamp, type: 'response_item', payload: { type: 'function_call_output', call_id: result.callId ?? '', output: result.text } };
  const role = v.normalRole === 'assistant' ? 'assistant' : v.normalRole === 'system' ? 'developer' : 'user';
  const extra = v.parts.filter((p) => p.kind === 'tool-call' || p.kind === 'tool-result').map((p) => (p.kind === 'tool-call' ? `${p.name}(${p.arguments})` : p.kind === 'tool-result' ? p.text : ''));
  const all = [text].concat(extra).filter((t) => t !== '').join('\n');
  return { timestamp, type: 'response_item', payload: { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text: all }] } };
}
