import { deepEqual, isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec, type ConversationDocument } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { arrayElementSpans } from '../json-spans.js';
import { detectStyle } from '../json.js';
import { sentText, type MessageView, type Part } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument, type JsonDocBaseline } from '../shared/json-document.js';
import { linksOf, treeOfLinks, type Links, type LinkKeys } from '../shared/tree-links.js';
import { valueStartAt, type JsonPath } from '../syntax/json-doc.js';
import type { Problem } from '../validity.js';
import { childrenOf, type MessageTree } from '../../tree/message-tree.js';

type Node = Record<string, unknown>;

/**
 * The conversations of a Grok (xAI) account export, `prod-grok-backend.json` (accounts.x.ai → download your
 * data; in the zip under `ttl/30d/export_data/<user>/`): `{conversations: [{conversation: {id, title,
 * create_time, modify_time, …}, responses: [{response: {…}, share_link}]}], projects, tasks, media_posts}`. Each
 * conversation is one; its records are the `response` objects: `_id` (older exports: `response_id`),
 * `message`, `sender` (`human`, else the model's side: `ASSISTANT`, `assistant` or a model name), `create_time`
 * (Mongo's `{"$date": {"$numberLong": "<ms>"}}`, or an ISO string), `parent_response_id`, `model`,
 * `thinking_trace`, attachments and search results. The public record of the shape is thin (no schema from
 * xAI; what readers of real exports describe): it is read defensively. A response names the one it answers in
 * `parent_response_id`, so a regenerated answer or an edited prompt is a branch; one without the key follows the
 * response before it. The path shown ends at `conversation.leaf_response_id` when it names a response, else at
 * the newest leaf.
 */
const idKeyOf = (r: unknown): '_id' | 'response_id' => (isPlainObject(r) && typeof r._id !== 'string' && typeof r.response_id === 'string' ? 'response_id' : '_id');
const idOf = (r: unknown): string | undefined => (isPlainObject(r) ? (typeof r._id === 'string' ? r._id : typeof r.response_id === 'string' ? r.response_id : undefined) : undefined);

interface Entry {
  conversation: Node;
  responses: unknown[];
}

function entryOf(e: unknown): Entry | undefined {
  return isPlainObject(e) && isPlainObject(e.conversation) && Array.isArray(e.responses) ? { conversation: e.conversation, responses: e.responses } : undefined;
}

const isResponse = (w: unknown): w is { response: Node } => isPlainObject(w) && isPlainObject(w.response);
const rootOf = (doc: ConversationDocument) => (doc.baseline as JsonDocBaseline).root as { conversations: unknown[] };
const entryAt = (doc: ConversationDocument, c: number) => entryOf(rootOf(doc).conversations[c]);

/** The conversation's responses as read, by id: what edited records are linked against. */
function originals(doc: ConversationDocument, c: number): Record<string, Node> {
  const out: Record<string, Node> = {};
  for (const w of entryAt(doc, c)?.responses ?? []) if (isResponse(w) && idOf(w.response)) out[idOf(w.response)!] = w.response;
  return out;
}

function linksNow(doc: ConversationDocument, c: number, records: readonly unknown[]): Links {
  // Each record's id under the key the conversation uses (`_id`, or an older export's `response_id`).
  const key = idKeyOf(records.find((r) => idOf(r) !== undefined));
  const keys: LinkKeys = { id: key, parent: 'parent_response_id', isLink: () => false };
  return linksOf(originals(doc, c), records, null, keys);
}

/** Milliseconds since the epoch of a Grok time: Mongo extended JSON, an ISO string, or a number. */
function millis(t: unknown): number | undefined {
  if (typeof t === 'number' && Number.isFinite(t)) return t > 1e12 ? t : t * 1000;
  if (typeof t === 'string') {
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? undefined : ms;
  }
  if (isPlainObject(t) && '$date' in t) {
    const d = t.$date;
    if (isPlainObject(d) && typeof d.$numberLong === 'string') return Number(d.$numberLong);
    return millis(d);
  }
  return undefined;
}

function tree(doc: ConversationDocument, c: number, records: readonly unknown[]): MessageTree {
  const links = linksNow(doc, c, records);
  const leaf = entryAt(doc, c)?.conversation.leaf_response_id;
  const t = treeOfLinks(records, idOf, links, typeof leaf === 'string' ? leaf : null);
  const kids = childrenOf(t);
  if (t.active >= 0 && kids[t.active].length === 0) return t;
  // The newest leaf: where the user last was.
  let best = -1;
  records.forEach((r, i) => {
    if (kids[i].length > 0) return;
    if (best < 0 || (millis((r as Node).create_time) ?? -Infinity) >= (millis((records[best] as Node).create_time) ?? -Infinity)) best = i;
  });
  return { ...t, active: best >= 0 ? best : records.length - 1 };
}

const unchanged = (read: readonly unknown[], now: readonly unknown[]) => read.length === now.length && read.every((r, i) => r === now[i] || deepEqual(r, now[i]));

/** A conversation entry holding `records`: each in its wrapper, linked to its parent, the wrappers without a response kept last. */
function assemble(doc: ConversationDocument, c: number, entry: unknown, records: readonly unknown[]): unknown {
  if (unchanged(doc.conversations[c]?.records ?? [], records)) return entry;
  const e = entryOf(entry)!;
  const links = linksNow(doc, c, records);
  const wrapperOf = new Map<string, Node>();
  for (const w of e.responses) if (isResponse(w) && idOf(w.response)) wrapperOf.set(idOf(w.response)!, w);
  const conversationId = [e.conversation.id, e.conversation.conversation_id].find((x): x is string => typeof x === 'string');
  let previous: string | null = null;
  const responses = records.map((r) => {
    const node = r as Node;
    const id = idOf(r);
    let next = node;
    if (id !== undefined) {
      const parent = links.parentOf.get(id) ?? null;
      // A response without the key follows the one before it: it is written only where that is not so.
      if ('parent_response_id' in node ? node.parent_response_id !== parent : parent !== previous) next = { ...next, parent_response_id: parent };
      previous = id;
    }
    if (!('conversation_id' in next) && conversationId) next = { ...next, conversation_id: conversationId };
    const w = id !== undefined ? wrapperOf.get(id) : undefined;
    return w ? (w.response === next ? w : { ...w, response: next }) : { response: next };
  });
  return { ...(entry as Node), responses: [...responses, ...e.responses.filter((w) => !isResponse(w))] };
}

function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  const sender = typeof r.sender === 'string' ? r.sender : '?';
  const lower = sender.toLowerCase();
  const parts: Part[] = [];
  if (typeof r.thinking_trace === 'string' && r.thinking_trace.trim() !== '') parts.push({ kind: 'reasoning', text: r.thinking_trace });
  if (Array.isArray(r.agent_thinking_traces)) for (const t of r.agent_thinking_traces) if (isPlainObject(t) && typeof t.thinking_trace === 'string' && t.thinking_trace.trim() !== '') parts.push({ kind: 'reasoning', text: t.thinking_trace });
  if (typeof r.message === 'string' && r.message !== '') parts.push({ kind: 'text', text: r.message });
  const refs = (v: unknown) => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : isPlainObject(x) ? [x.url, x.name, x.id, x.fileName].find((y) => typeof y === 'string') : undefined)).filter((x): x is string => typeof x === 'string' && x !== '') : []);
  for (const ref of refs(r.file_attachments)) parts.push({ kind: 'file', ref });
  for (const ref of [...refs(r.image_attachments), ...refs(r.generated_image_urls)]) parts.push({ kind: 'image', ref });
  if (typeof r.error === 'string' && r.error !== '' && !parts.some((p) => p.kind === 'text')) parts.push({ kind: 'unknown', type: 'error', text: r.error });
  const v: MessageView = { role: sender, normalRole: lower === 'human' || lower === 'user' ? 'user' : lower === 'system' ? 'system' : 'assistant', parts };
  const id = idOf(r);
  if (id) v.id = id;
  const ms = millis(r.create_time);
  if (ms !== undefined && !Number.isNaN(new Date(ms).getTime())) v.timestamp = new Date(ms).toISOString();
  const details = isPlainObject(r.metadata) && isPlainObject(r.metadata.requestModelDetails) ? r.metadata.requestModelDetails : {};
  const model = [r.model, details.modelId].find((x): x is string => typeof x === 'string' && x !== '');
  if (model && v.normalRole === 'assistant') v.model = model;
  if (r.partial === true) v.category = 'partial';
  return v;
}

function extract(root: unknown, file: string, at: (path: JsonPath) => { line: number; column: number } | undefined) {
  if (!isPlainObject(root) || !Array.isArray(root.conversations) || root.conversations.length === 0 || !root.conversations.every((e) => entryOf(e))) throw new NotThisFormat('expected a Grok export: {"conversations": [{"conversation": {…}, "responses": [{"response": {…}}]}]}');
  const entries = root.conversations.map((e) => entryOf(e)!);
  const paths: JsonPath[][] = [];
  let other = 0;
  const conversations = entries.map((e, i) => {
    const records: Node[] = [];
    const at1: JsonPath[] = [];
    e.responses.forEach((w, k) => {
      if (!isResponse(w)) {
        other++;
        return;
      }
      if (typeof w.response.sender !== 'string') throw new ConversationFileError(file, `conversation ${i}, response ${k} has no "sender" (Grok writes human or the model's side)`, at(['conversations', i, 'responses', k, 'response']));
      records.push(w.response);
      at1.push(['conversations', i, 'responses', k, 'response']);
    });
    paths.push(at1);
    const title = typeof e.conversation.title === 'string' && e.conversation.title ? e.conversation.title : undefined;
    const sessionId = [e.conversation.id, e.conversation.conversation_id].find((x): x is string => typeof x === 'string' && x !== '');
    return { records, ...(title ? { title } : {}), ...(sessionId ? { meta: { sessionId } } : {}) };
  });
  return { conversations, paths, otherRecords: other };
}

function validate(doc: ConversationDocument): Problem[] {
  const out: Problem[] = [];
  doc.conversations.forEach((c, conversation) => {
    const ids = new Set(c.records.map(idOf).filter((x) => x !== undefined));
    const seen = new Set<string>();
    c.records.forEach((r, message) => {
      const id = idOf(r);
      if (id !== undefined && seen.has(id)) out.push({ conversation, message, text: `response id "${id}" is used twice in the conversation` });
      if (id !== undefined) seen.add(id);
      const p = (r as Node).parent_response_id;
      if (typeof p === 'string' && !ids.has(p)) out.push({ conversation, message, text: `parent_response_id "${p}" names no response of the conversation` });
    });
  });
  return out;
}

/** New values in the export's own style: that of its `responses` lists. */
function restyle(doc: ConversationDocument): ConversationDocument {
  const path = ['conversations', 0, 'responses'];
  const open = valueStartAt(doc.text, path);
  if (open !== undefined && doc.text.charCodeAt(open) === 0x5b) (doc.baseline as JsonDocBaseline).style = detectStyle(doc.text, arrayElementSpans(doc.text, open).elements, path.length + 1, open);
  return doc;
}

function textOf(v: MessageView): string {
  return sentText({ parts: v.parts.filter((p) => p.kind !== 'image' && p.kind !== 'file') });
}

export const grokExport: Codec = {
  id: 'grok-export',
  label: 'Grok export (prod-grok-backend.json)',
  tool: 'Grok',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'many', toolCalls: false, reasoning: true, otherRecords: true, timestamps: true },
  sniffNeeds: ['conversations'],
  sniff: (head, name) => (/"conversations"\s*:\s*\[/.test(head) && /"conversation"\s*:\s*\{/.test(head) && /"responses"\s*:\s*\[/.test(head) ? (/"sender"\s*:/.test(head) || /grok-backend/i.test(name) ? 55 : 35) : 0),
  parse: (text, file) => restyle(parseJsonDocument(text, file, 'grok-export', extract)),
  serialize: (doc, conversations) =>
    serializeJsonDocument(doc, (root) => {
      const r = root as Node & { conversations: unknown[] };
      return { ...r, conversations: r.conversations.map((e, i) => assemble(doc, i, e, conversations[i] ?? [])) };
    }),
  view,
  fromView(v, near) {
    const n = isPlainObject(near) ? near : {};
    const ms = v.timestamp ? Date.parse(v.timestamp) : Date.now();
    // New responses say their time the way the file's do.
    const createTime = typeof n.create_time === 'string' ? new Date(ms).toISOString() : { $date: { $numberLong: String(ms) } };
    const assistant = v.normalRole === 'assistant' || v.normalRole === 'tool';
    const reasoning = v.parts.filter((p) => p.kind === 'reasoning' && !p.encrypted && !p.signature).map((p) => (p as { text: string }).text);
    const sender = assistant ? (typeof n.sender === 'string' && n.sender.toLowerCase() !== 'human' ? n.sender : 'ASSISTANT') : 'human';
    const model = v.model ?? (typeof n.model === 'string' ? n.model : undefined);
    return {
      [idKeyOf(near)]: crypto.randomUUID(),
      ...(typeof n.conversation_id === 'string' ? { conversation_id: n.conversation_id } : {}),
      message: textOf(v),
      sender,
      create_time: createTime,
      parent_response_id: null,
      ...(model ? { model } : {}),
      ...(assistant && reasoning.length > 0 ? { thinking_trace: reasoning.join('\n\n') } : {}),
    };
  },
  loses(v) {
    const out: string[] = [];
    if (v.normalRole === 'system') out.push('the system role (a Grok response is the human’s or the model’s): written as the human’s');
    if (v.parts.some((p) => p.kind === 'tool-call' || p.kind === 'tool-result')) out.push('tool calls and results as such (a Grok response is text): written as its text');
    if (v.parts.some((p) => p.kind === 'image' || p.kind === 'file')) out.push('attachments (a Grok export keeps uploads as asset ids of its own)');
    if (v.parts.some((p) => p.kind === 'reasoning' && (p.encrypted || p.signature))) out.push('encrypted reasoning');
    if (v.normalRole !== 'assistant' && v.parts.some((p) => p.kind === 'reasoning' && !p.encrypted)) out.push('reasoning on the human’s side');
    return out;
  },
  withText: (record, text) => (isPlainObject(record) ? { ...record, message: text } : undefined),
  freshIds: (record) => (isPlainObject(record) ? { ...record, [idKeyOf(record)]: crypto.randomUUID(), parent_response_id: null } : record),
  linkFields: ['parent_response_id', 'conversation_id'],
  tree,
  validate,
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
