import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec } from '../codec.js';
import { sentText, type MessageView, type NormalRole, type Part } from '../model.js';
import { firstLine, jsonlLineText, parseJsonlRecords, serializeJsonlRecords } from '../shared/jsonl-document.js';

/**
 * A SillyTavern chat (`data/<user>/chats/<character>/<character> - <date>.jsonl`): a first line of metadata
 * (`user_name`, `character_name`, `create_date`, `chat_metadata`), then one message per line (`name`,
 * `is_user`, `is_system`, `send_date`, `mes`, `extra`, and the swipes: `swipes`, `swipe_id`, `swipe_info`).
 * `is_system` means hidden from the model (not a system prompt); a narrator's message (`extra.type:
 * "narrator"`) is the system speaking. `mes` is the swipe chosen, `swipes[swipe_id]`; the other swipes are
 * the answers the user swiped past, kept on save and named in the row ("swipe 2 of 3").
 */
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
  const swipes = Array.isArray(m.swipes) ? m.swipes.length : 0;
  const chosen = typeof m.swipe_id === 'number' ? m.swipe_id : 0;
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    role: typeof m.name === 'string' && m.name !== '' ? m.name : normalRole,
    normalRole,
    parts,
    name: typeof m.name === 'string' ? m.name : undefined,
    timestamp: typeof m.send_date === 'string' ? m.send_date : typeof m.send_date === 'number' ? new Date(m.send_date).toISOString() : undefined,
    ...(swipes > 1 ? { category: `swipe ${chosen + 1} of ${swipes}` } : {}),
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
    return doc;
  },
  serialize: (doc, conversations) => serializeJsonlRecords(doc, conversations),
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
    const out: Record<string, unknown> = { ...record, mes: text };
    // The chosen swipe is what SillyTavern shows again after a swipe back: it changes with the message.
    const at = typeof record.swipe_id === 'number' ? record.swipe_id : 0;
    if (Array.isArray(record.swipes) && record.swipes[at] === record.mes) out.swipes = record.swipes.map((s, k) => (k === at ? text : s));
    return out;
  },
  rawText: (doc, _c, record) => jsonlLineText(doc, record),
};
