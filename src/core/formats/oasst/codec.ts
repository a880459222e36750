import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec, type ConversationDocument } from '../codec.js';
import type { MessageView } from '../model.js';
import { firstLine, jsonlLineText, parseJsonlConversations, serializeJsonlConversations, type JsonlConversationsBaseline } from '../shared/jsonl-document.js';
import { linksOf, treeOfLinks, type LinkKeys } from '../shared/tree-links.js';
import type { JsonPath } from '../syntax/json-doc.js';
import type { MessageTree } from '../../tree/message-tree.js';
import { foldedStart } from '../../util/one-line.js';

type Node = Record<string, unknown>;

/**
 * OpenAssistant (OASST1/OASST2) message trees, one per line (`*.trees.jsonl`): a `prompt` with nested
 * `replies`, every message with its `message_id` and `parent_id`, ranked answers side by side. Each tree is a
 * conversation; its messages are the records, depth first; the path shown follows the best-ranked replies.
 */
const KEYS: LinkKeys = { id: 'message_id', parent: 'parent_id', isLink: () => false };

const idOf = (r: unknown) => (isPlainObject(r) && typeof r.message_id === 'string' ? r.message_id : undefined);
const repliesOf = (n: Node): Node[] => (Array.isArray(n.replies) ? n.replies.filter(isPlainObject) : []);

function flatten(prompt: Node): { records: Node[]; paths: JsonPath[] } {
  const records: Node[] = [];
  const paths: JsonPath[] = [];
  const visit = (n: Node, path: JsonPath) => {
    records.push(n);
    paths.push(path);
    repliesOf(n).forEach((r, i) => visit(r, [...path, 'replies', (n.replies as unknown[]).indexOf(r) >= 0 ? (n.replies as unknown[]).indexOf(r) : i]));
  };
  visit(prompt, ['prompt']);
  return { records, paths };
}

/** The line's messages as read, by id: what the links of edited records are resolved against. */
function originalsOf(doc: ConversationDocument, conversation: number): Record<string, Node> {
  const b = doc.baseline as JsonlConversationsBaseline;
  const line = b.lines.lines[b.lineOf[conversation]]?.value;
  const out: Record<string, Node> = {};
  if (isPlainObject(line) && isPlainObject(line.prompt)) for (const r of flatten(line.prompt).records) if (idOf(r)) out[idOf(r)!] = r;
  return out;
}

function view(record: unknown): MessageView {
  const m = isPlainObject(record) ? record : {};
  const role = typeof m.role === 'string' ? m.role : '?';
  const v: MessageView = { role, normalRole: role === 'prompter' ? 'user' : role === 'assistant' ? 'assistant' : role === 'system' ? 'system' : 'other', parts: typeof m.text === 'string' && m.text !== '' ? [{ kind: 'text', text: m.text }] : [] };
  if (idOf(m)) v.id = idOf(m);
  if (typeof m.created_date === 'string') v.timestamp = m.created_date;
  if (typeof m.rank === 'number') v.category = `rank ${m.rank}`;
  if (m.deleted === true) v.meta = true;
  if (typeof m.model_name === 'string' && m.model_name) v.model = m.model_name;
  return v;
}

/** The leaf the best answers lead to: at each message, its reply of the lowest rank (the first where unranked). */
function bestLeaf(records: readonly unknown[], children: Map<string, string[]>): string | undefined {
  const byId = new Map(records.map((r) => [idOf(r), r as Node]));
  let at = idOf(records[0]);
  for (const seen = new Set<string>(); at !== undefined && !seen.has(at); ) {
    seen.add(at);
    const kids = children.get(at) ?? [];
    if (kids.length === 0) break;
    const rank = (id: string) => {
      const r = byId.get(id)?.rank;
      return typeof r === 'number' ? r : Infinity;
    };
    at = kids.reduce((best, k) => (rank(k) < rank(best) ? k : best), kids[0]);
  }
  return at;
}

/**
 * The links of a tree's records now. A line holds one tree: when its prompt is deleted, its first reply takes
 * its place and the other replies hang from that one (validate says the tree no longer begins with a prompt).
 */
function linksNow(doc: ConversationDocument, conversation: number, records: readonly unknown[]) {
  const links = linksOf(originalsOf(doc, conversation), records, null, KEYS);
  const roots = records.map(idOf).filter((id): id is string => id !== undefined && links.parentOf.get(id) == null);
  for (const extra of roots.slice(1)) {
    links.parentOf.set(extra, roots[0]);
    const list = links.childrenOf.get(roots[0]) ?? [];
    list.push(extra);
    links.childrenOf.set(roots[0], list);
  }
  return links;
}

function tree(doc: ConversationDocument, conversation: number, records: readonly unknown[]): MessageTree {
  const links = linksNow(doc, conversation, records);
  return treeOfLinks(records, idOf, links, bestLeaf(records, links.childrenOf));
}

/** A tree's line rebuilt from its records: each message's replies those that now name it as their parent. */
function assemble(doc: ConversationDocument, conversation: number, line: unknown, records: readonly unknown[]): unknown {
  const links = linksNow(doc, conversation, records);
  const byId = new Map(records.map((r) => [idOf(r), r as Node]));
  const roots = records.filter((r) => links.parentOf.get(idOf(r) ?? '') == null);
  if (roots.length === 0) return line;
  const build = (n: Node): Node => ({ ...n, parent_id: links.parentOf.get(idOf(n) ?? '') ?? null, replies: (links.childrenOf.get(idOf(n) ?? '') ?? []).map((id) => build(byId.get(id)!)) });
  return { ...(line as Node), prompt: build(roots[0] as Node) };
}

export const oasstTrees: Codec = {
  id: 'oasst-trees',
  label: 'OpenAssistant message trees (JSONL)',
  tool: 'OpenAssistant',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  capabilities: { conversations: 'many', toolCalls: false, reasoning: false, otherRecords: false, timestamps: true },
  sniffNeeds: ['message_tree_id'],
  sniff: (head) => (/"message_tree_id"/.test(firstLine(head)) && /"prompt"\s*:\s*\{/.test(firstLine(head)) ? 45 : 0),
  parse(text, file) {
    return parseJsonlConversations(text, file, 'oasst-trees', (line, n) => {
      if (!isPlainObject(line) || !isPlainObject(line.prompt) || typeof line.prompt.message_id !== 'string') throw new NotThisFormat(`line ${n} is not an OASST tree ({"message_tree_id", "prompt": {...}})`);
      const { records, paths } = flatten(line.prompt);
      const first = typeof line.prompt.text === 'string' ? foldedStart(line.prompt.text, 80) : undefined;
      return { records, paths, title: first || undefined };
    });
  },
  serialize: (doc, conversations) => {
    let c = 0;
    return serializeJsonlConversations(doc, conversations, (line, records) => assemble(doc, c++, line, records));
  },
  view,
  fromView(v, near) {
    const n = isPlainObject(near) ? near : {};
    const text = v.parts.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text).join('\n');
    return { message_id: crypto.randomUUID(), parent_id: null, text, role: v.normalRole === 'user' ? 'prompter' : 'assistant', lang: typeof n.lang === 'string' ? n.lang : 'en', created_date: new Date().toISOString(), synthetic: false, replies: [] };
  },
  loses: (v) => (v.parts.some((p) => p.kind !== 'text') ? ['everything but text (an OASST message is text)'] : v.normalRole === 'system' || v.normalRole === 'tool' ? [`the ${v.normalRole} role (prompter and assistant only)`] : []),
  withText: (record, text) => (isPlainObject(record) ? { ...record, text } : undefined),
  freshIds: (record) => (isPlainObject(record) ? { ...record, message_id: crypto.randomUUID(), replies: [] } : record),
  linkFields: ['parent_id', 'replies'],
  tree,
  validate: (doc) =>
    doc.conversations.flatMap((c, conversation) => {
      const first = c.records[0];
      return isPlainObject(first) && first.role === 'prompter' ? [] : [{ conversation, message: 0, text: 'an OASST tree begins with the prompter’s message; this one begins with another (its prompt was deleted)' }];
    }),
  rawText: (doc, _c, record) => jsonlLineText(doc, record),
};
