import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/service/dispatch.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result, Skeleton } from '../../app/shared/contract.js';
import { addUp } from '../../src/core/usage.js';
import { ROOT, tempDir } from '../helpers.js';
import { lastLineUsage, lines, REALFILES, sourcesForks } from '../support/realfiles.js';

/**
 * Real Claude Code sessions through the document service, as the app opens them: the header's fork count and
 * the branch tree's are the CLI's; every call is linked to the result the file holds; usage once per call.
 */
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const SESSION = 'claude-code/jtk-2.1.150/-Users-dumitruvulpe-uw-telecom-mobile/801ea086-c461-45be-aac3-f4b46d4a1c1a.jsonl';
const PARALLEL = 'claude-code/deder-2.1.81/-home-deder/788a1be6-d102-4e92-8790-7289d0e1b137.jsonl';
if (!REALFILES) console.log('real Claude Code files skipped in the app: no shared realfiles folder beside the checkout (set REALFILES to one)');

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

/** The service over a temporary folder holding copies of the real files (nothing is written beside the originals). */
function setup(files: string[]) {
  const dir = tempDir();
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(REALFILES!, f), join(dir, f));
  }
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const call = async <T = Record<string, unknown>>(channel: string, input: unknown): Promise<T> => {
    const r: Result<unknown> = await dispatch(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  return { dir, call };
}

const cliForks = (path: string) => {
  const r = spawnSync(process.execPath, [BIN, 'show', path, '--json'], { encoding: 'utf8', cwd: tempDir(), env: { ...process.env, XDG_STATE_HOME: tempDir() } });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { forks?: number }).forks ?? 0;
};

describe.skipIf(!REALFILES)('real Claude Code sessions in the app', () => {
  it('801ea086: the header counts the forks the CLI and the branch tree count (SOURCES.md: 2), each on the path shown', async () => {
    const { dir, call } = setup([SESSION]);
    const sk = await call<Skeleton>('conversation:open', { path: SESSION });
    const cli = cliForks(join(dir, SESSION));
    expect(cli).toBe(sourcesForks(SESSION));
    // What the model is sent now begins at the compaction: the forks before it are the thread's, not this path's.
    expect(sk.forkCount).toBe(cli);
    await call('conversation:path', { path: SESSION, whole: true });
    const whole = await call<Skeleton>('conversation:open', { path: SESSION });
    expect(whole.forkCount).toBe(cli);
    expect(whole.forks?.length).toBe(cli);
    // The session went on with the prompt typed again, each time.
    expect(whole.forks?.map((f) => f.continued)).toEqual([1, 1]);
    const outline = await call<{ forks: number }>('conversation:outline', { path: SESSION });
    expect(outline.forks).toBe(cli);
  }, 120_000);

  it('788a1be6 (2.1.81, parallel calls): no fork, every call linked to its result, usage once per call from its last line', async () => {
    const { call } = setup([PARALLEL]);
    const sk = await call<Skeleton>('conversation:open', { path: PARALLEL });
    expect(sk.forkCount ?? 0).toBe(0);
    expect(sk.forks).toBeUndefined();
    const results = new Map(sk.toolResults.values.map((id, k) => [id, sk.toolResults.at[k]]));
    sk.toolCalls.values.forEach((ids, k) => {
      for (const id of ids) expect(results.get(id), `${id} at row ${sk.toolCalls.at[k]}`).toBeGreaterThan(sk.toolCalls.at[k]);
    });
    const expected = lastLineUsage(lines(PARALLEL));
    const report = addUp(sk.usage.values)!;
    expect({ calls: report.calls, input: report.input, output: report.output }).toEqual(expected);
  }, 120_000);

  it('801ea086: the compaction boundary says what it replaced and what came after, its summary the next row', async () => {
    const { call } = setup([SESSION]);
    const sk = await call<Skeleton>('conversation:open', { path: SESSION });
    const boundary = (await call<{ view: { compaction?: { trigger?: string; preTokens?: number; postTokens?: number } } }>('conversation:message', { path: SESSION, index: 0 })).view;
    const line = lines(SESSION).find((v) => v.subtype === 'compact_boundary')!;
    expect(boundary.compaction).toMatchObject({ trigger: line.compactMetadata.trigger, preTokens: line.compactMetadata.preTokens, postTokens: line.compactMetadata.postTokens });
    // FLAGS.summary on the row after it.
    expect(sk.flags[1] & 128).toBe(128);
  }, 120_000);
});
