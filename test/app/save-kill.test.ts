import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LocalHistory } from '../../app/service/editing/local-history.js';
import { isOurTempFile, writeFileAtomicSync } from '../../src/core/storage/atomic-write.js';
import { ROOT, tempDir } from '../helpers.js';

// The saver as it ships, bundled, run as a real process and killed (SIGKILL: no cleanup handler runs).
let saver: string;
beforeAll(async () => {
  const dir = tempDir();
  saver = join(dir, 'saver.cjs');
  writeFileSync(
    join(dir, 'saver.ts'),
    `import { LocalHistory } from ${JSON.stringify(join(ROOT, 'app/service/editing/local-history.ts'))};
     import { writeFileAtomicSync } from ${JSON.stringify(join(ROOT, 'src/core/storage/atomic-write.ts'))};
     const [file, historyDir, a, b] = process.argv.slice(2);
     const history = new LocalHistory(historyDir);
     const texts = [require('fs').readFileSync(a, 'utf8'), require('fs').readFileSync(b, 'utf8')];
     process.stdout.write('ready');
     for (let i = 0; ; i++) { history.record(file); writeFileAtomicSync(file, texts[i % 2]); }`,
  );
  await build({ entryPoints: [join(dir, 'saver.ts')], outfile: saver, bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' });
});

/** Starts the saver and SIGKILLs it `afterMs` after it began saving; fails if it never began. */
function runAndKill(args: string[], afterMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [saver, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let started = false;
    child.stdout.once('data', () => {
      started = true;
      setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.on('exit', (_code, signal) => (started && signal === 'SIGKILL' ? resolve() : reject(new Error(`the saver ended on its own (${signal ?? _code})`))));
  });
}

describe('saves killed at random moments', () => {
  it('200 kills: the file is always whole, and the next save leaves no temp file of ours behind; history copies are whole or flagged', async () => {
    const dir = tempDir();
    const historyDir = join(tempDir(), 'history');
    const file = join(dir, 'conversation.json');
    const a = join(tempDir(), 'a.json');
    const b = join(tempDir(), 'b.json');
    const big = (tag: string) => JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ role: 'user', content: `${tag} ${i} ${'text '.repeat(8)}` })), null, 4);
    const A = big('A');
    const B = big('B');
    writeFileSync(a, A);
    writeFileSync(b, B);
    writeFileSync(file, A);
    // Someone else's files in the same folder, named like temp files: never ours to remove.
    writeFileSync(join(dir, 'conversation.json.1234.tmp'), 'not ours');
    writeFileSync(join(dir, '.conversation.json.swp'), 'an editor');
    let interrupted = 0;
    for (let k = 0; k < 200; k++) {
      await runAndKill([file, historyDir, a, b], Math.random() * 60);
      const now = readFileSync(file, 'utf8');
      expect(now === A || now === B, `kill ${k}: the file is not one whole version`).toBe(true);
      // Each run's first save removes the temps earlier kills left; count them before it does.
      if (readdirSync(dir).some(isOurTempFile)) interrupted++;
    }
    console.log(`${interrupted} of 200 kills interrupted a save mid-write`);
    expect(interrupted).toBeGreaterThan(0); // SIGKILL really did interrupt saves
    writeFileAtomicSync(file, A);
    expect(readdirSync(dir).filter(isOurTempFile)).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['.conversation.json.swp', 'conversation.json', 'conversation.json.1234.tmp']);
    // Local history: every version it lists is whole (each was written atomically), and the next record clears temps.
    const history = new LocalHistory(historyDir);
    history.record(file);
    for (const v of history.list(file)) expect([A, B]).toContain(history.read(file, v.id).toString('utf8'));
    const folder = join(history.path(file, history.list(file)[0].id), '..');
    expect(readdirSync(folder).filter(isOurTempFile)).toEqual([]);
  }, 240_000);

  it('a damaged history copy is refused on restore, not restored', () => {
    const historyDir = join(tempDir(), 'history');
    const file = join(tempDir(), 'x.json');
    writeFileSync(file, '[{"role":"user","content":"v1"}]');
    const history = new LocalHistory(historyDir);
    history.record(file);
    const [v] = history.list(file);
    writeFileSync(history.path(file, v.id), '[{"role":"user","content":"v');
    expect(() => history.read(file, v.id)).toThrow(/damaged/);
  });
});
