import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/service/dispatch.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import type { DirEntry, Skeleton, TokenCounts } from '../../app/shared/contract.js';
import { countingModel } from '../../src/core/models.js';
import { ROOT, tempDir } from '../helpers.js';
import { listFully } from '../support/listing.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

const ok = <T>(r: { ok: true; value: unknown } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value as T;
};

describe("each session is counted for its own model by default, in the service as in the renderer", () => {
  it("the setting starts as the session's own; a skeleton and a listed file name the model their session ran on, and the file's total counted for it is the sidebar's", async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'agents', 'claude-code', 'cart-rewind-compact.jsonl'), join(dir, 'claude.jsonl'));
    cpSync(join(ROOT, 'examples', 'agents', 'codex', 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl'), join(dir, 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl'));
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), settingsFile: join(tempDir(), 'settings.json') });
    runtimes.push(rt);
    expect(ok<{ model: string }>(await dispatch(rt.handlers, 'settings:get', {})).model).toBe('session');
    const listed = await listFully(rt);
    const entry = (path: string) => listed.find((e) => e.path === path) as DirEntry;
    expect(entry('claude.jsonl').model).toBe('claude-sonnet-4-5-20250929');
    expect(entry('rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl').model).toBe('gpt-5-codex');
    // The renderer counts the open session for the model its skeleton names, as the setting says.
    const skeleton = ok<Skeleton>(await dispatch(rt.handlers, 'conversation:open', { path: 'claude.jsonl' }));
    expect(skeleton.model).toBe('claude-sonnet-4-5-20250929');
    const model = countingModel('session', skeleton.model);
    const counts = ok<TokenCounts>(await dispatch(rt.handlers, 'tokens:count', { path: 'claude.jsonl', model }));
    expect([counts.model, counts.encoding, counts.approximate]).toEqual(['claude-sonnet-4-5-20250929', 'o200k_base', true]);
    // The listing keeps the file's total counted then (every record of it: the thread shown is a part) for
    // the sidebar: counted for the same model, found again.
    const again = (await listFully(rt)).find((e) => e.path === 'claude.jsonl')?.tokens;
    expect(again).toBeGreaterThanOrEqual(counts.total);
    // A model picked for all: the total counted for the session's own is not offered as that model's.
    ok(await dispatch(rt.handlers, 'settings:set', { model: 'cl100k_base' }));
    expect((await listFully(rt)).find((e) => e.path === 'claude.jsonl')?.tokens).toBeUndefined();
  }, 120_000);
});
