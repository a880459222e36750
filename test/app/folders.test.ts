import { agentPlaceCandidates } from '../../app/service/folders/agent-places.js';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FOLDER_REQUEST_NAMES } from '../../app/shared/channels.js';
import { browseFolders, MAX_LISTED } from '../../app/service/folders/browse-folders.js';
import { RecentFolders } from '../../app/service/folders/recent-folders.js';
import { FolderShell } from '../../app/service/folders/folder-shell.js';
import type { Backend } from '../../app/service/backend/backend.js';
import type { Result } from '../../app/shared/contract.js';
import { tempDir } from '../helpers.js';

const real = (p: string) => realpathSync(p);

function tree(): { home: string; outside: string } {
  const home = real(tempDir());
  for (const d of ['projects/app', 'projects/10-run', 'projects/9-run', '.claude/projects/-home-app', 'notes']) mkdirSync(join(home, d), { recursive: true });
  writeFileSync(join(home, 'projects', 'session.jsonl'), '{}\n');
  const outside = real(tempDir());
  mkdirSync(join(outside, 'secret'));
  symlinkSync(join(outside, 'secret'), join(home, 'projects', 'leads-out'));
  return { home, outside };
}

describe('browseFolders: folders (never files) inside the scope', () => {
  it('lists folders in natural order, hidden ones only when asked, symlinked folders when they lead inside', () => {
    const { home } = tree();
    symlinkSync(join(home, 'notes'), join(home, 'projects', 'notes-link'));
    const listing = browseFolders([home], join(home, 'projects'));
    // leads-out points outside the scope: not listed (and refused when named).
    expect(listing.dirs.map((d) => d.name)).toEqual(['9-run', '10-run', 'app', 'notes-link']);
    expect(listing.parent).toBe(home);
    expect(listing.truncated).toBe(false);
    expect(browseFolders([home], home).dirs.map((d) => d.name)).toEqual(['notes', 'projects']);
    expect(browseFolders([home], home, true).dirs.map((d) => d.name)).toEqual(['.claude', 'notes', 'projects']);
  });

  it('has no parent at the scope root, and refuses anything outside it, however it is spelt', () => {
    const { home, outside } = tree();
    expect(browseFolders([home], home).parent).toBeNull();
    expect(() => browseFolders([home], outside)).toThrow(/outside/);
    expect(() => browseFolders([home], join(home, 'projects', '..', '..'))).toThrow(/outside/);
    // What the symlink leads to is outside: refused.
    expect(() => browseFolders([home], join(home, 'projects', 'leads-out'))).toThrow(/outside/);
    expect(() => browseFolders([home], 'projects')).toThrow(/absolute/);
    expect(() => browseFolders([home], join(home, 'projects', 'session.jsonl'))).toThrow(/not a folder/);
    expect(() => browseFolders([home], join(home, 'nowhere'))).toThrow(/no such folder/);
    expect(() => browseFolders([home], `${home}/\0x`)).toThrow();
    // A name that merely begins with two dots is inside.
    mkdirSync(join(home, '..notes'));
    expect(browseFolders([home], join(home, '..notes')).path).toBe(join(home, '..notes'));
  });

  it('answers at once in a folder of thousands, saying it stopped', () => {
    const home = real(tempDir());
    for (let i = 0; i < MAX_LISTED + 5; i++) mkdirSync(join(home, `s${i}`));
    const listing = browseFolders([home], home);
    expect(listing.dirs).toHaveLength(MAX_LISTED);
    expect(listing.truncated).toBe(true);
  });
});

describe('RecentFolders', () => {
  it('keeps the newest first without repeats, across runs, and lists only folders still there', () => {
    const { home } = tree();
    const file = join(real(tempDir()), 'state', 'recent.json');
    const recents = new RecentFolders(file);
    recents.add(join(home, 'projects'), 1);
    recents.add(join(home, 'notes'), 2);
    recents.add(join(home, 'projects'), 3);
    const again = new RecentFolders(file);
    expect(again.list().map((r) => [r.name, r.openedAt])).toEqual([['projects', 3], ['notes', 2]]);
    rmSync(join(home, 'notes'), { recursive: true });
    expect(again.list().map((r) => r.name)).toEqual(['projects']);
    for (let i = 0; i < 20; i++) again.add(join(home, `x${i}`), 10 + i);
    expect(new RecentFolders(file).list().length).toBeLessThanOrEqual(12);
  });

  it('drops damaged entries and survives a damaged file', () => {
    const { home } = tree();
    const dir = real(tempDir());
    writeFileSync(join(dir, 'a.json'), JSON.stringify([{ path: home, name: 'h', openedAt: 1 }, { path: 42 }, 'x', null]));
    expect(new RecentFolders(join(dir, 'a.json')).list().map((r) => r.path)).toEqual([home]);
    writeFileSync(join(dir, 'b.json'), '{not json');
    expect(new RecentFolders(join(dir, 'b.json')).list()).toEqual([]);
  });
});

/** A stand-in document service: answers which folder it serves, and whether edits are unsaved. */
class FakeBackend implements Backend {
  readonly kind = 'in-process' as const;
  onEvent: Backend['onEvent'] = () => {};
  closed = false;
  dirty = false;
  constructor(readonly dir: string) {}
  async request(channel: unknown): Promise<Result<unknown>> {
    return { ok: true, value: { channel, dir: this.dir } };
  }
  async unsaved(): Promise<boolean> {
    return this.dirty;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

function shell(scope: string[] | null, start: string, pick?: () => Promise<string | undefined>) {
  const started: FakeBackend[] = [];
  const events: Array<[string, unknown]> = [];
  const s = new FolderShell(start, {
    start: (dir) => {
      const b = new FakeBackend(dir);
      started.push(b);
      return b;
    },
    scope,
    pick,
    recents: new RecentFolders(),
    home: start,
  });
  s.onEvent = (e, p) => events.push([e, p]);
  return { s, started, events };
}

describe('FolderShell: the open folder is the shell’s, behind the same dispatch', () => {
  it('opens a folder within the scope: a new service, the old one stopped, every window told, the folder remembered', async () => {
    const { home } = tree();
    const { s, started, events } = shell([home], join(home, 'projects'));
    expect(await s.request('dir:list', {})).toMatchObject({ ok: true, value: { dir: join(home, 'projects') } });
    const opened = await s.request('folder:open', { path: join(home, 'notes') });
    expect(opened).toEqual({ ok: true, value: { root: join(home, 'notes') } });
    expect(started.map((b) => [b.dir, b.closed])).toEqual([[join(home, 'projects'), true], [join(home, 'notes'), false]]);
    expect(events).toEqual([['folder:opened', { root: join(home, 'notes') }]]);
    expect(await s.request('dir:list', {})).toMatchObject({ ok: true, value: { dir: join(home, 'notes') } });
    const recent = await s.request('folder:recent', {});
    expect(recent).toMatchObject({ ok: true, value: { current: [join(home, 'notes')], browse: true } });
    expect((recent as { value: { recent: Array<{ path: string }> } }).value.recent.map((r) => r.path)).toEqual([join(home, 'notes'), join(home, 'projects')]);
    // Events of the service that was replaced are of a folder no longer shown.
    started[0].onEvent('dir:changed', {});
    expect(events).toHaveLength(1);
  });

  it('refuses while edits are unsaved unless told to discard them', async () => {
    const { home } = tree();
    const { s, started } = shell([home], home);
    started[0].dirty = true;
    expect(await s.request('folder:open', { path: join(home, 'notes') })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(started).toHaveLength(1);
    expect(await s.request('folder:open', { path: join(home, 'notes'), discard: true })).toMatchObject({ ok: true });
  });

  it('in browser mode a recent folder outside the scope is neither listed nor opened', async () => {
    const { home, outside } = tree();
    const recents = new RecentFolders();
    recents.add(outside, 1);
    recents.add(join(home, 'notes'), 2);
    const s = new FolderShell(home, { start: (dir) => new FakeBackend(dir), scope: [home], recents, home });
    const listed = (await s.request('folder:recent', {})) as { ok: true; value: { recent: Array<{ path: string }> } };
    expect(listed.value.recent.map((r) => r.path)).toEqual([home, join(home, 'notes')]);
    expect(await s.request('folder:open', { path: outside })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: expect.stringMatching(/outside what browser mode may open/) } });
  });

  it('refuses what lies outside the scope, bad input, and browsing where the system dialog chooses', async () => {
    const { home, outside } = tree();
    const { s, started } = shell([home], home);
    for (const path of [outside, join(home, 'projects', 'leads-out'), '/', join(home, '..')]) {
      expect(await s.request('folder:open', { path })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(await s.request('folder:open', { path: 'relative' })).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(await s.request('folder:open', { path: 42 })).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(await s.request('folder:browse', { path: outside })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await s.request('folder:pick', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(started).toHaveLength(1);
  });

  it('browses from the open folder, or from the scope when the open folder lies outside it', async () => {
    const { home, outside } = tree();
    expect(await shell([home], join(home, 'projects')).s.request('folder:browse', {})).toMatchObject({ ok: true, value: { path: join(home, 'projects'), parent: home } });
    const elsewhere = shell([home], outside).s;
    expect(await elsewhere.request('folder:browse', {})).toMatchObject({ ok: true, value: { path: home, parent: null } });
    // Whatever was opened is open-able again (here: the folder served, outside the home folder).
    expect(await elsewhere.request('folder:open', { path: outside })).toMatchObject({ ok: true });
  });

  it('in Electron (no scope) opens only what the system dialog chose or was opened before', async () => {
    const { home, outside } = tree();
    let choice: string | undefined = join(home, 'notes');
    const { s } = shell(null, home, async () => choice);
    expect(await s.request('folder:browse', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await s.request('folder:open', { path: outside })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await s.request('folder:pick', {})).toEqual({ ok: true, value: { root: join(home, 'notes') } });
    choice = undefined;
    expect(await s.request('folder:pick', {})).toEqual({ ok: true, value: { root: null } });
    expect(await s.request('folder:open', { path: home })).toMatchObject({ ok: true, value: { root: home } });
    // The agents' own folders are the main side's list: offered, and opened like a folder the dialog chose.
    const places = join(home, '.claude', 'projects');
    expect(await s.request('folder:recent', {})).toMatchObject({ ok: true, value: { browse: false, places: [{ name: 'Claude Code sessions', path: places }] } });
    expect(await s.request('folder:open', { path: places })).toMatchObject({ ok: true, value: { root: places } });
    // Not a folder under it the page names.
    expect(await s.request('folder:open', { path: join(places, '..') })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('offers the agents’ session folders that exist', async () => {
    const { home } = tree();
    const { s } = shell([home], home);
    const r = (await s.request('folder:recent', {})) as { ok: true; value: { places: Array<{ name: string; path: string }> } };
    expect(r.value.places).toEqual([{ name: 'Claude Code sessions', path: join(home, '.claude', 'projects') }]);
  });

  it("knows where each agent keeps sessions on each OS, and the tools' own overrides", () => {
    const names = (platform: NodeJS.Platform, env: Record<string, string> = {}) => agentPlaceCandidates({ platform, home: '/h', env });
    const linux = names('linux');
    expect(linux.map((p) => p.path)).toEqual(expect.arrayContaining(['/h/.claude/projects', '/h/.codex/sessions', '/h/.gemini/tmp', '/h/.copilot/session-state', '/h/.local/share/opencode/storage', '/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks']));
    expect(names('darwin').find((p) => p.name === 'Cline tasks')!.path).toBe('/h/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/tasks');
    expect(names('win32', { APPDATA: 'C:/Users/a/AppData/Roaming' }).find((p) => p.name === 'Roo Code tasks')!.path).toContain('C:/Users/a/AppData/Roaming');
    expect(linux.map((p) => p.path)).toEqual(expect.arrayContaining(['/h/.local/share/opencode', '/h/.config/Cursor/User/globalStorage', '/h/.config/Code/User/globalStorage/emptyWindowChatSessions']));
    expect(names('darwin').find((p) => p.name === 'Cursor chats')!.path).toBe('/h/Library/Application Support/Cursor/User/globalStorage');
    const moved = names('linux', { CLAUDE_CONFIG_DIR: '/c', CODEX_HOME: '/x', XDG_DATA_HOME: '/d', COPILOT_HOME: '/p' });
    expect(moved.map((p) => p.path)).toEqual(expect.arrayContaining(['/c/projects', '/x/sessions', '/d/opencode/storage', '/d/opencode', '/p/session-state']));
  });

  it('answers any input to its channels without throwing, opening nothing outside the scope', async () => {
    const { home, outside } = tree();
    const { s, started } = shell([join(home, 'projects')], join(home, 'projects'));
    const paths = fc.constantFrom(home, outside, '/', '/etc', join(home, 'projects', 'app'), join(home, 'projects', 'leads-out'), join(home, 'projects', '..'), '', 'x', '\0', `${home}/projects/../../..`);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FOLDER_REQUEST_NAMES), fc.oneof(fc.anything(), fc.record({ path: fc.oneof(paths, fc.anything()), hidden: fc.anything(), discard: fc.anything() }, { requiredKeys: [] })), async (channel, input) => {
        const r = await s.request(channel, input);
        if (!r.ok) expect(['BAD_INPUT', 'NOT_FOUND', 'FORBIDDEN']).toContain(r.error.code);
      }),
      { numRuns: 300 },
    );
    const inside = (d: string) => d === join(home, 'projects') || d.startsWith(join(home, 'projects') + '/');
    expect(started.every((b) => inside(b.dir))).toBe(true);
  });

  it('keeps the open folder when the new one cannot be served', async () => {
    const { home } = tree();
    let fail = false;
    const s = new FolderShell(home, {
      start: (dir) => {
        if (fail) throw new Error(`${dir}: cannot start`);
        return new FakeBackend(dir);
      },
      scope: [home],
    });
    fail = true;
    expect(await s.request('folder:open', { path: join(home, 'notes') })).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(await s.request('dir:list', {})).toMatchObject({ ok: true, value: { dir: home } });
    expect(await s.request('folder:recent', {})).toMatchObject({ ok: true, value: { current: [home] } });
  });

  it('opens one folder at a time when asked twice at once', async () => {
    const { home } = tree();
    const { s, started } = shell([home], home);
    const [a, b] = await Promise.all([s.request('folder:open', { path: join(home, 'notes') }), s.request('folder:open', { path: join(home, 'projects') })]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(started.filter((x) => !x.closed).map((x) => x.dir)).toEqual([join(home, 'projects')]);
  });
});

