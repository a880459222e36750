import fc from 'fast-check';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { startServer, type RunningServer } from '../../app/server/server.js';
import { ROOT } from '../helpers.js';

/**
 * Symbolic links that lead out of the opened folder, asked about through every channel that takes a path, on
 * the real served server over its WebSocket: nothing of what they lead to (its text, its title, its figures)
 * is in any answer. Links inside still work.
 */
const MARK = 'OUTSIDEMARK';
const TITLE = 'Zanzibar outside prompt';
const SESSION = 'b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13';
const EXAMPLE = join(ROOT, 'examples', 'agents', 'claude-code');

let base: string;
let root: string;
let out: string;
let server: RunningServer;
let rt: Runtime;
let ws: WebSocket;
let nextId = 1;

function ask(channel: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const id = nextId++;
  return new Promise((resolve) => {
    const on = (d: WebSocket.RawData) => {
      const msg = JSON.parse(String(d)) as { id?: number; result?: { ok: boolean } };
      if (msg.id !== id) return;
      ws.off('message', on);
      resolve(msg.result as never);
    };
    ws.on('message', on);
    ws.send(JSON.stringify({ id, channel, input }));
  });
}

/** Every event the server pushed, as text: a leak in a `dir:details` or a `search:progress` counts too. */
const pushed: string[] = [];

const leaks = (answer: unknown) => {
  const text = JSON.stringify(answer);
  return text.includes(MARK) || text.includes(TITLE) || text.includes('Zanzibar');
};

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'ci-confine-'));
  root = join(base, 'opened');
  out = join(base, 'elsewhere');
  mkdirSync(join(root, 'proj'), { recursive: true });
  mkdirSync(join(out, 'sub', 'deeper'), { recursive: true });
  // What lies outside: a plain conversation, a titled one, a session's sub-agents with their meta.
  const conversation = JSON.stringify([{ role: 'user', content: `${TITLE} ${MARK} the words of outside` }, { role: 'assistant', content: `${MARK} answered` }]);
  writeFileSync(join(out, 'secret.json'), conversation);
  writeFileSync(join(out, 'sub', 'deeper', 'nested.json'), conversation);
  writeFileSync(join(out, 'memory.md'), `# Agent Memory\n\n${TITLE} ${MARK}\n`);
  mkdirSync(join(out, 'subagents'));
  const agent = readFileSync(join(EXAMPLE, SESSION, 'subagents', 'agent-a3f9e1d2b7c40815.jsonl'), 'utf8').replaceAll('List every function', `${TITLE} ${MARK}`);
  writeFileSync(join(out, 'subagents', 'agent-a3f9e1d2b7c40815.jsonl'), agent);
  writeFileSync(join(out, 'subagents', 'agent-a3f9e1d2b7c40815.meta.json'), JSON.stringify({ agentType: MARK, description: TITLE, model: MARK }));
  writeFileSync(join(out, 'agent.meta.json'), JSON.stringify({ agentType: MARK, description: TITLE, model: MARK }));

  // Inside: a conversation, a link to it, and links out of every shape.
  writeFileSync(join(root, 'inside.json'), JSON.stringify([{ role: 'user', content: 'plain inside words' }]));
  symlinkSync('inside.json', join(root, 'inlink.json'));
  symlinkSync(join(out, 'secret.json'), join(root, 'abs.json'));
  symlinkSync('../../elsewhere/secret.json', join(root, 'proj', 'rel.json'));
  symlinkSync('abs.json', join(root, 'chain.json'));
  symlinkSync('proj/rel.json', join(root, 'chain2.json'));
  symlinkSync(join(out, 'memory.md'), join(root, 'MEMORY.md'));
  symlinkSync(join(out, 'sub'), join(root, '.claude'));
  symlinkSync('../../elsewhere/sub', join(root, 'proj', 'sublink'));
  symlinkSync(out, join(root, 'outdir'));
  // A session whose sub-agents folder leads out, and one whose sub-agent file and meta lead out.
  mkdirSync(join(root, 'cc1', SESSION), { recursive: true });
  cpSync(join(EXAMPLE, `${SESSION}.jsonl`), join(root, 'cc1', `${SESSION}.jsonl`));
  symlinkSync(join(out, 'subagents'), join(root, 'cc1', SESSION, 'subagents'));
  mkdirSync(join(root, 'cc2', SESSION, 'subagents'), { recursive: true });
  cpSync(join(EXAMPLE, `${SESSION}.jsonl`), join(root, 'cc2', `${SESSION}.jsonl`));
  symlinkSync(join(out, 'subagents', 'agent-a3f9e1d2b7c40815.jsonl'), join(root, 'cc2', SESSION, 'subagents', 'agent-a3f9e1d2b7c40815.jsonl'));
  symlinkSync(join(out, 'agent.meta.json'), join(root, 'cc2', SESSION, 'subagents', 'agent-a3f9e1d2b7c40815.meta.json'));
  // A session whose sub-agent file is inside, but its meta (the title, type and model the sidebar shows) leads out.
  mkdirSync(join(root, 'cc3', SESSION, 'subagents'), { recursive: true });
  cpSync(join(EXAMPLE, `${SESSION}.jsonl`), join(root, 'cc3', `${SESSION}.jsonl`));
  cpSync(join(EXAMPLE, SESSION, 'subagents', 'agent-a3f9e1d2b7c40815.jsonl'), join(root, 'cc3', SESSION, 'subagents', 'agent-a3f9e1d2b7c40815.jsonl'));
  symlinkSync(join(out, 'agent.meta.json'), join(root, 'cc3', SESSION, 'subagents', 'agent-a3f9e1d2b7c40815.meta.json'));
  // A session's sibling that a resumed session's earlier file is looked for in: a link out.
  symlinkSync(join(out, 'secret.json'), join(root, 'cc2', 'zz-sibling.jsonl'));

  const state = join(base, 'state');
  rt = createRuntime({ dirs: [root], mode: 'browser', tokens: new InlineTokenService(), listingFile: false, searchIndexFile: false, historyDir: join(state, 'history'), dismissedDir: join(state, 'dismissed'), settingsFile: join(state, 'settings.json'), watchDelayMs: 0 });
  const staticDir = join(base, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>x</title>');
  server = await startServer({ handlers: rt.handlers, staticDir });
  rt.onEvent = (event, payload) => {
    pushed.push(`${event} ${JSON.stringify(payload)}`);
    server.broadcast(event, payload);
  };
  ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
  ws.on('message', (d) => {
    const msg = JSON.parse(String(d)) as { event?: string };
    if (msg.event) pushed.push(String(d));
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
});

afterAll(async () => {
  ws?.close();
  await server?.close();
  await rt?.close();
  rmSync(base, { recursive: true, force: true, maxRetries: 5 });
});

/** Paths that lead out, spelled every way a request can spell them. */
const OUTSIDE_PATHS = ['abs.json', 'proj/rel.json', 'chain.json', 'chain2.json', 'MEMORY.md', '.claude/deeper/nested.json', 'proj/sublink/deeper/nested.json', 'outdir/secret.json', 'outdir/sub/../secret.json', 'proj/sublink/../secret.json', 'outdir/subagents/agent-a3f9e1d2b7c40815.jsonl', 'cc1/' + SESSION + '/subagents/agent-a3f9e1d2b7c40815.jsonl', 'cc2/' + SESSION + '/subagents/agent-a3f9e1d2b7c40815.jsonl', 'cc2/zz-sibling.jsonl'];

/** Every request that takes a path, with the rest of a valid input. */
const PATH_CHANNELS: Array<[string, (path: string) => unknown]> = [
  ['conversation:open', (path) => ({ path, conversation: 0 })],
  ['conversation:peek', (path) => ({ path, conversation: 0, ends: true })],
  ['conversation:locate', (path) => ({ path, index: 0 })],
  ['conversation:update', (path) => ({ path, conversation: 0, since: 0 })],
  ['conversation:rows', (path) => ({ path, conversation: 0, start: 0, count: 10 })],
  ['conversation:message', (path) => ({ path, conversation: 0, index: 0, full: true })],
  ['conversation:times', (path) => ({ path, conversation: 0 })],
  ['conversation:views', (path) => ({ path, conversation: 0, start: 0, count: 10 })],
  ['conversation:calls', (path) => ({ path, conversation: 0 })],
  ['conversation:search', (path) => ({ path, conversation: 0, query: MARK })],
  ['tokens:count', (path) => ({ path, conversation: 0, model: 'gpt-4o' })],
  ['search:snippets', (path) => ({ query: MARK, hits: [{ path, conversation: 0, index: 0 }, { path, conversation: 0, index: 1 }] })],
  ['window:preview', (path) => ({ path, conversation: 0, model: 'gpt-4o', strategy: 'last-n', params: { n: 5 } })],
  ['window:cut', (path) => ({ path, conversation: 0, model: 'gpt-4o', strategy: 'last-n', params: { n: 5 }, index: 0 })],
  ['window:compact', (path) => ({ path, conversation: 0, model: 'gpt-4o', mode: 'all', strategy: 'last-n', params: { n: 1 }, summarizer: { kind: 'offline' } })],
  ['edit:apply', (path) => ({ path, conversation: 0, command: { type: 'delete', indexes: [0] } })],
  ['edit:undo', (path) => ({ path, conversation: 0 })],
  ['edit:redo', (path) => ({ path, conversation: 0 })],
  ['edit:state', (path) => ({ path, conversation: 0 })],
  ['edit:save', (path) => ({ path, force: true })],
  ['edit:save-as', (path) => ({ path: 'inside.json', target: path })],
  ['edit:save-as', (path) => ({ path, target: 'copy.json' })],
  ['edit:cancel-save', (path) => ({ path })],
  ['edit:revert', (path) => ({ path })],
  ['edit:export', (path) => ({ path, conversation: 0, format: 'openai-json' })],
  ['edit:compare', (path) => ({ path, conversation: 0 })],
  ['edit:merge-preview', (path) => ({ path })],
  ['edit:merge', (path) => ({ path, choices: [] })],
  ['secrets:list', (path) => ({ path, conversation: 0 })],
  ['secrets:dismiss', (path) => ({ path, keys: ['x:1'], dismissed: true })],
  ['secrets:redact', (path) => ({ path, conversation: 0 })],
  ['share:export', (path) => ({ path, conversation: 0, to: 'markdown', scope: 'file', redact: false })],
  ['history:list', (path) => ({ path })],
  ['history:diff', (path) => ({ path, id: '1-0123456789abcdef.json' })],
  ['history:restore', (path) => ({ path, id: '1-0123456789abcdef.json' })],
  ['conversation:path', (path) => ({ path, conversation: 0, whole: true })],
  ['conversation:outline', (path) => ({ path, conversation: 0 })],
  ['conversation:reveal', (path) => ({ path, conversation: 0, index: 0 })],
  ['conversation:links', (path) => ({ path, conversation: 0 })],
  ['conversation:roles', (path) => ({ path, conversation: 0 })],
  ['conversation:set-role', (path) => ({ path, conversation: 0, role: 'user', normalRole: 'user' })],
];

describe('links out of the opened folder, through the served server', () => {
  it('the listing names each link out as such, with nothing of what it leads to; links inside are read', async () => {
    const listed = await ask('dir:list', {});
    expect(listed.ok).toBe(true);
    const entries = (listed.value as { entries: Array<{ path: string; outside?: boolean; folder?: boolean; error?: string; bytes: number; title?: string; messages?: number }> }).entries;
    const byPath = new Map(entries.map((e) => [e.path, e]));
    for (const p of ['abs.json', 'proj/rel.json', 'chain.json', 'chain2.json', 'MEMORY.md']) {
      expect(byPath.get(p), p).toMatchObject({ outside: true, bytes: 0, error: 'a link outside the opened folders: not read' });
      expect(byPath.get(p)!.title).toBeUndefined();
      expect(byPath.get(p)!.messages).toBeUndefined();
    }
    for (const p of ['.claude', 'proj/sublink', 'outdir']) expect(byPath.get(p), p).toMatchObject({ outside: true, folder: true });
    expect(byPath.get('cc2/zz-sibling.jsonl')).toMatchObject({ outside: true });
    expect(byPath.get('inlink.json')!.bytes).toBe(readFileSync(join(root, 'inside.json')).length);
    expect(byPath.get('inlink.json')!.outside).toBeUndefined();
    // The background fill (heads, whole reads, the secrets scan) comes after: the link inside is read, nothing out.
    for (let i = 0; i < 50 && !pushed.some((p) => p.includes('"path":"inlink.json"') && p.includes('"messages":1')); i++) await new Promise((r) => setTimeout(r, 100));
    expect(pushed.some((p) => p.includes('"path":"inlink.json"') && p.includes('"messages":1'))).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(leaks(listed.value)).toBe(false);
    expect(pushed.filter(leaks)).toEqual([]);
  });

  it('every channel that takes a path answers a link out without a word of what it leads to', async () => {
    for (const [channel, input] of PATH_CHANNELS) {
      for (const path of [...OUTSIDE_PATHS, ...OUTSIDE_PATHS.map((p) => join(root, p))]) {
        const answer = await ask(channel, input(path));
        expect(leaks(answer), `${channel} ${path}: ${JSON.stringify(answer).slice(0, 300)}`).toBe(false);
      }
    }
    // A link inside is read as its file.
    const opened = await ask('conversation:message', { path: 'inlink.json', conversation: 0, index: 0, full: true });
    expect(JSON.stringify(opened)).toContain('plain inside words');
  }, 120_000);

  it('fuzzed spellings of the links (./, //, .., the absolute root, trailing slashes) leak nothing on any channel (fast-check)', async () => {
    const spelled = fc.tuple(fc.constantFrom('', './', 'proj/../', 'cc1/../', root + '/', root + '//', 'outdir/../', 'proj/sublink/../../'), fc.constantFrom(...OUTSIDE_PATHS), fc.constantFrom('', '/', '/.', '#part-1', '/x/..'));
    await fc.assert(
      fc.asyncProperty(spelled, fc.constantFrom(...PATH_CHANNELS), async ([before, path, after], [channel, input]) => {
        const answer = await ask(channel, input(`${before}${path}${after}`));
        expect(leaks(answer), `${channel} ${before}${path}${after}`).toBe(false);
      }),
      { numRuns: 300, seed: 38 },
    );
  }, 120_000);

  it('search never indexes a link out: not by the walk, not from what the watcher reports (a link added while watching)', async () => {
    // The index is built in the background from the first query: until it has read every file.
    for (let i = 0; i < 100; i++) {
      const status = (await ask('search:query', { query: MARK })).value as { status: { pending: number; building: boolean; files: number } };
      if (!status.status.building && status.status.pending === 0 && status.status.files > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const words = await ask('search:query', { query: 'plain inside words' });
    expect((words.value as { total: number }).total).toBeGreaterThan(0);
    // A new link out, made while the folder is watched, and one more folder link.
    symlinkSync(join(out, 'secret.json'), join(root, 'late.json'));
    symlinkSync(join(out, 'sub'), join(root, 'proj', 'late-dir'));
    writeFileSync(join(root, 'late-inside.json'), JSON.stringify([{ role: 'user', content: 'arrived later quietly' }]));
    // The watcher saw the file inside (so it saw the links too): then the index is asked again.
    for (let i = 0; i < 100; i++) {
      const later = await ask('search:query', { query: 'arrived later quietly' });
      if ((later.value as { total: number }).total > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const q of [{ query: MARK }, { query: 'Zanzibar' }, { query: 'OUTSIDE.*', regex: true }, { query: 'outside', regex: false }]) {
      const answer = await ask('search:query', q);
      expect(answer.ok, JSON.stringify(answer)).toBe(true);
      // (the answer says what was asked: that is not a leak)
      expect(leaks({ ...(answer.value as object), query: '' }), JSON.stringify(q)).toBe(false);
      expect((answer.value as { total: number }).total, JSON.stringify(q)).toBe(0);
    }
    expect(pushed.filter(leaks)).toEqual([]);
  }, 60_000);

  it('a session names no sub-agent out of the folder, and no sub-agent by a meta file out of it', async () => {
    for (const session of [`cc1/${SESSION}.jsonl`, `cc2/${SESSION}.jsonl`]) {
      const links = await ask('conversation:links', { path: session, conversation: 0 });
      expect(links.ok, JSON.stringify(links)).toBe(true);
      expect(leaks(links.value), JSON.stringify(links.value)).toBe(false);
      expect((links.value as { subagents: unknown[] }).subagents).toEqual([]);
    }
    const links = await ask('conversation:links', { path: `cc3/${SESSION}.jsonl`, conversation: 0 });
    expect(leaks(links.value), JSON.stringify(links.value)).toBe(false);
    const [agent] = (links.value as { subagents: Array<{ path: string; title?: string; agentType?: string }> }).subagents;
    expect(agent.path).toBe(`cc3/${SESSION}/subagents/agent-a3f9e1d2b7c40815.jsonl`);
    // Its title is its own prompt (inside), not the meta's description.
    expect(agent.title).toMatch(/^List every function/);
    expect(agent.agentType).toBeUndefined();
  });

  it('a folder export leaves the links out, and says so', async () => {
    for (const redact of [false, true]) {
      const shared = await ask('share:export-folder', { to: 'markdown', redact });
      expect(shared.ok, JSON.stringify(shared)).toBe(true);
      expect(leaks(shared.value)).toBe(false);
      expect((shared.value as { text: string }).text).toMatch(/links? outside the opened folders left out, not read/);
      expect((shared.value as { text: string }).text).toContain('plain inside words');
    }
  });
});

describe('the real bin (serve) on the same folder', () => {
  let child: ChildProcess;
  let bin: WebSocket;
  let id = 1;
  const call = (channel: string, input: unknown) =>
    new Promise<{ ok: boolean; value?: unknown }>((resolve) => {
      const mine = id++;
      const on = (d: WebSocket.RawData) => {
        const msg = JSON.parse(String(d)) as { id?: number; result?: { ok: boolean } };
        if (msg.id !== mine) return;
        bin.off('message', on);
        resolve(msg.result as never);
      };
      bin.on('message', on);
      bin.send(JSON.stringify({ id: mine, channel, input }));
    });
  const events: string[] = [];
  beforeAll(async () => {
    child = spawn(process.execPath, [join(ROOT, 'bin', 'conversation-inspector.mjs'), 'serve', root], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_STATE_HOME: join(base, 'bin-state') } });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
        if (m) resolve(m[0]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const u = new URL(url);
    bin = new WebSocket(`ws://127.0.0.1:${u.port}/ws?token=${u.searchParams.get('token')}`, { origin: `http://127.0.0.1:${u.port}` });
    bin.on('message', (d) => {
      if ((JSON.parse(String(d)) as { event?: string }).event) events.push(String(d));
    });
    await new Promise((resolve, reject) => {
      bin.once('open', resolve);
      bin.once('error', reject);
    });
  }, 120_000);
  afterAll(async () => {
    bin?.close();
    // Gone before its state folder is removed (it writes its listing as it stops).
    if (child && child.exitCode === null) await new Promise((resolve) => (child.once('exit', resolve), child.kill()));
  });

  it('lists the links out as such, searches, shares and links nothing of what they lead to', async () => {
    const listed = await call('dir:list', {});
    expect(listed.ok).toBe(true);
    expect((listed.value as { entries: Array<{ path: string; outside?: boolean }> }).entries.find((e) => e.path === 'abs.json')).toMatchObject({ outside: true });
    for (let i = 0; i < 200; i++) {
      const status = (await call('search:query', { query: 'plain inside words' })).value as { total: number; status: { pending: number; building: boolean } };
      if (status.total > 0 && !status.status.building && status.status.pending === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const found = (await call('search:query', { query: MARK })).value as { total: number; hits: unknown[] };
    expect(found.total).toBe(0);
    expect(leaks(found.hits)).toBe(false);
    const shared = await call('share:export-folder', { to: 'markdown', redact: false });
    expect(leaks(shared)).toBe(false);
    const links = await call('conversation:links', { path: `cc3/${SESSION}.jsonl`, conversation: 0 });
    expect(leaks(links)).toBe(false);
    for (const path of OUTSIDE_PATHS) expect(leaks(await call('conversation:open', { path, conversation: 0 })), path).toBe(false);
    expect(events.filter(leaks)).toEqual([]);
  }, 120_000);
});
