import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceWorkerUrl, startBackend, type Backend } from '../../app/main/backend/backend.js';
import { MemorySecretStore } from '../../app/main/secrets.js';
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
