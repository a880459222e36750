// The document service stopping (out of memory, a crash) mid-save or between edits loses no edit the user has
// not seen saved: the router keeps each file's edits (app/service/backend/edit-log.ts) and makes them again in
// the service started afresh; a save that had written the file before the service stopped is not made twice.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { OWN_THREAD_BYTES, serviceWorkerUrl, startBackend, type Backend } from '../../app/service/backend/backend.js';
import { MemorySecretStore } from '../../app/service/state/key-store.js';
import { ROOT, tempDir } from '../helpers.js';
import { askingNow } from '../support/current-version.js';

// The document service as it ships: the built worker beside dist/cli.mjs (npm test builds first).
const url = serviceWorkerUrl(pathToFileURL(join(ROOT, 'dist', 'cli.mjs')).href);
const built = existsSync(join(ROOT, 'dist', 'service-worker.mjs'));
if (!built) console.log('service-restart tests skipped: dist/ is not built (npm run build; npm test does it first)');

const backends: Backend[] = [];
afterEach(async () => {
  while (backends.length) await backends.pop()!.close();
});

/**
 * The service thread holding `file` stops as a crash stops it: its worker is terminated (the router's own
 * fields are reached into here, the one thing a test does that the app never does).
 */
async function crash(backend: Backend, file: string): Promise<void> {
  const b = backend as unknown as { main: { worker?: Worker }; own: Map<string, { worker?: Worker }> };
  const thread = b.own.get(file) ?? b.main;
  await thread.worker?.terminate();
}

const messages = (n: number, words = 8) => Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'the agent reads the file and plans the change '.repeat(1 + (i % words))}` }));

function setup(name: string, list: Array<{ role: string; content: string }>) {
  const dir = tempDir();
  writeFileSync(join(dir, name), JSON.stringify(list, null, 2));
  const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: tempDir(), listingFile: false, searchIndexFile: false, tokenCacheDir: tempDir() }, new MemorySecretStore(), url);
  backends.push(backend);
  const ask = askingNow((c, i) => backend.request(c, i));
  const call = async <T = Record<string, unknown>>(channel: string, input: unknown): Promise<T> => {
    const r = await ask(channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  return { backend, ask, file: join(dir, name), call, read: () => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Array<{ role: string; content: string }> };
}

(built ? describe : describe.skip)('the document service stops, and comes back with the edits', () => {
  it('between edits: the next request finds them (dirty, undoable), and a save writes each once', async () => {
    const { backend, file, call, read } = setup('chat.json', messages(40));
    const path = 'chat.json';
    await call('conversation:open', { path, conversation: 0 });
    await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 3, text: 'first edit' } });
    await call('edit:apply', { path, conversation: 0, command: { type: 'insert', index: 5, messages: [{ role: 'user', content: 'an added message' }] } });
    await call('edit:apply', { path, conversation: 0, command: { type: 'delete', indexes: [10] } });
    await call('edit:save', { path });
    // Edits after a save are the ones to keep: made over the file as saved.
    await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 7, text: 'after the save' } });
    await call('edit:apply', { path, conversation: 0, command: { type: 'insert', index: 0, messages: [{ role: 'system', content: 'a system prompt added' }] } });
    await crash(backend, file);
    expect(await call('edit:state', { path, conversation: 0 })).toMatchObject({ dirty: true, conflict: false, count: 41, canUndo: expect.any(String) });
    await call('edit:save', { path });
    const now = read();
    expect(now).toHaveLength(41);
    expect(now[0].content).toBe('a system prompt added');
    expect(now.filter((m) => m.content === 'an added message')).toHaveLength(1);
    expect(now[4].content).toBe('first edit');
    expect(now[8].content).toBe('after the save');
  }, 60_000);

  it(`mid-save, a file of its own service (over ${OWN_THREAD_BYTES / 1048576} MB), at random moments: every edit is in the file once, never lost`, async () => {
    const list = messages(30_000, 12);
    const { backend, ask, file, call, read } = setup('big.json', list);
    const path = 'big.json';
    await call('conversation:open', { path, conversation: 0 });
    // How long a save takes here: the crash comes somewhere inside one.
    await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 1, text: 'calibration' } });
    let t = performance.now();
    await call('edit:save', { path });
    const duration = performance.now() - t;
    const outcomes: string[] = [];
    for (let trial = 0; trial < 4; trial++) {
      // Apart enough that the messages added at the top never bring an earlier edit under a later one.
      await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 100 + 10 * trial, text: `edit ${trial}` } });
      await call('edit:apply', { path, conversation: 0, command: { type: 'insert', index: 0, messages: [{ role: 'user', content: `added ${trial}` }] } });
      t = performance.now();
      const saving = ask('edit:save', { path });
      await new Promise((r) => setTimeout(r, Math.random() * duration));
      await crash(backend, file);
      const answer = await saving;
      outcomes.push(answer.ok ? 'saved before the crash' : 'stopped mid-save');
      // Whatever the crash cut, the next request brings the edits back, or finds them saved.
      const state = await call<{ dirty: boolean }>('edit:state', { path, conversation: 0 });
      if (state.dirty) await call('edit:save', { path });
      const now = read();
      expect(now, `trial ${trial}`).toHaveLength(list.length + trial + 1);
      for (let k = 0; k <= trial; k++) {
        expect(now.filter((m) => m.content === `added ${k}`), `trial ${trial}: added ${k}`).toHaveLength(1);
        expect(now.some((m) => m.content === `edit ${k}`), `trial ${trial}: edit ${k}`).toBe(true);
      }
    }
    console.log(`crashes: ${outcomes.join(', ')}`);
  }, 300_000);
});
