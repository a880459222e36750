import { isPlainObject, lineage } from '../../message.js';
import { NotThisFormat, type Codec, type ConversationDocument } from '../codec.js';
import type { MessageTree } from '../../tree/message-tree.js';
import { sentText, type MessageView, type NormalRole, type Part } from '../model.js';
import { firstLine, jsonlLineText, parseJsonlRecords, serializeJsonlRecords } from '../shared/jsonl-document.js';

/**
 * A SillyTavern chat (`data/<user>/chats/<character>/<character> - <date>.jsonl`): a first line of metadata
 * (`user_name`, `character_name`, `create_date`, `chat_metadata`), then one message per line (`name`,
 * `is_user`, `is_system`, `send_date`, `mes`, `extra`, and the swipes: `swipes`, `swipe_id`, `swipe_info`).
 * `is_system` means hidden from the model (not a system prompt); a narrator's message (`extra.type:
 * "narrator"`) is the system speaking. `mes` is the swipe chosen, `swipes[swipe_id]`; the other swipes are
 * the answers the user swiped past: each is a record of its own here, a branch beside the chosen one (the
 * chat went on from the chosen one), named "swipe 2 of 3". A swipe's text edited or a swipe deleted is
 * written into its message's `swipes` (and `swipe_info`, `swipe_id` kept pointing at the chosen one).
 */

type Loose = Record<string, unknown>;

/** A swipe shown as a record: the message line it belongs to, and which of its swipes it is. */
const swipeOf = new WeakMap<object, { line: Loose; index: number }>();

function swipeOrigin(record: unknown): { line: Loose; index: number } | undefined {
  if (!isPlainObject(record)) return undefined;
  for (const r of lineage(record)) {
    const found = swipeOf.get(r);
    if (found) return found;
  }
  return undefined;
}

/** The records a message line shows: itself, then a record per swipe it was not left at. */
function expand(line: Loose): Loose[] {
  const swipes = Array.isArray(line.swipes) ? line.swipes : [];
  const chosen = typeof line.swipe_id === 'number' ? line.swipe_id : 0;
  if (swipes.length < 2) return [line];
  const info = Array.isArray(line.swipe_info) ? line.swipe_info : [];
  // In the swipes' own order, the chosen one (the line) where it is among them: "2 of 3" is the second.
  const out: Loose[] = [];
  swipes.forEach((text, k) => {
    if (k === chosen) {
      out.push(line);
      return;
    }
    const i = isPlainObject(info[k]) ? info[k] : {};
    const record: Loose = { name: line.name, is_user: line.is_user, mes: typeof text === 'string' ? text : String(text), swipe: k, ...(i.send_date !== undefined ? { send_date: i.send_date } : {}), ...(isPlainObject(i.extra) ? { extra: i.extra } : {}) };
    swipeOf.set(record, { line, index: k });
    out.push(record);
  });
  if (!out.includes(line)) out.unshift(line);
  return out;
}

/**
 * The message lines these records write: each line with the swipes still among the records (their text as
 * edited), the chosen one where it is; a swipe whose message is gone becomes a message of its own.
 */
function linesOf(records: readonly unknown[]): unknown[] {
  const kept = new Map<object, Map<number, string>>();
  for (const r of records) {
    const o = swipeOrigin(r);
    if (o && isPlainObject(r)) {
      let m = kept.get(o.line);
      if (!m) kept.set(o.line, (m = new Map()));
      m.set(o.index, typeof r.mes === 'string' ? r.mes : '');
    }
  }
  const read = new Set<object>();
  for (const r of records) if (!swipeOrigin(r) && isPlainObject(r)) for (const x of lineage(r)) read.add(x);
  const out: unknown[] = [];
  for (const r of records) {
    const o = swipeOrigin(r);
    if (o) {
      // Its message was deleted: what is left of it is a message.
      if (!read.has(o.line) && isPlainObject(r)) {
        const { swipe: _swipe, ...rest } = r;
        out.push({ ...rest, swipe_id: 0, swipes: [rest.mes], swipe_info: [] });
      }
      continue;
    }
    if (!isPlainObject(r) || !Array.isArray(r.swipes) || r.swipes.length < 2) {
      out.push(r);
      continue;
    }
    const line = [...lineage(r)].find((x) => kept.has(x)) ?? r;
    const left = kept.get(line) ?? new Map<number, string>();
    const chosen = typeof r.swipe_id === 'number' ? r.swipe_id : 0;
    const swipes = r.swipes as unknown[];
    const keep = swipes.map((_, k) => k).filter((k) => k === chosen || left.has(k));
    const texts = keep.map((k) => (k === chosen ? swipes[k] : left.get(k)));
    const same = keep.length === swipes.length && texts.every((t, i) => t === swipes[i]);
    if (same) {
      out.push(r);
      continue;
    }
    const info = Array.isArray(r.swipe_info) ? r.swipe_info : undefined;
    out.push({ ...r, swipes: texts, swipe_id: keep.indexOf(chosen), ...(info ? { swipe_info: keep.map((k) => info[k] ?? {}) } : {}) });
  }
  return out;
}

/** Each swipe hangs where its message does: a branch beside it; everything else follows the message before it. */
function swipeTree(records: readonly unknown[]): MessageTree {
  const parent = new Int32Array(records.length);
  // Messages first (each follows the message before it), then each swipe beside its message.
  let last = -1;
  const at = new Map<object, number>();
  records.forEach((r, i) => {
    if (swipeOrigin(r)) return;
    parent[i] = last;
    last = i;
    if (isPlainObject(r)) for (const x of lineage(r)) at.set(x, i);
  });
  records.forEach((r, i) => {
    const o = swipeOrigin(r);
    if (!o) return;
    const lineAt = at.get(o.line);
    // Its message deleted: a message of its own, after the one before it.
    parent[i] = lineAt !== undefined ? parent[lineAt] : i > 0 ? i - 1 : -1;
  });
  return { parent, thread: new Array<string>(records.length).fill('main'), active: last, continues: new Map() };
}
function isMessage(v: unknown): boolean {
  return isPlainObject(v) && typeof v.mes === 'string' && typeof v.name === 'string';
}

function view(record: unknown): MessageView {
  const m = isPlainObject(record) ? record : {};
  const extra = isPlainObject(m.extra) ? m.extra : {};
  const narrator = extra.type === 'narrator';
  const normalRole: NormalRole = narrator ? 'system' : m.is_user === true ? 'user' : 'assistant';
  const parts: Part[] = [];
  if (typeof extra.reasoning === 'string' && extra.reasoning !== '') parts.push({ kind: 'reasoning', text: extra.reasoning });
  parts.push({ kind: 'text', text: typeof m.mes === 'string' ? m.mes : '' });
  if (typeof extra.image === 'string') parts.push({ kind: 'image', ref: extra.image });
  const origin = swipeOrigin(record);
  const swipes = origin ? (Array.isArray(origin.line.swipes) ? origin.line.swipes.length : 0) : Array.isArray(m.swipes) ? m.swipes.length : 0;
  const chosen = origin ? origin.index : typeof m.swipe_id === 'number' ? m.swipe_id : 0;
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    role: typeof m.name === 'string' && m.name !== '' ? m.name : normalRole,
    normalRole,
    parts,
    name: typeof m.name === 'string' ? m.name : undefined,
    timestamp: typeof m.send_date === 'string' ? m.send_date : typeof m.send_date === 'number' ? new Date(m.send_date).toISOString() : undefined,
    ...(swipes > 1 ? { category: `swipe ${chosen + 1} of ${swipes}${origin ? '' : ', chosen'}` } : {}),
    // Hidden from the model: shown, marked, never planned as context.
    ...(m.is_system === true ? { meta: true } : {}),
    ...(typeof extra.model === 'string' ? { model: extra.model } : {}),
    ...(n(extra.token_count) !== undefined && normalRole === 'assistant' ? { usage: { output: n(extra.token_count) } } : {}),
  };
}

export const sillyTavernChat: Codec = {
  id: 'sillytavern-chat',
  label: 'SillyTavern chat (JSONL)',
  tool: 'SillyTavern',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  capabilities: { conversations: 'one', toolCalls: false, reasoning: true, otherRecords: true, timestamps: true },
  sniffNeeds: ['user_name', 'mes'],
  sniff(head) {
    const first = firstLine(head);
    if (/"user_name"\s*:/.test(first) && /"character_name"\s*:/.test(first)) return 60;
    return /"mes"\s*:/.test(first) && /"is_user"\s*:/.test(first) ? 45 : 0;
  },
  parse(text, file) {
    const doc = parseJsonlRecords(
      text,
      file,
      'sillytavern-chat',
      isMessage,
      (values) => {
        const head = values.find((v) => isPlainObject(v) && 'character_name' in v) as Record<string, unknown> | undefined;
        return head && typeof head.character_name === 'string' ? `${head.character_name}${typeof head.create_date === 'string' ? ` · ${head.create_date}` : ''}` : undefined;
      },
    );
    if (doc.conversations[0].records.length === 0 && !/"character_name"\s*:/.test(firstLine(text))) throw new NotThisFormat('expected a SillyTavern chat: a line {"user_name", "character_name", …} then lines {"name", "is_user", "mes", …}');
    const lines = doc.conversations[0].records as Loose[];
    doc.conversations[0].records = lines.flatMap(expand);
    return doc;
  },
  serialize: (doc, conversations) => serializeJsonlRecords(doc, [linesOf(conversations[0] ?? [])]),
  // What a save reads back: the lines written, each with its swipes after it.
  order: (records) => (linesOf(records) as Loose[]).flatMap(expand),
  tree: (_doc: ConversationDocument, _c: number, records: readonly unknown[]) => swipeTree(records),
  view,
  fromView(v, near) {
    // A chat holds what was said: calls and results as the text they are sent as.
    const text = sentText(v);
    const user = v.normalRole === 'user';
    const nearName = isPlainObject(near) && near.is_user === user && typeof near.name === 'string' ? near.name : undefined;
    const out: Record<string, unknown> = { name: v.name ?? nearName ?? (user ? 'User' : 'Assistant'), is_user: user, is_system: false, send_date: v.timestamp ?? new Date().toISOString(), mes: text, extra: {} };
    if (v.normalRole === 'system') out.extra = { type: 'narrator' };
    const reasoning = v.parts.filter((p) => p.kind === 'reasoning' && !p.encrypted).map((p) => (p as { text: string }).text).join('\n');
    if (reasoning) (out.extra as Record<string, unknown>).reasoning = reasoning;
    if (!user) Object.assign(out, { swipe_id: 0, swipes: [text], swipe_info: [] });
    return out;
  },
  loses: (v) => (v.parts.some((p) => p.kind === 'tool-call' || p.kind === 'tool-result') ? ['tool calls and results as structure (a SillyTavern chat holds them as text)'] : []),
  withText(record, text) {
    if (!isPlainObject(record) || typeof record.mes !== 'string') return undefined;
    if (swipeOrigin(record)) return { ...record, mes: text };
    const out: Record<string, unknown> = { ...record, mes: text };
    // The chosen swipe is what SillyTavern shows again after a swipe back: it changes with the message.
    const at = typeof record.swipe_id === 'number' ? record.swipe_id : 0;
    if (Array.isArray(record.swipes) && record.swipes[at] === record.mes) out.swipes = record.swipes.map((s, k) => (k === at ? text : s));
    return out;
  },
  rawText: (doc, _c, record) => jsonlLineText(doc, swipeOrigin(record)?.line ?? record),
};
