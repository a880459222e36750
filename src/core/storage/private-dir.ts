import { lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A per-user state directory (XDG_STATE_HOME, or ~/.local/state): never a shared, predictable /tmp path. */
export function userStateDir(app = 'conversation-inspector'): string {
  const base = process.env.XDG_STATE_HOME && process.env.XDG_STATE_HOME.startsWith('/') ? process.env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, app);
}

export class PrivateDirError extends Error {
  constructor(readonly dir: string, why: string) {
    super(`${dir} ${why}; refusing to keep private data there (remove it, or fix its owner and mode: chmod 700)`);
    this.name = 'PrivateDirError';
  }
}

/**
 * Creates `dir` (mode 0700) when missing and checks that it is a real directory of this user that no one
 * else can read or write. A directory someone else created first, or a symlink to one, is refused.
 */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) throw new PrivateDirError(dir, 'is a symbolic link');
  if (!st.isDirectory()) throw new PrivateDirError(dir, 'is not a directory');
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new PrivateDirError(dir, `belongs to another user (uid ${st.uid})`);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) throw new PrivateDirError(dir, `can be read or written by others (mode ${(st.mode & 0o777).toString(8)})`);
  return dir;
}
