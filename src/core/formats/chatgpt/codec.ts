import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec, type ConversationDocument } from '../codec.js';
import { normalizeRole, type MessageView } from '../model.js';
import { jsonRawText, parseJsonDocument, serializeJsonDocument, type JsonDocBaseline } from '../shared/json-document.js';
import type { MessageTree } from '../../tree/message-tree.js';
import { contentParts, editableText } from './content.js';
import { CHATGPT_KEYS, idOf, linksOf, treeOfLinks } from '../shared/tree-links.js';

type Node = Record<string, unknown>;

/**
 * `conversations.json` of a ChatGPT data export. Each conversation is a tree: `mapping` holds every node
 * (`parent`, `children`), an edited prompt or a regenerated answer a second child, `current_node` the leaf the
 * user last saw. The nodes with a message are the records, in the tree's order; the others (the root) are
 * links, kept as they are.
 */
function orderedNodes(mapping: Record<string, Node>): Node[] {
  const out: Node[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    const stack = [id];
    while (stack.length > 0) {
      const at = stack.pop()!;
      const node = mapping[at];
      if (seen.has(at) || !isPlainObject(node)) continue;
      seen.add(at);
      out.push(node);
      const kids = Array.isArray(node.children) ? node.children.filter((c): c is string => typeof c === 'string') : [];
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
  };
  const ids = Object.keys(mapping);
  for (const id of ids) if (isPlainObject(mapping[id]) && (mapping[id].parent == null || !isPlainObject(mapping[mapping[id].parent as string]))) visit(id);
  for (const id of ids) visit(id);
  return out;
}

const hasMessage = (n: Node) => isPlainObject(n.message);

function view(record: unknown): MessageView {
  const node = isPlainObject(record) ? record : {};
  const m = isPlainObject(node.message) ? node.message : {};
  const author = isPlainObject(m.author) ? m.author : {};
  const role = typeof author.role === 'string' ? author.role : '?';
  const meta = isPlainObject(m.metadata) ? m.metadata : {};
  const recipient = typeof m.recipient === 'string' ? m.recipient : 'all';
  const id = idOf(node);
  const isTool = role === 'tool';
  const linked = typeof meta.tool_call_id === 'string' ? meta.tool_call_id : undefined;
  const parts = contentParts(m.content, role === 'assistant' && recipient !== 'all' ? { recipient, id: linked ?? id } : undefined, isTool).map((p) => (p.kind === 'tool-result' && (linked ?? typeof node.parent === 'string') ? { ...p, callId: linked ?? (node.parent as string) } : p));
  const type = isPlainObject(m.content) ? m.content.content_type : undefined;
  const v: MessageView = { role, normalRole: normalizeRole(role), parts };
  if (id) v.id = id;
  if (typeof m.create_time === 'number') v.timestamp = new Date(m.create_time * 1000).toISOString();
  if (meta.is_visually_hidden_from_conversation === true || type === 'user_editable_context' || type === 'model_editable_context') v.meta = true;
  if (typeof meta.model_slug === 'string') v.model = meta.model_slug;
  if (typeof author.name === 'string' && author.name) v.name = author.name;
  return v;
}

function mappingOf(doc: ConversationDocument, conversation: number): Record<string, Node> {
  const root = (doc.baseline as JsonDocBaseline).root as Array<Record<string, unknown>>;
  const mapping = root[conversation]?.mapping;
  return isPlainObject(mapping) ? (mapping as Record<string, Node>) : {};
}

function currentOf(doc: ConversationDocument, conversation: number): string | null {
  const root = (doc.baseline as JsonDocBaseline).root as Array<Record<string, unknown>>;
  const c = root[conversation]?.current_node;
  return typeof c === 'string' ? c : null;
}

/** The links of a conversation's records now, against its mapping as read (in the tree's order). */
function linksNow(doc: ConversationDocument, conversation: number, records: readonly unknown[]) {
  const mapping = mappingOf(doc, conversation);
  return linksOf(mapping, records, currentOf(doc, conversation), CHATGPT_KEYS, orderedNodes(mapping).map((n) => idOf(n) ?? ''));
}

function tree(doc: ConversationDocument, conversation: number, records: readonly unknown[]): MessageTree {
  const links = linksNow(doc, conversation, records);
  const t = treeOfLinks(records, idOf, links, links.current);
  return t.active >= 0 ? t : { ...t, active: records.length - 1 };
}

const uuid = () => crypto.randomUUID();

export const chatGptExport: Codec = {
  id: 'chatgpt-export',
  label: 'ChatGPT export (conversations.json)',
  tool: 'ChatGPT',
  syntax: 'json',
  extensions: ['.json'],
  capabilities: { conversations: 'many', toolCalls: true, reasoning: true, otherRecords: true, timestamps: true, toolParts: 'one' },
  sniffNeeds: ['mapping'],
  sniff: (head) => (head.includes('"mapping"') && (head.includes('"current_node"') || head.includes('"children"')) ? 45 : 0),
  parse(text, file) {
    return parseJsonDocument(text, file, 'chatgpt-export', (root) => {
      const list = Array.isArray(root) ? root : isPlainObject(root) && isPlainObject(root.mapping) ? null : undefined;
      if (list === undefined || list === null || !list.every((c) => isPlainObject(c) && isPlainObject(c.mapping))) throw new NotThisFormat('expected a list of conversations, each with a "mapping" of its messages');
      const convs = list as Array<Record<string, unknown>>;
      const nodes = convs.map((c) => orderedNodes(c.mapping as Record<string, Node>));
      const records = nodes.map((n) => n.filter(hasMessage));
      return {
        conversations: convs.map((c, i) => ({ records: records[i], title: typeof c.title === 'string' && c.title ? c.title : undefined })),
        paths: records.map((rs, i) => rs.map((r) => [i, 'mapping', idOf(r) ?? ''])),
        otherRecords: nodes.reduce((n, list) => n + list.filter((x) => !hasMessage(x)).length, 0),
      };
    });
  },
  serialize: (doc, conversations) =>
    serializeJsonDocument(doc, (root) =>
      (root as Array<Record<string, unknown>>).map((c, i) => {
        const records = conversations[i] ?? [];
        const mapping = mappingOf(doc, i);
        const links = linksNow(doc, i, records);
        const byId = new Map(records.map((r) => [idOf(r), r as Node]));
        const out: Record<string, Node> = {};
        const place = (id: string, node: Node) => {
          const parent = byId.has(id) ? (links.parentOf.get(id) ?? null) : (node.parent as string | null);
          const children = links.childrenOf.get(id) ?? [];
          const same = node.parent === parent && Array.isArray(node.children) && node.children.length === children.length && node.children.every((x, k) => x === children[k]);
          out[id] = same ? node : { ...node, parent, children };
        };
        for (const [id, node] of Object.entries(mapping)) {
          if (byId.has(id)) place(id, byId.get(id)!);
          else if (!hasMessage(node)) place(id, node);
        }
        for (const [id, node] of byId) if (id !== undefined && !(id in out)) place(id, node);
        return { ...c, mapping: out, ...(c.current_node !== undefined ? { current_node: links.current } : {}) };
      }),
    ),
  view,
  fromView(v) {
    const id = uuid();
    const call = v.parts.find((p) => p.kind === 'tool-call');
    const result = v.parts.find((p) => p.kind === 'tool-result');
    const text = v.parts.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text).join('\n');
    const reasoning = v.parts.filter((p) => p.kind === 'reasoning' && !p.encrypted).map((p) => (p as { text: string }).text);
    const images = v.parts.filter((p) => p.kind === 'image').map((p) => (p as { ref: string }).ref);
    let role: string = v.normalRole === 'assistant' || v.normalRole === 'system' || v.normalRole === 'tool' ? v.normalRole : 'user';
    let content: Record<string, unknown> = images.length > 0 ? { content_type: 'multimodal_text', parts: [...images.map((ref) => ({ content_type: 'image_asset_pointer', asset_pointer: ref })), text] } : { content_type: 'text', parts: [text] };
    let recipient = 'all';
    let name: string | null = null;
    // The export links a call to its output by position only; the call's id is kept in the metadata.
    const metadata: Record<string, unknown> = {};
    if (call?.kind === 'tool-call') {
      role = 'assistant';
      recipient = call.name;
      content = { content_type: 'code', language: 'json', response_format_name: null, text: call.arguments };
      if (call.id) metadata.tool_call_id = call.id;
    } else if (result?.kind === 'tool-result') {
      role = 'tool';
      name = v.name ?? 'tool';
      content = { content_type: result.isError ? 'system_error' : 'execution_output', ...(result.isError ? { name: 'error' } : {}), text: result.text };
      if (result.callId) metadata.tool_call_id = result.callId;
    } else if (reasoning.length > 0 && text === '') {
      content = { content_type: 'thoughts', thoughts: reasoning.map((r) => ({ summary: '', content: r })), source_analysis_msg_id: id };
    }
    return {
      id,
      message: { id, author: { role, name, metadata: {} }, create_time: v.timestamp ? Date.parse(v.timestamp) / 1000 : Date.now() / 1000, update_time: null, content, status: 'finished_successfully', end_turn: role === 'assistant' && recipient === 'all' ? true : null, weight: 1, metadata, recipient, channel: null },
      parent: null,
      children: [],
    };
  },
  loses(v) {
    const calls = v.parts.filter((p) => p.kind === 'tool-call').length;
    const out: string[] = [];
    if (calls > 0 && v.parts.some((p) => p.kind === 'text' || p.kind === 'reasoning')) out.push('text beside a tool call (a ChatGPT node holds one or the other)');
    if (calls > 1) out.push('more than one tool call in a message');
    if (v.parts.some((p) => p.kind === 'reasoning') && v.parts.some((p) => p.kind === 'text')) out.push('reasoning beside text');
    return out;
  },
  withText(record, text) {
    if (!isPlainObject(record) || !isPlainObject(record.message)) return undefined;
    const edit = editableText(record.message.content);
    return edit ? { ...record, message: { ...record.message, content: edit.set(text) } } : undefined;
  },
  freshIds(record) {
    if (!isPlainObject(record)) return record;
    const id = uuid();
    return { ...record, id, message: isPlainObject(record.message) ? { ...record.message, id } : record.message, parent: null, children: [] };
  },
  linkFields: ['parent', 'children'],
  tree,
  rawText: (doc, _c, record) => jsonRawText(doc, record),
};
