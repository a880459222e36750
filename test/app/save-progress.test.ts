import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result } from '../../app/shared/contract.js';
import { isOurTempFile } from '../../src/core/storage/atomic-write.js';
import { tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

/** A swarms history of about 30 MB: its write takes several chunks. */
function bigFile(dir: string): string {
  const file = join(dir, 'big.json');
  writeFileSync(file, JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}: ${'a longer line of text '.repeat(20)}` })), null, 4));
  return file;
}

function setup() {
  const dir = tempDir();
  const file = bigFile(dir);
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), watch: false });
  runtimes.push(rt);
  const events: Array<{ step: string; at: number; done?: number; total?: number }> = [];
  rt.onEvent = (event, payload) => {
    if (event === 'save:progress') events.push(payload as (typeof events)[number]);
  };
  const call = (channel: string, input: unknown): Promise<Result<unknown>> => dispatchNow(rt.handlers, channel, input);
  return { dir, file, call, events };
}

describe('a long save', () => {
  it('says where it is: its four steps, and the bytes while it writes the file', async () => {
    const { file, call, events } = setup();
    await call('conversation:open', { path: 'big.json' });
    await call('edit:apply', { path: 'big.json', command: { type: 'delete', indexes: [0] } });
    const r = await call('edit:save', { path: 'big.json' });
    expect(r.ok).toBe(true);
    expect([...new Set(events.map((e) => e.at))]).toEqual([1, 2, 3, 4]);
    const writes = events.filter((e) => e.at === 3);
    expect(writes.length).toBeGreaterThan(1);
    expect(writes[writes.length - 1].done).toBe(writes[writes.length - 1].total);
    expect(writes.at(-1)!.total).toBe(readFileSync(file).length);
  });

  it('a cancel stops it before anything is replaced: the file as it was, no temp file left, the edits kept', async () => {
    const { dir, file, call, events } = setup();
    const before = readFileSync(file);
    await call('conversation:open', { path: 'big.json' });
    await call('edit:apply', { path: 'big.json', command: { type: 'delete', indexes: [0] } });
    // Cancelled at each step in turn: when the save says it reached it.
    for (const at of [1, 2, 3]) {
      events.length = 0;
      const saving = call('edit:save', { path: 'big.json' });
      while (!events.some((e) => e.at === at)) await new Promise((r) => setImmediate(r));
      expect(await call('edit:cancel-save', { path: 'big.json' })).toEqual({ ok: true, value: { cancelling: true } });
      const r = await saving;
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.code).toBe('CANCELLED');
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(readdirSync(dir).filter(isOurTempFile)).toEqual([]);
    }
    const state = await call('edit:state', { path: 'big.json' });
    expect(state.ok && (state.value as { dirty: boolean }).dirty).toBe(true);
    // Nothing under way: nothing to cancel.
    expect(await call('edit:cancel-save', { path: 'big.json' })).toEqual({ ok: true, value: { cancelling: false } });
  });
});
