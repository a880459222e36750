// compare:sessions through dispatch, as the page asks it: two branches of a rewound Claude Code session (by
// the fork's option, and by a leaf off the path shown), two files, and what it refuses.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompareAnswer, Skeleton } from '../../app/shared/contract.js';
import { createHandlers } from '../../app/service/handlers/index.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { dispatchNow } from '../support/current-version.js';
import { FIXTURES, tempDir } from '../helpers.js';

const SESSION = 'cart-rewind-compact.jsonl';
const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function start() {
  const dir = tempDir();
  cpSync(join(FIXTURES, 'formats/claude-code', SESSION), join(dir, SESSION));
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const handlers = createHandlers(rt.context);
  const ask = (channel: string, input: unknown) => dispatchNow(handlers, channel, input);
  /** The answer of a request that must succeed. */
  const call = async <T,>(channel: string, input: unknown): Promise<T> => {
    const r = await ask(channel, input);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
    return r.value as T;
  };
  return { dir, ask, call };
}

describe('compare:sessions', () => {
  it('compares the way a rewound session went on with the branch it left, whole through its compaction', async () => {
    const { call } = start();
    await call('conversation:open', { path: SESSION });
    // The path shown is since the compaction: the fork is off it, so the branch is named by a leaf.
    const outline = await call<{ segments: Array<{ shown: boolean; leaf: number }> }>('conversation:outline', { path: SESSION, conversation: 0 });
    const off = outline.segments.find((s) => !s.shown)!;
    const c = await call<CompareAnswer>('compare:sessions', { a: { path: SESSION }, b: { path: SESSION, leaf: off.leaf } });
    expect(c.sides[0].what).toBe('main thread');
    expect(c.sides[1].what).toBe('the branch from #5 (not the way the session went on)');
    expect(c.counts).toEqual({ same: 4, changed: 0, 'only-left': 13, 'only-right': 2 });
    const texts = (side: 0 | 1, i: number | undefined) => (i === undefined ? '' : c.sides[side].messages[i].text);
    const fork = c.rows.find((row) => row.kind !== 'same')!;
    expect(texts(0, fork.left)).toBe('Sum integer cents then, and add a test.');
    expect(c.rows.filter((row) => row.turn === fork.turn).map((row) => texts(1, row.right))).toContain('Use a decimal library instead.');
    // A response's two lines are one message, its cost the call's once.
    expect(c.sides[0].messages[1].lines).toBe(2);
    expect(c.delta.tokens).toBe(c.sides[1].figures.tokens - c.sides[0].figures.tokens);
  });

  it('takes a fork of the path shown by its option, once the whole session is shown', async () => {
    const { call } = start();
    await call('conversation:open', { path: SESSION });
    await call('conversation:path', { path: SESSION, conversation: 0, whole: true });
    const skeleton = await call<Skeleton>('conversation:open', { path: SESSION });
    const fork = skeleton.forks![0];
    const main = fork.continued ?? fork.chosen;
    const c = await call<CompareAnswer>('compare:sessions', { a: { path: SESSION, branch: { at: fork.at, option: main } }, b: { path: SESSION, branch: { at: fork.at, option: 1 - main } } });
    expect(c.counts).toEqual({ same: 4, changed: 0, 'only-left': 13, 'only-right': 2 });
    expect(c.sides[0].what).toBe('main thread');
  });

  it('compares two files, and refuses a branch of a flat file and a path out of the folder', async () => {
    const { dir, ask, call } = start();
    writeFileSync(join(dir, 'a.json'), JSON.stringify([{ role: 'user', content: 'Hello  there\r\n' }]));
    writeFileSync(join(dir, 'b.json'), JSON.stringify([{ role: 'user', content: 'Hello there\n' }, { role: 'assistant', content: '😀' }]));
    const c = await call<CompareAnswer>('compare:sessions', { a: { path: 'a.json' }, b: { path: 'b.json' } });
    expect(c.rows.map((x) => [x.kind, x.whitespaceOnly ?? false])).toEqual([
      ['changed', true],
      ['only-right', false],
    ]);
    const flat = await ask('compare:sessions', { a: { path: 'a.json' }, b: { path: 'b.json', leaf: 0 } });
    expect(flat).toEqual({ ok: false, error: { code: 'BAD_INPUT', message: 'b.json is one list of messages: it has no branches to compare' } });
    const out = await ask('compare:sessions', { a: { path: 'a.json' }, b: { path: '../../etc/passwd' } });
    expect(out.ok).toBe(false);
  });
});
