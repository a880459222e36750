import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, readDocumentFile } from '../../src/core/formats/document-file.js';
import { withWal } from '../../src/core/formats/containers/sqlite.js';
import { ConversationFileError } from '../../src/core/formats/errors.js';
import { walkConversationTree } from '../../src/core/storage/list-directory.js';
import { NotReadHereError } from '../../src/core/formats/containers/unread-stores.js';
import { FIXTURES, tempDir } from '../helpers.js';

const F = join(FIXTURES, 'formats');
const ROLLOUT = 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';

/** What a file shows: per conversation, its title and each message's role and parts. */
const shown = (file: string) => {
  const o = readDocumentFile(file);
  return o.doc.conversations.map((c) => ({ title: c.title, messages: c.records.map((r) => o.codec.view(r)).map((v) => ({ role: v.normalRole, parts: v.parts, usage: v.usage })) }));
};

describe('compressed histories', () => {
  it('a Codex rollout kept as .jsonl.zst reads as the rollout does (zstd’s own compressor made it; fzstd reads it)', () => {
    const zst = readDocumentFile(join(F, 'compressed', `${ROLLOUT}.zst`));
    const plain = readDocumentFile(join(F, 'codex', ROLLOUT));
    expect(zst.codec.id).toBe('codex-rollout');
    expect(zst.doc.text).toBe(plain.doc.text);
    expect(shown(join(F, 'compressed', `${ROLLOUT}.zst`))).toEqual(shown(join(F, 'codex', ROLLOUT)));
    expect(zst.readOnly).toMatch(/zstd-compressed: edits are saved with Save As into an uncompressed \.jsonl file/);
  });

  it('a Claude Code session kept as .jsonl.gz reads as the session', () => {
    expect(readDocumentFile(join(F, 'compressed', 'session.jsonl.gz')).doc.text).toBe(readFileSync(join(F, 'claude-code', 'session.jsonl'), 'utf8'));
  });

  it('a cut-off archive is an error naming the file, not a crash', () => {
    const dir = tempDir();
    const bytes = readFileSync(join(F, 'compressed', `${ROLLOUT}.zst`));
    const file = join(dir, `cut.jsonl.zst`);
    writeFileSync(file, bytes.subarray(0, bytes.length - 40));
    expect(() => readDocumentFile(file)).toThrow(ConversationFileError);
    expect(() => readDocumentFile(file)).toThrow(/cut\.jsonl\.zst: not a whole zstd file/);
  });
});

describe('an Inspect AI .eval archive', () => {
  const JSON_LOG = join(F, 'inspect', '2025-12-01T10-00-00_gsm8k_abc123.json');
  const EVAL = join(F, 'inspect', '2025-12-01T11-00-00_gsm8k_def456.eval');

  it('reads as the JSON log it was made from (Python’s zipfile wrote it; samples put in finishing order come back by epoch and id)', () => {
    const opened = readDocumentFile(EVAL);
    expect(opened.codec.id).toBe('inspect-eval-json');
    expect(shown(EVAL)).toEqual(shown(JSON_LOG));
    expect(opened.readOnly).toMatch(/written by Inspect/);
  });

  it('an archive without Inspect’s pieces says what it holds', () => {
    const dir = tempDir();
    const py = spawnSync('python3', ['-c', `import zipfile; z = zipfile.ZipFile(${JSON.stringify(join(dir, 'x.eval'))}, 'w'); z.writestr('notes.json', '{}'); z.close()`]);
    expect(py.status, String(py.stderr)).toBe(0);
    expect(() => readDocumentFile(join(dir, 'x.eval'))).toThrow(/without Inspect's header\.json or start\.json \(holds: notes\.json\)/);
  });
});

describe('OpenCode’s own store', () => {
  const EXPORT = join(F, 'opencode', 'session-export.json');
  const exported = shown(EXPORT)[0];

  it('opencode.db: each session a conversation, read as `opencode export` prints it; a sub-agent session says so', () => {
    const opened = readDocumentFile(join(F, 'opencode', 'opencode.db'));
    expect(opened.codec.id).toBe('opencode-store');
    expect(opened.readOnly).toMatch(/OpenCode’s own database/);
    const [main, sub] = shown(join(F, 'opencode', 'opencode.db'));
    expect(main).toEqual(exported);
    expect(sub.title).toBe('sub-agent · Find where dates are formatted (@general subagent)');
    expect(sub.messages[1].parts.map((p) => p.kind)).toEqual(['tool-call', 'tool-result', 'text']);
    expect(opened.doc.conversations[0].meta).toEqual({ sessionId: 'ses_52b1f0c4effeA7qLm3Rt9Vb2Yz', cwd: '/home/dev/app', version: '1.0.120' });
  });

  it('the older storage folder: a session file gathers its messages and parts from beside it', () => {
    const session = join(F, 'opencode', 'storage', 'session', '8b3f2e9c4d1a7f6e5b0c3d2a1f9e8d7c6b5a4f3e', 'ses_52b1f0c4effeA7qLm3Rt9Vb2Yz.json');
    expect(readDocumentFile(session).codec.id).toBe('opencode-store');
    expect(shown(session)[0]).toEqual(exported);
  });

  it('a live database’s newest messages, still in its write-ahead log, are read (SQLite itself wrote the log)', () => {
    const dir = tempDir();
    const live = join(dir, 'live');
    mkdirSync(live);
    const db = join(live, 'opencode.db');
    const script = `
import sqlite3, shutil, json
c = sqlite3.connect(${JSON.stringify(db)})
c.execute('pragma journal_mode=wal'); c.execute('pragma wal_autocheckpoint=0')
c.executescript('''CREATE TABLE session (id text PRIMARY KEY, project_id text, parent_id text, directory text, title text, version text, time_created integer, time_updated integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text, time_created integer, time_updated integer, data text);
CREATE TABLE part (id text PRIMARY KEY, message_id text, session_id text, time_created integer, time_updated integer, data text);''')
c.execute("INSERT INTO session VALUES ('ses_1', 'p', NULL, '/w', 'Live one', '1.0.0', 1, 1)")
c.execute("INSERT INTO message VALUES ('msg_1', 'ses_1', 1, 1, ?)", (json.dumps({'role': 'user', 'time': {'created': 1}}),))
c.execute("INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_1', 1, 1, ?)", (json.dumps({'type': 'text', 'text': 'first words'}),))
c.commit()
c.execute('pragma wal_checkpoint(TRUNCATE)')
c.execute("INSERT INTO message VALUES ('msg_2', 'ses_1', 2, 2, ?)", (json.dumps({'role': 'assistant', 'time': {'created': 2}}),))
c.execute("INSERT INTO part VALUES ('prt_2', 'msg_2', 'ses_1', 2, 2, ?)", (json.dumps({'type': 'text', 'text': 'words only the log holds'}),))
c.commit()
c.execute("INSERT INTO part VALUES ('prt_3', 'msg_2', 'ses_1', 3, 3, ?)", (json.dumps({'type': 'text', 'text': 'never committed'}),))
shutil.copy(${JSON.stringify(db)}, ${JSON.stringify(join(dir, 'opencode.db'))})
shutil.copy(${JSON.stringify(db)} + '-wal', ${JSON.stringify(join(dir, 'opencode.db'))} + '-wal')
`;
    const py = spawnSync('python3', ['-c', script]);
    expect(py.status, String(py.stderr)).toBe(0);
    const copy = join(dir, 'opencode.db');
    const texts = () => readDocumentFile(copy).doc.conversations[0].records.map((r) => (r as { parts: Array<{ text: string }> }).parts.map((p) => p.text).join(' '));
    expect(texts()).toEqual(['first words', 'words only the log holds']);
    // A torn last frame (a writer stopped mid-write) leaves what was committed before it.
    const wal = readFileSync(`${copy}-wal`);
    writeFileSync(`${copy}-wal`, Buffer.concat([wal, Buffer.alloc(100, 7)]));
    expect(texts()).toEqual(['first words', 'words only the log holds']);
    // Without its log, the database file alone holds what was checkpointed (made a rollback-journal file for sql.js).
    writeFileSync(`${copy}-wal`, '');
    expect(texts()).toEqual(['first words']);
    expect(withWal(readFileSync(copy), undefined)[18]).toBe(1);
  });

  it('a database of another app is not taken for OpenCode’s', () => {
    const dir = tempDir();
    const file = join(dir, 'opencode.db');
    const py = spawnSync('python3', ['-c', `import sqlite3; c = sqlite3.connect(${JSON.stringify(file)}); c.execute('create table notes (t text)'); c.commit()`]);
    expect(py.status, String(py.stderr)).toBe(0);
    expect(() => readDocumentFile(file)).toThrow(/without OpenCode's "session" table \(tables: notes\)/);
  });

  it('a database of a tool not read here (Zed’s threads.db, Goose’s sessions.db) is said to be one, not taken for a broken OpenCode one', () => {
    const dir = tempDir();
    for (const name of ['threads.db', 'sessions.db']) {
      const file = join(dir, name);
      const py = spawnSync('python3', ['-c', `import sqlite3; c = sqlite3.connect(${JSON.stringify(file)}); c.execute('create table threads (id text, data blob)'); c.commit()`]);
      expect(py.status, String(py.stderr)).toBe(0);
      expect(() => readDocumentFile(file)).toThrow(new RegExp(`${name.replace('.', '\\.')}: a SQLite database of no tool read here \\(its tables are not those of .*OpenCode database`));
      expect(() => readDocumentFile(file)).not.toThrow(/first bytes/);
    }
  });
});

describe('databases of tools not read here (Zed, Goose)', () => {
  const create = (file: string, sql: string) => {
    mkdirSync(join(file, '..'), { recursive: true });
    const py = spawnSync('python3', ['-c', `import sqlite3; c = sqlite3.connect(${JSON.stringify(file)}); c.executescript(${JSON.stringify(sql)}); c.commit()`]);
    expect(py.status, String(py.stderr)).toBe(0);
  };

  it('in the folder its tool keeps it in, each is listed and said to be that tool’s, by what it holds; elsewhere, or with other tables, it is not', () => {
    const dir = tempDir();
    create(join(dir, 'zed', 'threads', 'threads.db'), 'create table threads (id text primary key, summary text, updated_at text, data_type text, data blob)');
    create(join(dir, 'goose', 'sessions', 'sessions.db'), 'create table sessions (id text primary key, name text); create table messages (id integer primary key, session_id text, role text, content_json text)');
    create(join(dir, 'notes', 'threads', 'threads.db'), 'create table notes (t text)');
    create(join(dir, 'cache', 'threads.db'), 'create table threads (id text, data blob)');
    expect(walkConversationTree(dir).files.map((f) => f.path)).toEqual(['goose/sessions/sessions.db', 'notes/threads/threads.db', 'zed/threads/threads.db']);
    const why = (path: string) => {
      try {
        readDocumentFile(join(dir, path));
      } catch (e) {
        return { error: e instanceof ConversationFileError ? e.reason : String(e), store: (e as NotReadHereError).store?.id };
      }
      return undefined;
    };
    expect(why('zed/threads/threads.db')).toEqual({ error: expect.stringMatching(/^a database of Zed threads: Zed is not read here \(its conversations are not shown; the databases read here: OpenCode database, Crush database/), store: 'zed-threads' });
    expect(why('goose/sessions/sessions.db')).toEqual({ error: expect.stringMatching(/^a database of Goose sessions: Goose is not read here/), store: 'goose-sessions' });
    expect(why('notes/threads/threads.db')).toEqual({ error: expect.stringMatching(/^a SQLite database of no tool read here/), store: undefined });
  });
});

describe('Cursor’s state.vscdb', () => {
  const GLOBAL = join(F, 'cursor', 'globalStorage', 'state.vscdb');

  it('each composer a conversation of its bubbles in the order its headers give, titled by its name', () => {
    const opened = readDocumentFile(GLOBAL);
    expect(opened.codec.id).toBe('cursor-chats');
    const [legacy, ci] = shown(GLOBAL);
    expect(legacy).toMatchObject({ title: 'Rename the helper to formatDate.', messages: [{ role: 'user' }, { role: 'assistant' }] });
    expect(ci.title).toBe('CI date tests');
    expect(ci.messages.map((m) => m.parts.map((p) => p.kind))).toEqual([['text'], ['reasoning', 'tool-call', 'tool-result'], ['text', 'text'], ['text'], ['tool-call', 'tool-result'], []]);
    expect(ci.messages[1].parts[1]).toEqual({ kind: 'tool-call', id: 'toolu_01ReadFormat', name: 'read_file', arguments: '{"target_file": "src/format.ts", "should_read_entire_file": true}' });
    expect(ci.messages[4].parts[1]).toMatchObject({ kind: 'tool-result', isError: true, text: 'The file is read-only.' });
    expect(ci.messages[2].usage).toMatchObject({ input: 4210, output: 96 });
    // A code block the text does not hold is shown; a header whose bubble is gone says so.
    expect(ci.messages[2].parts[1]).toEqual({ kind: 'text', text: '```json\n"test": "TZ=UTC vitest run"\n```' });
    const gone = opened.codec.view(opened.doc.conversations[1].records[5]);
    expect(gone).toMatchObject({ category: 'not in the database (its chat lists it)', meta: true, parts: [] });
  });

  it('an older workspace’s chat panel tabs; a database without chats says what it holds', () => {
    const ws = join(F, 'cursor', 'workspaceStorage', '4f3e2d1c0b9a8f7e6d5c4b3a29180716', 'state.vscdb');
    expect(shown(ws)).toMatchObject([
      { title: 'Regex for ISO dates', messages: [{ role: 'user' }, { role: 'assistant', parts: [{ kind: 'text', text: 'Use `^\\d{4}-\\d{2}-\\d{2}$` for the date part.' }] }] },
      // The composer this workspace lists is kept in the global database: said, not left out.
      { title: "1 composer of this workspace, kept in Cursor's global state.vscdb", messages: [{ role: 'other', parts: [{ kind: 'text', text: "composer c0f1e2d3-4b5a-4968-8776-5a4b3c2d1e0f: its messages are in Cursor's global state.vscdb (User/globalStorage/state.vscdb), not in this workspace's" }] }] },
    ]);
    const dir = tempDir();
    const file = join(dir, 'state.vscdb');
    const py = spawnSync('python3', ['-c', `import sqlite3; c = sqlite3.connect(${JSON.stringify(file)}); c.execute('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)'); c.execute("insert into ItemTable values ('a', 'b')"); c.commit()`]);
    expect(py.status, String(py.stderr)).toBe(0);
    const empty = readDocumentFile(file).doc.conversations;
    expect(empty).toHaveLength(1);
    expect(empty[0]).toMatchObject({ records: [], title: 'no chats in this database (1 editor-state keys, tables: ItemTable)' });
  });

  it('the store’s text is never a format a file can be detected as', () => {
    const text = readDocumentFile(GLOBAL).doc.text;
    expect(() => parseDocumentText(text, 'x.json')).toThrow();
  });
});

describe('a listing', () => {
  it('shows compressed histories, archives and the stores by the names their apps give them; never a store’s pieces', () => {
    const dir = tempDir();
    const put = (rel: string, from?: string) => {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      if (from) copyFileSync(from, join(dir, rel));
      else writeFileSync(join(dir, rel), 'x');
    };
    put('a/rollout.jsonl.zst', join(F, 'compressed', `${ROLLOUT}.zst`));
    put('a/backup.tar.gz');
    put('a/notes.md.gz');
    put('b/opencode.db', join(F, 'opencode', 'opencode.db'));
    put('b/cache.db');
    put('Cursor/User/globalStorage/state.vscdb', join(F, 'cursor', 'globalStorage', 'state.vscdb'));
    put('Code/User/workspaceStorage/1/state.vscdb');
    put('logs/run.eval', join(F, 'inspect', '2025-12-01T11-00-00_gsm8k_def456.eval'));
    put('opencode/storage/session/p/ses_1.json');
    put('opencode/storage/message/ses_1/msg_1.json');
    put('opencode/storage/part/msg_1/prt_1.json');
    put('opencode/storage/project/p.json');
    expect(walkConversationTree(dir).files.map((f) => f.path)).toEqual(['Cursor/User/globalStorage/state.vscdb', 'a/rollout.jsonl.zst', 'b/opencode.db', 'logs/run.eval', 'opencode/storage/session/p/ses_1.json']);
  });
});

describe('a VS Code chat session log (.jsonl)', () => {
  const DIR = join(F, 'vscode-chat', 'chatSessions');
  it('replays into the session JSON the older .json file holds (an independent Python replay made the log from it)', () => {
    const log = readDocumentFile(join(DIR, '7c6b5a49-3827-4165-9e4f-3a2b1c0d9e8f.jsonl'));
    const whole = readDocumentFile(join(DIR, '0b9a8f7e-6d5c-4b4a-3f2e-1d0c9b8a7f6e.json'));
    expect(log.codec.id).toBe('vscode-chat');
    expect(log.readOnly).toMatch(/Save As into a chat \.json file/);
    expect({ ...(JSON.parse(log.doc.text) as object), sessionId: 'x' }).toEqual({ ...(JSON.parse(whole.doc.text) as object), sessionId: 'x' });
  });

  it('a last line still being written is left out; a bad line before it is an error with its line', () => {
    const dir = tempDir();
    const text = readFileSync(join(DIR, '7c6b5a49-3827-4165-9e4f-3a2b1c0d9e8f.jsonl'), 'utf8');
    const file = join(dir, 's.jsonl');
    writeFileSync(file, `${text}{"kind":1,"k":["customTi`);
    expect(readDocumentFile(file).doc.conversations[0].records).toHaveLength(2);
    const lines = text.split('\n');
    writeFileSync(file, [...lines.slice(0, 2), '{"kind":2,', ...lines.slice(2)].join('\n'));
    expect(() => readDocumentFile(file)).toThrow(/s\.jsonl:3:1: line 3 is not JSON/);
  });
});

describe('a file named as a container holds but not one', () => {
  it('says what it is not, naming the file; a damaged database names it too', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'x.jsonl.zst'), 'hello');
    expect(() => readDocumentFile(join(dir, 'x.jsonl.zst'))).toThrow(/x\.jsonl\.zst: not a zstd file: its first bytes are not those of one/);
    writeFileSync(join(dir, 'opencode.db'), readFileSync(join(F, 'opencode', 'opencode.db')).subarray(0, 8192));
    expect(() => readDocumentFile(join(dir, 'opencode.db'))).toThrow(/opencode\.db: not a readable SQLite database/);
  });
});
