import { deepEqual, isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec, type ConversationDocument, type ConversationMeta } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { arrayElementSpans } from '../json-spans.js';
import { detectStyle } from '../json.js';
import { normalizeRole, type MessageView, type Part } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument, type JsonDocBaseline } from '../shared/json-document.js';
import { linksOf, treeOfLinks, type Links, type LinkKeys } from '../shared/tree-links.js';
import { valueStartAt, type JsonPath } from '../syntax/json-doc.js';
import type { Problem } from '../validity.js';
import { linearTree, type MessageTree } from '../../tree/message-tree.js';
import { answerContent, answerParts, withAnswerText } from './content.js';

type Node = Record<string, unknown>;

/**
 * An Open WebUI chat export (Settings → Chats → Export: `chat-export-<time>.json`; a chat's own "Export chat
 * (.json)" is the same list, of one): `JSON.stringify` of the backend's chat list, each `{id, user_id, title,
 * chat, updated_at, created_at, …}`. A chat's `history.messages` maps each message id to the message (`parentId`,
 * `childrenIds`, `role`, `content`, `timestamp` in seconds, `model`, `files`, `usage`…); `history.currentId` is
 * the message shown last, the path to it from its root what the UI shows (createMessagesList). A regenerated
 * answer or an edited prompt is a second child of the same parent. Each chat is a conversation; its records are
 * the `history.messages` values, in the file's order.
 *
 * The chat also holds `messages`, a flat copy of the shown path that the frontend writes beside the history on
 * every save (search reads it; the UI reads the history). A save that changes a chat rewrites that copy as the
 * path from the new current message: each message on it as the history now holds it, or, when the message did
 * not change, as the copy held it before. A chat nothing changed in is written back as it was, stale copy and all.
 */
const KEYS: LinkKeys = { id: 'id', parent: 'parentId', isLink: () => false };
const idOf = (r: unknown): string | undefined => (isPlainObject(r) && typeof r.id === 'string' ? r.id : undefined);

interface Tree {
  messages: Record<string, Node>;
  currentId: string | null;
}

function treeOf(entry: unknown): Tree | undefined {
  if (!isPlainObject(entry) || !isPlainObject(entry.chat) || !isPlainObject(entry.chat.history) || !isPlainObject(entry.chat.history.messages)) return undefined;
  const h = entry.chat.history;
  return { messages: h.messages as Record<string, Node>, currentId: typeof h.currentId === 'string' ? h.currentId : null };
}

/** A chat of an older export, with the flat `messages` only. */
const flatOf = (entry: unknown): unknown[] | undefined => (isPlainObject(entry) && isPlainObject(entry.chat) && !isPlainObject(entry.chat.history) && Array.isArray(entry.chat.messages) ? entry.chat.messages : undefined);

const rootOf = (doc: ConversationDocument) => (doc.baseline as JsonDocBaseline).root as unknown[];

function linksNow(doc: ConversationDocument, conversation: number, records: readonly unknown[]): Links {
  const t = treeOf(rootOf(doc)[conversation]);
  return linksOf(t?.messages ?? {}, records, t?.currentId ?? null, KEYS);
}

function tree(doc: ConversationDocument, conversation: number, records: readonly unknown[]): MessageTree {
  if (!treeOf(rootOf(doc)[conversation])) return linearTree(records.length);
  const links = linksNow(doc, conversation, records);
  const t = treeOfLinks(records, idOf, links, links.current);
  return t.active >= 0 ? t : { ...t, active: records.length - 1 };
}

/** The ids from a root to `leaf`, following `parentOf`. */
function pathIds(leaf: string | null, parentOf: (id: string) => string | null | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let at: string | null | undefined = leaf; typeof at === 'string' && !seen.has(at); at = parentOf(at)) {
    seen.add(at);
    out.push(at);
  }
  return out.reverse();
}

const unchanged = (read: readonly unknown[], now: readonly unknown[]) => read.length === now.length && read.every((r, i) => r === now[i] || deepEqual(r, now[i]));

/** A chat entry holding `records`: the history relinked, `currentId` moved with the edits, the flat copy the new path. */
function assemble(doc: ConversationDocument, conversation: number, entry: unknown, records: readonly unknown[]): unknown {
  if (unchanged(doc.conversations[conversation]?.records ?? [], records)) return entry;
  const e = entry as Node;
  const chat = e.chat as Node;
  const flat = flatOf(entry);
  if (flat) return { ...e, chat: { ...chat, messages: records.slice() } };
  const t = treeOf(entry)!;
  const history = chat.history as Node;
  const links = linksNow(doc, conversation, records);
  const paths = (doc.baseline as JsonDocBaseline).paths;
  const out: Record<string, Node> = {};
  for (const r of records) {
    const node = r as Node;
    const id = idOf(r);
    if (id === undefined) {
      // A message without an id keeps its key and its links (nothing can name it).
      const path = isPlainObject(r) ? paths.get(r) : undefined;
      out[String(path ? path[path.length - 1] : crypto.randomUUID())] = node;
      continue;
    }
    const parentId = links.parentOf.get(id) ?? null;
    const childrenIds = links.childrenOf.get(id) ?? [];
    const same = node.parentId === parentId && Array.isArray(node.childrenIds) && node.childrenIds.length === childrenIds.length && node.childrenIds.every((c, k) => c === childrenIds[k]);
    out[id] = same ? node : { ...node, parentId, childrenIds };
  }
  const nextHistory: Node = { ...history, messages: out, ...('currentId' in history ? { currentId: links.current } : {}) };
  const nextChat: Node = { ...chat, history: nextHistory };
  if (Array.isArray(chat.messages)) {
    const before = new Map(chat.messages.flatMap((m) => (idOf(m) !== undefined ? [[idOf(m)!, m] as const] : [])));
    nextChat.messages = pathIds(links.current, (id) => (isPlainObject(out[id]) ? (out[id].parentId as string | null) : undefined))
      .filter((id) => isPlainObject(out[id]))
      .map((id) => (before.has(id) && isPlainObject(t.messages[id]) && deepEqual(t.messages[id], out[id]) ? before.get(id) : out[id]));
  }
  // Newer backends keep the current message on the chat row too.
  const row = 'current_message_id' in e && e.current_message_id === t.currentId ? { current_message_id: links.current } : {};
  return { ...e, chat: nextChat, ...row };
}

function when(seconds: unknown): string | undefined {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return undefined;
  const ms = seconds > 1e12 ? seconds : seconds * 1000;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function fileParts(files: unknown): Part[] {
  if (!Array.isArray(files)) return [];
  return files.filter(isPlainObject).map((f) => {
    const inner = isPlainObject(f.file) ? f.file : {};
    const ref = [f.name, inner.filename, f.url, f.id].find((x): x is string => typeof x === 'string' && x !== '') ?? 'file';
    const image = f.type === 'image' || (typeof f.url === 'string' && f.url.startsWith('data:image/'));
    return image ? { kind: 'image' as const, ref: typeof f.url === 'string' && f.url ? f.url : ref } : { kind: 'file' as const, ref };
  });
}

function view(record: unknown): MessageView {
  const m = isPlainObject(record) ? record : {};
  const role = typeof m.role === 'string' ? m.role : '?';
  const content = m.content;
  const parts: Part[] = typeof content === 'string' ? (role === 'assistant' ? answerParts(content) : content === '' ? [] : [{ kind: 'text', text: content }]) : content == null ? [] : [{ kind: 'unknown', type: 'content', text: JSON.stringify(content) }];
  for (const p of fileParts(m.files)) parts.push(p);
  if (isPlainObject(m.error) && typeof m.error.content === 'string' && m.error.content !== '') parts.push({ kind: 'unknown', type: 'error', text: m.error.content });
  const v: MessageView = { role, normalRole: normalizeRole(role), parts };
  const id = idOf(m);
  if (id) v.id = id;
  const t = when(m.timestamp);
  if (t) v.timestamp = t;
  if (typeof m.model === 'string' && m.model && role !== 'user') v.model = m.model;
  const u = isPlainObject(m.usage) ? m.usage : isPlainObject(m.info) ? m.info : undefined;
  if (u) {
    const n = (x: unknown) => (typeof x === 'number' ? x : undefined);
    const details = isPlainObject(u.completion_tokens_details) ? u.completion_tokens_details : {};
    const cached = isPlainObject(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
    // OpenAI-style counts, or Ollama's (prompt_eval_count, eval_count).
    const usage = { input: n(u.prompt_tokens) ?? n(u.input_tokens) ?? n(u.prompt_eval_count), output: n(u.completion_tokens) ?? n(u.output_tokens) ?? n(u.eval_count), cacheRead: n(cached.cached_tokens), reasoning: n(details.reasoning_tokens) };
    const known = Object.fromEntries(Object.entries(usage).filter(([, x]) => x !== undefined));
    if (Object.keys(known).length > 0) v.usage = { ...known, ...(id ? { key: id } : {}) };
  }
  return v;
}

/** The conversations of an export, or NotThisFormat when the root is no list of chats. */
function extract(root: unknown, file: string, at: (path: JsonPath) => { line: number; column: number } | undefined) {
  if (!Array.isArray(root) || root.length === 0 || !root.every((e) => treeOf(e) || flatOf(e))) throw new NotThisFormat('expected an Open WebUI chat export: a list of chats, each {"chat": {"history": {"messages": {…}, "currentId"}, "messages": […]}}');
  const records: unknown[][] = [];
  const paths: JsonPath[][] = [];
  root.forEach((entry, i) => {
    const t = treeOf(entry);
    if (t) {
      const keys = Object.keys(t.messages);
      keys.forEach((k) => {
        if (!isPlainObject(t.messages[k])) throw new ConversationFileError(file, `chat ${i}: history message "${k}" is ${t.messages[k] === null ? 'null' : typeof t.messages[k]}, not a message object`, at([i, 'chat', 'history', 'messages', k]));
      });
      records.push(keys.map((k) => t.messages[k]));
      paths.push(keys.map((k) => [i, 'chat', 'history', 'messages', k]));
    } else {
      const list = flatOf(entry)!;
      records.push(list);
      paths.push(list.map((_, k) => [i, 'chat', 'messages', k]));
    }
  });
  const conversations = root.map((entry, i) => {
    const e = entry as Node;
    const chat = e.chat as Node;
    const title = [e.title, chat.title].find((x): x is string => typeof x === 'string' && x !== '');
    const params = isPlainObject(chat.params) ? chat.params : {};
    const system = [params.system, chat.system].find((x): x is string => typeof x === 'string' && x.trim() !== '');
    const meta: ConversationMeta | undefined = system ? { instructions: system } : undefined;
    return { records: records[i], ...(title ? { title } : {}), ...(meta ? { meta } : {}) };
  });
  return { conversations, paths };
}

function validate(doc: ConversationDocument): Problem[] {
  const out: Problem[] = [];
  rootOf(doc).forEach((entry, conversation) => {
    const t = treeOf(entry);
    if (!t) return;
    const records = doc.conversations[conversation]?.records ?? [];
    const index = new Map(records.map((r, i) => [idOf(r), i]));
    if (t.currentId !== null && !isPlainObject(t.messages[t.currentId])) out.push({ conversation, text: `history.currentId "${t.currentId}" names no message: Open WebUI shows an empty chat` });
    // Each message's children by their parentId, to hold against its childrenIds.
    const childrenOf = new Map<string, string[]>();
    for (const r of records) {
      const p = (r as Node).parentId;
      const id = idOf(r);
      if (typeof p === 'string' && id !== undefined) childrenOf.set(p, [...(childrenOf.get(p) ?? []), id]);
    }
    records.forEach((r, message) => {
      const m = r as Node;
      const id = idOf(m);
      if (typeof m.parentId === 'string' && !isPlainObject(t.messages[m.parentId])) out.push({ conversation, message, text: `parentId "${m.parentId}" names no message of the chat` });
      const kids = Array.isArray(m.childrenIds) ? m.childrenIds : [];
      const named = new Set(kids);
      const strays = kids.some((c) => typeof c !== 'string' || !isPlainObject(t.messages[c]) || t.messages[c].parentId !== id);
      const missing = id !== undefined && (childrenOf.get(id) ?? []).some((c) => !named.has(c));
      if (strays || missing) out.push({ conversation, message, text: 'childrenIds and the children’s parentId disagree: Open WebUI’s branch arrows skip or repeat answers' });
    });
    const chat = (entry as Node).chat as Node;
    if (Array.isArray(chat.messages)) {
      const shown = pathIds(t.currentId, (id) => (isPlainObject(t.messages[id]) ? (t.messages[id].parentId as string | null) : undefined)).filter((id) => index.has(id) || isPlainObject(t.messages[id]));
      const flat = chat.messages.map(idOf);
      if (flat.length !== shown.length || flat.some((id, k) => id !== shown[k])) out.push({ conversation, text: 'the chat’s flat `messages` copy is not the path history.currentId ends (Open WebUI writes them alike; its search reads the copy)' });
    }
  });
  return out;
}

const uuid = () => crypto.randomUUID();

/** The writer's style for new values: the export's own (Open WebUI writes it on one line). */
function restyle(doc: ConversationDocument): ConversationDocument {
  const open = valueStartAt(doc.text, []);
  if (open !== undefined && doc.text.charCodeAt(open) === 0x5b) (doc.baseline as JsonDocBaseline).style = detectStyle(doc.text, arrayElementSpans(doc.text, open).elements, 1, open);
  return doc;
}

export const openWebUiExport: Codec = {
  id: 'open-webui-export',
  label: 'Open WebUI chat export (JSON)',
  tool: 'Open WebUI',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'many', toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'turn' },
  sniffNeeds: ['childrenIds', 'chat'],
  sniff: (head) => (/"childrenIds"\s*:/.test(head) && /"parentId"\s*:/.test(head) && /"history"\s*:\s*\{/.test(head) ? 55 : /"chat"\s*:\s*\{/.test(head) && /"user_id"\s*:/.test(head) && /"messages"\s*:\s*\[/.test(head) ? 30 : 0),
  parse: (text, file) => restyle(parseJsonDocument(text, file, 'open-webui-export', extract)),
  serialize: (doc, conversations) => serializeJsonDocument(doc, (root) => (root as unknown[]).map((entry, i) => assemble(doc, i, entry, conversations[i] ?? []))),
  view,
  fromView(v, near) {
    const n = isPlainObject(near) ? near : {};
    const timestamp = Math.floor((v.timestamp ? Date.parse(v.timestamp) : Date.now()) / 1000);
    const files = v.parts.flatMap((p) => (p.kind === 'image' ? [{ type: 'image', url: p.ref }] : p.kind === 'file' ? [{ type: 'file', name: p.ref, url: p.ref }] : []));
    const extra = files.length > 0 ? { files } : {};
    if (v.normalRole === 'assistant') {
      const model = v.model ?? (typeof n.model === 'string' ? n.model : Array.isArray(n.models) && typeof n.models[0] === 'string' ? n.models[0] : '');
      const modelName = typeof n.modelName === 'string' && n.model === model ? n.modelName : model;
      return { parentId: null, id: uuid(), childrenIds: [], role: 'assistant', content: answerContent(v.parts), ...extra, model, modelName, modelIdx: 0, userContext: null, timestamp, done: true };
    }
    const content = v.parts.flatMap((p) => (p.kind === 'text' || p.kind === 'tool-result' || p.kind === 'unknown' ? [p.text] : p.kind === 'tool-call' ? [`${p.name}\n${p.arguments}`] : [])).join('\n');
    const models = Array.isArray(n.models) ? n.models : typeof n.model === 'string' ? [n.model] : [];
    return { id: uuid(), parentId: null, childrenIds: [], role: v.normalRole === 'system' ? 'system' : 'user', content, ...extra, timestamp, models };
  },
  loses(v) {
    const out: string[] = [];
    if (v.normalRole === 'tool') out.push('a tool result of its own (Open WebUI keeps each result with its call, in the answer): written as a user message');
    if (v.normalRole !== 'assistant' && v.parts.some((p) => p.kind === 'tool-call')) out.push('a tool call outside an answer (written as text)');
    if (v.parts.some((p) => p.kind === 'reasoning' && (p.encrypted || p.signature))) out.push('encrypted reasoning (an answer keeps readable thinking only)');
    if (v.normalRole !== 'assistant' && v.parts.some((p) => p.kind === 'reasoning')) out.push('reasoning outside an answer');
    return out;
  },
  withText(record, text) {
    if (!isPlainObject(record) || typeof record.content !== 'string') return undefined;
    if (record.role !== 'assistant') return { ...record, content: text };
    // A newer answer's `output` items are what Open WebUI sends the model next: its content alone must not change.
    if (Array.isArray(record.output) && record.output.length > 0) return undefined;
    const content = withAnswerText(record.content, text);
    return content === undefined ? undefined : { ...record, content };
  },
  freshIds: (record) => (isPlainObject(record) ? { ...record, id: uuid(), parentId: null, childrenIds: [] } : record),
  linkFields: ['parentId', 'childrenIds'],
  tree,
  validate,
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
