import { isPlainObject } from '../../message.js';
import { firstLine } from '../shared/jsonl-document.js';
import { isoTime, logCodec } from '../shared/prompt-log-codec.js';

/**
 * Codex's index of its sessions' names (`~/.codex/session_index.jsonl`, the desktop app): one line a session,
 * `{id, thread_name, updated_at}`, appended when a session is named or renamed (the last line of an id wins).
 * Not a conversation: each entry says what a session is called; the session is its rollout file.
 */
interface Entry {
  id: string;
  thread_name: string;
  updated_at?: string;
}

const isEntry = (v: unknown): v is Entry => isPlainObject(v) && typeof v.id === 'string' && typeof v.thread_name === 'string';

export const codexSessionIndex = logCodec<Entry>({
  id: 'codex-session-index',
  label: 'Codex session names (session_index.jsonl)',
  tool: 'Codex',
  readOnly: 'Codex keeps here the name of each session: read and searched, not edited (a session’s own file is its rollout)',
  syntax: 'jsonl',
  sniffNeeds: ['thread_name'],
  sniff(head, name) {
    const line = firstLine(head);
    if (!/^\s*\{\s*"id"\s*:\s*"[^"]*"\s*,\s*"thread_name"\s*:/.test(line)) return 0;
    return /(^|[\\/])session_index\.jsonl$/i.test(name) ? 60 : 40;
  },
  isEntry,
  expected: 'Codex’s session_index.jsonl: one {"id", "thread_name", "updated_at"} a line',
  groupOf: () => '',
  titleOf: () => 'Codex session names',
  view: (e) => ({
    role: 'thread',
    normalRole: 'other',
    parts: [{ kind: 'text', text: e.thread_name }],
    timestamp: isoTime(e.updated_at),
    id: e.id,
    category: 'index entry: the session is its rollout file',
    meta: true,
  }),
  sessionName: (e) => (e.thread_name.trim() !== '' ? { sessionId: e.id, name: e.thread_name } : undefined),
  fromView: (v) => ({ id: v.id ?? '', thread_name: v.parts.flatMap((x) => (x.kind === 'text' ? [x.text] : [])).join(' '), updated_at: v.timestamp ?? new Date().toISOString() }),
});
