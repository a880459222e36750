import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { tempDir } from '../helpers.js';

// The state folder's paths are this user's private business: an error answer names the file the user works
// on, never where the app keeps its state, and says IO (or BAD_INPUT), never INTERNAL, for what the disk did.
const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function setUp(files: Record<string, string>, state: (dir: string) => Record<string, string>) {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const stateDir = tempDir();
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), listingFile: false, searchIndexFile: false, ...state(stateDir) });
  runtimes.push(rt);
  const ask = (channel: string, input: unknown) => dispatchNow(rt.handlers, channel, input) as Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>;
  return { dir, stateDir, ask };
}

const SECRET = JSON.stringify([{ role: 'user', content: 'my key is AKIAIOSFODNN7EXAMPLE and sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0'.repeat(3) }]);

describe('errors about the state folder: IO, and no private path in the message', () => {
  it('settings:set where settings.json is a folder', async () => {
    const { stateDir, ask } = setUp({}, (s) => {
      mkdirSync(join(s, 'settings.json'));
      return { settingsFile: join(s, 'settings.json') };
    });
    const r = await ask('settings:set', { model: 'gpt-4o' });
    expect(r).toMatchObject({ ok: false, error: { code: 'IO' } });
    expect(r.error!.message).toMatch(/settings/);
    expect(r.error!.message).not.toContain(stateDir);
  });

  it('secrets:dismiss where the dismissed-findings folder is a file', async () => {
    const { stateDir, ask } = setUp({ 'a.json': SECRET }, (s) => {
      writeFileSync(join(s, 'dismissed'), 'not a folder');
      return { dismissedDir: join(s, 'dismissed') };
    });
    const listed = await ask('secrets:list', { path: 'a.json', conversation: 0 });
    const keys = (listed.value as { findings: Array<{ key: string }> }).findings.map((f) => f.key);
    expect(keys.length).toBeGreaterThan(0);
    const r = await ask('secrets:dismiss', { path: 'a.json', keys, dismissed: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'IO' } });
    expect(r.error!.message).not.toContain(stateDir);
  });

  it('history:diff with an id that is no version (BAD_INPUT) or none kept (NOT_FOUND), naming no state path', async () => {
    const { stateDir, ask } = setUp({ 'a.json': JSON.stringify([{ role: 'user', content: 'hi' }]) }, (s) => ({ historyDir: join(s, 'history') }));
    await ask('conversation:open', { path: 'a.json', conversation: 0 });
    for (const id of ['nope', '../../../etc/passwd', '']) {
      const r = await ask('history:diff', { path: 'a.json', id });
      expect(r, id).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
      expect(r.error!.message).not.toContain(stateDir);
    }
    const missing = await ask('history:diff', { path: 'a.json', id: '1700000000000-0123456789abcdef.json' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(missing.error!.message).not.toContain(stateDir);
    const restore = await ask('history:restore', { path: 'a.json', id: 'nope' });
    expect(restore).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });

  it('a save whose local history folder is a file is IO, naming the file saved but not the folder', async () => {
    const { stateDir, ask } = setUp({ 'a.json': JSON.stringify([{ role: 'user', content: 'hi' }]) }, (s) => {
      writeFileSync(join(s, 'history'), 'not a folder');
      return { historyDir: join(s, 'history') };
    });
    await ask('conversation:open', { path: 'a.json', conversation: 0 });
    await ask('edit:apply', { path: 'a.json', conversation: 0, command: { type: 'set-text', index: 0, text: 'hello' } });
    const r = await ask('edit:save', { path: 'a.json' });
    expect(r).toMatchObject({ ok: false, error: { code: 'IO' } });
    expect(r.error!.message).toMatch(/^a\.json was not saved/);
    expect(r.error!.message).not.toContain(stateDir);
  });
});

describe('saving a MEMORY.md', () => {
  it('unchanged, it is saved as it is (no INTERNAL)', async () => {
    const memory = '# Memory of demo\n\n## Interaction log\n\n### user — 2026-01-15T10:00:05\n\nhello\n\n---\n\n';
    const { dir, ask } = setUp({ 'MEMORY.md': memory }, (s) => ({ historyDir: join(s, 'history') }));
    const opened = await ask('conversation:open', { path: 'MEMORY.md', conversation: 0 });
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
    const r = await ask('edit:save', { path: 'MEMORY.md' });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(dir).toBeTruthy();
  });
});
