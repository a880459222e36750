import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES, REQUEST_NAMES } from '../../app/shared/contract.js';
import { CONTENT_SECURITY_POLICY } from '../../app/shared/csp.js';
import { isAllowedNavigation, isTrustedSender, windowOptions } from '../../app/main/security.js';
import { ROOT } from '../helpers.js';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async () => ({ ok: true, value: 1 }));
const on = vi.fn();
const removeListener = vi.fn();
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: { invoke, on, removeListener, send: vi.fn(), sendSync: vi.fn() },
}));

describe('preload', () => {
  beforeEach(() => vi.clearAllMocks());

  it('exposes exactly { request, subscribe } as window.bridge', async () => {
    await import('../../app/preload/index.js');
    expect(Object.keys(exposed)).toEqual(['bridge']);
    const bridge = exposed.bridge as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual(['request', 'subscribe']);
    expect(Object.values(bridge).every((v) => typeof v === 'function')).toBe(true);
  });

  it('forwards only allowlisted channels and events', async () => {
    await import('../../app/preload/index.js');
    const bridge = exposed.bridge as { request(c: string, i: unknown): Promise<unknown>; subscribe(e: string, l: () => void): () => void };
    await bridge.request(REQUEST_NAMES[0], {});
    expect(invoke).toHaveBeenCalledWith('inspector:request', REQUEST_NAMES[0], {});
    expect(await bridge.request('fs:readFile', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(invoke).toHaveBeenCalledTimes(1);
    const off = bridge.subscribe(EVENT_NAMES[0], () => {});
    expect(on).toHaveBeenCalledWith(`inspector:event:${EVENT_NAMES[0]}`, expect.any(Function));
    off();
    expect(removeListener).toHaveBeenCalled();
    expect(() => bridge.subscribe('ipc:anything', () => {})).toThrow(/unknown event/);
  });
});

describe('window and content security', () => {
  it('isolates and sandboxes the renderer without Node', () => {
    const prefs = windowOptions('/p/preload.cjs').webPreferences!;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false });
    expect(prefs.preload).toBe('/p/preload.cjs');
  });

  it('trusts only the app origin top frame, and allows no navigation away', () => {
    expect(isTrustedSender('app://inspector/index.html', true)).toBe(true);
    expect(isTrustedSender('app://inspector/index.html', false)).toBe(false);
    expect(isTrustedSender('https://evil.example/', true)).toBe(false);
    expect(isTrustedSender('file:///etc/passwd', true)).toBe(false);
    expect(isTrustedSender(undefined, true)).toBe(false);
    expect(isAllowedNavigation('https://example.com')).toBe(false);
    expect(isAllowedNavigation('app://inspector/index.html')).toBe(true);
  });

  it('has a strict CSP: no inline script, no eval, no remote origins', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = readFileSync(join(ROOT, 'app', 'renderer', 'index.html'), 'utf8');
    expect(html).toContain('http-equiv="Content-Security-Policy"');
    expect(html).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('main uses IPC with sender checks and denies window.open and navigation', () => {
    const win = readFileSync(join(ROOT, 'app', 'main', 'window.ts'), 'utf8');
    expect(win).toContain("action: 'deny'");
    expect(win).toContain("'will-navigate'");
    const ipc = readFileSync(join(ROOT, 'app', 'main', 'ipc.ts'), 'utf8');
    expect(ipc).toContain('isTrustedSender');
  });
});

describe('one command list for menus, shortcuts and the palette', () => {
  it('every shared command has a behaviour in the renderer, and the menu lists the edit commands', async () => {
    const { COMMAND_INFO } = await import('../../app/shared/commands.js');
    const registry = readFileSync(join(ROOT, 'app', 'renderer', 'features', 'commands', 'registry.ts'), 'utf8');
    for (const c of COMMAND_INFO) expect(registry, c.id).toContain(`id: '${c.id}'`);
    expect(COMMAND_INFO.filter((c) => c.menu === 'Edit').map((c) => c.id)).toEqual(expect.arrayContaining(['undo', 'redo', 'delete', 'duplicate', 'move-up', 'move-down']));
    const menu = readFileSync(join(ROOT, 'app', 'main', 'menu.ts'), 'utf8');
    expect(menu).toContain('COMMAND_INFO');
    expect(menu).toContain('registerAccelerator: false');
  });
});
