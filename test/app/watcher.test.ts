import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchDirectory, type WatchEvent, type Watcher } from '../../app/service/watch/watcher.js';
import { watchOffThread } from '../../app/service/watch/watcher-thread.js';
import { WorkerTokenService } from '../../app/service/tokens/token-service.js';
import { getTokenizer, writeFileAtomicSync } from '../../src/core/index.js';
import { ROOT, tempDir } from '../helpers.js';

const watchers: Watcher[] = [];
afterEach(async () => {
  while (watchers.length) await watchers.pop()!.close();
});

// The watcher as it ships in the document service: on its own thread, from the built worker.
const WATCH_WORKER = join(ROOT, 'dist', 'watch-worker.mjs');
if (!existsSync(WATCH_WORKER)) console.log('the watcher on its own thread: skipped, dist/ is not built (npm run build; npm test does it first)');

type Mode = 'native' | 'polling' | 'thread';

function collect(dir: string, mode: Mode) {
  const events: WatchEvent[] = [];
  let wake: () => void = () => {};
  const onEvents = (batch: WatchEvent[]) => {
    events.push(...batch);
    wake();
  };
  const options = { usePolling: mode === 'polling', debounceMs: 80 };
  const w = mode === 'thread' ? watchOffThread(dir, onEvents, options, pathToFileURL(WATCH_WORKER)) : watchDirectory(dir, onEvents, options);
  watchers.push(w);
  const until = (pred: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; events: ${JSON.stringify(events)}`)), 10_000);
      const check = () => {
        if (pred()) {
          clearTimeout(timer);
          resolve();
        }
      };
      wake = check;
      check();
    });
  return { events, until, ready: w.ready };
}

const modes: Mode[] = existsSync(WATCH_WORKER) ? ['native', 'polling', 'thread'] : ['native', 'polling'];
describe.each(modes)('watchDirectory (%s)', (mode) => {
  it('reports added, changed and removed conversation files, coalescing bursts', async () => {
    const dir = tempDir();
    const { events, until, ready } = collect(dir, mode);
    await ready;
    const file = join(dir, 'a.json');
    writeFileSync(file, '[]');
    await until(() => events.some((e) => e.path === file && e.kind === 'added'));
    for (let i = 0; i < 5; i++) writeFileAtomicSync(file, JSON.stringify([{ role: 'user', content: String(i) }]));
    await until(() => events.some((e) => e.path === file && e.kind === 'changed'));
    rmSync(file);
    await until(() => events.some((e) => e.path === file && e.kind === 'removed'));
    expect(events.filter((e) => e.kind === 'changed').length).toBeLessThanOrEqual(3);
  });

  it('ignores other extensions and temp files of atomic writes', async () => {
    const dir = tempDir();
    const { events, until, ready } = collect(dir, mode);
    await ready;
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, 'b.json.123456789'), 'x');
    writeFileSync(join(dir, 'c.yaml'), '[]');
    await until(() => events.length > 0);
    expect(events.map((e) => e.path)).toEqual([join(dir, 'c.yaml')]);
  });

  it('reports Aider’s histories (hidden files the listing lists), not a hidden folder’s files', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.cache'));
    const { events, until, ready } = collect(dir, mode);
    await ready;
    writeFileSync(join(dir, '.cache', 'old.json'), '[]');
    writeFileSync(join(dir, '.aider.input.history'), '\n# 2025-06-02 08:00:11.000001\n+fix the build\n');
    writeFileSync(join(dir, '.aider.chat.history.md'), '\n# aider chat started at 2025-06-02 08:00:11\n\n#### fix the build\n');
    await until(() => events.length >= 2);
    expect(events.map((e) => e.path).sort()).toEqual([join(dir, '.aider.chat.history.md'), join(dir, '.aider.input.history')]);
  });
});

describe('WorkerTokenService', () => {
  it('counts in a worker thread with progress', async () => {
    const service = new WorkerTokenService(new URL(`file://${join(ROOT, 'dist', 'token-worker.mjs')}`));
    const progress: number[] = [];
    const texts = Array.from({ length: 1200 }, (_, i) => `message number ${i}`);
    const result = await service.count({ model: 'gpt-5.4', parts: texts.map((t) => [t]), blocks: texts }, (done) => progress.push(done));
    await service.close();
    expect(result.tokens).toHaveLength(1200);
    expect(result.tokens[0]).toBe(getTokenizer('gpt-5.4').count('message number 0'));
    expect(progress.at(-1)).toBe(1200);
    expect(progress.length).toBeGreaterThan(1);
  });
});
