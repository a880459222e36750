import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensurePrivateDir, userStateDir } from '../../src/core/storage/private-dir.js';
import { tempDir } from '../helpers.js';

const root = process.getuid?.() === 0;
if (!root) console.log('private-dir: the "another user’s folder" case needs root to chown; skipped here');

describe('private per-user directories (local history, caches)', () => {
  it('are created with mode 0700', () => {
    const dir = join(tempDir(), 'state', 'history');
    ensurePrivateDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuse a folder others can read or write', () => {
    const dir = join(tempDir(), 'open');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(() => ensurePrivateDir(dir)).toThrow(/read or written by others/);
  });

  it('refuse a symlink planted where the folder should be', () => {
    const target = tempDir();
    const link = join(tempDir(), 'history');
    symlinkSync(target, link);
    expect(() => ensurePrivateDir(link)).toThrow(/symbolic link/);
  });

  (root ? it : it.skip)('refuse a folder another user created first', () => {
    const dir = join(tempDir(), 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 12345, 12345);
    expect(() => ensurePrivateDir(dir)).toThrow(/belongs to another user/);
  });

  it('live under XDG_STATE_HOME or ~/.local/state, never a shared temp path', () => {
    expect(userStateDir()).toBe(join(process.env.XDG_STATE_HOME!, 'conversation-inspector'));
    const saved = process.env.XDG_STATE_HOME;
    delete process.env.XDG_STATE_HOME;
    try {
      expect(userStateDir()).toMatch(/\/\.local\/state\/conversation-inspector$/);
    } finally {
      process.env.XDG_STATE_HOME = saved;
    }
  });
});
