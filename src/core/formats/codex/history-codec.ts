import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec, type DocumentConversation } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import { sentText, type MessageView } from '../model.js';
import { firstLine } from '../shared/jsonl-document.js';
import { parseJsonl, type JsonlBaseline } from '../syntax/jsonl.js';

/**
 * Codex's prompt history (`~/.codex/history.jsonl`, codex-rs `message_history`): one line a prompt as the user
 * typed it, `{session_id, ts, text}` (`ts` in seconds), appended by every session; what the composer's up
 * arrow recalls. The prompts of one session are a conversation of the user's messages alone (the replies are
 * in that session's rollout), in the order typed.
 */
interface Prompt {
  session_id: string;
  ts?: number;
  text: string;
}

const isPrompt = (v: unknown): v is Prompt => isPlainObject(v) && typeof v.session_id === 'string' && typeof v.text === 'string';

/** The first prompt, on one line: a session's title. */
function titleOf(prompts: readonly Prompt[]): string | undefined {
  const first = prompts.find((p) => p.text.trim() !== '');
  if (!first) return undefined;
  const line = first.text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function view(record: unknown): MessageView {
  const r = isPrompt(record) ? record : { session_id: '', text: '' };
  const ts = typeof r.ts === 'number' && Number.isFinite(r.ts) && Math.abs(r.ts) < 8.64e12 ? new Date(r.ts * 1000).toISOString() : undefined;
  return { role: 'user', normalRole: 'user', parts: r.text !== '' ? [{ kind: 'text', text: r.text }] : [], timestamp: ts };
}

export const codexHistory: Codec = {
  id: 'codex-history',
  label: 'Codex prompt history (history.jsonl)',
  tool: 'Codex',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  readOnly: 'Codex keeps here every prompt typed, of every session, for its up arrow: read and searched, not edited (a session’s own file is its rollout)',
  companion: true,
  capabilities: { conversations: 'many', toolCalls: false, reasoning: false, otherRecords: false, timestamps: true },
  sniffNeeds: ['session_id'],
  sniff(head, name) {
    const line = firstLine(head);
    if (!/^\s*\{\s*"session_id"\s*:\s*"[^"]*"\s*,\s*"ts"\s*:\s*\d/.test(line) || !/"text"\s*:/.test(line)) return 0;
    return /(^|[\\/])history\.jsonl$/i.test(name) ? 60 : 45;
  },
  parse(text, file) {
    const lines: JsonlBaseline = parseJsonl(text, file);
    const bySession = new Map<string, Prompt[]>();
    let first = true;
    lines.lines.forEach((l, i) => {
      if (l.value === undefined) return;
      if (!isPrompt(l.value)) {
        if (first) throw new NotThisFormat('expected Codex’s history.jsonl: one {"session_id", "ts", "text"} a line', { line: i + 1, column: 1 });
        throw new ConversationFileError(file, 'this line is no prompt of Codex’s history: it needs "session_id" and "text" (strings)', { line: i + 1, column: 1 });
      }
      first = false;
      let list = bySession.get(l.value.session_id);
      if (!list) bySession.set(l.value.session_id, (list = []));
      list.push(l.value);
    });
    if (first) throw new NotThisFormat('expected Codex’s history.jsonl: one {"session_id", "ts", "text"} a line; the file has none');
    const conversations: DocumentConversation[] = [...bySession].map(([sessionId, records]) => ({ records, title: titleOf(records), meta: { sessionId } }));
    return { codec: 'codex-history', conversations, otherRecords: 0, text, baseline: lines };
  },
  serialize: (doc) => doc.text,
  view,
  fromView: (v) => ({ session_id: '', ts: Math.floor(Date.parse(v.timestamp ?? '') / 1000) || Math.floor(Date.now() / 1000), text: sentText(v) }) satisfies Prompt,
  loses: () => ['everything: Codex’s prompt history is read-only here'],
  withText: () => undefined,
  rawText(doc, _c, record) {
    const b = doc.baseline as JsonlBaseline;
    const i = isPlainObject(record) ? b.origin.get(record) : undefined;
    const line = i === undefined ? undefined : b.lines[i];
    return line ? doc.text.slice(line.start, line.end) : undefined;
  },
};
