import { isPlainObject } from '../../message.js';
import { argumentsText } from '../content-parts.js';
import { NotThisFormat, type Codec, type ConversationMeta } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { looseText, normalizeRole, type MessageView, type Part, type ReportedUsage } from '../model.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';

/**
 * An OpenCode session as `opencode export <sessionID>` prints it (packages/opencode/src/cli/cmd/export.ts in
 * sst/opencode, now anomalyco/opencode): `{info, messages: [{info, parts}]}`, `info` the session (`id`, `title`,
 * `directory`, `version`, `time`), each message's `info` its `MessageV2` info (`role` user or assistant; an
 * assistant's `modelID`, `providerID`, `tokens`, `cost`, `summary`) and its `parts` (session/message-v2.ts):
 * `text`, `reasoning`, `tool` (`tool`, `callID`, `state: {status: pending | running | completed | error,
 * input, output | error, title}`: the call and its result in the one part), `file`, `step-start` and
 * `step-finish` (a model call's bounds: its `tokens` and `cost`), `compaction` (the user's side of a
 * compaction, answered by a `summary` assistant message), and `snapshot`, `patch`, `agent`, `subtask`, `retry`.
 * A bare list of such messages is read too (what a conversion into this format writes).
 */

const isMessage = (m: unknown): m is { info: Record<string, unknown>; parts: unknown[] } => isPlainObject(m) && isPlainObject(m.info) && typeof m.info.role === 'string' && Array.isArray(m.parts);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** A model call's tokens as OpenCode records them: `input` without the cache reads and writes, `reasoning` beside `output`. */
function usageOf(list: unknown[], info: Record<string, unknown>): ReportedUsage | undefined {
  let input = 0;
  let output = 0;
  let reasoning = 0;
  let read = 0;
  let write = 0;
  for (const t of list) {
    if (!isPlainObject(t)) continue;
    const cache = isPlainObject(t.cache) ? t.cache : {};
    input += num(t.input);
    output += num(t.output);
    reasoning += num(t.reasoning);
    read += num(cache.read);
    write += num(cache.write);
  }
  if (input + output + reasoning + read + write === 0) return undefined;
  return { input: input + read + write, output: output + reasoning, cacheRead: read, cacheWrite: write, reasoning, key: typeof info.id === 'string' ? info.id : undefined };
}

function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const info = isPlainObject(r.info) ? r.info : {};
  const role = typeof info.role === 'string' ? info.role : '?';
  const parts: Part[] = [];
  const steps: unknown[] = [];
  let compaction: MessageView['compaction'];
  for (const p of Array.isArray(r.parts) ? r.parts : []) {
    if (!isPlainObject(p)) {
      parts.push({ kind: 'unknown', type: typeof p, text: JSON.stringify(p) ?? String(p) });
      continue;
    }
    if ((p.type === 'text' || p.type === 'reasoning') && typeof p.text === 'string') {
      parts.push({ kind: p.type, text: p.text });
      continue;
    }
    if (p.type === 'tool') {
      const state = isPlainObject(p.state) ? p.state : {};
      const id = typeof p.callID === 'string' ? p.callID : undefined;
      parts.push({ kind: 'tool-call', id, name: String(p.tool ?? ''), arguments: argumentsText(state.input ?? {}) });
      // A pending or running call has no result yet.
      if (state.status === 'completed') parts.push({ kind: 'tool-result', callId: id, text: looseText(state.output) });
      else if (state.status === 'error') parts.push({ kind: 'tool-result', callId: id, text: looseText(state.error), isError: true });
      continue;
    }
    if (p.type === 'file') {
      const mime = typeof p.mime === 'string' ? p.mime : undefined;
      const url = typeof p.url === 'string' ? p.url : '';
      const ref = typeof p.filename === 'string' && p.filename !== '' ? p.filename : url.startsWith('data:') ? `inline ${mime ?? 'data'}` : url;
      parts.push(mime?.startsWith('image/') ? { kind: 'image', ref, mediaType: mime } : { kind: 'file', ref, mediaType: mime });
      continue;
    }
    // A model call's bounds: not what anyone said, but the step's tokens are its usage.
    if (p.type === 'step-start') continue;
    if (p.type === 'step-finish') {
      steps.push(p.tokens);
      continue;
    }
    if (p.type === 'compaction' && compaction === undefined) {
      compaction = { trigger: p.auto === true ? 'auto' : 'manual' };
      continue;
    }
    // What OpenCode keeps beside the words: a step's file snapshot, the agent a prompt named (its text says
    // so already), and a step's patch (the files it changed, shown as files). Not sent to the model.
    if (p.type === 'snapshot' || p.type === 'agent') continue;
    if (p.type === 'patch') {
      for (const f of Array.isArray(p.files) ? p.files : []) if (typeof f === 'string') parts.push({ kind: 'file', ref: f });
      continue;
    }
    // subtask, retry and whatever comes next: kept, shown as they are.
    parts.push({ kind: 'unknown', type: typeof p.type === 'string' ? p.type : 'part', text: JSON.stringify(p) });
  }
  const created = isPlainObject(info.time) ? info.time.created : undefined;
  const assistant = role === 'assistant';
  // A call that failed (an API error, an abort) before the model wrote anything: OpenCode keeps the message with
  // the error and no tokens, and leaves it out of what it sends next. Shown as its error, the tool's own line: no
  // turn of the model's, nothing to estimate.
  const failed = assistant && parts.length === 0 ? errorText(info.error) : undefined;
  if (failed !== undefined) parts.push({ kind: 'text', text: failed });
  return {
    role,
    normalRole: normalizeRole(role),
    parts,
    timestamp: typeof created === 'number' && Number.isFinite(created) ? new Date(created).toISOString() : undefined,
    id: typeof info.id === 'string' ? info.id : undefined,
    model: assistant && typeof info.modelID === 'string' ? info.modelID : undefined,
    // Each step-finish is one model call; the message's own `tokens` are its last call's.
    usage: assistant ? usageOf(steps.length > 0 ? steps : [info.tokens], info) : undefined,
    summary: (assistant && info.summary === true) || undefined,
    ...(compaction ? { compaction } : {}),
    ...(failed !== undefined ? { meta: true } : {}),
  };
}

/** An assistant message's `error` (`{name, data: {message}}`, session/message-v2.ts) as a line: its name and message. */
function errorText(error: unknown): string | undefined {
  if (!isPlainObject(error)) return undefined;
  const name = typeof error.name === 'string' && error.name !== '' ? error.name : 'Error';
  const data = isPlainObject(error.data) ? error.data : {};
  const status = typeof data.statusCode === 'number' ? ` ${data.statusCode}` : '';
  const message = typeof data.message === 'string' && data.message.trim() !== '' ? data.message.trim() : undefined;
  return `${name}${status}${message ? `: ${message}` : ''}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let lastTime = 0;
let counter = 0;

/** An id in OpenCode's style (`msg_…`, `prt_…`): time first, so ids made later sort later (OpenCode orders by id). */
function newId(prefix: 'msg' | 'prt'): string {
  const now = Date.now();
  counter = now === lastTime ? counter + 1 : 0;
  lastTime = now;
  const time = (now * 0x1000 + (counter & 0xfff)).toString(16).padStart(12, '0').slice(-12);
  const random = Array.from(crypto.getRandomValues(new Uint8Array(14)), (b) => BASE62[b % 62]).join('');
  return `${prefix}_${time}${random}`;
}

function fromView(v: MessageView, near?: unknown): unknown {
  const n = isMessage(near) ? near.info : {};
  const parsed = v.timestamp ? Date.parse(v.timestamp) : NaN;
  const created = Number.isFinite(parsed) ? parsed : Date.now();
  const id = newId('msg');
  const session = typeof n.sessionID === 'string' ? { sessionID: n.sessionID } : {};
  const assistant = v.normalRole === 'assistant' || v.normalRole === 'tool';
  const part = (body: Record<string, unknown>) => ({ id: newId('prt'), ...session, messageID: id, ...body });
  const time = { start: created, end: created };
  const results = new Map(v.parts.flatMap((p) => (p.kind === 'tool-result' && p.callId !== undefined ? [[p.callId, p] as const] : [])));
  const called = new Set(v.parts.flatMap((p) => (p.kind === 'tool-call' && p.id !== undefined ? [p.id] : [])));
  const parts: unknown[] = [];
  for (const p of v.parts) {
    if (p.kind === 'text' || p.kind === 'unknown') parts.push(part({ type: 'text', text: p.text }));
    else if (p.kind === 'reasoning') {
      if (!p.encrypted) parts.push(part({ type: 'reasoning', text: p.text, time }));
    } else if (p.kind === 'tool-call') {
      let input: unknown = {};
      try {
        input = JSON.parse(p.arguments || '{}');
      } catch {
        input = { input: p.arguments };
      }
      if (!isPlainObject(input)) input = { input };
      const result = p.id !== undefined ? results.get(p.id) : undefined;
      const state = !result ? { status: 'pending', input, raw: p.arguments } : result.isError ? { status: 'error', input, error: result.text, time } : { status: 'completed', input, output: result.text, title: '', metadata: {}, time };
      parts.push(part({ type: 'tool', callID: p.id ?? `call_${newId('prt').slice(4)}`, tool: p.name, state }));
    } else if (p.kind === 'tool-result') {
      // A result whose call is not in this message: its text, as the message says it.
      if (p.callId === undefined || !called.has(p.callId)) parts.push(part({ type: 'text', text: p.text }));
    } else parts.push(part({ type: 'file', mime: p.mediaType ?? 'application/octet-stream', url: p.ref, filename: p.ref }));
  }
  if (!assistant) {
    const keep = n.role === 'user' ? { ...(typeof n.agent === 'string' ? { agent: n.agent } : {}), ...(isPlainObject(n.model) ? { model: n.model } : {}) } : {};
    return { info: { id, ...session, role: 'user', time: { created }, ...keep }, parts };
  }
  const u = v.usage;
  const tokens = {
    input: Math.max(0, (u?.input ?? 0) - (u?.cacheRead ?? 0) - (u?.cacheWrite ?? 0)),
    output: Math.max(0, (u?.output ?? 0) - (u?.reasoning ?? 0)),
    reasoning: u?.reasoning ?? 0,
    cache: { read: u?.cacheRead ?? 0, write: u?.cacheWrite ?? 0 },
  };
  const keep = n.role === 'assistant' ? Object.fromEntries(['providerID', 'mode', 'agent', 'path'].filter((k) => n[k] !== undefined).map((k) => [k, n[k]])) : {};
  const model = v.model ?? (typeof n.modelID === 'string' ? n.modelID : undefined);
  return { info: { id, ...session, role: 'assistant', time: { created, completed: created }, ...(model ? { modelID: model } : {}), ...keep, cost: 0, tokens }, parts };
}

function meta(info: Record<string, unknown>): ConversationMeta | undefined {
  const m: ConversationMeta = {
    ...(typeof info.id === 'string' ? { sessionId: info.id } : {}),
    ...(typeof info.directory === 'string' ? { cwd: info.directory } : {}),
    ...(typeof info.version === 'string' ? { version: info.version } : {}),
  };
  return Object.keys(m).length > 0 ? m : undefined;
}

export const openCodeExport: Codec = {
  id: 'opencode-export',
  label: 'OpenCode session export (JSON)',
  tool: 'OpenCode',
  syntax: 'json',
  extensions: ['.json'],
  // A tool part holds the call and its result, in the assistant's message: a model turn holds its results.
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'turn' },
  sniffNeeds: ['info'],
  sniff(head) {
    if (!/"info"\s*:\s*\{/.test(head) || !/"parts"\s*:\s*\[/.test(head) || !/"role"\s*:\s*"(user|assistant)"/.test(head)) return 0;
    if (/"sessionID"\s*:/.test(head) || /"messages"\s*:\s*\[/.test(head)) return 45;
    // A bare list of messages this tool wrote (a conversion): OpenCode's message ids.
    return /^\s*\[\s*\{\s*"info"\s*:\s*\{\s*"id"\s*:\s*"msg_/.test(head) ? 40 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'opencode-export', (root, f, at) => {
      const wrapped = isPlainObject(root) && isPlainObject(root.info) && Array.isArray(root.messages);
      const list = wrapped ? (root.messages as unknown[]) : Array.isArray(root) && root.length > 0 ? root : undefined;
      if (!list || (list.length > 0 && !list.some(isMessage))) throw new NotThisFormat('expected an OpenCode export: {"info": {…}, "messages": [{"info": {"role", …}, "parts": […]}]}');
      const base = wrapped ? ['messages'] : [];
      list.forEach((m, i) => {
        if (!isMessage(m)) throw new ConversationFileError(f, `message ${i} is not {"info": {"role", …}, "parts": […]} (an OpenCode message)`, at([...base, i]));
      });
      const info = wrapped ? (root as { info: Record<string, unknown> }).info : {};
      const title = typeof info.title === 'string' && info.title.trim() !== '' ? info.title : undefined;
      const m = meta(info);
      return { conversations: [{ records: list, title, ...(m ? { meta: m } : {}) }], paths: [list.map((_, i) => [...base, i])] };
    });
  },
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => (Array.isArray(root) ? (conversations[0] ?? []).slice() : replaceAt(root, ['messages'], (conversations[0] ?? []).slice()))),
  view,
  fromView,
  loses: (v) => [
    ...(v.normalRole === 'system' ? ['the system role (OpenCode messages are the user’s or the assistant’s; it becomes a user message)'] : []),
    ...(v.parts.some((p) => p.kind === 'reasoning' && p.encrypted) ? ['encrypted reasoning'] : []),
    ...(v.parts.some((p) => p.kind === 'tool-result' && !v.parts.some((c) => c.kind === 'tool-call' && c.id !== undefined && c.id === p.callId)) ? ['a tool result apart from its call (OpenCode keeps each result in its call’s tool part; it becomes text)'] : []),
  ],
  withText(record, text) {
    if (!isMessage(record)) return undefined;
    // The text the user or model wrote: not what OpenCode added itself (a file's contents, a tool's note).
    const texts = record.parts.filter((p) => isPlainObject(p) && p.type === 'text' && typeof p.text === 'string' && p.synthetic !== true);
    if (texts.length !== 1) return undefined;
    return { ...record, parts: record.parts.map((p) => (p === texts[0] ? { ...(p as object), text } : p)) };
  },
  freshIds(record) {
    if (!isMessage(record)) return record;
    const id = newId('msg');
    return { ...record, info: { ...record.info, id }, parts: record.parts.map((p) => (isPlainObject(p) ? { ...p, id: newId('prt'), messageID: id } : p)) };
  },
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
