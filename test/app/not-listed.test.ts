// What the opened folders hold that the session list does not show (another tool's database not read here, a
// tool's prompt log, a file of no message, a file that does not read) is said in the catalog's answer, each file
// with why: the Sessions view's one line, and the way to them in Files.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { dispatch } from '../../app/service/dispatch.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import type { NotListed, SessionEntry } from '../../app/shared/contract.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { listFully } from '../support/listing.js';
import { REALFILES } from '../support/realfiles.js';
import { sqliteFile } from '../support/sqlite-fixture.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

interface Sessions {
  sessions: SessionEntry[];
  notListed?: NotListed;
  status: { building: boolean };
}

/** The catalog's answer once it has read every file under `dir` (nothing kept on disk). */
async function settled(dir: string): Promise<Sessions> {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, searchIndexFile: false, watch: false });
  runtimes.push(rt);
  for (;;) {
    const r = await dispatch(rt.handlers, 'catalog:sessions', {});
    if (!r.ok) throw new Error(r.error.message);
    const s = r.value as Sessions;
    if (!s.status.building) return s;
    await new Promise((done) => setTimeout(done, 20));
  }
}

// The tables Zed's threads.db and Goose's sessions.db have (as their tools create them), a row each.
const ZED = "CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL, parent_id TEXT, folder_paths TEXT, folder_paths_order TEXT, created_at TEXT);";
const GOOSE = "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP); CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP); CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL);";

function write(file: string, bytes: Uint8Array | string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

describe('the files the session list does not show', () => {
  it("are named in the answer, each with why: Zed's and Goose's databases by what they hold, a prompt log, a file of no message, files that do not read", async () => {
    const dir = tempDir();
    write(join(dir, 'zed', 'threads', 'threads.db'), sqliteFile(ZED, { threads: [{ id: 't1', summary: 'Fix the cart', updated_at: '2026-03-01T10:00:00Z', data_type: 'zstd', data: new Uint8Array([1, 2, 3]) }] }));
    write(join(dir, 'goose', 'sessions', 'sessions.db'), sqliteFile(GOOSE, { sessions: [{ id: 's1', name: 'cart', working_dir: '/home/dev/shop' }] }));
    // Named as Zed names its database, but another app's tables: a database of no tool read here.
    write(join(dir, 'notes', 'threads', 'threads.db'), sqliteFile('CREATE TABLE notes (t TEXT);'));
    // Not in a folder Zed keeps it in: no conversation file at all.
    write(join(dir, 'cache', 'threads.db'), sqliteFile(ZED));
    mkdirSync(join(dir, 'claude'));
    cpSync(join(FIXTURES, 'formats', 'claude-code', 'history.jsonl'), join(dir, 'claude', 'history.jsonl'));
    cpSync(join(FIXTURES, 'formats', 'claude-code', 'session.jsonl'), join(dir, 'claude', 'projects', '-home-dev-shop', '0000000a-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'));
    write(join(dir, 'claude', 'projects', '-home-dev-shop', '0000000b-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'), `${JSON.stringify({ type: 'summary', summary: 'Titles of other sessions', leafUuid: 'x-1' })}\n`);
    write(join(dir, 'chat.json'), '{"messages": [');
    const answer = await settled(dir);
    expect(answer.sessions.map((s) => s.path)).toEqual(['claude/projects/-home-dev-shop/0000000a-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl']);
    const n = answer.notListed!;
    expect({ ...n, files: undefined }).toEqual({ databases: [{ label: 'Goose sessions', files: 1 }, { label: 'Zed threads', files: 1 }], logs: 1, empty: 1, unreadable: 2, files: undefined });
    expect(n.files.map((f) => [f.path, f.why, f.label])).toEqual([
      ['chat.json', 'unreadable', undefined],
      ['claude/history.jsonl', 'log', 'Claude Code prompt history (history.jsonl)'],
      ['claude/projects/-home-dev-shop/0000000b-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl', 'empty', 'Claude Code session (JSONL)'],
      ['goose/sessions/sessions.db', 'unread', 'Goose sessions'],
      ['notes/threads/threads.db', 'unreadable', undefined],
      ['zed/threads/threads.db', 'unread', 'Zed threads'],
    ]);
  });

  it('are in the Files list, each database named and said not read (calmly: not as a file that does not read)', async () => {
    const dir = tempDir();
    write(join(dir, 'zed', 'threads', 'threads.db'), sqliteFile(ZED));
    write(join(dir, 'notes', 'threads', 'threads.db'), sqliteFile('CREATE TABLE notes (t TEXT);'));
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, searchIndexFile: false, watch: false });
    runtimes.push(rt);
    const entries = await listFully(rt);
    expect(entries.map((e) => [e.path, e.notRead, e.error?.replace(/ \(.*$/, '')])).toEqual([
      ['notes/threads/threads.db', undefined, 'a SQLite database of no tool read here'],
      ['zed/threads/threads.db', 'Zed threads', 'a database of Zed threads: Zed is not read here'],
    ]);
  });

  it('are not mentioned where there are none', async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats', 'claude-code', 'session.jsonl'), join(dir, '-home-dev-shop', '0000000a-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'));
    const answer = await settled(dir);
    expect(answer.sessions).toHaveLength(1);
    expect(answer.notListed).toBeUndefined();
  });

  it.runIf(REALFILES)('in the real files: the Zed and Goose databases, Copilot CLI’s session index, the tools’ prompt logs and indexes, a file of titles only', async () => {
    const answer = await settled(REALFILES!);
    const n = answer.notListed!;
    expect(n.databases).toEqual([{ label: 'Copilot CLI session index', files: 1 }, { label: 'Goose sessions', files: 1 }, { label: 'Zed threads', files: 1 }]);
    expect(n.files.filter((f) => f.why === 'unread').map((f) => f.path)).toEqual(['copilot-cli/xeff09/session-store.db', 'goose/jwp23/sessions/sessions.db', 'zed/atlasata/threads/threads.db']);
    expect(n.files.find((f) => f.path.endsWith('session-store.db'))?.readFrom).toMatch(/events\.jsonl/);
    expect(n.logs).toBeGreaterThan(3);
    expect(n.unreadable).toBe(0);
  });
});
