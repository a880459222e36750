import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { reasoningText, sentText, type MessageView, type NormalRole, type Part } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument, type JsonDocBaseline } from '../shared/json-document.js';
import { planJsonl, type JsonlBaseline } from '../syntax/jsonl.js';

/**
 * Cline's (and Roo Code's, Kilo Code's) `ui_messages.json`: the task as its panel shows it, a list of
 * `{ts, type: "say" | "ask", say | ask, text, images, partial}`. A `say` is Cline speaking or reporting (`task`
 * the user's task, `user_feedback` a user reply, `text` the model's words, `reasoning`, `command_output`,
 * `api_req_started` a model call with its tokens and cost as JSON, `checkpoint_created`, `error`); an `ask`
 * waits on the user (`followup` a question as JSON, `command` a command to run, `tool` a tool to approve as
 * JSON, `completion_result`). The model's own history is `api_conversation_history.json` beside it
 * (Anthropic messages); this file is what the user saw. What Cline records for its own bookkeeping (each model
 * call's request and usage, checkpoints, retries, the progress list, hooks, a prompt to resume, a button waiting
 * with no text) is kept for the save, not shown as messages; a model call's usage is that of the turn it wrote.
 */
const USER_SAYS = new Set(['task', 'user_feedback', 'user_feedback_diff']);
/** Says Cline writes for itself (src/shared/ExtensionMessage.ts `ClineSay`): records, not messages. */
const RECORD_SAYS = new Set(['api_req_started', 'api_req_finished', 'api_req_retried', 'api_req_deleted', 'deleted_api_reqs', 'checkpoint_created', 'error_retry', 'task_progress', 'hook_status', 'hook_output_stream', 'subagent_usage', 'conditional_rules_applied', 'shell_integration_warning', 'shell_integration_warning_with_suggestion', 'mcp_server_request_started', 'load_mcp_documentation', 'info', 'generate_explanation']);
/** Asks that only wait to go on (resume a task, approve more requests): records too. */
const RECORD_ASKS = new Set(['resume_task', 'resume_completed_task', 'auto_approval_max_req_reached']);
/** What Cline says to the user that the model did not write: shown, as notices. */
const NOTICES = new Set(['error', 'diff_error', 'clineignore_error', 'command_permission_denied', 'condense_context']);
const NOTICE_ASKS = new Set(['api_req_failed', 'mistake_limit_reached', 'new_task', 'condense']);

const kindOf = (r: Record<string, unknown>) => (r.type === 'ask' ? r.ask : r.say);

/** Whether an entry is a message of the task (else a record Cline keeps for itself). */
function isRow(v: unknown): boolean {
  if (!isPlainObject(v)) return true;
  const kind = kindOf(v);
  if (v.type === 'say') return !RECORD_SAYS.has(kind as string);
  if (RECORD_ASKS.has(kind as string)) return false;
  // A button that waits on the user with nothing to say (the empty ask after a completion, a command's output).
  const attached = (Array.isArray(v.images) && v.images.length > 0) || (Array.isArray(v.files) && v.files.length > 0);
  return !((v.text === undefined || v.text === '') && !attached);
}

/** Each model call's usage (an api_req_started's JSON), on the first message of the turn it wrote. */
const usageOf = new WeakMap<object, MessageView['usage']>();

function noteUsage(list: readonly unknown[]): void {
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  for (let i = 0; i < list.length; i++) {
    const r = list[i];
    if (!isPlainObject(r) || r.say !== 'api_req_started') continue;
    const json = parsedText(r.text);
    if (!json || (json.tokensIn === undefined && json.tokensOut === undefined)) continue;
    // Cline reports input apart from the cache (as Anthropic does); here input counts every prompt token.
    const input = (n(json.tokensIn) ?? 0) + (n(json.cacheReads) ?? 0) + (n(json.cacheWrites) ?? 0);
    const model = isPlainObject(r.modelInfo) && typeof r.modelInfo.modelId === 'string' ? r.modelInfo.modelId : undefined;
    const usage = { input, output: n(json.tokensOut), cacheRead: n(json.cacheReads), cacheWrite: n(json.cacheWrites), key: typeof r.ts === 'number' ? `api_req ${r.ts}` : `api_req ${i}`, ...(model ? { model } : {}) };
    // The turn: the messages up to the next model call. Its first model message, else its first message, else
    // (a call that wrote nothing shown, at the end) the last message before it.
    let end = i + 1;
    while (end < list.length && !(isPlainObject(list[end]) && (list[end] as Record<string, unknown>).say === 'api_req_started')) end++;
    const turn = list.slice(i + 1, end).filter((x) => isRow(x) && isPlainObject(x));
    const own = turn.find((x) => view(x).normalRole === 'assistant') ?? turn[0] ?? [...list.slice(0, i)].reverse().find((x) => isRow(x) && isPlainObject(x));
    if (own) usageOf.set(own as object, usage);
  }
}

function parsedText(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || !text.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const type = r.type === 'ask' ? 'ask' : 'say';
  const kind = typeof r[type] === 'string' ? (r[type] as string) : '?';
  const text = typeof r.text === 'string' ? r.text : '';
  const id = typeof r.ts === 'number' ? String(r.ts) : undefined;
  const timestamp = typeof r.ts === 'number' && Math.abs(r.ts) <= 8.64e15 ? new Date(r.ts).toISOString() : undefined;
  let normalRole: NormalRole = 'assistant';
  let parts: Part[] = text !== '' ? [{ kind: 'text', text }] : [];
  let meta: true | undefined;
  const usage = usageOf.get(r);
  const json = parsedText(text);
  if (type === 'say' && USER_SAYS.has(kind)) normalRole = 'user';
  else if (kind === 'reasoning') parts = [{ kind: 'reasoning', text }];
  else if (kind === 'command_output') {
    normalRole = 'tool';
    parts = [{ kind: 'tool-result', callId: undefined, text }];
  } else if (kind === 'command') parts = [{ kind: 'tool-call', name: 'execute_command', arguments: JSON.stringify({ command: text }) }];
  // A tool the panel asked to approve: its result went to the model's history, not here, so it is no call
  // left open: the request, named, as text.
  else if (kind === 'tool' && json) parts = [{ kind: 'text', text: `${String(json.tool ?? 'tool')}${typeof json.path === 'string' ? ` ${json.path}` : ''}\n${text}` }];
  else if (type === 'ask' && kind === 'followup' && json && typeof json.question === 'string') parts = [{ kind: 'text', text: json.question }];
  else if ((type === 'say' && (NOTICES.has(kind) || RECORD_SAYS.has(kind))) || (type === 'ask' && (NOTICE_ASKS.has(kind) || RECORD_ASKS.has(kind)))) {
    normalRole = 'other';
    meta = true;
    if (kind === 'api_req_started' && json && typeof json.request === 'string') parts = [{ kind: 'text', text: json.request }];
  }
  if (Array.isArray(r.images)) for (const img of r.images) if (typeof img === 'string') parts.push({ kind: 'image', ref: img.startsWith('data:') ? `${img.slice(0, 40)}…` : img });
  const model = normalRole === 'assistant' && isPlainObject(r.modelInfo) && typeof r.modelInfo.modelId === 'string' ? r.modelInfo.modelId : undefined;
  // Who speaks, as the panel shows it; what Cline calls the message (`say: task`, `ask: tool`) is its category.
  return { role: normalRole === 'other' ? 'cline' : normalRole, normalRole, parts, id, timestamp, category: kind, ...(meta ? { meta } : {}), ...(usage ? { usage } : {}), ...(model ? { model } : {}) };
}

function looksLikeUiMessage(v: unknown): boolean {
  return isPlainObject(v) && typeof v.ts === 'number' && (v.type === 'say' || v.type === 'ask');
}

export const clineUiMessages: Codec = {
  id: 'cline-ui-messages',
  label: 'Cline / Roo Code task (ui_messages.json)',
  tool: 'Cline',
  syntax: 'json',
  extensions: ['.json'],
  // Calls are shown, but the panel's log links no result to its call (no ids): a conversion into it keeps them as text.
  capabilities: { conversations: 'one', toolCalls: false, reasoning: true, otherRecords: true, timestamps: true, toolParts: 'one' },
  sniffNeeds: ['ts'],
  sniff(head, name) {
    if (!head.trimStart().startsWith('[')) return 0;
    const shaped = /"ts"\s*:\s*\d/.test(head) && /"type"\s*:\s*"(say|ask)"/.test(head);
    return shaped ? (/ui_messages\.json$/i.test(name) ? 70 : 50) : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'cline-ui-messages', (root, f, at) => {
      if (!Array.isArray(root) || !root.some(looksLikeUiMessage)) throw new NotThisFormat('expected Cline\'s ui_messages.json: a list of {"ts", "type": "say" | "ask", …}');
      root.forEach((m, i) => {
        if (!looksLikeUiMessage(m)) throw new ConversationFileError(f, `message ${i} is not a Cline message: it needs "ts" (a number) and "type" ("say" or "ask")`, at([i]));
      });
      noteUsage(root);
      const slots = root.flatMap((m, i) => (isRow(m) ? [i] : []));
      return { conversations: [{ records: slots.map((i) => root[i]) }], paths: [slots.map((i) => [i])], otherRecords: root.length - slots.length };
    });
  },
  serialize(doc, conversations) {
    // The messages take the places of the messages read (a new one after the one before it); Cline's own
    // records stay where they were, as a session log's lines do.
    const root = (doc.baseline as JsonDocBaseline).root as unknown[];
    const slots = root.flatMap((m, i) => (isRow(m) ? [i] : []));
    const origin = new WeakMap<object, number>();
    root.forEach((m, i) => isPlainObject(m) && origin.set(m, i));
    const lines = { lines: root.map((value) => ({ start: 0, end: 0, eol: '', value })), newline: '\n', origin, style: (doc.baseline as JsonDocBaseline).style } satisfies JsonlBaseline;
    const list = planJsonl(lines, slots, conversations[0] ?? []).map((e) => e.value);
    return serializeJsonDocument(doc, () => list);
  },
  view,
  fromView(v) {
    const ts = v.timestamp ? Date.parse(v.timestamp) || Date.now() : Date.now();
    // Calls and results as the text they are sent as: the panel's log keeps no structure for them.
    const text = v.parts.some((p) => p.kind !== 'reasoning') ? sentText(v) : reasoningText(v);
    if (v.normalRole === 'user') return { ts, type: 'say', say: 'user_feedback', text };
    if (v.normalRole === 'tool') return { ts, type: 'say', say: 'command_output', text };
    if (v.parts.some((p) => p.kind === 'reasoning') && !v.parts.some((p) => p.kind === 'text')) return { ts, type: 'say', say: 'reasoning', text };
    return { ts, type: 'say', say: 'text', text };
  },
  loses: (v) => (v.parts.some((p) => p.kind === 'tool-call') ? ['tool calls become text (the panel shows what the model asked, the history file holds the call)'] : []),
  withText(record, text) {
    if (!isPlainObject(record)) return undefined;
    const kind = kindOf(record);
    // Only what reads as plain text: a JSON payload (a tool, a question, a model call) is the panel's own data.
    if (typeof record.text !== 'string' || parsedText(record.text) || kind === 'api_req_started') return undefined;
    // An ask left with no text is Cline's button waiting on the user, not a message: no edit makes one of a
    // message (deleting it says that).
    const edited = { ...record, text };
    return isRow(edited) ? edited : undefined;
  },
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
