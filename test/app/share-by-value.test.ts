import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { startServer, type RunningServer } from '../../app/server/server.js';
import { leftIn, SECRET, USER_NAME, writeKnownSecretFolder } from '../support/known-secret-session.js';

/**
 * The app's Share, on the real served server: a value recognised once (in a tool's metadata) is redacted in
 * every transcript it makes, wherever the value stands, and the user's name in paths with it unless kept.
 */
let base: string;
let root: string;
let session: string;
let server: RunningServer;
let rt: Runtime;
let ws: WebSocket;
let nextId = 1;

function ask<T>(channel: string, input: unknown): Promise<T> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const on = (d: WebSocket.RawData) => {
      const msg = JSON.parse(String(d)) as { id?: number; result?: { ok: boolean; value?: T; error?: { message: string } } };
      if (msg.id !== id) return;
      ws.off('message', on);
      if (msg.result?.ok) resolve(msg.result.value as T);
      else reject(new Error(msg.result?.error?.message));
    };
    ws.on('message', on);
    ws.send(JSON.stringify({ id, channel, input }));
  });
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'ci-share-value-'));
  // The folder opened is a Claude Code project folder, named after the path it ran in.
  root = join(base, `-home-${USER_NAME}-work`);
  mkdirSync(root);
  session = relative(root, writeKnownSecretFolder(root).session);
  const state = join(base, 'state');
  rt = createRuntime({ dirs: [root], mode: 'browser', tokens: new InlineTokenService(), listingFile: false, searchIndexFile: false, watch: false, historyDir: join(state, 'history'), dismissedDir: join(state, 'dismissed'), settingsFile: join(state, 'settings.json') });
  const staticDir = join(base, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>x</title>');
  server = await startServer({ handlers: rt.handlers, staticDir });
  ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
});

afterAll(async () => {
  ws?.close();
  await server?.close();
  await rt?.close();
  rmSync(base, { recursive: true, force: true });
});

type Shared = { filename: string; text: string; report?: { filename: string; text: string }; redacted: number };

describe('Share redacts by value', () => {
  it('every scope and format: neither the secret nor the user name, the report says where the same value was', async () => {
    const open = await ask<{ count: number; threads?: unknown }>('conversation:open', { path: session, conversation: 0 });
    const raw = await ask<Shared>('share:export', { path: session, conversation: 0, to: 'markdown', scope: 'file', redact: false });
    expect(raw.text).toContain(SECRET);
    expect(raw.text).toContain(`/home/${USER_NAME}`);
    for (const to of ['html', 'markdown'] as const) {
      for (const scope of ['conversation', 'file', 'selection'] as const) {
        const shared = await ask<Shared>('share:export', { path: session, conversation: 0, to, scope, ...(scope === 'selection' ? { indexes: Array.from({ length: open.count }, (_, i) => i) } : {}) });
        expect(leftIn(shared.text), `${to} ${scope}`).toEqual([]);
        expect(leftIn(shared.filename)).toEqual([]);
        expect(leftIn(shared.report!.text), `${to} ${scope} report`).toEqual([]);
        expect(shared.report!.text).toMatch(/the same value as found elsewhere/);
        expect(shared.text).toContain(to === 'html' ? '/home/&lt;user&gt;/shop' : '/home/<user>/shop');
      }
    }
  });

  it('the folder: one transcript of every file, the file listed before the value was found in another too', async () => {
    for (const to of ['html', 'markdown'] as const) {
      const shared = await ask<Shared>('share:export-folder', { to });
      expect(leftIn(shared.text), to).toEqual([]);
      expect(shared.filename).toBe(`-home-user-work.${to === 'html' ? 'html' : 'md'}`);
      expect(leftIn(shared.report!.filename + shared.report!.text)).toEqual([]);
      expect(shared.text).toMatch(/keep (?:<span class="redacted">)?\[REDACTED:[\w-]+\](?:<\/span>)? out of the wiki/);
    }
  });

  it('user names in paths are kept when asked (paths: false); the secret still goes', async () => {
    const kept = await ask<Shared>('share:export', { path: session, conversation: 0, to: 'markdown', scope: 'file', paths: false });
    expect(kept.text).toContain(`/home/${USER_NAME}/shop`);
    expect(kept.text).not.toContain(SECRET);
    const listed = await ask<{ findings: Array<{ kind: string; rule: string; value: string; field: string }> }>('secrets:list', { path: session, conversation: 0 });
    // Listed as a class of their own: the cwd of every line, the USERNAME a tool printed.
    expect(listed.findings.filter((f) => f.kind === 'path').map((f) => f.rule)).toEqual(expect.arrayContaining(['home-path', 'user-name']));
    expect(listed.findings.filter((f) => f.kind === 'path').every((f) => f.value === USER_NAME)).toBe(true);
  });
});
