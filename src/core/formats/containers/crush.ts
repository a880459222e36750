import { ConversationFileError } from '../errors.js';
import { storeText, type StoreText } from '../shared/store-codec.js';
import { LISTED_BY_NAME } from './listed-names.js';
import { nameOf, type Container } from './container.js';
import { isSqlite, openDatabase, textOf } from './sqlite.js';

type Loose = Record<string, unknown>;

/** Crush names its database `crush.db` (in the project's `.crush/` folder, or its data directory). */
const CRUSH_DB = /^crush\.db$/i;

/** A message's `parts` column: Crush's JSON list of `{type, data}`; text that does not parse is kept as it is. */
function partsOf(v: unknown): unknown[] {
  const text = textOf(v);
  if (text === undefined) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed : [{ type: 'unreadable', data: { text } }];
  } catch {
    return [{ type: 'unreadable', data: { text } }];
  }
}

/** A row as a record: its columns, `parts` parsed; columns a Crush version lacks are simply absent. */
function messageRecord(row: Loose, summaryId: unknown): Loose {
  const out: Loose = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === 'session_id' || v === null || v === undefined) continue;
    out[k] = k === 'parts' ? partsOf(v) : v;
  }
  if (summaryId !== undefined && summaryId !== null && row.id === summaryId) out.is_summary_message = 1;
  return out;
}

/**
 * Crush's database (charmbracelet/crush, `internal/db/migrations`): `sessions` (a title, a parent for a
 * sub-agent's session, token and cost totals, the summary a compaction wrote) and `messages` (a role, and its
 * content as a `parts` JSON list of `{type, data}`: text, reasoning, tool_call, tool_result, finish, …).
 * Crush keeps the database open in WAL mode: most of a live one's rows are in `crush.db-wal`, read with it.
 * Each session a conversation, oldest first; its messages in the order they were written.
 */
export const crushDbContainer: Container = {
  id: 'crush-db',
  label: 'Crush database',
  format: 'crush-store',
  extensions: ['.db'],
  listed: LISTED_BY_NAME['crush-db'].listed,
  holds: (file, head) => CRUSH_DB.test(nameOf(file)) && isSqlite(head),
  open(file, bytes, limits) {
    const db = openDatabase(file, bytes, limits);
    try {
      const tables = db.tables();
      for (const t of ['sessions', 'messages']) if (!tables.has(t)) throw new ConversationFileError(file, `an SQLite database without Crush's "${t}" table (tables: ${[...tables].join(', ') || 'none'})`, undefined, true);
      const sessions = db.all('SELECT * FROM sessions ORDER BY created_at, rowid');
      const bySession = new Map<string, Loose[]>();
      const summaries = new Map(sessions.map((s) => [String(s.id), s.summary_message_id]));
      for (const row of db.all('SELECT * FROM messages ORDER BY created_at, rowid')) {
        const sid = String(row.session_id);
        let list = bySession.get(sid);
        if (!list) bySession.set(sid, (list = []));
        list.push(messageRecord(row, summaries.get(sid)));
      }
      const conversations: StoreText['conversations'] = [];
      for (const s of sessions) {
        const id = String(s.id);
        const records = bySession.get(id) ?? [];
        bySession.delete(id);
        const title = typeof s.title === 'string' && s.title.trim() !== '' ? s.title.trim() : id;
        const sub = typeof s.parent_session_id === 'string' && s.parent_session_id !== '';
        conversations.push({ title: sub ? `sub-agent · ${title}` : title, meta: { sessionId: id }, records });
      }
      // Messages whose session row is gone: kept, under the id they name.
      for (const [id, records] of bySession) conversations.push({ title: `session ${id} (its session row is not in the database)`, meta: { sessionId: id }, records });
      // A session without messages (one Crush opened and left) is counted, not shown as an empty conversation.
      const listed = conversations.filter((c) => c.records.length > 0);
      const empty = conversations.length - listed.length;
      const text: StoreText = listed.length > 0 ? { store: 'crush', conversations: listed, ...(empty > 0 ? { other: empty } : {}) } : { store: 'crush', conversations: [{ title: empty > 0 ? `no messages in this database (${empty} sessions without any)` : 'no sessions in this database', records: [] }] };
      return { text: storeText(text), format: 'crush-store', name: nameOf(file), readOnly: 'Crush’s own database (it may be writing it now): Export (Ctrl+K) or the CLI’s `convert` gives an editable copy' };
    } finally {
      db.close();
    }
  },
};
