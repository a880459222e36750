import { isPlainObject } from '../../message.js';
import { isoTime, logCodec } from '../shared/prompt-log-codec.js';

/**
 * Continue's `sessions.json` beside its sessions: the index of them, `[{sessionId, title, dateCreated,
 * workspaceDirectory}]` (`dateCreated` epoch milliseconds as a string). Not a conversation: each entry says
 * what a session is called and when it began; the session is its own `<sessionId>.json`.
 */
interface Entry {
  sessionId: string;
  title?: string;
  dateCreated?: string | number;
  workspaceDirectory?: string;
}

const isEntry = (v: unknown): v is Entry => isPlainObject(v) && typeof v.sessionId === 'string' && !('history' in v) && ('dateCreated' in v || 'title' in v);
const titleOf = (e: Entry) => (typeof e.title === 'string' ? e.title : '');

export const continueSessionIndex = logCodec<Entry>({
  id: 'continue-session-index',
  label: 'Continue session index (sessions.json)',
  tool: 'Continue',
  readOnly: 'Continue keeps here the title and date of each session: read and searched, not edited (each session is its own <sessionId>.json beside it)',
  syntax: 'json',
  sniffNeeds: ['sessionId'],
  sniff(head, name) {
    if (!/^\s*\[\s*\{\s*"sessionId"\s*:/.test(head) || !/"(dateCreated|workspaceDirectory)"\s*:/.test(head) || /"history"\s*:/.test(head)) return 0;
    return /(^|[\\/])sessions\.json$/i.test(name) ? 65 : 45;
  },
  isEntry,
  expected: 'Continue’s sessions.json: a list of {"sessionId", "title", "dateCreated", "workspaceDirectory"}',
  groupOf: () => '',
  titleOf: () => 'Continue sessions',
  view: (e) => ({
    role: 'session',
    normalRole: 'other',
    parts: [{ kind: 'text', text: titleOf(e) }],
    timestamp: isoTime(typeof e.dateCreated === 'string' && /^\d+$/.test(e.dateCreated) ? Number(e.dateCreated) : e.dateCreated),
    id: e.sessionId,
    category: 'index entry: the session is its own <sessionId>.json',
    meta: true,
  }),
  sessionName: (e) => (titleOf(e).trim() !== '' ? { sessionId: e.sessionId, name: titleOf(e) } : undefined),
  fromView: (v) => ({ sessionId: v.id ?? '', title: v.parts.flatMap((x) => (x.kind === 'text' ? [x.text] : [])).join(' '), dateCreated: String(Date.parse(v.timestamp ?? '') || Date.now()) }),
});
