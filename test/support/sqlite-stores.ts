import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteFile, sqliteWithWal, type Row } from './sqlite-fixture.js';

/**
 * Other apps' SQLite stores written here in their shapes (each app's schema as its migrations leave it, rows
 * written for these tests): Crush's crush.db with its rows in its write-ahead log, Codex's thread index.
 * test/fixtures/formats/{crush,codex-state} were written by these (writeStoreFixtures).
 */
/** Crush's tables as its migrations leave them (charmbracelet/crush internal/db/migrations, through is_summary_message and todos). */
const CRUSH_SCHEMA = `
CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL, is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')));
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0, updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT, todos TEXT);
CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL DEFAULT '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER, provider TEXT, is_summary_message INTEGER DEFAULT 0 NOT NULL);
CREATE INDEX idx_messages_session_id ON messages (session_id);
CREATE TRIGGER update_session_message_count_on_insert AFTER INSERT ON messages BEGIN UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id; END;
`;

const part = (type: string, data: Record<string, unknown>) => ({ type, data });
export const T0 = 1764320400; // seconds, as Crush writes them

function crushRows() {
  const sessions: Row[] = [
    { id: 'a1f0c2d4-0001-4e5f-9a8b-7c6d5e4f3a21', title: 'Why do the date tests fail on CI?', created_at: T0, updated_at: T0 + 90, prompt_tokens: 5120, completion_tokens: 410, cost: 0.021 },
    { id: 'msg-0002$$call_find', parent_session_id: 'a1f0c2d4-0001-4e5f-9a8b-7c6d5e4f3a21', title: 'Find where dates are formatted', created_at: T0 + 20, updated_at: T0 + 40 },
    { id: 'c3e2d1f0-0003-4b5a-8c7d-6e5f4a3b2c10', title: 'Tidy the changelog', created_at: T0 + 300, updated_at: T0 + 400, summary_message_id: 'msg-0013' },
    { id: 'd4000000-0004-4000-8000-000000000004', title: 'New Session', created_at: T0 + 500, updated_at: T0 + 500 },
  ];
  const [a, sub, c] = sessions.map((s) => s.id as string);
  const m = (id: string, session: string, role: string, at: number, parts: unknown[], extra: Row = {}): Row => ({ id, session_id: session, role, parts: JSON.stringify(parts), created_at: at, updated_at: at, finished_at: parts.length ? at + 1 : null, ...extra });
  const sonnet = { model: 'claude-sonnet-4-5', provider: 'anthropic' };
  const messages: Row[] = [
    m('msg-0001', a, 'user', T0, [part('text', { text: 'Why does `npm test` fail only on CI?\tThe date tests expect 09:00.' }), part('finish', { reason: 'stop', time: T0 })]),
    m('msg-0002', a, 'assistant', T0 + 2, [part('reasoning', { thinking: 'CI runs in UTC; the test expects local time.', signature: 'sig' }), part('text', { text: 'Let me look at the formatter.' }), part('tool_call', { id: 'call_view', name: 'view', input: '{"file_path":"src/format.ts"}', type: 'function', finished: true }), part('finish', { reason: 'tool_use', time: T0 + 3 })], sonnet),
    m('msg-0003', a, 'tool', T0 + 4, [part('tool_result', { tool_call_id: 'call_view', name: 'view', content: 'export const fmt = (d) => d.toLocaleTimeString();', metadata: '', is_error: false }), part('finish', { reason: 'stop', time: T0 + 4 })]),
    m('msg-0004', a, 'assistant', T0 + 6, [part('text', { text: 'The formatter uses the machine’s time zone: pass `timeZone: "UTC"`. 🕘' }), part('finish', { reason: 'end_turn', time: T0 + 7 })], sonnet),
    m('msg-0005', a, 'user', T0 + 60, [part('text', { text: 'Run the tests.' }), part('finish', { reason: 'stop', time: T0 + 60 })]),
    m('msg-0006', a, 'assistant', T0 + 61, [part('tool_call', { id: 'call_bash', name: 'bash', input: '{"command":"npm test"}', finished: true }), part('finish', { reason: 'tool_use', time: T0 + 62 })], sonnet),
    m('msg-0007', a, 'tool', T0 + 70, [part('tool_result', { tool_call_id: 'call_bash', name: 'bash', content: 'exit status 1', is_error: true })]),
    m('msg-0008', a, 'assistant', T0 + 72, [], sonnet),
    m('msg-0009', sub, 'user', T0 + 20, [part('text', { text: 'Find where dates are formatted.' })]),
    m('msg-0010', sub, 'assistant', T0 + 30, [part('text', { text: 'src/format.ts, line 1.' }), part('finish', { reason: 'end_turn', time: T0 + 31 })], sonnet),
    m('msg-0011', c, 'user', T0 + 300, [part('text', { text: '  Tidy CHANGELOG.md\r\nand keep the dates.  ' })]),
    m('msg-0012', c, 'assistant', T0 + 301, [part('text', { text: 'Done.' }), part('finish', { reason: 'error', time: T0 + 302, message: 'Provider error', details: 'overloaded' })], sonnet),
    m('msg-0013', c, 'assistant', T0 + 350, [part('text', { text: 'Summary: the changelog was tidied; dates kept.' }), part('finish', { reason: 'end_turn', time: T0 + 351 })], { ...sonnet, is_summary_message: 1 }),
    m('msg-0014', c, 'user', T0 + 360, [part('text', { text: 'Thanks.' }), part('image_url', { url: 'https://example.com/diagram.png' })]),
  ];
  return { sessions, messages };
}

/** A project's `.crush/crush.db` with every session and message still in its write-ahead log. */
export function crushProject(dir: string, folder = '.crush'): string {
  const { sessions, messages } = crushRows();
  const goose: Row[] = [0, 20250424200609, 20250515105448, 20250624000000, 20250627000000, 20250810000000, 20250812000000].map((v, i) => ({ id: i + 1, version_id: v, is_applied: 1 }));
  const { main, wal } = sqliteWithWal(CRUSH_SCHEMA, { goose_db_version: goose }, { sessions, messages });
  mkdirSync(join(dir, folder), { recursive: true });
  const db = join(dir, folder, 'crush.db');
  writeFileSync(db, main);
  writeFileSync(`${db}-wal`, wal);
  return db;
}

/** Codex's `threads` table as its state migrations leave it (openai/codex codex-rs/state/migrations), with the tables beside it. */
const CODEX_STATE_SCHEMA = `
CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, checksum BLOB NOT NULL, execution_time BIGINT NOT NULL);
CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL, sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL, tokens_used INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0, archived_at INTEGER, git_sha TEXT, git_branch TEXT, git_origin_url TEXT, cli_version TEXT NOT NULL DEFAULT '', first_user_message TEXT NOT NULL DEFAULT '', agent_nickname TEXT, agent_role TEXT, model TEXT, reasoning_effort TEXT, created_at_ms INTEGER, updated_at_ms INTEGER, name TEXT, parent_thread_id TEXT);
CREATE INDEX idx_threads_created_at ON threads(created_at DESC, id DESC);
CREATE TABLE backfill_state (id INTEGER PRIMARY KEY CHECK (id = 1), status TEXT NOT NULL, last_watermark TEXT, last_success_at INTEGER, updated_at INTEGER NOT NULL);
CREATE TABLE thread_dynamic_tools (thread_id TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL, input_schema TEXT NOT NULL, PRIMARY KEY (thread_id, position));
`;

export function codexHome(dir: string, folder = '.codex'): string {
  const t = (s: number) => 1764320400 + s;
  const base = { source: 'cli', model_provider: 'openai', sandbox_policy: 'workspace-write', approval_mode: 'on-request', cli_version: '0.64.0', model: 'gpt-5.1-codex', reasoning_effort: 'medium' };
  const rollout = (at: string, id: string) => `/home/dev/.codex/sessions/2025/11/28/rollout-2025-11-28T${at}-${id}.jsonl`;
  const threads: Row[] = [
    { ...base, id: '019ac1d2-0000-7000-8000-000000000002', rollout_path: rollout('09-05-00', '019ac1d2-0000-7000-8000-000000000002'), created_at: t(300), updated_at: t(900), created_at_ms: t(300) * 1000, updated_at_ms: t(900) * 1000 + 250, cwd: '/home/dev/app', title: 'Add a --json flag to ls', first_user_message: 'Add a --json flag to ls', tokens_used: 48210, git_branch: 'main', git_sha: '3f2a1b0c9d8e7f6a5b4c' },
    { ...base, id: '019ac1d2-0000-7000-8000-000000000001', rollout_path: rollout('09-00-00', '019ac1d2-0000-7000-8000-000000000001'), created_at: t(0), updated_at: t(120), cwd: '/home/dev/app', title: 'why does the date test fail on CI', first_user_message: 'why does the date test fail on CI\nit expects 09:00', name: 'CI time zones', tokens_used: 9120, archived: 1, archived_at: t(4000) },
    { ...base, id: '019ac1d2-0000-7000-8000-000000000003', rollout_path: rollout('09-06-10', '019ac1d2-0000-7000-8000-000000000003'), created_at: t(370), updated_at: t(420), cwd: '/home/dev/app', title: '', first_user_message: 'Review the diff for missing tests', source: '{"subagent":"review"}', parent_thread_id: '019ac1d2-0000-7000-8000-000000000002', agent_nickname: 'Euclid', tokens_used: 3000 },
  ];
  mkdirSync(join(dir, folder), { recursive: true });
  const db = join(dir, folder, 'state_5.sqlite');
  writeFileSync(db, sqliteFile(CODEX_STATE_SCHEMA, { threads, backfill_state: [{ id: 1, status: 'complete', updated_at: t(0) }] }));
  // Codex's other databases beside it hold no sessions: not listed.
  writeFileSync(join(dir, folder, 'logs_2.sqlite'), sqliteFile('CREATE TABLE logs (id INTEGER PRIMARY KEY, ts INTEGER, level TEXT, message TEXT)', { logs: [{ id: 1, ts: t(0), level: 'INFO', message: 'started' }] }));
  return db;
}

