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

/** When an entry says its session began (`dateCreated`, epoch milliseconds as a string). */
const createdAt = (e: Entry) => isoTime(typeof e.dateCreated === 'string' && /^\d+$/.test(e.dateCreated) ? Number(e.dateCreated) : e.dateCreated);

let lastIndex: { text: string; dates: Map<string, string> } | undefined;

/** Each session's beginning as the text of a `sessions.json` says it (the same text asked again is not parsed again). */
export function sessionDates(text: string): Map<string, string> {
  if (lastIndex?.text === text) return lastIndex.dates;
  const dates = new Map<string, string>();
  try {
    const root = JSON.parse(text) as unknown;
    for (const e of Array.isArray(root) ? root : []) {
      const at = isEntry(e) ? createdAt(e) : undefined;
      if (at) dates.set(e.sessionId, at);
    }
  } catch {
    // Not the index Continue writes (half written, say): it dates nothing.
  }
  lastIndex = { text, dates };
  return dates;
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
    timestamp: createdAt(e),
    id: e.sessionId,
    category: 'index entry: the session is its own <sessionId>.json',
    meta: true,
  }),
  sessionName: (e) => (titleOf(e).trim() !== '' ? { sessionId: e.sessionId, name: titleOf(e) } : undefined),
  fromView: (v) => ({ sessionId: v.id ?? '', title: v.parts.flatMap((x) => (x.kind === 'text' ? [x.text] : [])).join(' '), dateCreated: String(Date.parse(v.timestamp ?? '') || Date.now()) }),
});
