import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../test/paths.js';

export interface Served {
  url: string;
  stop(): Promise<void>;
  /** What it has written to stderr so far. */
  stderr(): string;
}

/** Runs the real `conversation-inspector serve DIR` as a user would, and reads the URL it prints. */
export function serve(dir: string, env: NodeJS.ProcessEnv = {}): Promise<Served> {
  // A state folder of its own unless the test shares one on purpose: settings a test leaves (a model, a
  // column's width) never reach another test.
  const state = env.XDG_STATE_HOME ?? mkdtempSync(join(tmpdir(), 'ci-serve-state-'));
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin', 'conversation-inspector.mjs'), 'serve', dir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, XDG_STATE_HOME: state } });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}${err}`)), 20_000);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^Serving (.+) at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[2],
          stderr: () => err,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => {
                if (env.XDG_STATE_HOME === undefined) rmSync(state, { recursive: true, force: true });
                done();
              });
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${err}`));
    });
  });
}
