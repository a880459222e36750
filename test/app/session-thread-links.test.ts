import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result } from '../../app/shared/contract.js';
import { FIXTURES, tempDir } from '../helpers.js';

/**
 * The app's links between a session and its threads in files of their own, both ways: a Codex session's spawned,
 * review and guardian rollouts (each at the call that started it), and each of them back to its session.
 */
const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function setup(folder: string) {
  const dir = tempDir();
  cpSync(join(FIXTURES, folder), dir, { recursive: true });
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const call = async <T = Record<string, unknown>>(channel: string, input: unknown): Promise<T> => {
    const r: Result<unknown> = await dispatchNow(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  return { dir, call };
}

const PARENT = '019e1a00-1111-7aaa-8bbb-000000000001';
const CHILD = '019e1a02-2222-7ccc-8ddd-000000000002';
const REVIEW = '019e1a05-3333-7eee-8fff-000000000003';
const GUARDIAN = '019e1a06-4444-7abc-8def-000000000004';
const day = 'sessions/2026/11/22';
const parent = `${day}/rollout-2026-11-22T10-00-00-${PARENT}.jsonl`;
const child = `${day}/rollout-2026-11-22T10-00-03-${CHILD}.jsonl`;
const review = `${day}/rollout-2026-11-22T10-05-00-${REVIEW}.jsonl`;
const guardian = `archived_sessions/rollout-2026-11-22T10-06-00-${GUARDIAN}.jsonl`;

interface Links {
  subagents: Array<{ path: string; agentId: string; kind?: string; title?: string; task?: number }>;
  parent?: { path?: string; sessionId: string; thread?: string; kind?: string; name?: string };
}

describe('Codex sub-agent rollouts in the app, both ways', () => {
  it("the parent lists its spawned, review and guardian rollouts, the spawned one at its spawn_agent call's row", async () => {
    const { call } = setup('sessions/codex-home');
    await call('conversation:open', { path: parent });
    const links = await call<Links>('conversation:links', { path: parent, conversation: 0 });
    expect(links.subagents.map((a) => [a.path, a.agentId, a.kind])).toEqual([
      [child, CHILD, 'spawned'],
      [review, REVIEW, 'review'],
      [guardian, GUARDIAN, 'guardian'],
    ]);
    expect(links.subagents[0]).toMatchObject({ title: 'Kepler', task: 1 });
    expect(links.parent).toBeUndefined();
  });

  it('each child says whose it is and links back; the unrelated session links nowhere', async () => {
    const { call } = setup('sessions/codex-home');
    for (const [path, thread, kind] of [
      [child, CHILD, 'spawned'],
      [review, REVIEW, 'review'],
      [guardian, GUARDIAN, 'guardian'],
    ]) {
      await call('conversation:open', { path });
      const back = await call<Links>('conversation:links', { path, conversation: 0 });
      expect(back.parent).toMatchObject({ path: parent, sessionId: PARENT, thread, kind });
      expect(back.subagents).toEqual([]);
    }
    const other = `${day}/rollout-2026-11-22T10-09-00-019e1a09-5555-7123-8456-000000000005.jsonl`;
    await call('conversation:open', { path: other });
    expect(await call('conversation:links', { path: other, conversation: 0 })).toEqual({ subagents: [] });
  });

  it('a child opened in a folder without its parent still names the session, with no path to open', async () => {
    const { call } = setup('sessions/codex-home/archived_sessions');
    const path = `rollout-2026-11-22T10-06-00-${GUARDIAN}.jsonl`;
    await call('conversation:open', { path });
    const back = await call<Links>('conversation:links', { path, conversation: 0 });
    expect(back.parent).toEqual({ sessionId: PARENT, thread: GUARDIAN, kind: 'guardian' });
  });
});
