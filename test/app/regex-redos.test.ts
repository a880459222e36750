import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../e2e/support/serve.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { dispatch } from '../../app/service/dispatch.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { scanWithRegex } from '../../app/service/search/regex-scan.js';
import { linearRegex } from '../../src/core/search/linear-regex.js';
import { socketTo, type Answer } from '../support/served-socket.js';
import { ROOT, tempDir } from '../helpers.js';

// `(x+x+)+y` over 50,000 x's: a backtracking engine tries 2^50000 ways to split them (it held the search thread at
// 100% for minutes, and every later search timed out). A query is answered, and the thread is free after.
const EVIL = '(x+x+)+y';

function folder(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'long.json'), JSON.stringify([{ role: 'user', content: 'x'.repeat(50_000) }, { role: 'assistant', content: 'a wombat answered' }]));
  writeFileSync(join(dir, 'other.json'), JSON.stringify([{ role: 'user', content: 'xx xxx xxxx' }, { role: 'assistant', content: 'another wombat' }]));
  return dir;
}

type Ask = (channel: string, input: unknown) => Promise<Answer>;

/** Asked until the index holds both files (a regex scans what is indexed: before that it scans nothing). */
async function indexed(ask: Ask): Promise<void> {
  for (;;) {
    const a = await ask('search:query', { query: 'wombat' });
    expect(a.ok).toBe(true);
    if ((a.value as { total: number }).total === 2) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function redosThenNormal(ask: Ask): Promise<void> {
  await indexed(ask);
  const evil = await ask('search:query', { query: EVIL, regex: true });
  expect(evil).toMatchObject({ ok: true, value: { total: 0, hits: [] } });
  // A regex that does match the long message, and the words search: both answered as usual after it.
  const some = await ask('search:query', { query: '(x+x+)+', regex: true });
  expect(some).toMatchObject({ ok: true, value: { total: 2, files: 2 } });
  const words = await ask('search:query', { query: 'wombat' });
  expect(words).toMatchObject({ ok: true, value: { total: 2 } });
  // What a linear-time engine cannot run is refused with its reason, as a query's mistake.
  const lookahead = await ask('search:query', { query: 'wom(?=bat)', regex: true });
  expect(lookahead).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', message: expect.stringMatching(/^not supported: lookahead/) } });
}

describe('a regular expression that backtracks without end', () => {
  const running: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (running.length) await running.pop()!();
  });

  it('is answered through dispatch, and the next searches are too', async () => {
    const rt: Runtime = createRuntime({ dirs: [folder()], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, searchIndexFile: join(tempDir(), 'index.v8') });
    running.push(() => rt.close());
    await redosThenNormal((channel, input) => dispatch(rt.handlers, channel, input) as Promise<Answer>);
  });

  const built = existsSync(join(ROOT, 'dist', 'cli.mjs')) && existsSync(join(ROOT, 'dist', 'renderer', 'index.html'));
  if (!built) console.log('regex through the served bin skipped: dist/ is not built (npm run build; npm test does it first)');
  it.skipIf(!built)('is answered by the real `serve` (the search index on its own thread), and the next searches are too', async () => {
    const served: Served = await serve(folder());
    running.push(() => served.stop());
    const socket = await socketTo(served.url);
    running.push(async () => socket.close());
    await redosThenNormal(socket.ask);
  });
});

describe('a regular expression scan past its time limit', () => {
  const file = (n: number) => Array.from({ length: n }, (_, i) => ({ conversation: 0, index: i, role: 'user', text: `wombat ${i}` }));
  const scan = (budgetMs: number, clock: () => number) => scanWithRegex([{ path: '/a.json', format: 'openai-chat' }, { path: '/b.json', format: 'openai-chat' }], linearRegex('wombat'), undefined, 200, () => file(100), (p) => p.slice(1), { budgetMs, clock });

  it('stops in the middle of a file, with what it found, and says it ran out of time', async () => {
    // A clock that moves a second each time it is read: the budget lasts a few messages of the first file.
    let t = 0;
    const answer = await scan(10_000, () => (t += 1000));
    expect(answer.outOfTime).toBe(10_000);
    expect(answer).toMatchObject({ atLeast: true, truncated: true, files: 1 });
    expect(answer.total).toBeGreaterThan(0);
    expect(answer.total).toBeLessThan(100);
    expect(answer.hits.map((h) => h.index)).toEqual(Array.from({ length: answer.total }, (_, i) => i));
  });

  it('says nothing of time when every file was read', async () => {
    const answer = await scan(10_000, () => 0);
    expect(answer.outOfTime).toBeUndefined();
    expect(answer).toMatchObject({ total: 200, files: 2, atLeast: false });
  });
});
