import { ConversationFileError } from '../errors.js';
import { storeText, type StoreText } from '../shared/store-codec.js';
import { LISTED_BY_NAME } from './listed-names.js';
import { nameOf, type Container } from './container.js';
import { isSqlite, openDatabase } from './sqlite.js';

type Loose = Record<string, unknown>;

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** A thread's title as Codex shows it: the name the user gave, else the title Codex derived, else its first prompt. */
function titleOf(row: Loose): string {
  const own = text(row.name) ?? text(row.title) ?? text(row.first_user_message) ?? String(row.id);
  const firstLine = own.split('\n')[0];
  const sub = text(row.parent_thread_id) !== undefined || /subagent/i.test(String(row.source ?? ''));
  return `${sub ? 'sub-agent · ' : ''}${firstLine.length > 120 ? `${firstLine.slice(0, 120)}…` : firstLine}${row.archived === 1 ? ' (archived)' : ''}`;
}

/**
 * Codex's index of its threads (codex-rs/state in openai/codex, `migrations/`): a `threads` row per session
 * with its title, working directory, model, tokens used, times and the path of its rollout — the JSONL file
 * that holds the session itself. Not the conversations: each thread is listed with its index row, which says
 * where its rollout is (open that to read the session).
 */
export const codexStateContainer: Container = {
  id: 'codex-state-db',
  label: 'Codex thread index (state database)',
  format: 'codex-thread-index',
  extensions: ['.sqlite'],
  listed: LISTED_BY_NAME['codex-state-db'].listed,
  holds: (file, head) => /\.sqlite$/i.test(file) && isSqlite(head),
  open(file, bytes, limits) {
    const db = openDatabase(file, bytes, limits);
    try {
      const tables = db.tables();
      if (!tables.has('threads')) throw new ConversationFileError(file, `an SQLite database without Codex's "threads" table (tables: ${[...tables].join(', ') || 'none'}): Codex's thread index is state_<n>.sqlite`, undefined, true);
      const columns = new Set(db.all('PRAGMA table_info(threads)').map((c) => String(c.name)));
      const order = columns.has('created_at_ms') ? 'COALESCE(created_at_ms, created_at * 1000)' : 'created_at';
      const conversations: StoreText['conversations'] = db.all(`SELECT * FROM threads ORDER BY ${order}, id`).map((row) => {
        const record = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined && v !== ''));
        return {
          title: titleOf(row),
          meta: {
            sessionId: String(row.id),
            ...(text(row.cwd) ? { cwd: text(row.cwd) } : {}),
            ...(text(row.cli_version) ? { version: text(row.cli_version) } : {}),
            ...(text(row.git_branch) ? { gitBranch: text(row.git_branch) } : {}),
          },
          records: [record],
        };
      });
      if (conversations.length === 0) conversations.push({ title: 'no threads in this index', records: [] });
      return { text: storeText({ store: 'codex-state', conversations }), format: 'codex-thread-index', name: nameOf(file), readOnly: 'Codex’s own index of its threads (it may be writing it now): each thread’s session is its rollout file, which opens and edits as any session' };
    } finally {
      db.close();
    }
  },
};
