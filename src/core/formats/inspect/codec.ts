import { isPlainObject } from '../../message.js';
import { argumentsObject, argumentsText } from '../content-parts.js';
import { NotThisFormat, type Codec, type ConversationMeta, type DocumentConversation } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import type { MessageView, NormalRole, Part, ReportedUsage } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument } from '../shared/json-document.js';
import type { JsonPath } from '../syntax/json-doc.js';
import { toolSchemas } from '../tools.js';

/**
 * An Inspect AI eval log in JSON (`logs/<time>_<task>_<id>.json`, `inspect eval --log-format json`; the
 * `EvalLog` of inspect_ai/log/_log.py): `{version, status, eval: {task, model, …}, plan, results, stats,
 * samples}`. Each sample, per epoch (`{id, epoch, input, target, messages, output, scores, metadata, store,
 * events, model_usage, attachments}`), is a conversation: its `messages`, inspect_ai's `ChatMessage`s (`role`
 * system, user, assistant or tool; `content` a string or a list of `text`, `reasoning` (`reasoning`,
 * `summary`, `signature`, `redacted`), `image`, `audio`, `video`, `document`, `data` and server-side
 * `tool_use` parts; an assistant's `tool_calls` (`{id, function, arguments}`) and `model`; a tool message's
 * `tool_call_id`, `function` and `error`). A log condenses inline images (`data:` URIs) into the sample's
 * `attachments`, referred to as `attachment://<hash>`. A model call's usage is on the `model` event (or the
 * sample's `output`) whose message is the one the log keeps. The `.eval` format (a ZIP of the same JSON) is
 * not read here.
 */

type Loose = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Usage of a message's model call, found when the log was read (a message does not carry it). */
const usageOfRecord = new WeakMap<object, ReportedUsage>();

/**
 * Inspect's `ModelUsage` in this tool's meaning. Providers fill it differently: Anthropic's `input_tokens`
 * leave the cache reads and writes out (the total adds them), OpenAI's include the cached ones.
 */
function usageOf(u: unknown, model: string | undefined, key: string): ReportedUsage | undefined {
  if (!isPlainObject(u)) return undefined;
  const input = num(u.input_tokens);
  const output = num(u.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const read = num(u.input_tokens_cache_read) ?? 0;
  const write = num(u.input_tokens_cache_write) ?? 0;
  const apart = read + write > 0 && num(u.total_tokens) === (input ?? 0) + (output ?? 0) + read + write;
  const out: ReportedUsage = { input: input === undefined ? undefined : apart ? input + read + write : input, output, cacheRead: read || undefined, cacheWrite: write || undefined, reasoning: num(u.reasoning_tokens) || undefined, model, key };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as ReportedUsage;
}

/** A media reference as shown: a data URI by its type and length, anything else (a URL, an attachment) as it is. */
const mediaRef = (v: unknown) => {
  const s = typeof v === 'string' ? v : '';
  return s.startsWith('data:') ? `${s.slice(0, s.indexOf(',') + 1)}… (${s.length} characters)` : s;
};
const dataType = (v: unknown) => (typeof v === 'string' && v.startsWith('data:') ? v.slice(5, v.search(/[;,]/)) || undefined : undefined);

function contentPart(block: unknown, vendor: 'anthropic' | 'openai' | undefined): Part[] {
  if (typeof block === 'string') return [{ kind: 'text', text: block }];
  if (!isPlainObject(block)) return [{ kind: 'unknown', type: typeof block, text: JSON.stringify(block) ?? '' }];
  switch (block.type) {
    case 'text':
      return [{ kind: 'text', text: str(block.text) ?? '' }];
    case 'reasoning': {
      const redacted = block.redacted === true;
      // A redacted block's `reasoning` is the provider's encrypted blob; its summary, when there is one, is readable.
      if (redacted && typeof block.summary === 'string' && block.summary !== '') return [{ kind: 'reasoning', text: block.summary, ...(vendor ? { vendor } : {}) }];
      const signature = str(block.signature);
      return [{ kind: 'reasoning', text: str(block.reasoning) ?? '', ...(redacted ? { encrypted: true } : {}), ...(vendor ? { vendor } : {}), ...(signature ? { signed: signature } : {}) }];
    }
    case 'image':
      return [{ kind: 'image', ref: mediaRef(block.image), mediaType: dataType(block.image) }];
    case 'audio':
    case 'video':
    case 'document': {
      const ref = block[block.type];
      const name = str(block.filename);
      return [{ kind: 'file', ref: name || mediaRef(ref), mediaType: str(block.mime_type) || dataType(ref) || (typeof block.format === 'string' ? `${block.type}/${block.format}` : undefined) }];
    }
    case 'tool_use': {
      // A tool the provider ran itself (web search, code execution): the call and its result in one block.
      const id = str(block.id);
      return [
        { kind: 'tool-call', id, name: String(block.name ?? ''), arguments: argumentsText(block.arguments) },
        { kind: 'tool-result', callId: id, text: typeof block.result === 'string' ? block.result : (JSON.stringify(block.result) ?? ''), ...(block.error ? { isError: true } : {}) },
      ];
    }
    default:
      return [{ kind: 'unknown', type: typeof block.type === 'string' ? block.type : 'object', text: JSON.stringify(block) }];
  }
}

function contentParts(content: unknown, vendor: 'anthropic' | 'openai' | undefined): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  if (Array.isArray(content)) return content.flatMap((b) => contentPart(b, vendor));
  return content === undefined || content === null ? [] : [{ kind: 'unknown', type: typeof content, text: JSON.stringify(content) ?? '' }];
}

/** Whose model wrote an assistant message (a provider takes back only its own signed reasoning). */
const vendorOf = (model: string | undefined) => (!model ? undefined : /claude|anthropic/i.test(model) ? 'anthropic' : /(^|\/)(gpt|o\d|openai)/i.test(model) ? 'openai' : undefined);

export function inspectView(record: unknown): MessageView {
  const m = isPlainObject(record) ? record : {};
  const role = str(m.role) ?? '?';
  const model = str(m.model);
  const normalRole: NormalRole = role === 'system' || role === 'user' || role === 'assistant' || role === 'tool' ? role : 'other';
  let parts = contentParts(m.content, vendorOf(model));
  if (role === 'tool') {
    const error = isPlainObject(m.error) ? m.error : undefined;
    const texts = parts.flatMap((p) => (p.kind === 'text' || p.kind === 'unknown' ? [p.text] : []));
    const text = texts.length > 0 ? texts.join('\n') : (str(error?.message) ?? '');
    parts = [{ kind: 'tool-result', callId: str(m.tool_call_id), text, ...(error ? { isError: true } : {}) }, ...parts.filter((p) => p.kind === 'image' || p.kind === 'file')];
  }
  for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
    if (!isPlainObject(c)) continue;
    parts.push({ kind: 'tool-call', id: str(c.id), name: String(c.function ?? ''), arguments: argumentsText(c.arguments ?? {}) });
  }
  const usage = usageOfRecord.get(m);
  return {
    role,
    normalRole,
    parts,
    id: str(m.id),
    ...(model ? { model } : {}),
    ...(usage ? { usage } : {}),
    ...(role === 'tool' && typeof m.function === 'string' ? { name: m.function } : {}),
  };
}

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** An id in the style of the `shortuuid` Inspect gives messages. */
const shortId = () => Array.from(crypto.getRandomValues(new Uint8Array(22)), (b) => ALPHABET[b % ALPHABET.length]).join('');

export function inspectFromView(v: MessageView, near?: unknown): Loose {
  const id = shortId();
  const text = v.parts.filter((p) => p.kind === 'text' || p.kind === 'unknown').map((p) => (p as { text: string }).text).join('\n');
  const result = v.parts.find((p) => p.kind === 'tool-result');
  if (v.normalRole === 'tool' || result) {
    const r = result?.kind === 'tool-result' ? result : undefined;
    return { id, content: r ? r.text : text, role: 'tool', tool_call_id: r?.callId ?? null, function: v.name ?? null, ...(r?.isError ? { error: { type: 'unknown', message: r.text } } : {}) };
  }
  if (v.normalRole !== 'assistant') return { id, content: text, ...(v.normalRole === 'user' || v.normalRole === 'other' ? { source: 'input' } : {}), role: v.normalRole === 'system' ? 'system' : 'user' };
  const reasoning = v.parts.filter((p) => p.kind === 'reasoning');
  const content = reasoning.length === 0 ? text : [...reasoning.map((p) => ({ type: 'reasoning', reasoning: p.text, ...(p.signed ? { signature: p.signed } : {}), redacted: p.encrypted === true })), ...(text !== '' ? [{ type: 'text', text }] : [])];
  const calls = v.parts.filter((p) => p.kind === 'tool-call');
  const out: Loose = { id, content, source: 'generate', role: 'assistant' };
  if (calls.length > 0) {
    out.tool_calls = calls.map((c, k) => {
      // A ToolCall's arguments are an object.
      return { id: c.id ?? `call_${id}_${k}`, function: c.name, arguments: argumentsObject(c.arguments), type: 'function' };
    });
  }
  const model = v.model ?? (isPlainObject(near) ? str(near.model) : undefined);
  if (model) out.model = model;
  return out;
}

function sampleTitle(s: Loose): string | undefined {
  const id = typeof s.id === 'string' || typeof s.id === 'number' ? String(s.id) : undefined;
  if (id === undefined) return undefined;
  return typeof s.epoch === 'number' ? `sample ${id} · epoch ${s.epoch}` : `sample ${id}`;
}

/** Each model call's usage, by the id of the message it wrote: the sample's model events, then its final output. */
function usageByMessage(s: Loose): Map<string, ReportedUsage> {
  const out = new Map<string, ReportedUsage>();
  const take = (output: unknown, model: string | undefined) => {
    if (!isPlainObject(output) || !Array.isArray(output.choices)) return;
    const message = isPlainObject(output.choices[0]) && isPlainObject(output.choices[0].message) ? output.choices[0].message : undefined;
    const id = str(message?.id);
    const usage = id ? usageOf(output.usage, model ?? str(output.model), id) : undefined;
    if (id && usage && !out.has(id)) out.set(id, usage);
  };
  for (const e of Array.isArray(s.events) ? s.events : []) if (isPlainObject(e) && e.event === 'model') take(e.output, str(e.model));
  take(s.output, undefined);
  return out;
}

function metaOf(s: Loose): ConversationMeta | undefined {
  const model = (Array.isArray(s.events) ? s.events : []).find((e) => isPlainObject(e) && e.event === 'model' && Array.isArray(e.tools) && e.tools.length > 0) as Loose | undefined;
  const tools = model ? toolSchemas(model.tools) : undefined;
  return tools && tools.length > 0 ? { tools } : undefined;
}

export const inspectEvalLog: Codec = {
  id: 'inspect-eval-json',
  label: 'Inspect AI eval log (JSON)',
  tool: 'Inspect AI',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'many', toolCalls: true, reasoning: true, otherRecords: true, timestamps: false, toolParts: 'calls' },
  sniffNeeds: ['eval'],
  sniff(head) {
    if (!head.trimStart().startsWith('{') || !/"eval"\s*:\s*\{/.test(head)) return 0;
    return /"version"\s*:\s*\d/.test(head) && /"task"\s*:\s*"/.test(head) && /"(run_id|eval_id|task_id|plan|samples)"\s*:/.test(head) ? 65 : 0;
  },
  parse(text, file) {
    return parseJsonDocument(text, file, 'inspect-eval-json', (root, f, at) => {
      if (!isPlainObject(root) || !isPlainObject(root.eval) || typeof root.eval.task !== 'string') throw new NotThisFormat('expected an Inspect AI eval log: {"version", "status", "eval": {"task", "model", …}, "samples": […]}');
      const samples = Array.isArray(root.samples) ? root.samples : [];
      const conversations: DocumentConversation[] = [];
      const paths: JsonPath[][] = [];
      let events = 0;
      samples.forEach((s, i) => {
        if (!isPlainObject(s)) throw new ConversationFileError(f, `samples[${i}] is not a sample ({id, epoch, messages, …})`, at(['samples', i]));
        const messages = Array.isArray(s.messages) ? s.messages : [];
        messages.forEach((m, k) => {
          if (!isPlainObject(m) || typeof m.role !== 'string') throw new ConversationFileError(f, `sample ${i}: message ${k} has no "role" (Inspect writes system, user, assistant or tool)`, at(['samples', i, 'messages', k]));
        });
        const usage = usageByMessage(s);
        for (const m of messages as Loose[]) {
          const u = typeof m.id === 'string' && m.role === 'assistant' ? usage.get(m.id) : undefined;
          if (u) usageOfRecord.set(m, u);
        }
        events += Array.isArray(s.events) ? s.events.length : 0;
        const title = sampleTitle(s);
        const meta = metaOf(s);
        conversations.push({ records: messages, ...(title ? { title } : {}), ...(meta ? { meta } : {}) });
        paths.push(messages.map((_, k) => ['samples', i, 'messages', k]));
      });
      // The samples' events (the transcript of each model call, tool call, score…) are kept as they are.
      return { conversations, paths, otherRecords: events };
    });
  },
  serialize(doc, conversations) {
    return serializeJsonDocument(doc, (root) => {
      const r = root as Loose;
      if (!Array.isArray(r.samples)) return root;
      return { ...r, samples: r.samples.map((s, i) => (isPlainObject(s) && (Array.isArray(s.messages) || (conversations[i] ?? []).length > 0) ? { ...s, messages: (conversations[i] ?? []).slice() } : s)) };
    });
  },
  view: inspectView,
  fromView: inspectFromView,
  loses: (v) => [...(v.timestamp ? ['timestamps (an Inspect message has none)'] : []), ...(v.parts.some((p) => p.kind === 'image' || p.kind === 'file') ? ['images and files (a converted message keeps text only)'] : [])],
  withText(record, text) {
    if (!isPlainObject(record)) return undefined;
    if (typeof record.content === 'string' || record.content === undefined || record.content === null) return { ...record, content: text };
    if (Array.isArray(record.content)) {
      if (record.content.length === 0) return { ...record, content: text };
      const texts = record.content.filter((b) => isPlainObject(b) && b.type === 'text');
      if (texts.length !== 1) return undefined;
      return { ...record, content: record.content.map((b) => (b === texts[0] ? { ...(b as object), text } : b)) };
    }
    return undefined;
  },
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};

/** A new eval log of these conversations, each a sample of one epoch, with what Inspect needs to read it. */
export function newInspectLog(conversations: readonly { records: readonly unknown[]; title?: string }[]): string {
  const now = new Date().toISOString();
  const samples = conversations.map((c, i) => {
    const messages = c.records.map((r) => (isPlainObject(r) ? { ...r } : r)) as Loose[];
    // A tool message names the function its call ran.
    const names = new Map<string, string>();
    for (const m of messages) for (const t of Array.isArray(m.tool_calls) ? m.tool_calls : []) if (isPlainObject(t) && typeof t.id === 'string' && typeof t.function === 'string') names.set(t.id, t.function);
    for (const m of messages) if (m.role === 'tool' && m.function === null && typeof m.tool_call_id === 'string' && names.has(m.tool_call_id)) m.function = names.get(m.tool_call_id);
    const firstUser = messages.find((m) => m.role === 'user');
    const last = [...messages].reverse().find((m) => m.role === 'assistant');
    const model = (last && typeof last.model === 'string' ? last.model : undefined) ?? '';
    return {
      id: i + 1,
      epoch: 1,
      input: firstUser && typeof firstUser.content === 'string' ? firstUser.content : '',
      target: '',
      messages,
      output: { model, choices: last ? [{ message: last, stop_reason: 'stop' }] : [], completion: last && typeof last.content === 'string' ? last.content : '' },
      scores: {},
      metadata: c.title ? { title: c.title } : {},
      store: {},
      events: [],
      model_usage: {},
      attachments: {},
    };
  });
  const model = samples.find((s) => s.output.model !== '')?.output.model ?? 'none/none';
  const log = {
    version: 2,
    status: 'success',
    eval: { eval_id: shortId(), run_id: shortId(), created: now, task: 'imported', task_id: shortId(), task_version: 0, dataset: { samples: samples.length, sample_ids: samples.map((s) => s.id), shuffled: false }, model, config: {}, packages: {} },
    plan: { name: 'plan', steps: [], config: {} },
    stats: { started_at: now, completed_at: now, model_usage: {} },
    samples,
  };
  return JSON.stringify(log, null, 2) + '\n';
}
