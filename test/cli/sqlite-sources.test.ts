import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeWhole } from '../../app/service/listing/file-summary.js';
import { ROOT, tempDir } from '../helpers.js';
import { pythonSqlite, sqliteFile, type Row } from '../support/sqlite-fixture.js';
import { codexHome, crushProject, T0 } from '../support/sqlite-stores.js';

/**
 * Other apps' SQLite stores through the real bin: fixtures built here with sql.js in the shape each app writes
 * (its schema as its migrations make it), and what each should show counted by Python's sqlite3 over the same
 * files, apart from this tool's reader.
 */
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const STATE = tempDir();

const python = spawnSync('python3', ['-c', 'print(1)'], { encoding: 'utf8' });
if (python.status !== 0) console.log('SQLite source tests need python3 (the independent reader of the fixtures): not installed');

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: tempDir(), maxBuffer: 64 * 1024 * 1024, env: { ...process.env, XDG_STATE_HOME: STATE } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const json = <T>(args: string[]): T => {
  const r = cli(...args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

type Listed = { files: Array<{ path: string; format?: string; error?: string; conversations?: number; messages?: number; other?: number; title?: string; titles?: string[] }> };
type Shown = { format: string; conversations: number; messages: Array<{ conversation: number; index: number; role: string; content: string; category?: string; meta?: boolean; timestamp?: string }> };

// ---------------------------------------------------------------- Crush

// Per session with messages (sessions oldest first): its title, whether a sub-agent's, its messages' roles.
const CRUSH_PY = `
sessions = c.execute('SELECT id, title, parent_session_id FROM sessions ORDER BY created_at, rowid').fetchall()
out = []
empty = 0
for sid, title, parent in sessions:
    rows = c.execute('SELECT role, parts FROM messages WHERE session_id = ? ORDER BY created_at, rowid', (sid,)).fetchall()
    if not rows: empty += 1; continue
    calls = sum(1 for _, p in rows for x in json.loads(p) if x['type'] == 'tool_call')
    out.append({'title': title, 'sub': parent is not None, 'roles': [r for r, _ in rows], 'calls': calls})
print(json.dumps({'sessions': out, 'empty': empty}))
`;

describe.skipIf(python.status !== 0)('Crush’s crush.db, its rows all in its write-ahead log', () => {
  it('is listed and read through its log: each session a conversation with its messages, as Python’s sqlite3 reads the same files', { timeout: 180_000 }, () => {
    const dir = tempDir();
    const db = crushProject(dir);
    const want = pythonSqlite<{ sessions: Array<{ title: string; sub: boolean; roles: string[]; calls: number }>; empty: number }>(db, CRUSH_PY);
    // The fixture is what it should be: every row in the log (the file alone holds none of them).
    expect(want.sessions.map((s) => s.roles.length)).toEqual([8, 2, 4]);
    expect(pythonSqlite<number>(db, "os.remove(db + '-wal'); c.close(); c = sqlite3.connect(db); print(c.execute('select count(*) from messages').fetchone()[0])")).toBe(0);

    const listed = json<Listed>(['ls', dir, '--json']);
    expect(listed.files.map((f) => f.path)).toEqual(['.crush/crush.db']);
    const f = listed.files[0];
    expect(f).toMatchObject({ format: 'crush-store', conversations: want.sessions.length, messages: want.sessions.reduce((n, s) => n + s.roles.length, 0), other: want.empty });
    // The app's sidebar names each session.
    expect(summarizeWhole(db).titles).toEqual(want.sessions.map((s) => (s.sub ? `sub-agent · ${s.title}` : s.title)));

    const shown = json<Shown>(['show', db, '--json']);
    expect(shown.format).toBe('crush-store');
    want.sessions.forEach((s, c) => expect(shown.messages.filter((m) => m.conversation === c).map((m) => m.role)).toEqual(s.roles));
    const first = shown.messages.filter((m) => m.conversation === 0);
    expect(first[0].content).toBe('Why does `npm test` fail only on CI?\tThe date tests expect 09:00.');
    expect(first[0].timestamp).toBe(new Date(T0 * 1000).toISOString());
    expect(first[1].content).toContain('Let me look at the formatter.');
    expect(first[2].content).toContain('d.toLocaleTimeString()');
    // A reply Crush never wrote says so; an ending with an error names it; the summary a compaction wrote is one.
    expect(first[7]).toMatchObject({ role: 'assistant', content: '', category: 'no content: Crush kept none for it, a reply that never came' });
    const third = shown.messages.filter((m) => m.conversation === 2);
    expect(third[1].category).toBe('finished: error (Provider error: overloaded)');
    expect(third[2].category).toBe('summary (the session goes on from it)');
  });

  it('converts to an editable session (a file of another format)', () => {
    const dir = tempDir();
    const db = crushProject(dir);
    const converted = cli('convert', db, '--to', 'openai-chat-jsonl');
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stdout).toContain('The formatter uses the machine’s time zone');
  });

  it('a crush.db holding no Crush tables is an error naming the file and what it holds; without its log, the file alone is read', { timeout: 180_000 }, () => {
    const dir = tempDir();
    const other = join(dir, 'crush.db');
    writeFileSync(other, sqliteFile('CREATE TABLE notes (t TEXT)'));
    const r = cli('show', other, '--json');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${other}: an SQLite database without Crush's "sessions" table (tables: notes)`);

    const db = crushProject(join(dir, 'p'));
    rmSync(`${db}-wal`);
    const listed = json<Listed>(['ls', join(dir, 'p'), '--json']);
    expect(listed.files[0]).toMatchObject({ path: '.crush/crush.db', conversations: 1, messages: 0 });
    expect(summarizeWhole(db).title).toBe('no sessions in this database');
  });
});

// ---------------------------------------------------------------- Codex's thread index

// The threads Codex indexes, oldest first (by its milliseconds where it has them): id, shown title, rollout path.
const CODEX_STATE_PY = `
rows = c.execute('SELECT id, name, title, first_user_message, rollout_path, parent_thread_id, archived FROM threads ORDER BY COALESCE(created_at_ms, created_at * 1000), id').fetchall()
out = []
for id, name, title, first, rollout, parent, archived in rows:
    t = next(x.strip() for x in [name or '', title or '', first or '', id] if x.strip())
    t = t.split('\\n')[0]
    out.append({'id': id, 'title': ('sub-agent · ' if parent else '') + t + (' (archived)' if archived else ''), 'rollout': rollout})
print(json.dumps(out))
`;

describe.skipIf(python.status !== 0)('Codex’s state_5.sqlite (its index of threads)', () => {
  it('is listed as what it is, and opens read-only as the threads it indexes: each titled, saying where its rollout is', { timeout: 180_000 }, () => {
    const dir = tempDir();
    const db = codexHome(dir);
    const want = pythonSqlite<Array<{ id: string; title: string; rollout: string }>>(db, CODEX_STATE_PY);
    expect(want).toHaveLength(3);

    const listed = json<Listed>(['ls', dir, '--json']);
    expect(listed.files.map((f) => f.path)).toEqual(['.codex/state_5.sqlite']);
    expect(listed.files[0]).toMatchObject({ format: 'codex-thread-index', conversations: 3, messages: 3 });
    expect(summarizeWhole(db).titles).toEqual(want.map((w) => w.title));

    const shown = json<Shown>(['show', db, '--json']);
    expect(shown.format).toBe('codex-thread-index');
    expect(shown.messages.map((m) => m.conversation)).toEqual([0, 1, 2]);
    shown.messages.forEach((m, i) => {
      expect(m).toMatchObject({ role: 'thread', meta: true, category: 'index entry: the session is its rollout file' });
      expect(m.content.split('\n')[0]).toBe(`rollout: ${want[i].rollout}`);
    });
    expect(shown.messages[1].content).toContain('tokens used: 48210');
    expect(shown.messages[1].content).toContain('git: main @ 3f2a1b0c9d8e');
    expect(shown.messages[1].timestamp).toBe(new Date((1764320400 + 900) * 1000 + 250).toISOString());
    expect(shown.messages[2].content).toContain('parent thread: 019ac1d2-0000-7000-8000-000000000002');
  });

  it('another Codex database opened by name says it holds no threads, naming its tables', () => {
    const dir = tempDir();
    codexHome(dir);
    const r = cli('show', join(dir, '.codex', 'logs_2.sqlite'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`an SQLite database without Codex's "threads" table (tables: logs)`);
  });
});

// ---------------------------------------------------------------- the shared real files (never copied here)

const REAL_CRUSH = join(ROOT, '..', '..', 'shared', 'realfiles', 'crush', 'ylor');
const realMissing = !existsSync(join(REAL_CRUSH, 'crush.db')) ? `${REAL_CRUSH} is absent` : python.status !== 0 ? 'python3 is not installed' : undefined;
if (realMissing) console.log(`the real Crush database test skipped: ${realMissing}`);

describe.skipIf(realMissing !== undefined)('a real crush.db whose rows are mostly in its committed -wal', () => {
  it('is listed with every session and message Python’s sqlite3 reads from the file and its log', { timeout: 180_000 }, () => {
    const want = pythonSqlite<{ sessions: Array<{ title: string; sub: boolean; roles: string[] }>; empty: number }>(join(REAL_CRUSH, 'crush.db'), CRUSH_PY);
    expect(want.sessions.length).toBeGreaterThan(0);
    const listed = json<Listed>(['ls', REAL_CRUSH, '--json']);
    expect(listed.files.map((f) => f.path)).toEqual(['crush.db']);
    expect(listed.files[0]).toMatchObject({ format: 'crush-store', conversations: want.sessions.length, messages: want.sessions.reduce((n, s) => n + s.roles.length, 0), other: want.empty });
    const shown = json<Shown>(['show', join(REAL_CRUSH, 'crush.db'), '--json']);
    want.sessions.forEach((s, c) => expect(shown.messages.filter((m) => m.conversation === c).map((m) => m.role)).toEqual(s.roles));
  });
});

// ---------------------------------------------------------------- Cursor's state.vscdb

const KV_SCHEMA = 'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);';
const kv = (key: string, value: unknown): Row => ({ key, value: typeof value === 'string' ? value : JSON.stringify(value) });
const at = (min: number) => new Date(Date.UTC(2025, 10, 28, 9, min)).toISOString();

/** A global state.vscdb (Cursor 0.43 on: composers and their bubbles in cursorDiskKV), in the shapes Cursor's versions left. */
function cursorGlobal(): Row[] {
  const bubble = (composer: string, id: string, type: 1 | 2, text: string, min: number, extra: Record<string, unknown> = {}) => kv(`bubbleId:${composer}:${id}`, { _v: 3, type, bubbleId: id, text, createdAt: at(min), ...extra });
  const c1 = '11111111-1111-4111-8111-111111111111';
  const c2 = '22222222-2222-4222-8222-222222222222';
  const c3 = '33333333-3333-4333-8333-333333333333';
  const c4 = '44444444-4444-4444-8444-444444444444';
  const c5 = '55555555-5555-4555-8555-555555555555';
  const c6 = '66666666-6666-4666-8666-666666666666';
  const headers = (...ids: Array<[string, 1 | 2]>) => ids.map(([bubbleId, type]) => ({ bubbleId, type }));
  return [
    kv(`composerData:${c1}`, { _v: 10, composerId: c1, name: 'Fix the flaky date test', createdAt: 1764320400000, fullConversationHeadersOnly: headers(['a1', 1], ['a2', 2], ['a3', 1]), conversationMap: {} }),
    bubble(c1, 'a1', 1, 'Why is the date test flaky?', 0),
    bubble(c1, 'a2', 2, 'It depends on the time zone.', 1, { toolFormerData: { tool: 5, toolCallId: 'call_1', name: 'read_file', rawArgs: '{"target_file":"src/date.ts"}', status: 'completed', result: '{"contents":"…"}' } }),
    bubble(c1, 'a3', 1, 'Fix it.', 2),
    // A bubble the composer's list no longer names (its chat was restored to an earlier checkpoint).
    bubble(c1, 'a4', 2, 'Patched src/date.ts to use UTC.', 3),
    kv(`composerData:${c2}`, { _v: 10, composerId: c2, name: 'Add a changelog', createdAt: 1764320500000, fullConversationHeadersOnly: headers(['b1', 1], ['b2', 2]) }),
    bubble(c2, 'b1', 1, 'Start a CHANGELOG.md.', 10),
    // c3: its list empty, its bubbles only as rows (written out of order).
    kv(`composerData:${c3}`, { _v: 10, composerId: c3, createdAt: 1764320600000, fullConversationHeadersOnly: [], conversationMap: {} }),
    bubble(c3, 'c2', 2, 'Use `npm run lint -- --fix`.', 21),
    bubble(c3, 'c1', 1, 'How do I fix the lint errors?', 20),
    bubble(c3, 'c4', 2, 'Yes, both.', 23),
    bubble(c3, 'c3', 1, 'And the type errors?\u2028Both at once?', 22),
    kv(`composerData:${c4}`, { _v: 3, composerId: c4, createdAt: 1758000000000, conversation: [{ type: 1, bubbleId: 'd1', text: 'Rename the helper.' }, { type: 2, bubbleId: 'd2', text: 'Renamed in 3 files.' }] }),
    // c5's composer row is gone; its bubbles are not.
    bubble(c5, 'e1', 1, 'What does this regex match?', 30),
    bubble(c5, 'e2', 2, 'ISO 8601 dates.', 31),
    kv(`composerData:${c6}`, { _v: 10, composerId: c6, createdAt: 1764320700000, fullConversationHeadersOnly: [], conversationMap: {}, text: '' }),
    kv(`checkpointId:${c1}:x`, { files: [] }),
  ];
}

/** A workspace's state.vscdb: the older chat panel's tabs, and its list of composers (inline before 0.43, headers since). */
function cursorWorkspace(): Row[] {
  const tab = (tabId: string, chatTitle: string, texts: string[]) => ({ tabId, chatTitle, bubbles: texts.map((text, i) => ({ type: i % 2 ? 'ai' : 'user', id: `${tabId}-${i}`, [i % 2 ? 'rawText' : 'text']: text })) });
  return [
    kv('workbench.panel.aichat.view.aichat.chatdata', { tabs: [tab('t1', 'Regex for dates', ['A regex for ISO dates?', '`^\\d{4}-\\d{2}-\\d{2}$`']), tab('t2', 'Sorting', ['Sort by date', 'Use localeCompare', 'Descending?']), tab('t3', 'Unanswered', ['Hello?']), tab('t4', 'New chat', [])] }),
    kv('composer.composerData', {
      allComposers: [
        { composerId: 'w1', name: 'Old composer one', createdAt: 1730000000000, conversation: [{ type: 1, bubbleId: 'w1a', text: 'Add a README.' }, { type: 2, bubbleId: 'w1b', text: 'Added.' }] },
        { composerId: 'w2', createdAt: 1730000100000, conversation: [{ type: 1, bubbleId: 'w2a', text: 'Explain this file.' }, { type: 2, bubbleId: 'w2b', text: 'It parses dates.' }, { type: 1, bubbleId: 'w2c', text: 'Thanks.' }] },
        { composerId: '11111111-1111-4111-8111-111111111111', name: 'Fix the flaky date test', createdAt: 1764320400000, lastUpdatedAt: 1764320580000 },
      ],
    }),
    kv('workbench.view.extensions.state.hidden', []),
  ];
}

// Each file's chats as a plain reading of its keys gives them: a composer's messages are every bubble its
// header list, its inline conversation and its own bubble rows name (each once); a workspace's composers
// kept elsewhere are one list.
const CURSOR_PY = `
def val(v):
    try: return json.loads(v)
    except Exception: return None
kv = dict(c.execute('SELECT key, value FROM cursorDiskKV').fetchall())
items = dict(c.execute('SELECT key, value FROM ItemTable').fetchall())
rows = {}
for k in kv:
    if k.startswith('bubbleId:'):
        _, comp, b = k.split(':', 2)
        rows.setdefault(comp, set()).add(b)
convs, empty = [], 0
composers = [k.split(':', 1)[1] for k in kv if k.startswith('composerData:')]
for comp in composers:
    d = val(kv['composerData:' + comp]) or {}
    ids = set(rows.pop(comp, set()))
    ids |= {h['bubbleId'] for h in d.get('fullConversationHeadersOnly') or []}
    ids |= {b.get('bubbleId') for b in d.get('conversation') or []}
    ids |= set((d.get('conversationMap') or {}).keys())
    if ids: convs.append(len(ids))
    else: empty += 1
convs += [len(v) for v in rows.values()]
ws = val(items.get('composer.composerData', 'null')) or {}
elsewhere = 0
for comp in ws.get('allComposers', []):
    if comp.get('composerId') in composers: continue
    if comp.get('conversation'): convs.append(len(comp['conversation']))
    else: elsewhere += 1
tabs = (val(items.get('workbench.panel.aichat.view.aichat.chatdata', 'null')) or {}).get('tabs', [])
convs += [len(t['bubbles']) for t in tabs if t.get('bubbles')]
if elsewhere: convs.append(elsewhere)
print(json.dumps({'conversations': convs, 'empty': empty}))
`;

describe.skipIf(python.status !== 0)('Cursor’s state.vscdb: every composer and every chat tab', () => {
  it('reads every message of every composer and tab, as a plain reading of the same keys counts them; what is gone or kept elsewhere says so', { timeout: 180_000 }, () => {
    const dir = tempDir();
    const global = join(dir, 'Cursor', 'User', 'globalStorage', 'state.vscdb');
    const workspace = join(dir, 'Cursor', 'User', 'workspaceStorage', '9f8e7d6c5b4a39281706f5e4d3c2b1a0', 'state.vscdb');
    mkdirSync(join(global, '..'), { recursive: true });
    mkdirSync(join(workspace, '..'), { recursive: true });
    writeFileSync(global, sqliteFile(KV_SCHEMA, { cursorDiskKV: cursorGlobal(), ItemTable: [kv('workbench.view.extensions.state.hidden', [])] }));
    writeFileSync(workspace, sqliteFile(KV_SCHEMA, { ItemTable: cursorWorkspace() }));

    const listed = json<Listed>(['ls', dir, '--json']);
    expect(listed.files.map((f) => f.path)).toEqual(['Cursor/User/globalStorage/state.vscdb', 'Cursor/User/workspaceStorage/9f8e7d6c5b4a39281706f5e4d3c2b1a0/state.vscdb']);
    const shown = json<Shown>(['show', global, '--json']);
    const ws = json<Shown>(['show', workspace, '--json']);
    for (const [file, entry, opened] of [[global, listed.files[0], shown], [workspace, listed.files[1], ws]] as const) {
      const want = pythonSqlite<{ conversations: number[]; empty: number }>(file, CURSOR_PY);
      expect(entry).toMatchObject({ format: 'cursor-chats', conversations: want.conversations.length, messages: want.conversations.reduce((a, b) => a + b, 0), other: want.empty });
      expect(want.conversations.map((_, c) => opened.messages.filter((m) => m.conversation === c).length).sort()).toEqual([...want.conversations].sort());
    }

    const conv = (c: number) => shown.messages.filter((m) => m.conversation === c);
    // Oldest first: the inline legacy composer, then c1, c2, c3; the composer whose row is gone last.
    expect(conv(0).map((m) => m.content)).toEqual(['Rename the helper.', 'Renamed in 3 files.']);
    expect(conv(1).map((m) => m.category)).toEqual([undefined, undefined, undefined, 'not in its chat’s list of messages (kept in the database)']);
    expect(conv(2).map((m) => m.category)).toEqual([undefined, 'not in the database (its chat lists it)']);
    expect(conv(3).map((m) => m.content)).toEqual(['How do I fix the lint errors?', 'Use `npm run lint -- --fix`.', 'And the type errors?\u2028Both at once?', 'Yes, both.']);
    expect(summarizeWhole(global).titles).toEqual(['Rename the helper.', 'Fix the flaky date test', 'Add a changelog', 'How do I fix the lint errors?', 'What does this regex match? (its composer record is not in the database)']);
    expect(summarizeWhole(workspace).titles).toEqual(['Old composer one', 'Explain this file.', 'Regex for dates', 'Sorting', 'Unanswered', "1 composer of this workspace, kept in Cursor's global state.vscdb"]);
    expect(ws.messages.at(-1)).toMatchObject({ role: 'composer', meta: true, category: 'kept in the global database' });
    expect(ws.messages.at(-1)?.content).toContain('composer “Fix the flaky date test” 11111111-1111-4111-8111-111111111111');
  });
});

// ---------------------------------------------------------------- Databases of tools not read here

describe('databases of tools not read here, through the real bin', () => {
  it("Zed's threads.db and Goose's sessions.db are listed by ls as not read (a note, not an error), and sessions says what it does not list", () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'zed', 'threads'), { recursive: true });
    mkdirSync(join(dir, 'goose', 'sessions'), { recursive: true });
    writeFileSync(join(dir, 'zed', 'threads', 'threads.db'), sqliteFile('CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL)'));
    writeFileSync(join(dir, 'goose', 'sessions', 'sessions.db'), sqliteFile('CREATE TABLE sessions (id TEXT PRIMARY KEY, working_dir TEXT NOT NULL); CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content_json TEXT)'));
    mkdirSync(join(dir, 'chats'));
    writeFileSync(join(dir, 'chats', 'chat.json'), JSON.stringify({ messages: [{ role: 'user', content: 'the tax rounding question' }, { role: 'assistant', content: 'Round half to even.' }] }));
    const ls = cli('ls', dir);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(/^not read\s.*\szed\/threads\/threads\.db$/m);
    expect(ls.stdout).toMatch(/^not read\s.*\sgoose\/sessions\/sessions\.db$/m);
    expect(ls.stderr).toContain('note: zed/threads/threads.db: a database of Zed threads: Zed is not read here (its conversations are not shown; the databases read here: ');
    expect(ls.stderr).not.toMatch(/^error:/m);
    const sessions = cli('sessions', dir);
    expect(sessions.code, sessions.stderr).toBe(0);
    expect(sessions.stdout).toContain('chats/chat.json');
    expect(sessions.stderr).toContain(`note: not listed: 2 databases not read (Goose sessions, Zed threads) (ls ${dir} shows each with why)`);
    const listed = json<{ notListed: { databases: Array<{ label: string; files: number }>; files: Array<{ path: string; why: string }> } }>(['sessions', dir, '--json']);
    expect(listed.notListed.databases).toEqual([{ label: 'Goose sessions', files: 1 }, { label: 'Zed threads', files: 1 }]);
    expect(listed.notListed.files).toEqual([{ path: 'goose/sessions/sessions.db', why: 'unread', label: 'Goose sessions' }, { path: 'zed/threads/threads.db', why: 'unread', label: 'Zed threads' }]);
    const search = cli('search', dir, 'rounding');
    expect(search.stderr).toContain(`note: not searched: 2 databases not read here (goose/sessions/sessions.db, zed/threads/threads.db; \`ls ${dir}\` says why)`);
    expect(search.stderr).not.toMatch(/^error:/m);
  });

  it("Copilot CLI's session index is listed as such, not read as sessions: they are its events.jsonl files", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'session-store.db'), sqliteFile('CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, summary TEXT); CREATE TABLE turns (id INTEGER PRIMARY KEY, session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT); CREATE TABLE checkpoints (id INTEGER PRIMARY KEY)'));
    mkdirSync(join(dir, 'chats'));
    writeFileSync(join(dir, 'chats', 'chat.json'), JSON.stringify({ messages: [{ role: 'user', content: 'the tax rounding question' }, { role: 'assistant', content: 'Round half to even.' }] }));
    const ls = cli('ls', dir);
    expect(ls.stdout).toMatch(/^not read\s.*\ssession-store\.db$/m);
    expect(ls.stderr).toContain("note: session-store.db: the Copilot CLI session index, not read as sessions: they are read from each session's session-state/<id>/events.jsonl");
    const listed = json<{ notListed: { databases: Array<{ label: string; files: number }>; files: Array<{ path: string; why: string }> } }>(['sessions', dir, '--json']);
    expect(listed.notListed.databases).toEqual([{ label: 'Copilot CLI session index', files: 1 }]);
    expect(listed.notListed.files).toEqual([{ path: 'session-store.db', why: 'unread', label: 'Copilot CLI session index', readFrom: "each session's session-state/<id>/events.jsonl" }]);
    // Another app's database of the same name is not taken for it.
    writeFileSync(join(dir, 'session-store.db'), sqliteFile('CREATE TABLE sessions (id TEXT PRIMARY KEY)'));
    expect(cli('ls', dir).stderr).toContain('session-store.db: a SQLite database of no tool read here');
  });
});
