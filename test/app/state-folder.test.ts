import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../e2e/support/serve.js';
import { socketTo } from '../support/served-socket.js';
import { ROOT, tempDir } from '../helpers.js';

// The app keeps settings, the folders opened, a listing of every file, a search index of every conversation's
// words, token counts, earlier versions of saved files and dismissed findings: this user's alone. Checked
// after a real run of the served app (the bin, its service, search and token threads), file by file.
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const built = existsSync(join(ROOT, 'dist', 'cli.mjs')) && existsSync(join(ROOT, 'dist', 'renderer', 'index.html'));
if (!built) console.log('state folder through the served bin skipped: dist/ is not built (npm run build; npm test does it first)');

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (running.length) await running.pop()!();
});

/** Every entry under `dir`: its path below it, and whether it is a file, a folder or a link, with its mode. */
function tree(dir: string, out: Array<{ path: string; kind: 'file' | 'dir' | 'link'; mode: number }> = [], base = dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    out.push({ path: path.slice(base.length + 1), kind: st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file', mode: st.mode & 0o777 });
    if (st.isDirectory()) tree(path, out, base);
  }
  return out;
}

const KEY = 'sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0'.repeat(3);

function folder(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.json'), JSON.stringify([{ role: 'user', content: `the wombat key is ${KEY}` }, { role: 'assistant', content: 'noted' }], null, 2));
  writeFileSync(join(dir, 'b.json'), JSON.stringify([{ role: 'user', content: 'another wombat' }], null, 2));
  return dir;
}

async function served(dir: string, state: string): Promise<{ served: Served; ask: (channel: string, input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> }> {
  const s = await serve(dir, { XDG_STATE_HOME: state });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await s.stop();
  };
  running.push(stop);
  const socket = await socketTo(s.url);
  running.push(async () => socket.close());
  return { served: { ...s, stop }, ask: socket.ask };
}

/** What a user does in a session: each kind of state is kept once. */
async function work(ask: Awaited<ReturnType<typeof served>>['ask']): Promise<void> {
  expect((await ask('settings:set', { model: 'gpt-4o' })).ok).toBe(true);
  expect((await ask('dir:list', {})).ok).toBe(true);
  const opened = await ask('conversation:open', { path: 'a.json', conversation: 0 });
  expect(opened.ok).toBe(true);
  expect((await ask('tokens:count', { path: 'a.json', conversation: 0, model: 'gpt-4o' })).ok).toBe(true);
  for (;;) {
    const found = await ask('search:query', { query: 'wombat' });
    if ((found.value as { total: number }).total === 2) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const findings = await ask('secrets:list', { path: 'a.json', conversation: 0 });
  const keys = (findings.value as { findings: Array<{ key: string }> }).findings.map((f) => f.key);
  expect(keys.length).toBeGreaterThan(0);
  expect((await ask('secrets:dismiss', { path: 'a.json', keys, dismissed: true })).ok).toBe(true);
  const applied = await ask('edit:apply', { path: 'a.json', conversation: 0, version: (opened.value as { editVersion: number }).editVersion, command: { type: 'set-text', index: 1, text: 'noted, thanks' } });
  expect(applied.ok, JSON.stringify(applied.error)).toBe(true);
  const saved = await ask('edit:save', { path: 'a.json', version: (applied.value as { version: number }).version });
  expect(saved.ok, JSON.stringify(saved.error)).toBe(true);
}

describe.skipIf(!built)('the state folder after a real run of the served app', () => {
  it('is 0700, every folder in it 0700 and every file 0600, the listing and the search index among them', async () => {
    const state = tempDir();
    const { served: s, ask } = await served(folder(), state);
    await work(ask);
    await s.stop();
    const dir = join(state, 'conversation-inspector');
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    const entries = tree(dir);
    const names = entries.map((e) => e.path);
    // Each kind of state was kept (listing.json was never written before: the app's own check refused the folder).
    for (const kept of ['settings.json', 'recent-folders.json', 'listing.json', 'catalog.sqlite', 'token-cache', 'history', 'dismissed-findings']) expect(names, kept).toContain(kept);
    expect(entries.filter((e) => e.path.startsWith('history/') && e.kind === 'file')).toHaveLength(1);
    expect(entries.filter((e) => e.path.startsWith('token-cache/') && e.kind === 'file').length).toBeGreaterThan(0);
    expect(entries.filter((e) => e.path.startsWith('dismissed-findings/') && e.kind === 'file')).toHaveLength(1);
    const wrong = entries.filter((e) => e.kind === 'link' || e.mode !== (e.kind === 'dir' ? 0o700 : 0o600)).map((e) => `${e.path} ${e.kind} ${e.mode.toString(8)}`);
    expect(wrong).toEqual([]);
  });

  it('an older version’s folder (0755, files 0644) is made private at start, said in one line, and kept using', async () => {
    const state = tempDir();
    const dir = join(state, 'conversation-inspector');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ model: 'gpt-4o-mini' }), { mode: 0o644 });
    const r = spawnSync(process.execPath, [BIN, 'tokens', join(folder(), 'a.json')], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: state } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes(dir))).toEqual([`conversation-inspector: made ${dir} private: others could read it (it was 755; now 700, its files 600)`]);
    expect(tree(dir).filter((e) => e.mode !== (e.kind === 'dir' ? 0o700 : 0o600))).toEqual([]);
    expect(existsSync(join(dir, 'token-cache'))).toBe(true);
  });

  const root = process.getuid?.() === 0;
  const cases: Array<[string, (dir: string) => void, RegExp]> = [
    ['writable by everyone (0777)', (dir) => {
      mkdirSync(dir);
      chmodSync(dir, 0o777);
    }, / can be read or written by others \(mode 777\): /],
    ['a symbolic link to another’s folder', (dir) => {
      const theirs = tempDir();
      chmodSync(theirs, 0o777);
      if (root) chownSync(theirs, 12345, 12345);
      symlinkSync(theirs, dir);
    }, / is a symbolic link: /],
    ...(root ? [['another user’s (0700)', (dir: string) => {
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, 12345, 12345);
    }, / belongs to another user \(uid 12345\): /] as [string, (dir: string) => void, RegExp]] : []),
  ];
  if (!root) console.log('state folder: the "another user’s folder" case needs root to chown; left out here');
  it.each(cases)('one that is not ours (%s) is left alone: said once, in one line, and a fresh private folder used', async (_name, make, why) => {
    const state = tempDir();
    const dir = join(state, 'conversation-inspector');
    make(dir);
    const before = tree(state);
    const { served: s, ask } = await served(folder(), state);
    await work(ask);
    const { stderr } = await s.stop().then(() => ({ stderr: s.stderr() }));
    const said = stderr.split('\n').filter((l) => l.includes(dir));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(why);
    const instead = /this run keeps its state \(settings, caches, earlier versions of saved files\) in (\S+) instead\./.exec(said[0])?.[1];
    expect(instead).toBeDefined();
    // Nothing was written where it was refused; everything went to the fresh folder, private.
    expect(tree(state)).toEqual(before);
    expect(lstatSync(instead!).mode & 0o777).toBe(0o700);
    const kept = tree(instead!);
    for (const name of ['settings.json', 'listing.json', 'catalog.sqlite', 'history']) expect(kept.map((e) => e.path)).toContain(name);
    expect(kept.filter((e) => e.mode !== (e.kind === 'dir' ? 0o700 : 0o600))).toEqual([]);
  });
});
