import { isPlainObject } from '../../message.js';
import { argumentsText } from '../content-parts.js';
import { looseText, type MessageView, type Part, type ReportedUsage } from '../model.js';
import { storeCodec } from '../shared/store-codec.js';

type Loose = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function time(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v).toISOString();
  if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return new Date(Date.parse(v)).toISOString();
  return undefined;
}

/** A tool call Cursor ran for a bubble (`toolFormerData`): its name and arguments, and its result once it came. */
function toolParts(t: Loose): Part[] {
  const id = str(t.toolCallId);
  const args = str(t.rawArgs) ?? (t.params !== undefined ? argumentsText(typeof t.params === 'string' ? safeJson(t.params) : t.params) : '{}');
  const out: Part[] = [{ kind: 'tool-call', id, name: str(t.name) ?? `tool ${String(t.tool ?? '')}`.trim(), arguments: args }];
  if (t.result !== undefined && t.result !== null && t.result !== '') {
    out.push({ kind: 'tool-result', callId: id, text: looseText(t.result), ...(t.status === 'error' ? { isError: true } : {}) });
  }
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
}

/**
 * A Cursor chat bubble: `type` 1 the user's, 2 the model's (the older chat panel spells them "user" and
 * "ai"); `text` what was said, `thinking.text` the model's reasoning, `toolFormerData` a tool call with its
 * result, `codeBlocks` code the text does not hold, `tokenCount` the reported tokens.
 */
function view(record: unknown): MessageView {
  const b = isPlainObject(record) ? record : {};
  if (b.elsewhere === true) return elsewhereView(b);
  const user = b.type === 1 || b.type === 'user';
  const role = user ? 'user' : b.type === 2 || b.type === 'ai' ? 'assistant' : String(b.type ?? '?');
  const parts: Part[] = [];
  const thinking = isPlainObject(b.thinking) ? str(b.thinking.text) : undefined;
  if (thinking) parts.push({ kind: 'reasoning', text: thinking });
  const text = str(b.text) ?? str(b.rawText) ?? '';
  if (text !== '') parts.push({ kind: 'text', text });
  for (const c of Array.isArray(b.codeBlocks) ? b.codeBlocks : []) {
    const code = isPlainObject(c) ? str(c.content) : undefined;
    if (code && !text.includes(code.trim())) parts.push({ kind: 'text', text: `\`\`\`${str((c as Loose).languageId) ?? ''}\n${code}\n\`\`\`` });
  }
  if (isPlainObject(b.toolFormerData)) for (const p of toolParts(b.toolFormerData)) parts.push(p);

  for (const img of Array.isArray(b.images) ? b.images : []) {
    const ref = isPlainObject(img) ? str(img.path) ?? str(img.uuid) : str(img);
    if (ref) parts.push({ kind: 'image', ref });
  }
  const tokens = isPlainObject(b.tokenCount) ? b.tokenCount : undefined;
  const input = num(tokens?.inputTokens);
  const output = num(tokens?.outputTokens);
  const usage: ReportedUsage | undefined = !user && (input || output) ? { input, output, key: str(b.bubbleId) } : undefined;
  const model = isPlainObject(b.modelInfo) ? str(b.modelInfo.modelName) : undefined;
  return {
    role,
    normalRole: user ? 'user' : role === 'assistant' ? 'assistant' : 'other',
    parts,
    timestamp: time(b.createdAt ?? b.timestamp),
    id: str(b.bubbleId) ?? str(b.id),
    // A header whose bubble Cursor no longer keeps: said so, not an empty message without a word.
    ...(b.missing === true && parts.length === 0 ? { category: 'not in the database (its chat lists it)', meta: true } : {}),
    // A bubble of the composer its list of messages no longer names (Cursor keeps it, e.g. past a restored checkpoint).
    ...(b.unlisted === true ? { category: 'not in its chat’s list of messages (kept in the database)' } : {}),
    ...(b.unreadable === true ? { category: 'not readable as JSON (its text as stored)' } : {}),
    ...(model && !user ? { model } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** A workspace's composer whose chat is in the global database: its name and times, and where it is. */
function elsewhereView(c: Loose): MessageView {
  const name = str(c.name) ?? str(c.subtitle);
  const id = str(c.composerId);
  const created = time(c.createdAt);
  const updated = time(c.lastUpdatedAt);
  const text = [`composer ${name ? `“${name}” ` : ''}${id ?? ''}`.trim(), created && `created ${created}`, updated && `last updated ${updated}`].filter(Boolean).join(', ');
  return {
    role: 'composer',
    normalRole: 'other',
    parts: [{ kind: 'text', text: `${text}: its messages are in Cursor's global state.vscdb (User/globalStorage/state.vscdb), not in this workspace's` }],
    timestamp: updated ?? created,
    id,
    category: 'kept in the global database',
    meta: true,
  };
}

/**
 * Cursor's chats as Cursor keeps them (`state.vscdb`): the agent and composer chats (`composerData:<id>` and
 * their `bubbleId:<id>:<bubble>` bubbles) and the older chat panel's tabs. Read-only: Cursor's own database.
 */
export const cursorChats = storeCodec({
  id: 'cursor-chats',
  label: 'Cursor chats (its state.vscdb)',
  tool: 'Cursor',
  store: 'cursor',
  readOnly: 'Cursor’s own database (it may be writing it now): Export (Ctrl+K) or the CLI’s `convert` gives an editable copy',
  view,
  capabilities: { toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'turn' },
});
