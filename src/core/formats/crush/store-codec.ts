import { isPlainObject } from '../../message.js';
import { normalizeRole, type MessageView, type Part } from '../model.js';
import { storeCodec } from '../shared/store-codec.js';

type Loose = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Crush writes Unix seconds (its schema's comments say milliseconds): either is read. */
function time(v: unknown): string | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return undefined;
  return new Date(v < 1e11 ? v * 1000 : v).toISOString();
}

/** How a message ended, where that is worth a word (an error, a cancel, a refusal): its `finish` part. */
function ending(data: Loose): string | undefined {
  const reason = str(data.reason);
  if (!reason || reason === 'end_turn' || reason === 'tool_use' || reason === 'stop') return undefined;
  const why = [str(data.message), str(data.details)].filter((s) => s && s.trim() !== '').join(': ');
  return `finished: ${reason}${why ? ` (${why.length > 200 ? `${why.slice(0, 200)}…` : why})` : ''}`;
}

/** One `{type, data}` part of a message's `parts` column (internal/message/message.go's partWrapper). */
function partsOf(p: unknown, out: Part[]): string | undefined {
  const type = isPlainObject(p) ? str(p.type) : undefined;
  const data: Loose = isPlainObject(p) && isPlainObject(p.data) ? p.data : {};
  switch (type) {
    case 'text':
      if (str(data.text)) out.push({ kind: 'text', text: data.text as string });
      return undefined;
    case 'reasoning':
      if (str(data.thinking)) out.push({ kind: 'reasoning', text: data.thinking as string });
      else if (str(data.signature)) out.push({ kind: 'reasoning', text: '', signature: true });
      return undefined;
    case 'tool_call':
      out.push({ kind: 'tool-call', id: str(data.id), name: str(data.name) ?? 'tool', arguments: str(data.input) ?? '' });
      return undefined;
    case 'tool_result':
      out.push({ kind: 'tool-result', callId: str(data.tool_call_id), text: str(data.content) ?? '', ...(data.is_error === true ? { isError: true } : {}) });
      return undefined;
    case 'image_url':
      if (str(data.url)) out.push({ kind: 'image', ref: data.url as string });
      return undefined;
    case 'binary': {
      // Go's field names (the struct has no JSON tags): Path, MIMEType, Data (base64).
      const ref = str(data.Path) ?? str(data.path) ?? 'attachment';
      const mediaType = str(data.MIMEType) ?? str(data.mime_type);
      out.push({ kind: /^image\//.test(mediaType ?? '') ? 'image' : 'file', ref, ...(mediaType ? { mediaType } : {}) });
      return undefined;
    }
    case 'shell_command': {
      const id = `shell-${out.length}`;
      out.push({ kind: 'tool-call', id, name: 'shell', arguments: JSON.stringify({ command: str(data.command) ?? '' }) });
      out.push({ kind: 'tool-result', callId: id, text: str(data.output) ?? '', ...(typeof data.exit_code === 'number' && data.exit_code !== 0 ? { isError: true } : {}) });
      return undefined;
    }
    case 'finish':
      return ending(data);
    default:
      out.push({ kind: 'unknown', type: type ?? typeof p, text: JSON.stringify(p) });
      return undefined;
  }
}

/** A message of Crush's `messages` table: its role, its parts, when it was written, the model that wrote it. */
function view(record: unknown): MessageView {
  const m = isPlainObject(record) ? record : {};
  const role = str(m.role) ?? '?';
  const parts: Part[] = [];
  let category: string | undefined;
  for (const p of Array.isArray(m.parts) ? m.parts : []) category = partsOf(p, parts) ?? category;
  const model = str(m.model);
  const summary = m.is_summary_message === 1 || m.is_summary_message === true;
  // A reply Crush started and never wrote (its row holds no parts): said, not an empty message without a word.
  if (parts.length === 0 && !category) category = 'no content: Crush kept none for it, a reply that never came';
  return {
    role,
    normalRole: normalizeRole(role),
    parts,
    timestamp: time(m.created_at),
    id: str(m.id),
    ...(category ? { category } : summary ? { category: 'summary (the session goes on from it)' } : {}),
    ...(summary ? { summary: true } : {}),
    ...(model && model !== '' && role === 'assistant' ? { model } : {}),
  };
}

/**
 * Crush's sessions as Crush keeps them (`crush.db`, see containers/crush.ts): each session a conversation,
 * each message a row with its parts. Read-only: Crush's own database.
 */
export const crushStore = storeCodec({
  id: 'crush-store',
  label: 'Crush sessions (its crush.db)',
  tool: 'Crush',
  store: 'crush',
  readOnly: 'Crush’s own database (it may be writing it now): Export (Ctrl+K) or the CLI’s `convert` gives an editable copy',
  view,
  capabilities: { toolCalls: true, reasoning: true, otherRecords: false, timestamps: true, toolParts: 'calls' },
});
