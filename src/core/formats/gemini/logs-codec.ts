import { isPlainObject } from '../../message.js';
import { firstWords, isoTime, logCodec } from '../shared/prompt-log-codec.js';

/**
 * Gemini CLI's prompt log (`~/.gemini/tmp/<project hash>/logs.json`): a list of what the user typed,
 * `{sessionId, messageId, type: "user", message, timestamp}`, kept for its up arrow across sessions. The
 * prompts of one session are a conversation of the user's messages alone (the replies are in its chats/).
 */
interface Entry {
  sessionId: string;
  messageId?: number;
  type?: string;
  message: string;
  timestamp?: string;
}

const isEntry = (v: unknown): v is Entry => isPlainObject(v) && typeof v.sessionId === 'string' && typeof v.message === 'string' && 'messageId' in v;

export const geminiCliLogs = logCodec<Entry>({
  id: 'gemini-cli-logs',
  label: 'Gemini CLI prompt log (logs.json)',
  tool: 'Gemini CLI',
  readOnly: 'Gemini CLI keeps here the prompts typed in this project, for its up arrow: read and searched, not edited (a session’s own file is under chats/)',
  syntax: 'json',
  sniffNeeds: ['sessionId', 'messageId'],
  sniff(head, name) {
    if (!/^\s*\[\s*\{\s*"sessionId"\s*:/.test(head) || !/"messageId"\s*:/.test(head) || !/"message"\s*:/.test(head)) return 0;
    return /(^|[\\/])logs\.json$/i.test(name) ? 60 : 40;
  },
  isEntry,
  expected: 'Gemini CLI’s logs.json: a list of {"sessionId", "messageId", "type", "message", "timestamp"}',
  groupOf: (e) => e.sessionId,
  metaOf: (sessionId) => ({ sessionId }),
  titleOf: (_s, entries) => firstWords(entries.find((e) => e.message.trim() !== '')?.message),
  view: (e) => {
    const role = typeof e.type === 'string' && e.type !== '' ? e.type : 'user';
    return {
      role,
      normalRole: role === 'user' ? 'user' : 'other',
      parts: e.message !== '' ? [{ kind: 'text', text: e.message }] : [],
      timestamp: isoTime(e.timestamp),
      ...(typeof e.messageId === 'number' ? { id: String(e.messageId) } : {}),
    };
  },
  fromView: (v) => ({ sessionId: '', messageId: 0, type: 'user', message: v.parts.flatMap((x) => (x.kind === 'text' ? [x.text] : [])).join('\n'), timestamp: v.timestamp ?? new Date().toISOString() }),
});
