import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OWN_THREAD_BYTES, serviceWorkerUrl, startBackend, type Backend } from '../../app/service/backend/backend.js';
import { MemorySecretStore } from '../../app/service/state/key-store.js';
import { ROOT } from '../helpers.js';

// The document service as it ships: the built worker beside dist/cli.mjs (npm test builds first).
const url = serviceWorkerUrl(pathToFileURL(join(ROOT, 'dist', 'cli.mjs')).href);
const built = existsSync(join(ROOT, 'dist', 'service-worker.mjs'));
if (!built) console.log('document-service tests skipped: dist/ is not built (npm run build; npm test does it first)');

const backends: Backend[] = [];
afterEach(async () => {
  while (backends.length) await backends.pop()!.close();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ci-backend-'));
  // Long texts without repetition the piece cache could lean on: counting them takes real work.
  const words = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919) % 100003}x${i % 97}`);
  const messages = Array.from({ length: 400 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: Array.from({ length: 600 }, (_, k) => words[(i * 31 + k * 17) % words.length]).join(' ') }));
  writeFileSync(join(dir, 'big.json'), JSON.stringify(messages, null, 4));
  return dir;
}

(built ? describe : describe.skip)('the document service runs off the main thread', () => {
  it('answers from its own thread, and this thread keeps running while it counts and plans a long history', async () => {
    const dir = folder();
    const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history') }, new MemorySecretStore(), url);
    backends.push(backend);
    expect(backend.kind).toBe('worker');
    expect(await backend.request('app:info', {})).toMatchObject({ ok: true, value: { service: 'worker' } });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const preview = await backend.request('window:preview', { path: 'big.json', model: 'cl100k_base', strategy: 'truncate', params: { contextLength: 5000 } });
    const counted = await backend.request('tokens:count', { path: 'big.json', model: 'o200k_base' });
    clearInterval(timer);
    expect(preview.ok && counted.ok).toBe(true);
    // Had the counting run here, no timer could have fired until it finished.
    expect(ticks).toBeGreaterThan(10);
  }, 120_000);

  it('pushes events and relays secrets back to the store main keeps', async () => {
    const dir = folder();
    const secrets = new MemorySecretStore();
    const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history') }, secrets, url);
    backends.push(backend);
    expect(await backend.request('settings:set-api-key', { apiKey: 'sk-relayed' })).toMatchObject({ ok: true, value: { set: true } });
    await new Promise((r) => setTimeout(r, 50));
    expect(secrets.get('summary-api-key')).toBe('sk-relayed');
    const events: unknown[] = [];
    backend.onEvent = (event, payload) => events.push({ event, payload });
    await backend.request('tokens:count', { path: 'big.json', model: 'gpt-5.4' });
    expect(events).toContainEqual(expect.objectContaining({ event: 'tokens:progress' }));
  }, 60_000);

  it('bad input and unknown channels are answered, as in-process', async () => {
    const dir = folder();
    const backend = startBackend({ dirs: [dir], mode: 'browser' }, new MemorySecretStore(), url);
    backends.push(backend);
    expect(await backend.request('nope', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(await backend.request('conversation:open', { path: 42 })).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(await backend.request('conversation:open', { path: '../../etc/passwd' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });
});

/** A swarms JSON file past the size that gets a service of its own. */
function bigFile(dir: string, name: string, megabytes: number): number {
  const sentence = (i: number) => `Message ${i} of a long run: the agent reads file ${i % 977}, finds ${i % 13} matches and writes a note about them.`;
  const messages: Array<{ role: string; content: string }> = [];
  let bytes = 0;
  for (let i = 0; bytes < megabytes * 1024 * 1024; i++) {
    const content = Array.from({ length: 6 }, (_, k) => sentence(i * 6 + k)).join(' ');
    messages.push({ role: i % 2 ? 'assistant' : 'user', content });
    bytes += content.length + 40;
  }
  writeFileSync(join(dir, name), JSON.stringify(messages, null, 2));
  return messages.length;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

(built ? describe : describe.skip)('a big file gets a document service of its own', () => {
  it(`while a file over ${OWN_THREAD_BYTES / 1024 / 1024} MB is read, the folder, the settings and other files are answered`, async () => {
    const dir = folder();
    const messages = bigFile(dir, 'huge.json', 40);
    writeFileSync(join(dir, 'small.json'), JSON.stringify([{ role: 'user', content: 'hello' }]));
    const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.tokens') }, new MemorySecretStore(), url);
    backends.push(backend);
    await backend.request('settings:get', {});
    const order: string[] = [];
    const note = (name: string) => (r: { ok: boolean }) => {
      order.push(name);
      return r;
    };
    const huge = backend.request('conversation:open', { path: 'huge.json' }).then(note('huge'));
    const others = Promise.all([
      backend.request('conversation:open', { path: 'small.json' }).then(note('small')),
      backend.request('settings:get', {}).then(note('settings')),
      backend.request('dir:list', {}).then(note('listing')),
      backend.request('conversation:peek', { path: 'huge.json' }).then(note('peek')),
    ]);
    const [opened, rest] = await Promise.all([huge, others]);
    expect(opened).toMatchObject({ ok: true, value: { count: messages } });
    expect(rest.every((r) => r.ok)).toBe(true);
    // The big file's parse held up none of them.
    expect(order.at(-1)).toBe('huge');
    // What its own service learnt reaches the folder's listing: the exact count, not the head's estimate.
    const listed = await backend.request('dir:list', {});
    const entry = (listed as { value: { entries: Array<{ path: string; messages?: number; estimated?: boolean }> } }).value.entries.find((e) => e.path === 'huge.json');
    expect(entry).toMatchObject({ messages });
    expect(entry!.estimated).toBeUndefined();
    // Later requests for it go to the service that holds it: no second parse, the same document.
    const version = (opened as unknown as { value: { editVersion: number } }).value.editVersion;
    expect(await backend.request('edit:apply', { path: 'huge.json', version, command: { type: 'delete', indexes: [0] } })).toMatchObject({ ok: true, value: { dirty: true } });
    expect(await backend.request('conversation:open', { path: 'huge.json' })).toMatchObject({ ok: true, value: { count: messages - 1 } });
  }, 120_000);

  it('its own saves are not reported as changes on disk; another program writing it is, and the next read sees that', async () => {
    const dir = folder();
    const messages = bigFile(dir, 'huge.json', 9);
    const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.tokens') }, new MemorySecretStore(), url);
    backends.push(backend);
    // Edits announce themselves (conversation:changed, for other windows); a change on disk is also a dir:changed.
    const onDisk: string[] = [];
    const listed: string[] = [];
    backend.onEvent = (event, payload) => {
      const { path, kind } = payload as { path: string; kind?: string };
      if (event === 'dir:changed') listed.push(path);
      if (event === 'dir:changed' && kind === 'changed') onDisk.push(path);
    };
    // As the app does: the folder listed first, then the file opened.
    await backend.request('dir:list', {});
    const opened = (await backend.request('conversation:open', { path: 'huge.json' })) as { value: { editVersion: number } };
    // The watcher is ready once a file written now is reported.
    writeFileSync(join(dir, 'probe.json'), '[]');
    await until(() => listed.includes('probe.json'), 'the watcher');
    const edited = (await backend.request('edit:apply', { path: 'huge.json', version: opened.value.editVersion, command: { type: 'delete', indexes: [0] } })) as { ok: boolean; value: { version: number } };
    expect(edited).toMatchObject({ ok: true });
    expect(await backend.request('edit:save', { path: 'huge.json', version: edited.value.version })).toMatchObject({ ok: true, value: { dirty: false } });
    writeFileSync(join(dir, 'probe2.json'), '[]');
    await until(() => listed.includes('probe2.json'), 'a later event');
    expect(onDisk).toEqual([]);
    writeFileSync(join(dir, 'huge.json'), JSON.stringify([{ role: 'user', content: 'rewritten by an agent' }]));
    await until(() => onDisk.includes('huge.json'), 'the change on disk');
    expect(await backend.request('conversation:open', { path: 'huge.json' })).toMatchObject({ ok: true, value: { count: 1 } });
    expect(messages).toBeGreaterThan(1);
  }, 120_000);

  it('settings and the API key set through the main service reach it (its summariser calls the endpoint they name)', async () => {
    const dir = folder();
    bigFile(dir, 'huge.json', 9);
    const calls: Array<{ model: string; auth: string | undefined }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        calls.push({ model: (JSON.parse(body) as { model: string }).model, auth: req.headers.authorization });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { content: 'A summary from the endpoint.' } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.tokens') }, new MemorySecretStore(), url);
      backends.push(backend);
      // Its service starts before the settings change.
      await backend.request('conversation:open', { path: 'huge.json' });
      await backend.request('settings:set', { summaryBaseUrl: `http://127.0.0.1:${port}/v1`, summaryModel: 'model-from-settings' });
      await backend.request('settings:set-api-key', { apiKey: 'sk-from-main' });
      await new Promise((r) => setTimeout(r, 50));
      const compact = await backend.request('window:compact', { path: 'huge.json', model: 'gpt-4o', mode: 'all', strategy: 'summarizing', params: {}, summarizer: { kind: 'openai' } });
      expect(compact).toMatchObject({ ok: true, value: { summary: 'A summary from the endpoint.' } });
      expect(calls).toEqual([{ model: 'model-from-settings', auth: 'Bearer sk-from-main' }]);
    } finally {
      server.close();
    }
  }, 120_000);

  it('closes while its catalog is being built, again and again, without taking the process down (the SQLite binding is never cut off mid-thread)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-backend-store-'));
    const line = (s: number, i: number) => JSON.stringify({ parentUuid: i ? `${s}-${i - 1}` : null, isSidechain: false, sessionId: `s${s}`, uuid: `${s}-${i}`, timestamp: new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString(), type: i % 2 ? 'assistant' : 'user', message: i % 2 ? { id: `m${s}-${i}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: `answer ${i} about the parser and its tests`.repeat(20) }], usage: { input_tokens: 10, output_tokens: 20 } } : { role: 'user', content: `question ${i} about the parser`.repeat(20) } });
    for (let s = 0; s < 120; s++) writeFileSync(join(dir, `0000${String(s).padStart(4, '0')}-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl`), Array.from({ length: 200 }, (_, i) => line(s, i)).join('\n') + '\n');
    for (let round = 0; round < 4; round++) {
      const state = mkdtempSync(join(tmpdir(), 'ci-backend-state-'));
      const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(state, 'history'), catalogFile: join(state, 'catalog.sqlite') }, new MemorySecretStore(), url);
      // The catalog starts with the first list of sessions; closed while it reads.
      expect(await backend.request('catalog:sessions', {})).toMatchObject({ ok: true });
      await new Promise((r) => setTimeout(r, 150 + round * 100));
      await backend.close();
    }
    const last = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history') }, new MemorySecretStore(), url);
    backends.push(last);
    expect(await last.request('app:info', {})).toMatchObject({ ok: true });
  }, 120_000);
});

