import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result } from '../../app/shared/contract.js';
import { serializeConversation } from '../../src/core/formats/index.js';
import { tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function setup(name: string, text: string) {
  const dir = tempDir();
  writeFileSync(join(dir, name), text);
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const call = async (channel: string, input: unknown): Promise<Result<unknown>> => dispatchNow(rt.handlers, channel, input);
  return { dir, file: join(dir, name), call };
}

/** Real prose, varied enough that writing a 2 MB history takes a noticeable while. */
function history(n: number): Array<{ role: string; content: string }> {
  return Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `Message ${i}: the agent looked at step ${i % 97} of the plan,\nchecked the output of tool #${i % 13}, and wrote a note: "${'lorem ipsum '.repeat(1 + (i % 7))}".`,
  }));
}

/**
 * Another process writes the file at `at` (a wall-clock time): YAML agents append an item, JSON agents
 * rewrite the whole file. It prints the marker it wrote, which must survive whatever the save does.
 */
function agent(file: string, at: number, mode: 'append' | 'rewrite', marker: string) {
  const script = `
    const fs = require('fs');
    const [file, at, mode, marker] = process.argv.slice(1);
    while (Date.now() < Number(at)) {}
    if (mode === 'append') fs.appendFileSync(file, '-   role: user\\n    content: ' + marker + '\\n');
    else { const list = JSON.parse(fs.readFileSync(file, 'utf8')); list.push({ role: 'user', content: marker }); fs.writeFileSync(file, JSON.stringify(list, null, 4)); }
    process.stdout.write('written');
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(at), mode, marker], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`agent exited ${code}`))));
  });
}

async function timedSave(call: (c: string, i: unknown) => Promise<Result<unknown>>, path: string): Promise<number> {
  const t0 = performance.now();
  const r = await call('edit:save', { path });
  if (!r.ok) throw new Error(r.error.message);
  return performance.now() - t0;
}

describe.each([
  ['history.yaml', 'yaml', 'append'],
  ['history.json', 'json', 'rewrite'],
] as const)('%s: an agent writing while the app saves never loses its write', (name, format, mode) => {
  it('30 saves with an agent writing at a random moment of each', async () => {
    const messages = history(format === 'yaml' ? 3000 : 6000);
    const { file, call } = setup(name, serializeConversation(messages as never, { format }));
    const path = name;
    expect((await call('conversation:open', { path })).ok).toBe(true);
    // How long a save takes here, so the agent's moment falls inside one.
    await call('edit:apply', { path, command: { type: 'update', index: 0, patch: { content: 'calibration' } } });
    const duration = await timedSave(call, path);
    let conflicts = 0;
    for (let trial = 0; trial < 30; trial++) {
      await call('edit:revert', { path });
      await call('edit:apply', { path, command: { type: 'update', index: 1, patch: { content: `edit ${trial}` } } });
      const marker = `agent-wrote-${trial}`;
      const start = Date.now() + 150;
      const written = agent(file, start + Math.round(Math.random() * duration * 1.2), mode, marker);
      while (Date.now() < start) await new Promise((r) => setTimeout(r, 1));
      const result = await call('edit:save', { path });
      await written;
      if (!result.ok) {
        expect(result.error.code).toBe('CONFLICT');
        conflicts++;
      }
      expect(readFileSync(file, 'utf8'), `trial ${trial}: the agent's write was lost (save answered ${result.ok ? 'ok' : result.error.code})`).toContain(marker);
    }
    // Some saves lose the race and must say so; never silently.
    console.log(`${name}: ${conflicts} of 30 saves answered CONFLICT; save takes ${duration.toFixed(0)} ms`);
    // A save the agent's write overtook merges it in and writes again (up to four times): slower, never lost.
  }, 420_000);
});

describe('a file deleted on disk while edited', () => {
  it('is not silently recreated: Save answers GONE, Save with force recreates it', async () => {
    const { file, call } = setup('x.json', serializeConversation(history(3) as never, { format: 'json' }));
    await call('conversation:open', { path: 'x.json' });
    await call('edit:apply', { path: 'x.json', command: { type: 'update', index: 0, patch: { content: 'mine' } } });
    rmSync(file);
    expect(await call('edit:save', { path: 'x.json' })).toMatchObject({ ok: false, error: { code: 'GONE' } });
    expect(readdirSync(join(file, '..'))).toEqual([]);
    expect(await call('edit:save', { path: 'x.json', force: true })).toMatchObject({ ok: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))[0].content).toBe('mine');
  });
});

