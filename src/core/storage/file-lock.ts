import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this whose holder is gone is taken over (default 30 s). */
  staleMs?: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function holderAlive(lockPath: string): boolean {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return true;
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `fn` while holding an exclusive lock file (`O_EXCL` create), so read-modify-write cycles from several
 * processes never interleave. Synchronous, like the Conversation API it serves.
 */
export function withFileLock<T>(lockPath: string, fn: () => T, options: LockOptions = {}): T {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let fd: number | undefined;
  for (let wait = 1; fd === undefined; wait = Math.min(wait * 2, 50)) {
    try {
      fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        const age = Date.now() - statSync(lockPath).mtimeMs;
        if (age > staleMs && !holderAlive(lockPath)) rmSync(lockPath, { force: true });
      } catch {
        // the holder released it between our open and stat
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${lockPath}`);
      sleep(wait);
    }
  }
  try {
    return fn();
  } finally {
    closeSync(fd);
    rmSync(lockPath, { force: true });
  }
}
