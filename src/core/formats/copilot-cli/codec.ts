import { isPlainObject } from '../../message.js';
import { argumentsText } from '../content-parts.js';
import { NotThisFormat, type Codec, type ConversationDocument, type ConversationMeta, type ReportedTotal } from '../codec.js';
import { looseText, normalizeRole, type MessageView, type Part } from '../model.js';
import { appendJsonlRecords, firstLine, jsonlLineText, parseJsonlRecords, type JsonlRecordsBaseline } from '../shared/jsonl-document.js';
import { planJsonl, renderJsonl } from '../syntax/jsonl.js';
import { copilotTree, isCompaction, relinkEvents } from './chain.js';
import { oneLine } from '../../util/one-line.js';

/**
 * GitHub Copilot CLI's session log (`~/.copilot/session-state/<session-id>/events.jsonl`): one event a line,
 * `{type, data, id, timestamp, parentId, agentId?}`. The messages are `system.message` (the system prompt),
 * `user.message` (`content` as typed; `transformedContent` what the model was sent), `assistant.message`
 * (`content`, `reasoningText`, `toolRequests` [{toolCallId, name, arguments}], `model`, `outputTokens`),
 * `assistant.reasoning` (older CLIs' reasoning event), `tool.execution_complete` (`toolCallId`, `success`,
 * `result.content` or `error.message`) and a successful `session.compaction_complete` (its `summaryContent`
 * replaces the history before it). Every other event (session start, model changes, turn boundaries, tool
 * starts, truncations, shutdown metrics, and any type this reader does not know) is kept as it is.
 */

type Event = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const dataOf = (r: unknown): Event => (isPlainObject(r) && isPlainObject(r.data) ? r.data : {});

const MESSAGE_TYPES = new Set(['system.message', 'user.message', 'assistant.message', 'assistant.reasoning', 'tool.execution_complete']);

function isMessage(v: unknown): boolean {
  if (!isPlainObject(v) || typeof v.type !== 'string' || !isPlainObject(v.data)) return false;
  if (MESSAGE_TYPES.has(v.type)) return true;
  // A failed compaction replaced nothing: it stays an event.
  return isCompaction(v) && v.data.success !== false;
}

function resultText(d: Event): string {
  const result = isPlainObject(d.result) ? d.result : undefined;
  const error = isPlainObject(d.error) ? d.error : undefined;
  if (result) {
    const text = str(result.content) ?? str(result.detailedContent);
    if (text !== undefined) return text;
    if (Array.isArray(result.contents)) return looseText(result.contents);
  }
  if (error && typeof error.message === 'string') return error.message;
  if (typeof d.error === 'string') return d.error;
  return result ? looseText(result) : '';
}

function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const type = str(r.type) ?? '?';
  const d = dataOf(r);
  const base = { timestamp: str(r.timestamp), id: str(r.id), sidechain: typeof r.agentId === 'string' && r.agentId !== '' ? true : undefined };
  const text = (t: unknown): Part[] => (typeof t === 'string' && t !== '' ? [{ kind: 'text', text: t }] : []);
  switch (type) {
    case 'system.message': {
      const role = str(d.role) ?? 'system';
      return { ...base, role, normalRole: normalizeRole(role) === 'other' ? 'system' : normalizeRole(role), parts: text(d.content) };
    }
    case 'user.message': {
      const parts = text(d.content);
      for (const a of Array.isArray(d.attachments) ? d.attachments : []) {
        if (!isPlainObject(a)) continue;
        const ref = str(a.path) ?? str(a.filePath) ?? str(a.uri) ?? str(a.url) ?? str(a.displayName) ?? str(a.type) ?? 'attachment';
        parts.push({ kind: 'file', ref, ...(typeof a.mimeType === 'string' ? { mediaType: a.mimeType } : {}) });
      }
      return { ...base, role: 'user', normalRole: 'user', parts, meta: d.isAutopilotContinuation === true || undefined };
    }
    case 'assistant.message': {
      const parts: Part[] = [];
      if (typeof d.reasoningText === 'string' && d.reasoningText !== '') parts.push({ kind: 'reasoning', text: d.reasoningText });
      if (typeof d.content === 'string' && d.content !== '') parts.push({ kind: 'text', text: d.content });
      for (const t of Array.isArray(d.toolRequests) ? d.toolRequests : []) {
        if (!isPlainObject(t)) continue;
        parts.push({ kind: 'tool-call', id: str(t.toolCallId), name: String(t.name ?? ''), arguments: argumentsText(t.arguments) });
      }
      const output = num(d.outputTokens);
      const model = str(d.model);
      // Chunks of one model call share its apiCallId: its tokens are counted once.
      const key = str(d.apiCallId) ?? str(d.messageId) ?? base.id;
      return { ...base, role: 'assistant', normalRole: 'assistant', parts, model, usage: output !== undefined ? { output, model, key } : undefined };
    }
    case 'assistant.reasoning':
      return { ...base, role: 'reasoning', normalRole: 'assistant', parts: typeof d.content === 'string' ? [{ kind: 'reasoning', text: d.content }] : [] };
    case 'tool.execution_complete':
      return { ...base, role: 'tool', normalRole: 'tool', model: str(d.model), parts: [{ kind: 'tool-result', callId: str(d.toolCallId), text: resultText(d), isError: d.success === false || undefined }] };
    case 'session.compaction_complete':
      return {
        ...base,
        role: 'compaction',
        normalRole: 'user',
        parts: text(d.summaryContent),
        summary: true,
        meta: true,
        compaction: { trigger: str(d.trigger), preTokens: num(d.preCompactionTokens) },
      };
    default:
      return { ...base, role: type, normalRole: 'other', parts: [{ kind: 'unknown', type, text: JSON.stringify(d) }] };
  }
}

/** The first prompt, on one line: the session's title. */
function titleOf(values: unknown[]): string | undefined {
  const first = values.find((v) => isPlainObject(v) && v.type === 'user.message' && v.agentId === undefined && typeof dataOf(v).content === 'string' && (dataOf(v).content as string).trim() !== '');
  if (!first) return undefined;
  return oneLine(dataOf(first).content as string, 80);
}

function metaOf(values: unknown[]): ConversationMeta | undefined {
  const start = values.find((v) => isPlainObject(v) && v.type === 'session.start');
  if (!start) return undefined;
  const d = dataOf(start);
  const c = isPlainObject(d.context) ? d.context : {};
  return { sessionId: str(d.sessionId), cwd: str(c.cwd), version: str(d.copilotVersion), gitBranch: str(c.branch) };
}

/**
 * What each run of the CLI used, as it wrote it when the run ended (`session.shutdown`'s `modelMetrics`: per model
 * its `requests.count` and `usage` {inputTokens (the cached among them), outputTokens, cacheReadTokens,
 * cacheWriteTokens, reasoningTokens}); the messages record their output alone. A run's figures start anew when it
 * starts or resumes the session (github/copilot-cli#524 and #1628: a resumed session's usage shows only what the
 * new run used), so each shutdown adds up the calls since the session started or was last resumed, and a resumed
 * session's shutdowns add up. A run that ended without one (killed, or `/new`) keeps its messages' output alone.
 */
function usageTotals(doc: ConversationDocument): ReportedTotal[] {
  const b = doc.baseline as JsonlRecordsBaseline | undefined;
  if (b?.kind !== 'records') return [];
  const records = doc.conversations[0]?.records ?? [];
  const out: ReportedTotal[] = [];
  let next = 0;
  // The rows since the run began that report a call, by their model.
  let run: Array<{ row: number; model?: string }> = [];
  b.lines.lines.forEach((l, i) => {
    if (next < b.slots.length && b.slots[next] === i) {
      const u = view(records[next]).usage;
      if (u) run.push({ row: next, model: u.model });
      next++;
      return;
    }
    const v = l.value;
    if (!isPlainObject(v)) return;
    if (v.type === 'session.start' || v.type === 'session.resume') run = [];
    if (v.type !== 'session.shutdown') return;
    const metrics = isPlainObject(dataOf(v).modelMetrics) ? (dataOf(v).modelMetrics as Event) : {};
    const models = Object.keys(metrics);
    for (const model of models) {
      const m = metrics[model];
      const u = isPlainObject(m) && isPlainObject(m.usage) ? m.usage : undefined;
      if (!u) continue;
      const requests = isPlainObject(m) && isPlainObject(m.requests) ? num(m.requests.count) : undefined;
      // A message of no model is the only model's, where the run used one.
      const covers = run.filter((c) => c.model === model || (c.model === undefined && models.length === 1)).map((c) => c.row);
      out.push({
        index: Math.max(0, next - 1),
        at: str(v.timestamp),
        key: `${str(v.id) ?? `line ${i + 1}`} ${model}`,
        usage: { model, input: num(u.inputTokens), output: num(u.outputTokens), cacheRead: num(u.cacheReadTokens), cacheWrite: num(u.cacheWriteTokens), reasoning: num(u.reasoningTokens), ...(requests !== undefined ? { calls: requests } : {}) },
        covers,
      });
    }
    run = [];
  });
  return out;
}

/** A tool call's arguments as Copilot keeps them: JSON objects and lists as values, anything else as the text it is. */
function argumentsValue(text: string): unknown {
  try {
    const v = JSON.parse(text) as unknown;
    if (v !== null && typeof v === 'object') return v;
  } catch {
    // not JSON: kept as text (a custom tool's raw input)
  }
  return text;
}

/** A string with `from` replaced by `to` where it occurs once (the prompt inside what the model was sent). */
function replaceOnce(s: string, from: string, to: string): string | undefined {
  const at = from === '' ? -1 : s.indexOf(from);
  if (at === -1 || s.indexOf(from, at + 1) !== -1) return undefined;
  return s.slice(0, at) + to + s.slice(at + from.length);
}

function fromView(v: MessageView, near?: unknown): Event {
  const n = isPlainObject(near) ? near : {};
  const timestamp = v.timestamp ?? new Date().toISOString();
  const envelope = { id: crypto.randomUUID(), timestamp, parentId: str(n.id) ?? null, ...(typeof n.agentId === 'string' ? { agentId: n.agentId } : {}) };
  const texts = v.parts.filter((p) => p.kind === 'text' || p.kind === 'unknown').map((p) => (p as { text: string }).text);
  const content = texts.join('\n');
  const result = v.parts.find((p) => p.kind === 'tool-result');
  if (result?.kind === 'tool-result' || v.normalRole === 'tool') {
    const callId = result?.kind === 'tool-result' ? result.callId : undefined;
    const body = result?.kind === 'tool-result' ? result.text : content;
    const failed = result?.kind === 'tool-result' && result.isError === true;
    const data = { toolCallId: callId ?? '', success: !failed, ...(failed ? { error: { message: body, code: 'failure' } } : { result: { content: body } }) };
    return { type: 'tool.execution_complete', data, ...envelope };
  }
  if (v.compaction && v.summary) {
    return { type: 'session.compaction_complete', data: { success: true, ...(v.compaction.trigger ? { trigger: v.compaction.trigger } : {}), ...(v.compaction.preTokens !== undefined ? { preCompactionTokens: v.compaction.preTokens } : {}), summaryContent: content }, ...envelope };
  }
  if (v.normalRole === 'system') return { type: 'system.message', data: { role: 'system', content }, ...envelope };
  if (v.normalRole !== 'assistant') return { type: 'user.message', data: { content, attachments: [] }, ...envelope };
  const reasoning = v.parts.filter((p) => p.kind === 'reasoning' && !p.encrypted && !p.signature).map((p) => (p as { text: string }).text);
  const toolRequests = v.parts.flatMap((p) => (p.kind === 'tool-call' ? [{ toolCallId: p.id ?? `call_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`, name: p.name, arguments: argumentsValue(p.arguments), type: 'function' }] : []));
  const data: Event = { messageId: crypto.randomUUID(), content, toolRequests };
  if (reasoning.length > 0) data.reasoningText = reasoning.join('\n\n');
  const model = v.model ?? str(dataOf(n).model);
  if (model) data.model = model;
  return { type: 'assistant.message', data, ...envelope };
}

/** The Copilot CLI event log (`~/.copilot/session-state/<session-id>/events.jsonl`). */
export const copilotCliEvents: Codec = {
  id: 'copilot-cli-events',
  label: 'GitHub Copilot CLI session (JSONL)',
  tool: 'Copilot CLI',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: true, timestamps: true, toolParts: 'calls' },
  sniffNeeds: ['data'],
  sniff(head) {
    const line = firstLine(head);
    if (!/"data"\s*:\s*\{/.test(line)) return 0;
    if (/"type"\s*:\s*"session\.start"/.test(line) && /"(copilotVersion|producer)"\s*:/.test(line)) return 50;
    if (/"type"\s*:\s*"(user|assistant|system)\.message"/.test(line)) return 40;
    return /"type"\s*:\s*"(session|assistant|tool|user|system|subagent|hook|skill)\.[a-z_]+"/.test(line) && /"parentId"\s*:/.test(line) ? 40 : 0;
  },
  parse(text, file) {
    const doc = parseJsonlRecords(text, file, 'copilot-cli-events', isMessage, titleOf, metaOf);
    const b = doc.baseline as JsonlRecordsBaseline;
    b.lines.lines.forEach((l, i) => {
      if (l.value !== undefined && !(isPlainObject(l.value) && typeof l.value.type === 'string')) throw new NotThisFormat(`line ${i + 1} is not a Copilot CLI event ({"type", "data", "id", "timestamp", "parentId"})`, { line: i + 1, column: 1 });
    });
    return doc;
  },
  append: (doc, added, file) => appendJsonlRecords(doc, added, file, isMessage, titleOf, metaOf),
  // The chain is kept whole as the lines are laid out: a deleted event's follower names its parent, new events
  // are spliced in after the line before them.
  serialize(doc, conversations) {
    const b = doc.baseline as JsonlRecordsBaseline;
    const out = planJsonl(b.lines, b.slots, conversations[0] ?? []);
    relinkEvents(
      b.lines.lines.map((l) => l.value),
      out,
    );
    return renderJsonl(doc.text, b.lines, out);
  },
  linkFields: ['parentId', 'id'],
  tree: (doc, _c, records) => copilotTree(doc, records),
  freshIds: (record) => (isPlainObject(record) ? { ...record, id: crypto.randomUUID() } : record),
  view,
  usageTotals,
  fromView,
  loses: (v) => {
    const out: string[] = [];
    if (v.parts.some((p) => p.kind === 'reasoning' && (p.encrypted || p.signature))) out.push('encrypted reasoning and signatures (an event keeps readable reasoning text only)');
    if (v.parts.some((p) => p.kind === 'image' || p.kind === 'file')) out.push('images and files (a user.message holds attachments as paths on the machine it ran on)');
    const result = v.parts.some((p) => p.kind === 'tool-result');
    if (v.parts.filter((p) => p.kind === 'tool-result').length > 1) out.push('all but the first tool result of a message (a tool.execution_complete holds one)');
    if (v.parts.some((p) => p.kind === 'tool-call') && (result || v.normalRole !== 'assistant')) out.push('tool calls outside an assistant message (only an assistant.message holds toolRequests)');
    if (result && v.parts.some((p) => p.kind === 'text' || p.kind === 'reasoning')) out.push('text beside a tool result (a tool.execution_complete holds the result alone)');
    if (!result && v.normalRole !== 'assistant' && v.normalRole !== 'tool' && v.parts.some((p) => p.kind === 'reasoning' && !p.encrypted && !p.signature)) out.push('reasoning of a message that is not the assistant’s');
    return out;
  },
  withText(record, text) {
    if (!isPlainObject(record) || !isPlainObject(record.data)) return undefined;
    const d = record.data;
    const withData = (data: Event) => ({ ...record, data });
    switch (record.type) {
      case 'user.message': {
        if (typeof d.content !== 'string') return undefined;
        // What the model was sent wraps the prompt (the time, reminders): the prompt in it changes with it.
        const sent = typeof d.transformedContent === 'string' ? replaceOnce(d.transformedContent, d.content, text) : undefined;
        return withData({ ...d, content: text, ...(sent !== undefined ? { transformedContent: sent } : {}) });
      }
      case 'system.message':
      case 'assistant.message':
        return typeof d.content === 'string' ? withData({ ...d, content: text }) : undefined;
      case 'session.compaction_complete':
        return typeof d.summaryContent === 'string' ? withData({ ...d, summaryContent: text }) : undefined;
      case 'tool.execution_complete': {
        const result = isPlainObject(d.result) ? d.result : undefined;
        if (result && typeof result.content === 'string') {
          // The detailed text the timeline shows is the same result: kept in step where it was the same text.
          const detailed = result.detailedContent === result.content ? { detailedContent: text } : {};
          return withData({ ...d, result: { ...result, content: text, ...detailed } });
        }
        if (!result && isPlainObject(d.error) && typeof d.error.message === 'string') return withData({ ...d, error: { ...d.error, message: text } });
        return undefined;
      }
      default:
        return undefined;
    }
  },
  rawText: (doc, _c, record) => jsonlLineText(doc, record),
};
