import { isPlainObject } from '../../message.js';
import { argumentsText } from '../content-parts.js';
import { NotThisFormat, type Codec, type ConversationMeta } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import type { MessageView, NormalRole, Part, ReportedUsage } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument, type JsonDocBaseline } from '../shared/json-document.js';
import { planJsonl, type JsonlBaseline } from '../syntax/jsonl.js';
import type { Problem } from '../validity.js';

/**
 * An OpenHands trajectory: the JSON list of events "Export trajectory" (and `save_trajectory_path`) writes, each
 * `event_to_trajectory` (openhands/events/serialization/event.py): `{id, timestamp, source: user | agent |
 * environment, message, cause, action | observation, tool_call_metadata, llm_metrics}` and then `args` for an
 * action, `content` and `extras` for an observation. `message` actions are what the user and the agent said,
 * `system` the system prompt (its `args.tools` the tools); every other action the agent took is a tool call
 * named by its action type (`run`, `read`, `edit`, `think`, `finish`, …) with its `args` (an MCP call,
 * `call_tool_mcp`, by its tool's `name` and `arguments`), the `thought` that came with it as its text. An
 * observation answers the action whose `id` is its `cause` (in function-calling mode both carry the model's
 * call in `tool_call_metadata`: `function_name`, `tool_call_id`, `model_response`, whose `usage` is the call's).
 * The controller's own events (agent state changes, the workspace context recalled for the first message,
 * condensations) are not messages: they are kept where they are. Events of types not known here are shown as
 * their JSON, never dropped.
 */

type Loose = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The args each action the agent runs takes (its dataclass fields): a converted call is one of these only when its arguments fit. */
const ACTION_FIELDS: Record<string, readonly string[]> = {
  run: ['command', 'is_input', 'thought', 'blocking', 'is_static', 'cwd', 'hidden', 'confirmation_state', 'security_risk'],
  run_ipython: ['code', 'thought', 'include_extra', 'confirmation_state', 'security_risk', 'kernel_init_code'],
  read: ['path', 'start', 'end', 'thought', 'impl_source', 'view_range', 'translated_ipython_code', 'security_risk'],
  write: ['path', 'content', 'start', 'end', 'thought', 'security_risk'],
  edit: ['path', 'command', 'file_text', 'old_str', 'new_str', 'insert_line', 'content', 'start', 'end', 'thought', 'impl_source', 'translated_ipython_code', 'security_risk'],
  browse: ['url', 'thought', 'return_axtree', 'security_risk'],
  browse_interactive: ['browser_actions', 'thought', 'browsergym_send_msg_to_user', 'return_axtree', 'security_risk'],
  think: ['thought'],
  reject: ['outputs', 'thought'],
  delegate: ['agent', 'inputs', 'thought'],
};
/** Actions that are the agent's tool calls (with those above): an MCP tool's call, its task list, a search. */
const CALL_ACTIONS = new Set([...Object.keys(ACTION_FIELDS), 'call_tool_mcp', 'task_tracking', 'search']);
/** How the agent ends: its closing words, a message (the call that ends the run is answered by nothing). */
const FINISH = 'finish';
/**
 * The controller's own events, not anyone's words: state changes, the workspace context recalled for the
 * first message (`recall`, and the observation answering it), condensations. Kept, not shown as messages.
 */
const INFRA = new Set(['change_agent_state', 'agent_state_changed', 'recall', 'pause', 'resume', 'stop', 'null', 'condensation', 'condensation_request', 'condense', 'push', 'send_pr', 'start']);

/** The usage of the model call behind an action (litellm's usage: `prompt_tokens` every input token, the cached ones among them). */
function usageOf(meta: Loose | undefined): ReportedUsage | undefined {
  const response = meta && isPlainObject(meta.model_response) ? meta.model_response : undefined;
  const u = response && isPlainObject(response.usage) ? response.usage : undefined;
  if (!u) return undefined;
  const prompt = isPlainObject(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  const completion = isPlainObject(u.completion_tokens_details) ? u.completion_tokens_details : {};
  const cacheRead = num(prompt.cached_tokens) ?? num(u.cache_read_input_tokens);
  const out: ReportedUsage = { input: num(u.prompt_tokens), output: num(u.completion_tokens), cacheRead: cacheRead || undefined, cacheWrite: num(u.cache_creation_input_tokens) || undefined, reasoning: num(completion.reasoning_tokens) || undefined, model: str(response!.model), key: str(response!.id) };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as ReportedUsage;
}

/** Whether an event is one of the conversation's messages (not one of the controller's own). */
const isMessageEvent = (e: unknown) => !isPlainObject(e) || !INFRA.has(String(e.action ?? e.observation ?? ''));

const without = (o: Loose, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

export function openHandsView(record: unknown): MessageView {
  const e = isPlainObject(record) ? record : {};
  const source = str(e.source) ?? 'environment';
  const meta = isPlainObject(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
  const base = { role: source, timestamp: str(e.timestamp), id: typeof e.id === 'number' || typeof e.id === 'string' ? String(e.id) : undefined };
  const sourceRole: NormalRole = source === 'user' ? 'user' : source === 'agent' ? 'assistant' : 'other';
  const args = isPlainObject(e.args) ? e.args : {};
  if (typeof e.action === 'string') {
    const action = e.action;
    const thought = action !== 'think' && typeof args.thought === 'string' && args.thought !== '' ? args.thought : undefined;
    if (action === 'message' || action === 'system') {
      const parts: Part[] = [];
      const content = str(args.content) ?? str(e.message) ?? '';
      if (content !== '') parts.push({ kind: 'text', text: content });
      for (const url of Array.isArray(args.image_urls) ? args.image_urls : []) if (typeof url === 'string') parts.push({ kind: 'image', ref: url.startsWith('data:') ? `${url.slice(0, url.indexOf(',') + 1)}… (${url.length} characters)` : url });
      for (const url of Array.isArray(args.file_urls) ? args.file_urls : []) if (typeof url === 'string') parts.push({ kind: 'file', ref: url });
      return { ...base, normalRole: action === 'system' ? 'system' : sourceRole, parts, category: action };
    }
    if (action === FINISH) {
      const parts: Part[] = thought ? [{ kind: 'text', text: thought }] : [];
      const words = str(args.final_thought) || str(e.message) || '';
      if (words !== '') parts.push({ kind: 'text', text: words });
      const usage = usageOf(meta);
      return { ...base, normalRole: 'assistant', parts, category: action, ...(usage?.model ? { model: usage.model } : {}), ...(usage ? { usage } : {}) };
    }
    if (CALL_ACTIONS.has(action) || meta) {
      const mcp = action === 'call_tool_mcp';
      const parts: Part[] = thought ? [{ kind: 'text', text: thought }] : [];
      const id = str(meta?.tool_call_id) ?? (base.id !== undefined ? base.id : undefined);
      parts.push({ kind: 'tool-call', id, name: mcp ? String(args.name ?? '') : action, arguments: mcp ? argumentsText(args.arguments ?? {}) : JSON.stringify(action === 'think' ? args : without(args, 'thought')) });
      const usage = usageOf(meta);
      return { ...base, normalRole: sourceRole === 'other' ? 'assistant' : sourceRole, parts, category: action, ...(usage?.model ? { model: usage.model } : {}), ...(usage ? { usage } : {}) };
    }
    // An action of a type not known here, or the controller's own: shown as its JSON, never dropped.
    return { ...base, normalRole: 'other', parts: [{ kind: 'unknown', type: action, text: JSON.stringify(args) }], category: action, ...(INFRA.has(action) ? { meta: true } : {}) };
  }
  const type = str(e.observation) ?? '?';
  const content = typeof e.content === 'string' ? e.content : '';
  const cause = typeof e.cause === 'number' || typeof e.cause === 'string' ? String(e.cause) : undefined;
  const callId = str(meta?.tool_call_id) ?? cause;
  if (callId !== undefined && !INFRA.has(type)) {
    return { ...base, normalRole: 'tool', parts: [{ kind: 'tool-result', callId, text: content, isError: type === 'error' || e.success === false || undefined }], category: type };
  }
  // What the controller or the environment says on its own: a state change, an error no action caused.
  const extras = isPlainObject(e.extras) ? e.extras : {};
  const parts: Part[] = content !== '' ? [{ kind: 'text', text: content }] : [{ kind: 'unknown', type, text: JSON.stringify(extras) }];
  return { ...base, normalRole: 'other', parts, category: type, meta: true };
}

let counter = 0;

export function openHandsFromView(v: MessageView, near?: unknown): Loose {
  const id = isPlainObject(near) && typeof near.id === 'number' ? near.id + 1 : 0;
  const timestamp = v.timestamp ?? new Date().toISOString();
  const text = v.parts.filter((p) => p.kind === 'text' || p.kind === 'unknown').map((p) => (p as { text: string }).text).join('\n');
  const result = v.parts.find((p) => p.kind === 'tool-result');
  const call = v.parts.find((p) => p.kind === 'tool-call');
  if (result && !call) {
    // The observation's `cause` and its call's metadata are set where the action is known (a new file links them).
    const error = result.isError === true;
    return {
      id,
      timestamp,
      source: 'agent',
      message: error ? 'Error' : 'Tool result',
      ...(result.callId ? { tool_call_metadata: { function_name: '', tool_call_id: result.callId, model_response: { id: '', choices: [] }, total_calls_in_response: 1 } } : {}),
      observation: error ? 'error' : 'mcp',
      content: result.text,
      extras: error ? { error_id: '' } : { name: '', arguments: {} },
    };
  }
  if (call) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(call.arguments || '{}');
    } catch {
      parsed = undefined;
    }
    const fields = ACTION_FIELDS[call.name];
    const native = fields !== undefined && isPlainObject(parsed) && Object.keys(parsed).every((k) => fields.includes(k) && (k !== 'thought' || call.name === 'think'));
    const callId = call.id ?? `call_${Date.now().toString(36)}_${counter++}`;
    const args: Loose = native ? { ...(parsed as Loose) } : { name: call.name, arguments: isPlainObject(parsed) ? parsed : { input: parsed === undefined ? call.arguments : parsed } };
    if (text !== '' && call.name !== 'think') args.thought = text;
    const responseId = v.usage?.key ?? `chatcmpl-${callId}`;
    return {
      id,
      timestamp,
      source: 'agent',
      message: native ? call.name : `Calling ${call.name}`,
      action: native ? call.name : 'call_tool_mcp',
      tool_call_metadata: {
        function_name: call.name,
        tool_call_id: callId,
        model_response: {
          id: responseId,
          ...(v.model ? { model: v.model } : {}),
          object: 'chat.completion',
          choices: [{ finish_reason: 'tool_calls', index: 0, message: { role: 'assistant', content: text === '' ? null : text, tool_calls: [{ id: callId, type: 'function', function: { name: call.name, arguments: call.arguments } }] } }],
          ...(v.usage && (v.usage.input !== undefined || v.usage.output !== undefined) ? { usage: { prompt_tokens: v.usage.input ?? 0, completion_tokens: v.usage.output ?? 0, total_tokens: (v.usage.input ?? 0) + (v.usage.output ?? 0) } } : {}),
        },
        total_calls_in_response: 1,
      },
      args,
    };
  }
  if (v.normalRole === 'system') return { id, timestamp, source: 'agent', message: text, action: 'system', args: { content: text } };
  const agent = v.normalRole === 'assistant';
  return { id, timestamp, source: agent ? 'agent' : 'user', message: text, action: 'message', args: { content: text, image_urls: null, file_urls: null, wait_for_response: agent } };
}

/** What OpenHands would refuse in the list: an event that is neither an action nor an observation, a cause naming no event. */
function problems(events: readonly unknown[], all: unknown): Problem[] {
  const out: Problem[] = [];
  const ids = new Set([...events, ...(Array.isArray(all) ? all : [])].flatMap((e) => (isPlainObject(e) && (typeof e.id === 'number' || typeof e.id === 'string') ? [String(e.id)] : [])));
  events.forEach((e, i) => {
    if (!isPlainObject(e)) return;
    if (typeof e.action !== 'string' && typeof e.observation !== 'string') out.push({ conversation: 0, message: i, text: 'an event with neither an "action" nor an "observation" (OpenHands reads every event as one or the other)' });
    if (typeof e.observation === 'string' && (typeof e.cause === 'number' || typeof e.cause === 'string') && !ids.has(String(e.cause))) out.push({ conversation: 0, message: i, text: `an observation caused by event ${String(e.cause)}, which is not in the list` });
  });
  return out;
}

/**
 * What the system prompt's event says of the session. Its `args.tools` are the functions the model was offered
 * (`execute_bash`, `str_replace_editor`, …), which name the model's calls, not the actions shown here: they are
 * not carried, as a conversion would declare tools no call uses.
 */
function metaOf(events: readonly unknown[]): ConversationMeta | undefined {
  const system = events.find((e) => isPlainObject(e) && e.action === 'system') as Loose | undefined;
  const args = system && isPlainObject(system.args) ? system.args : {};
  return typeof args.openhands_version === 'string' ? { version: args.openhands_version } : undefined;
}

export const openHandsTrajectory: Codec = {
  id: 'openhands-trajectory',
  label: 'OpenHands trajectory',
  tool: 'OpenHands',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: false, otherRecords: false, timestamps: true, toolParts: 'one' },
  sniffNeeds: ['action', 'observation'],
  sniff(head) {
    if (!/^\s*\[\s*(\{|\])/.test(head)) return 0;
    const event = /"(action|observation)"\s*:\s*"[a-z_]+"/.test(head) && /"source"\s*:\s*"(user|agent|environment)"/.test(head);
    return event && /"(args|extras)"\s*:\s*\{/.test(head) ? 50 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'openhands-trajectory', (root, f, at) => {
      if (!Array.isArray(root) || (root.length > 0 && !root.some((e) => isPlainObject(e) && (typeof e.action === 'string' || typeof e.observation === 'string')))) throw new NotThisFormat('expected an OpenHands trajectory: a list of events, each with an "action" or an "observation"');
      root.forEach((e, i) => {
        if (!isPlainObject(e)) throw new ConversationFileError(f, `event ${i} is a ${e === null ? 'null' : typeof e}, not an event object`, at([i]));
      });
      const meta = metaOf(root);
      const slots = root.flatMap((e, i) => (isMessageEvent(e) ? [i] : []));
      return { conversations: [{ records: slots.map((i) => root[i]), ...(meta ? { meta } : {}) }], paths: [slots.map((i) => [i])], otherRecords: root.length - slots.length };
    });
  },
  serialize(doc, conversations) {
    // The messages take the places of the messages read (an edit stays in its place, a new one goes after the
    // one before it); the controller's events stay where they were, as in a session log's lines.
    const root = (doc.baseline as JsonDocBaseline).root as unknown[];
    const slots = root.flatMap((e, i) => (isMessageEvent(e) ? [i] : []));
    const origin = new WeakMap<object, number>();
    root.forEach((e, i) => isPlainObject(e) && origin.set(e, i));
    const lines = { lines: root.map((value) => ({ start: 0, end: 0, eol: '', value })), newline: '\n', origin, style: (doc.baseline as JsonDocBaseline).style } satisfies JsonlBaseline;
    const list = planJsonl(lines, slots, conversations[0] ?? []).map((e) => e.value);
    return serializeJsonDocument(doc, () => list);
  },
  view: openHandsView,
  fromView: openHandsFromView,
  loses: (v) => [
    ...(v.parts.some((p) => p.kind === 'reasoning') ? ['reasoning (an OpenHands event keeps only the thought that comes with an action)'] : []),
    ...(v.parts.filter((p) => p.kind === 'tool-call').length > 1 ? ['all but one tool call of a message (an OpenHands action is one call)'] : []),
  ],
  withText(record, text) {
    if (!isPlainObject(record)) return undefined;
    const args = isPlainObject(record.args) ? record.args : undefined;
    if (record.action === 'message' || record.action === 'system') {
      if (!args) return undefined;
      // The summary a message event carries is its content.
      return { ...record, ...(record.message === args.content ? { message: text } : {}), args: { ...args, content: text } };
    }
    if (record.action === FINISH && args) return { ...record, ...(record.message === args.final_thought ? { message: text } : {}), args: { ...args, final_thought: text } };
    if (typeof record.action === 'string') return args && record.action !== 'think' && (CALL_ACTIONS.has(record.action) || isPlainObject(record.tool_call_metadata)) ? { ...record, args: { ...args, thought: text } } : undefined;
    if (typeof record.observation === 'string') return { ...record, content: text };
    return undefined;
  },
  validate: (doc) => problems(doc.conversations[0]?.records ?? [], (doc.baseline as JsonDocBaseline).root),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};

/**
 * A new trajectory of these events as OpenHands replays one: ids in order, each observation's `cause` the id
 * of the action whose call it answers, and that action's `tool_call_metadata` (OpenHands reads it whole).
 */
export function newOpenHandsTrajectory(records: readonly unknown[]): string {
  const events = records.map((r, i) => (isPlainObject(r) ? { ...r, id: i } : r)) as Loose[];
  const actions = new Map<string, Loose>();
  for (const e of events) {
    const meta = isPlainObject(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
    if (typeof e.action === 'string' && typeof meta?.tool_call_id === 'string') actions.set(meta.tool_call_id, e);
  }
  const linked = events.map((e) => {
    const meta = isPlainObject(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
    const action = typeof e.observation === 'string' && typeof meta?.tool_call_id === 'string' ? actions.get(meta.tool_call_id) : undefined;
    if (!action) return e;
    // `cause` just before the observation type, as OpenHands writes it.
    const out: Loose = {};
    for (const [k, v] of Object.entries(e)) {
      if (k === 'cause') continue;
      if (k === 'observation') out.cause = action.id;
      out[k] = k === 'tool_call_metadata' ? action.tool_call_metadata : v;
    }
    return out;
  });
  return JSON.stringify(linked, null, 2) + '\n';
}
