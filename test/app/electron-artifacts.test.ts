import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES, REQUEST_NAMES } from '../../app/shared/channels.js';
import { CONTENT_SECURITY_POLICY } from '../../app/shared/csp.js';
import { FIXTURES, ROOT, SWARMS } from '../helpers.js';

// The artefacts as they ship (npm test builds them first), not the sources with mocks.
const DIST = join(ROOT, 'dist');
const built = existsSync(join(DIST, 'main', 'index.mjs')) && existsSync(join(DIST, 'preload', 'index.cjs'));
if (!built) console.log('electron artefact tests skipped: dist/ is not built (npm run build; npm test does it first)');
const withBuild = built ? describe : describe.skip;

/** What a sandboxed preload's `require` offers: electron and three Node shims, nothing else. */
const SANDBOX_MODULES = ['electron', 'events', 'timers', 'url'];

withBuild('the built preload under the sandbox', () => {
  function loadPreload() {
    const exposed: Record<string, unknown> = {};
    const calls: unknown[][] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => {
          calls.push(['invoke', ...args]);
          return { ok: true, value: 'answered' };
        },
        on: (...args: unknown[]) => calls.push(['on', ...args]),
        removeListener: (...args: unknown[]) => calls.push(['removeListener', ...args]),
      },
    };
    const required: string[] = [];
    const sandboxRequire = (name: string) => {
      required.push(name);
      if (!SANDBOX_MODULES.includes(name)) throw new Error(`module not found: ${name} (a sandboxed preload can require only ${SANDBOX_MODULES.join(', ')})`);
      if (name === 'electron') return electron;
      return {};
    };
    const module = { exports: {} };
    const code = readFileSync(join(DIST, 'preload', 'index.cjs'), 'utf8');
    runInNewContext(code, { require: sandboxRequire, module, exports: module.exports, console, Promise }, { filename: 'preload/index.cjs' });
    return { exposed, calls, required };
  }

  it('loads requiring nothing but electron, and exposes exactly { request, subscribe } as window.bridge', () => {
    const { exposed, required } = loadPreload();
    expect(required.filter((m) => !SANDBOX_MODULES.includes(m))).toEqual([]);
    expect(Object.keys(exposed)).toEqual(['bridge']);
    expect(Object.keys(exposed.bridge as object).sort()).toEqual(['request', 'subscribe']);
  });

  it('forwards every request channel of the contract, refuses others, and subscribes only to known events', async () => {
    const { exposed, calls } = loadPreload();
    const bridge = exposed.bridge as { request(c: string, i: unknown): Promise<unknown>; subscribe(e: string, l: () => void): () => void };
    for (const channel of REQUEST_NAMES) expect(await bridge.request(channel, {})).toEqual({ ok: true, value: 'answered' });
    expect(await bridge.request('fs:readFile', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(calls.filter((c) => c[0] === 'invoke')).toHaveLength(REQUEST_NAMES.length);
    const off = bridge.subscribe(EVENT_NAMES[0], () => {});
    off();
    expect(calls.map((c) => c[0])).toContain('removeListener');
    expect(() => bridge.subscribe('ipc:anything', () => {})).toThrow(/unknown event/);
  });
});

withBuild('the built main under a stand-in of the Electron API', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON report whose shape each test checks
  let report: Record<string, any>;
  let userData: string;
  beforeAll(() => {
    // tempDir() is emptied after each test; this one outlives them.
    userData = mkdtempSync(join(tmpdir(), 'ci-electron-user-data-'));
    const loader = join(ROOT, 'test', 'support', 'electron-stand-in', 'loader.mjs');
    const r = spawnSync(process.execPath, ['--import', loader, join(DIST, 'main', 'index.mjs'), SWARMS], {
      encoding: 'utf8',
      env: { ...process.env, STAND_IN_USER_DATA: userData, INSPECTOR_DIR: SWARMS, STAND_IN_SECOND_DIR: join(FIXTURES, 'formats') },
      timeout: 60_000,
    });
    const line = r.stdout.split('\n').find((l) => l.startsWith('REPORT '));
    if (!line) throw new Error(`main did not run under the stand-in:\n${r.stdout}\n${r.stderr}`);
    report = JSON.parse(line.slice('REPORT '.length));
  });

  it('registers app:// as privileged before ready and enables the sandbox for every renderer', () => {
    expect(report.schemes).toEqual([expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
    expect(report.sandbox).toBe(true);
  });

  it('serves the built renderer over app:// with the CSP as a header and in the page, and nothing outside it', () => {
    expect(report.page).toMatchObject({ status: 200, csp: CONTENT_SECURITY_POLICY });
    expect(report.page.body).toContain('<div id="root">');
    expect(report.page.body).toContain('http-equiv="Content-Security-Policy"');
    expect(report.root.status).toBe(200);
    expect(report.script).toMatchObject({ status: 200, csp: CONTENT_SECURITY_POLICY });
    expect(report.script.body).toBeGreaterThan(1000);
    expect([403, 404]).toContain(report.escape.status);
    expect(report.badEscape.threw).toBeUndefined();
    expect([400, 403, 404]).toContain(report.badEscape.status);
  });

  it('opens one isolated, sandboxed window on app:// with the built preload', () => {
    expect(report.window.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(report.window.webPreferences.preload).toBe(join(DIST, 'preload', 'index.cjs'));
    expect(existsSync(report.window.webPreferences.preload)).toBe(true);
    expect(report.window.loaded).toEqual(['app://inspector/index.html']);
    expect(report.shown).toBe(true);
  });

  it('answers IPC from its own top frame only; the token worker beside the bundle counts', () => {
    expect(report.info).toMatchObject({ ok: true, value: { mode: 'electron' } });
    expect(report.list.ok).toBe(true);
    expect(report.list.value.entries.length).toBe(readdirSync(SWARMS).length);
    expect(report.tokens).toMatchObject({ ok: true, encoding: 'o200k_base' });
    expect(report.tokens.total).toBeGreaterThan(0);
    expect(report.foreign).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(report.subframe).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('opens another folder only through the system dialog (or one opened before), and tells the window', () => {
    expect(report.folderRecent).toMatchObject({ ok: true, value: { browse: false, current: [realpathSync(SWARMS)] } });
    expect(report.folderBrowse).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(report.folderOutside).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(report.folderCancelled).toEqual({ ok: true, value: { root: null } });
    const second = realpathSync(join(FIXTURES, 'formats'));
    expect(report.folderPicked).toEqual({ ok: true, value: { root: second } });
    expect(report.listAfterPick).toMatchObject({ ok: true, value: { root: second } });
    expect(report.folderEvents).toEqual([{ root: second }]);
    expect(report.folderBack).toEqual({ ok: true, value: { root: realpathSync(SWARMS) } });
    // File › Open Recent follows: rebuilt as each folder opens, the open one left out.
    expect(report.recentMenus.at(-1)).toEqual([`formats — ${second}`]);
    expect(report.recentMenus.at(-2)).toEqual([`swarms — ${realpathSync(SWARMS)}`]);
    expect(JSON.parse(readFileSync(join(userData, 'recent-folders.json'), 'utf8')).map((r: { path: string }) => r.path)).toEqual([realpathSync(SWARMS), second]);
  });

  it('keeps the API key encrypted with safeStorage, never in plain text', () => {
    expect(report.apiKey).toMatchObject({ ok: true, value: { set: true, storage: 'encrypted' } });
    const secrets = join(userData, 'secrets');
    const files = readdirSync(secrets);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(secrets, files[0]), 'utf8')).not.toContain('sk-test-123');
  });

  it('has File, Edit and View menus from the shared command list', () => {
    const [menu] = report.menu;
    expect(menu.map((m: { label: string }) => m.label)).toEqual(['File', 'Edit', 'View']);
    expect(menu[0].items).toEqual(expect.arrayContaining(['Open Folder…', 'Save', 'quit']));
    expect(menu[1].items).toEqual(expect.arrayContaining(['Undo', 'Redo']));
  });

  it('denies new windows (https links go to the browser), navigation away and permissions; asks before closing with unsaved edits', () => {
    expect(report.windowOpen).toEqual({ action: 'deny' });
    expect(report.windowOpenFile).toEqual({ action: 'deny' });
    expect(report.external).toEqual(['https://docs.example/']);
    expect(report.navigateAway).toBe(true);
    expect(report.navigateInside).toBe(false);
    expect(report.permission).toBe(false);
    expect(report.closeWithoutSaving).toBe(true);
    expect(report.keepEditing).toBe(false);
    expect(report.dialogs[0]).toMatchObject({ message: 'You have unsaved edits.' });
  });
});
