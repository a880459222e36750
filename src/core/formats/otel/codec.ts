import { isPlainObject } from '../../message.js';
import { argumentsText } from '../content-parts.js';
import { NotThisFormat, type Codec, type ConversationDocument } from '../codec.js';
import { looseText, normalizeRole, type MessageView, type Part, type ReportedUsage } from '../model.js';
import { parseJsonl } from '../syntax/jsonl.js';
import { parseJsonText } from '../syntax/json-doc.js';

type Loose = Record<string, unknown>;

/** One model call: a span the GenAI conventions describe. */
interface Call {
  group: string;
  start: number;
  span: Loose;
  attrs: Loose;
}

/** A message of a conversation as the traces recorded it, with the span it was first seen in. */
interface TraceMessage {
  role: string;
  parts: unknown[];
  finish_reason?: string;
  name?: string;
  /** The span: its ids, name, model and (on what the model wrote) the call's usage. */
  span: { traceId?: string; spanId?: string; name?: string; time?: string; model?: string; usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; reasoning?: number } };
  /** The model call sent the history differently from here on (the agent trimmed or rewrote it). */
  rewritten?: true;
}

/** An OTLP attribute value as a plain value (`{stringValue}`, `{intValue: "12"}`, arrays, key-value lists). */
function anyValue(v: unknown): unknown {
  if (!isPlainObject(v)) return v;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('boolValue' in v) return v.boolValue;
  if (isPlainObject(v.arrayValue)) return (Array.isArray(v.arrayValue.values) ? v.arrayValue.values : []).map(anyValue);
  if (isPlainObject(v.kvlistValue)) return attributesOf(v.kvlistValue.values);
  if ('bytesValue' in v) return v.bytesValue;
  return v;
}

/** A span's attributes as an object: OTLP's `[{key, value}]`, or an object already (SDK console and JSON dumps). */
function attributesOf(a: unknown): Loose {
  if (Array.isArray(a)) {
    const out: Loose = {};
    for (const kv of a) if (isPlainObject(kv) && typeof kv.key === 'string') out[kv.key] = anyValue(kv.value);
    return out;
  }
  return isPlainObject(a) ? a : {};
}

const json = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Whether an object is a span's attributes as a flat map (`{"gen_ai.input.messages": "[…]", …}`, as a trace viewer copies them). */
const isAttributeMap = (v: unknown): v is Loose => isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('gen_ai.'));

/** Whether a list is OTLP's attributes themselves (`[{key, value: {stringValue}}]`), of a model call. */
const isAttributeList = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0 && v.every((kv) => isPlainObject(kv) && typeof kv.key === 'string' && 'value' in kv) && v.some((kv) => String((kv as Loose).key).startsWith('gen_ai.'));

/**
 * Every span of a file: OTLP's `resourceSpans[].scopeSpans[].spans[]` (older `instrumentationLibrarySpans`), a
 * list of spans, one span, or a span's attributes alone (a flat map, or OTLP's list of key-values).
 */
function spansOf(root: unknown): Loose[] {
  if (isAttributeList(root)) return [{ attributes: root }];
  if (isPlainObject(root) && !Array.isArray(root.resourceSpans)) {
    if ('attributes' in root && (isPlainObject(root.attributes) || Array.isArray(root.attributes))) return [root];
    return isAttributeMap(root) ? [{ attributes: root }] : [];
  }
  const out: Loose[] = [];
  const resources = isPlainObject(root) && Array.isArray(root.resourceSpans) ? root.resourceSpans : undefined;
  if (resources) {
    for (const r of resources) {
      if (!isPlainObject(r)) continue;
      const scopes = Array.isArray(r.scopeSpans) ? r.scopeSpans : Array.isArray(r.instrumentationLibrarySpans) ? r.instrumentationLibrarySpans : [];
      for (const s of scopes) if (isPlainObject(s) && Array.isArray(s.spans)) for (const sp of s.spans) if (isPlainObject(sp)) out.push(sp);
    }
    return out;
  }
  if (Array.isArray(root)) for (const sp of root) if (isPlainObject(sp) && ('attributes' in sp || 'name' in sp)) out.push(sp);
    else if (isAttributeMap(sp)) out.push({ attributes: sp });
  return out;
}

/** OpenLLMetry's older flattened attributes (`gen_ai.prompt.0.role`, `gen_ai.completion.0.content`) as messages. */
function indexed(attrs: Loose, prefix: string): Loose[] {
  const out: Loose[] = [];
  for (const [k, v] of Object.entries(attrs)) {
    const m = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(\\d+)\\.(.+)$`).exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    out[i] ??= {};
    out[i][m[2]] = v;
  }
  return out.filter(Boolean).map((m) => {
    const parts: unknown[] = [];
    if (typeof m.content === 'string' && m.content !== '') parts.push({ type: 'text', content: m.content });
    for (let t = 0; typeof m[`tool_calls.${t}.name`] === 'string'; t++) parts.push({ type: 'tool_call', id: m[`tool_calls.${t}.id`], name: m[`tool_calls.${t}.name`], arguments: json(m[`tool_calls.${t}.arguments`]) });
    if (typeof m.tool_call_id === 'string') return { role: m.role ?? 'tool', parts: [{ type: 'tool_call_response', id: m.tool_call_id, response: m.content }] };
    return { role: m.role ?? 'user', parts, ...(typeof m.finish_reason === 'string' ? { finish_reason: m.finish_reason } : {}) };
  });
}

/** A message as the conventions write it (`{role, parts}`); older `{role, content}` ones are read into parts. */
function asMessage(m: unknown): Loose | undefined {
  if (!isPlainObject(m)) return undefined;
  if (Array.isArray(m.parts)) return m;
  if (typeof m.content === 'string') return { ...m, parts: [{ type: 'text', content: m.content }] };
  return { ...m, parts: [] };
}

function list(v: unknown): Loose[] {
  const parsed = json(v);
  return Array.isArray(parsed) ? parsed.map(asMessage).filter((m): m is Loose => m !== undefined) : [];
}

const key = (m: Loose) => JSON.stringify({ role: m.role, parts: m.parts });

/**
 * Conversations from the model calls a trace recorded: the calls of one `gen_ai.conversation.id` (else one
 * trace) in time order. Each call was sent the history so far (`gen_ai.input.messages`) and wrote its answer
 * (`gen_ai.output.messages`); the conversation is each message the first time a call was sent it, then each
 * answer with the call's reported usage. A call sent a history that differs from what came before (the agent
 * trimmed or summarised it) goes on from where they part, marked.
 */
function conversationsOf(spans: Loose[]): Array<{ title?: string; records: TraceMessage[]; id?: string }> {
  const calls: Call[] = [];
  for (const span of spans) {
    const attrs = attributesOf(span.attributes);
    const hasMessages = 'gen_ai.input.messages' in attrs || 'gen_ai.output.messages' in attrs || Object.keys(attrs).some((k) => /^gen_ai\.(prompt|completion)\.\d+\./.test(k));
    if (!hasMessages) continue;
    const context = isPlainObject(span.context) ? span.context : {};
    const trace = str(span.traceId) ?? str(context.trace_id) ?? '';
    const group = str(attrs['gen_ai.conversation.id']) ?? trace;
    const start = num(span.startTimeUnixNano) ?? (typeof span.start_time === 'string' ? Date.parse(span.start_time) * 1e6 : 0);
    calls.push({ group, start, span, attrs });
  }
  const groups = new Map<string, Call[]>();
  for (const c of calls) {
    let g = groups.get(c.group);
    if (!g) groups.set(c.group, (g = []));
    g.push(c);
  }
  const out: Array<{ title?: string; records: TraceMessage[]; id?: string }> = [];
  for (const [id, group] of groups) {
    group.sort((a, b) => a.start - b.start);
    const history: string[] = [];
    const records: TraceMessage[] = [];
    let system: string | undefined;
    for (const c of group) {
      const a = c.attrs;
      const context = isPlainObject(c.span.context) ? c.span.context : {};
      const span: TraceMessage['span'] = {
        traceId: str(c.span.traceId) ?? str(context.trace_id),
        spanId: str(c.span.spanId) ?? str(context.span_id),
        name: str(c.span.name),
        time: c.start > 0 ? new Date(c.start / 1e6).toISOString() : undefined,
        model: str(a['gen_ai.response.model']) ?? str(a['gen_ai.request.model']),
      };
      const instructions = json(a['gen_ai.system_instructions']);
      if (instructions !== undefined) {
        const k = JSON.stringify(instructions);
        if (k !== system) {
          system = k;
          records.push({ role: 'system', parts: Array.isArray(instructions) ? instructions : [{ type: 'text', content: looseText(instructions) }], span });
        }
      }
      const inputs = 'gen_ai.input.messages' in a ? list(a['gen_ai.input.messages']) : indexed(a, 'gen_ai.prompt');
      let p = 0;
      while (p < history.length && p < inputs.length && history[p] === key(inputs[p])) p++;
      const rewritten = p < history.length && history.length > 0;
      history.length = p;
      inputs.slice(p).forEach((m, i) => {
        history.push(key(m));
        records.push({ role: String(m.role ?? 'user'), parts: m.parts as unknown[], ...(typeof m.name === 'string' ? { name: m.name } : {}), span, ...(rewritten && i === 0 ? { rewritten: true as const } : {}) });
      });
      const outputs = 'gen_ai.output.messages' in a ? list(a['gen_ai.output.messages']) : indexed(a, 'gen_ai.completion');
      const usage = { input: num(a['gen_ai.usage.input_tokens']) ?? num(a['gen_ai.usage.prompt_tokens']), output: num(a['gen_ai.usage.output_tokens']) ?? num(a['gen_ai.usage.completion_tokens']), cacheRead: num(a['gen_ai.usage.cache_read.input_tokens']) ?? num(a['gen_ai.usage.cache_read_input_tokens']), cacheWrite: num(a['gen_ai.usage.cache_creation.input_tokens']) ?? num(a['gen_ai.usage.cache_creation_input_tokens']), reasoning: num(a['gen_ai.usage.reasoning.output_tokens']) };
      outputs.forEach((m, i) => {
        history.push(key({ role: m.role ?? 'assistant', parts: m.parts }));
        records.push({ role: String(m.role ?? 'assistant'), parts: m.parts as unknown[], ...(typeof m.finish_reason === 'string' ? { finish_reason: m.finish_reason } : {}), span: { ...span, ...(i === 0 ? { usage } : {}) } });
      });
    }
    const agent = group.map((c) => str(c.attrs['gen_ai.agent.name'])).find(Boolean);
    out.push({ id, records, ...(agent ? { title: agent } : {}) });
  }
  return out;
}

function partsOf(list: unknown[]): Part[] {
  const out: Part[] = [];
  for (const p of list) {
    if (!isPlainObject(p)) {
      out.push({ kind: 'text', text: looseText(p) });
      continue;
    }
    switch (p.type) {
      case 'text':
        out.push({ kind: 'text', text: looseText(p.content) });
        break;
      case 'reasoning':
      case 'thinking':
        out.push({ kind: 'reasoning', text: looseText(p.content) });
        break;
      case 'tool_call':
      case 'server_tool_call':
        out.push({ kind: 'tool-call', id: str(p.id), name: String(p.name ?? ''), arguments: argumentsText(json(p.arguments) ?? {}) });
        break;
      case 'tool_call_response':
      case 'server_tool_call_response':
        out.push({ kind: 'tool-result', callId: str(p.id), text: looseText(p.response ?? p.result) });
        break;
      case 'uri':
      case 'file':
      case 'blob': {
        const mime = str(p.mime_type);
        const ref = str(p.uri) ?? str(p.file_id) ?? (typeof p.content === 'string' ? `inline ${mime ?? 'data'} (${p.content.length} characters)` : p.type);
        out.push(p.modality === 'image' || mime?.startsWith('image/') ? { kind: 'image', ref, mediaType: mime } : { kind: 'file', ref, mediaType: mime });
        break;
      }
      default:
        out.push({ kind: 'unknown', type: String(p.type ?? 'part'), text: JSON.stringify(p) });
    }
  }
  return out;
}

function view(record: unknown): MessageView {
  const r = (isPlainObject(record) ? record : {}) as Partial<TraceMessage>;
  const role = String(r.role ?? '?');
  const u = r.span?.usage;
  const usage: ReportedUsage | undefined = u && (u.input !== undefined || u.output !== undefined) ? { input: u.input, output: u.output, ...(u.cacheRead ? { cacheRead: u.cacheRead } : {}), ...(u.cacheWrite ? { cacheWrite: u.cacheWrite } : {}), ...(u.reasoning ? { reasoning: u.reasoning } : {}), key: r.span?.spanId } : undefined;
  return {
    role,
    normalRole: normalizeRole(role),
    parts: partsOf(Array.isArray(r.parts) ? r.parts : []),
    timestamp: r.span?.time,
    ...(r.rewritten ? { category: 'history rewritten by the agent' } : {}),
    ...(r.span?.model && normalizeRole(role) === 'assistant' ? { model: r.span.model } : {}),
    ...(usage ? { usage } : {}),
    ...(r.name ? { name: r.name } : {}),
  };
}

function parse(text: string, file: string, lines: boolean): ConversationDocument {
  const roots: unknown[] = lines ? parseJsonl(text, file).lines.filter((l) => l.value !== undefined).map((l) => l.value) : [parseJsonText(text, file)];
  const spans = roots.flatMap(spansOf);
  if (spans.length === 0) throw new NotThisFormat('expected OpenTelemetry spans: {"resourceSpans": [{"scopeSpans": [{"spans": […]}]}]}, a span, or a span’s gen_ai.* attributes');
  const found = conversationsOf(spans);
  if (found.length === 0) throw new NotThisFormat(`${spans.length} spans, none a model call with messages (gen_ai.input.messages / gen_ai.output.messages; the instrumentation records them only when told to capture content)`);
  const calls = spans.filter((sp) => Object.keys(attributesOf(sp.attributes)).some((k) => k === 'gen_ai.input.messages' || k === 'gen_ai.output.messages' || /^gen_ai\.(prompt|completion)\.\d+\./.test(k))).length;
  return {
    codec: 'otel-genai',
    conversations: found.map((c) => ({ records: c.records, ...(c.title ? { title: c.title } : {}), meta: { sessionId: c.id } })),
    // The spans that are not model calls (tools, agents, HTTP): kept in the file, counted.
    otherRecords: spans.length - calls,
    text,
    baseline: null,
  };
}

/**
 * OpenTelemetry traces of model calls, as the GenAI semantic conventions record them (opentelemetry.io/docs/
 * specs/semconv/gen-ai): OTLP JSON (`{resourceSpans}`, one request per file or per line as the collector's file
 * exporter writes), each chat span's `gen_ai.input.messages`, `gen_ai.output.messages` and
 * `gen_ai.system_instructions` (`{role, parts}`: `text`, `tool_call`, `tool_call_response`, `reasoning`, `uri`,
 * `blob`), `gen_ai.usage.*` and the model; OpenLLMetry's older `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`.
 * A trace records what was sent, not a history to edit: read-only.
 */
export const otelGenAi: Codec = {
  id: 'otel-genai',
  label: 'OpenTelemetry GenAI traces (OTLP JSON)',
  tool: 'OpenTelemetry',
  syntax: 'json',
  extensions: ['.json', '.jsonl'],
  readOnly: 'a trace records what each model call was sent; it is read, not edited: Export (Ctrl+K) or the CLI’s `convert` gives an editable copy',
  capabilities: { conversations: 'many', toolCalls: true, reasoning: true, otherRecords: true, timestamps: true },
  sniffNeeds: ['resourceSpans', 'attributes', 'gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.prompt.0.role', 'gen_ai.prompt.0.content'],
  sniff(head) {
    if (/"resourceSpans"\s*:/.test(head) && /gen_ai\./.test(head)) return 55;
    if (/"resourceSpans"\s*:/.test(head)) return 30;
    if (/"gen_ai\.(input\.messages|output\.messages|prompt\.0\.)/.test(head) && /"attributes"\s*:/.test(head)) return 35;
    // A span's attributes alone: a flat map of them, or OTLP's list of key-values.
    if (/"gen_ai\.(input\.messages|output\.messages|prompt\.0\.role|prompt\.0\.content)"\s*:/.test(head)) return 35;
    return /"key"\s*:\s*"gen_ai\.(input|output)\.messages"/.test(head) ? 35 : 0;
  },
  parse: (text, file) => parse(text, file, linesFile(text, file)),
  serialize: (doc) => doc.text,
  view,
  fromView: (v) => v,
  loses: () => ['everything: a trace is read-only here'],
  withText: () => undefined,
  rawText: (_doc, _c, record) => {
    const r = record as Partial<TraceMessage>;
    return JSON.stringify({ role: r.role, parts: r.parts, ...(r.finish_reason ? { finish_reason: r.finish_reason } : {}) }, null, 2);
  },
};

/** Whether the text is a request per line (the collector's file exporter): by its name, else by what it holds. */
function linesFile(text: string, file: string): boolean {
  const name = file.toLowerCase();
  if (name.endsWith('.jsonl')) return true;
  if (name.endsWith('.json')) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}
