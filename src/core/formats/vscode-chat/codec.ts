import { isPlainObject, lineage, markDerived } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import type { MessageView, Part } from '../model.js';
import { jsonRawText, parseJsonDocument, replaceAt, serializeJsonDocument } from '../shared/json-document.js';
import { markdownPartText, partKind, responseParts, uriText, type ResponseContext } from './parts.js';

/**
 * A VS Code chat session: the JSON "Chat: Export Chat…" writes (`chat.json`, `ChatModel.toExport`) and the
 * per-workspace `workspaceStorage/<hash>/chatSessions/<id>.json` files (`ChatModel.toJSON`: the same, with
 * `version`, `sessionId`, `creationDate`, `customTitle`…). Each of `requests` is one turn: the user's `message`
 * (`{text, parts}`, a plain string in old files) with its attachments in `variableData`, and the participant's
 * `response`, a list of parts (see parts.ts), beside `result` (copilot-chat keeps the model's tool calls and
 * their results in `result.metadata`), `followups`, `agent`, `modelId`, `timestamp`.
 *
 * One record holds both sides, and a record here is one message: so the records are each request (the user's
 * side, at `requests[i]`) and, after it, its response list (the answer, at `requests[i].response`) when it
 * has parts. A save places each back: a request takes the response list that follows it (`response` is the
 * writer's to set), a request left without one gets `[]`, and an answer with no request of its own before it
 * (two in a row, or one first) gets an empty one: a request with no text, no parts and no attachments, which
 * VS Code never sends, read as its answer alone.
 *
 * A list of such records (what a conversion into this format writes) is read too, each element a record.
 */

type Loose = Record<string, unknown>;

/** The request each response list was read from: its result metadata, model and ids say what the list alone does not. */
const requestOfResponse = new WeakMap<object, Loose>();

function requestOf(record: object): Loose | undefined {
  for (const r of lineage(record)) {
    const request = requestOfResponse.get(r);
    if (request) return request;
  }
  return undefined;
}

const isRequest = (r: unknown): r is Loose => isPlainObject(r) && ('message' in r || typeof r.requestId === 'string');

/** The empty request a save puts before an answer that has none (see above); `answered` asks for its answer too. */
function isPlaceholder(r: unknown, answered = true): boolean {
  if (!isPlainObject(r) || !isPlainObject(r.message) || r.message.text !== '' || !Array.isArray(r.message.parts) || r.message.parts.length > 0) return false;
  const vars = isPlainObject(r.variableData) && Array.isArray(r.variableData.variables) ? r.variableData.variables : [];
  return vars.length === 0 && (!answered || (Array.isArray(r.response) && r.response.length > 0));
}

function isSession(root: unknown): root is Loose & { requests: unknown[] } {
  if (!isPlainObject(root) || !Array.isArray(root.requests)) return false;
  if (typeof root.requesterUsername === 'string' || typeof root.responderUsername === 'string') return true;
  return root.requests.length > 0 && root.requests.every(isRequest) && root.requests.some((r) => typeof (r as Loose).requestId === 'string');
}

function contextOf(request: Loose | undefined): ResponseContext | undefined {
  const result = request && isPlainObject(request.result) ? request.result : undefined;
  const meta = result && isPlainObject(result.metadata) ? result.metadata : undefined;
  if (!meta) return undefined;
  const rounds = Array.isArray(meta.toolCallRounds) ? meta.toolCallRounds : [];
  const calls = rounds.flatMap((r) =>
    isPlainObject(r) && Array.isArray(r.toolCalls)
      ? r.toolCalls.filter(isPlainObject).map((c) => ({ id: String(c.id ?? ''), name: String(c.name ?? ''), arguments: typeof c.arguments === 'string' ? c.arguments : (JSON.stringify(c.arguments ?? {}) ?? '') }))
      : [],
  );
  return { calls, results: isPlainObject(meta.toolCallResults) ? meta.toolCallResults : {} };
}

const isoTime = (ms: unknown) => (typeof ms === 'number' && Number.isFinite(ms) && ms > 0 && ms < 8.64e15 ? new Date(ms).toISOString() : undefined);

/** The request's attachments (`variableData.variables`): files, folders, symbols and selections by where they are, images by name. */
function attachmentParts(variableData: unknown): Part[] {
  const vars = isPlainObject(variableData) && Array.isArray(variableData.variables) ? variableData.variables : [];
  const parts: Part[] = [];
  for (const v of vars) {
    if (!isPlainObject(v)) continue;
    const name = typeof v.name === 'string' ? v.name : typeof v.id === 'string' ? v.id : 'attachment';
    // `#tool` references say which tools the request may use: settings, not content.
    if (v.kind === 'tool' || v.kind === 'toolset' || v.isTool === true) continue;
    if (v.kind === 'image' || v.isImage === true) parts.push({ kind: 'image', ref: name, ...(typeof v.mimeType === 'string' ? { mediaType: v.mimeType } : {}) });
    else parts.push({ kind: 'file', ref: uriText(v.value) ?? name });
  }
  return parts;
}

function requestView(r: Loose): MessageView {
  const text = typeof r.message === 'string' ? r.message : isPlainObject(r.message) && typeof r.message.text === 'string' ? r.message.text : '';
  const parts: Part[] = text === '' ? [] : [{ kind: 'text', text }];
  for (const p of attachmentParts(r.variableData)) parts.push(p);
  return { role: 'user', normalRole: 'user', parts, timestamp: isoTime(r.timestamp), id: typeof r.requestId === 'string' ? r.requestId : undefined };
}

function responseView(record: unknown[]): MessageView {
  const request = requestOf(record);
  return {
    role: 'assistant',
    normalRole: 'assistant',
    parts: responseParts(record, contextOf(request)),
    id: typeof request?.responseId === 'string' ? request.responseId : undefined,
    model: typeof request?.modelId === 'string' ? request.modelId : undefined,
  };
}

/** Where an offset of `text` is in an editor: 1-based line and column. */
function editorPosition(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** A parsed request's text part (`ChatRequestTextPart` as it serialises) from `start` to the end of `text`. */
function textPart(text: string, start: number): Loose {
  const from = editorPosition(text, start);
  const to = editorPosition(text, text.length);
  return { range: { start, endExclusive: text.length }, editorRange: { startLineNumber: from.line, startColumn: from.column, endLineNumber: to.line, endColumn: to.column }, text: text.slice(start), kind: 'text' };
}

/** A message's parts for new text: the mentions before its last text part kept while the text still starts with them. */
function partsFor(message: Loose, text: string): unknown[] {
  const parts = Array.isArray(message.parts) ? message.parts : [];
  const old = typeof message.text === 'string' ? message.text : '';
  const last = parts[parts.length - 1];
  if (isPlainObject(last) && last.kind === 'text' && isPlainObject(last.range) && typeof last.range.start === 'number' && last.range.start <= old.length) {
    const start = last.range.start;
    const before = parts.slice(0, -1);
    const ends = before.every((p) => isPlainObject(p) && isPlainObject(p.range) && typeof p.range.endExclusive === 'number' && p.range.endExclusive <= start);
    if (start > 0 && ends && text.startsWith(old.slice(0, start))) return [...before, textPart(text, start)];
  }
  // Even an empty text has its part: a request with no parts at all is the writer's placeholder.
  return [textPart(text, 0)];
}

/** A markdown part saying `text` instead, in its own shape. */
function withMarkdown(part: unknown, text: string): unknown {
  if (typeof part === 'string' || !isPlainObject(part)) return text;
  if (typeof part.kind !== 'string' || !isPlainObject(part.content)) return { ...part, value: text };
  return { ...part, content: { ...part.content, value: text } };
}

const markdown = (value: string) => ({ value, supportThemeIcons: false, supportHtml: false });

/** A serialised tool invocation for a call, its result (if the message holds it) in `resultDetails`. */
function invocationFromParts(call: Extract<Part, { kind: 'tool-call' }> | undefined, result: Extract<Part, { kind: 'tool-result' }> | undefined, k: number): Loose {
  const name = call?.name ?? '';
  return {
    kind: 'toolInvocationSerialized',
    invocationMessage: name,
    isConfirmed: true,
    isComplete: true,
    toolCallId: call?.id ?? result?.callId ?? `call_${Date.now().toString(36)}_${k}`,
    toolId: name,
    resultDetails: { input: call?.arguments ?? '', output: result ? [{ type: 'embed', isText: true, value: result.text }] : [], ...(result?.isError ? { isError: true } : {}) },
  };
}

function responseFromView(v: MessageView): unknown[] {
  const out: unknown[] = [];
  const results = new Map(v.parts.flatMap((p) => (p.kind === 'tool-result' && p.callId ? [[p.callId, p] as const] : [])));
  const calls = new Set(v.parts.flatMap((p) => (p.kind === 'tool-call' && p.id ? [p.id] : [])));
  let text: string[] | undefined;
  const flush = () => {
    if (text) out.push(markdown(text.join('\n')));
    text = undefined;
  };
  v.parts.forEach((p, k) => {
    if (p.kind === 'text' || p.kind === 'unknown') {
      (text ??= []).push(p.text);
      return;
    }
    if (p.kind === 'image' || p.kind === 'file') return;
    flush();
    if (p.kind === 'reasoning') {
      if (!p.encrypted && p.text !== '') out.push({ kind: 'thinking', value: p.text });
    } else if (p.kind === 'tool-call') out.push(invocationFromParts(p, p.id ? results.get(p.id) : undefined, k));
    // A result whose call is not in this message: an invocation of its own, as the turn ran it.
    else if (!(p.callId && calls.has(p.callId))) out.push(invocationFromParts(undefined, p, k));
  });
  flush();
  // An answer of nothing still has a part: an empty response is no answer at all.
  return out.length > 0 ? out : [markdown('')];
}

function requestFromView(v: MessageView): Loose {
  const text = v.parts
    .filter((p) => p.kind === 'text' || p.kind === 'unknown' || p.kind === 'tool-result')
    .map((p) => (p as { text: string }).text)
    .join('\n');
  const variables = v.parts.flatMap((p) => (p.kind === 'file' ? [{ id: p.ref, name: p.ref.split(/[/\\]/).pop() || p.ref, value: { $mid: 1, scheme: 'file', path: p.ref }, kind: 'file' }] : []));
  const ms = v.timestamp ? Date.parse(v.timestamp) : NaN;
  return { requestId: `request_${crypto.randomUUID()}`, message: { text, parts: [textPart(text, 0)] }, variableData: { variables }, response: [], timestamp: Number.isFinite(ms) ? ms : Date.now() };
}

/** The placeholder for an answer with no request before it: the one it was read with, if it was one. */
function placeholderFor(response: unknown[]): Loose {
  const had = requestOf(response);
  if (had && isPlaceholder(had, false)) return had;
  // One per answer: every save of the same records writes the same bytes (its id and time made once).
  let made = placeholders.get(response);
  if (!made) placeholders.set(response, (made = { requestId: `request_${crypto.randomUUID()}`, message: { text: '', parts: [] }, variableData: { variables: [] }, response: [], timestamp: Date.now() }));
  return made;
}
const placeholders = new WeakMap<unknown[], Loose>();

/** The request list for these records: each request takes the answer after it (see the comment at the top). */
function pairRequests(records: readonly unknown[]): unknown[] {
  const turns: Array<{ request: Loose; response?: unknown[] }> = [];
  for (const r of records) {
    if (!Array.isArray(r)) {
      turns.push({ request: isPlainObject(r) ? r : requestFromView({ role: 'user', normalRole: 'user', parts: [] }) });
      continue;
    }
    const last = turns[turns.length - 1];
    if (last && last.response === undefined && !isPlaceholder(last.request, false)) last.response = r;
    else turns.push({ request: placeholderFor(r), response: r });
  }
  return turns.map(({ request, response }) => {
    const had = request.response;
    if (response === undefined ? !Array.isArray(had) || had.length === 0 : had === response) return request;
    const next = { ...request, response: response ?? [] };
    markDerived(next, request);
    return next;
  });
}

export const vscodeChat: Codec = {
  id: 'vscode-chat',
  label: 'VS Code chat session (JSON)',
  tool: 'VS Code',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'turn' },
  sniffNeeds: ['requests', 'requestId'],
  sniff(head) {
    const requests = /"requests"\s*:\s*\[/.test(head);
    if (requests && /"re(quester|sponder)Username"\s*:/.test(head)) return 60;
    if (requests && /"requestId"\s*:\s*"request_/.test(head) && /"variableData"\s*:/.test(head)) return 45;
    if (/^\s*\[\s*\{\s*"requestId"\s*:/.test(head)) return 20;
    return 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'vscode-chat', (root, f, at) => {
      if (Array.isArray(root)) {
        if (!root.every((r) => Array.isArray(r) || isRequest(r))) throw new NotThisFormat('expected a VS Code chat session: {"requesterUsername", "responderUsername", "requests": [{"requestId", "message", "response": […]}]}');
        return { conversations: [{ records: root }], paths: [root.map((_, i) => [i])] };
      }
      if (!isSession(root)) throw new NotThisFormat('expected a VS Code chat session: {"requesterUsername", "responderUsername", "requests": [{"requestId", "message", "response": […]}]}');
      const records: unknown[] = [];
      const paths: Array<Array<string | number>> = [];
      root.requests.forEach((r, i) => {
        if (!isPlainObject(r)) throw new ConversationFileError(f, `requests[${i}] is not an object (VS Code writes {requestId, message, variableData, response, …})`, at(['requests', i]));
        if (!isPlaceholder(r)) {
          records.push(r);
          paths.push(['requests', i]);
        }
        if (Array.isArray(r.response) && r.response.length > 0) {
          records.push(r.response);
          paths.push(['requests', i, 'response']);
          requestOfResponse.set(r.response, r);
        }
      });
      const title = typeof root.customTitle === 'string' && root.customTitle !== '' ? root.customTitle : undefined;
      return { conversations: [{ title, records, meta: typeof root.sessionId === 'string' ? { sessionId: root.sessionId } : undefined }], paths: [paths] };
    });
  },
  serialize(doc, conversations) {
    const records = conversations[0] ?? [];
    return serializeJsonDocument(doc, (root) => (Array.isArray(root) ? records.slice() : replaceAt(root, ['requests'], pairRequests(records))));
  },
  view: (record) => (Array.isArray(record) ? responseView(record) : isPlainObject(record) ? requestView(record) : { role: '?', normalRole: 'other', parts: [] }),
  fromView: (v) => (v.normalRole === 'assistant' || v.normalRole === 'tool' ? responseFromView(v) : requestFromView(v)),
  loses: (v) => [
    ...(v.normalRole === 'system' ? ['a system message (VS Code chat has none: written as a request)'] : []),
    ...(v.parts.some((p) => p.kind === 'image') ? ['images (a VS Code request keeps an image’s bytes, which a reference does not give)'] : []),
    ...(v.normalRole === 'assistant' && v.parts.some((p) => p.kind === 'file') ? ['file references in an answer'] : []),
    ...(v.normalRole !== 'assistant' && v.normalRole !== 'tool' && v.parts.some((p) => p.kind === 'tool-result') ? ['tool results on the user’s side (written as the request’s text: VS Code keeps results in the response)'] : []),
    ...(v.parts.some((p) => p.kind === 'reasoning' && p.encrypted) ? ['encrypted reasoning'] : []),
  ],
  withText(record, text) {
    if (Array.isArray(record)) {
      // One markdown part, and no other text beside it: its value is the answer's text.
      const md = record.flatMap((p, i) => (markdownPartText(p) !== undefined ? [i] : []));
      const otherText = record.some((p) => ['inlineReference', 'warning', 'confirmation'].includes(partKind(p)));
      if (md.length !== 1 || otherText) return undefined;
      return record.map((p, i) => (i === md[0] ? withMarkdown(p, text) : p));
    }
    if (!isPlainObject(record)) return undefined;
    if (typeof record.message === 'string' || record.message === undefined) return { ...record, message: text };
    if (!isPlainObject(record.message)) return undefined;
    return { ...record, message: { ...record.message, text, parts: partsFor(record.message, text) } };
  },
  linkFields: ['response'],
  // A copied request is a request of its own (VS Code finds a request, and removes it, by its id).
  freshIds: (record) => (isRequest(record) && typeof record.requestId === 'string' ? { ...record, requestId: `request_${crypto.randomUUID()}` } : record),
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
