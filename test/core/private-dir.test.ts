import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseStateDir, ensurePrivateDir, userStateDir, writePrivateFileSync } from '../../src/core/storage/private-dir.js';
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

  it('make a folder of ours that others could only read (0755, as older versions left it) 0700', () => {
    const dir = join(tempDir(), 'readable');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('hold state files written 0600, whatever mode the file had before', () => {
    const file = join(tempDir(), 'state', 'settings.json');
    writePrivateFileSync(file, '{}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o644);
    writePrivateFileSync(file, '{"a":1}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
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

describe('the state folder chosen at start', () => {
  const fresh = () => {
    const d = join(tempDir(), 'fresh');
    mkdirSync(d, { mode: 0o700 });
    return d;
  };
  /** Every mode under `dir`, relative path to octal mode. */
  const modes = (dir: string, out: Record<string, string> = {}, base = dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = lstatSync(path);
      out[path.slice(base.length + 1)] = (st.mode & 0o777).toString(8);
      if (st.isDirectory()) modes(path, out, base);
    }
    return out;
  };

  it('is created 0700 where there was none, and said nothing of', () => {
    const dir = join(tempDir(), 'xdg', 'conversation-inspector');
    expect(chooseStateDir(dir, fresh)).toEqual({ dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('one of ours others could read (0755, files 0644) is made private, tree and all, and that is said', () => {
    const dir = join(tempDir(), 'conversation-inspector');
    mkdirSync(join(dir, 'history', 'a-0123'), { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o644 });
    writeFileSync(join(dir, 'history', 'a-0123', '1-0123456789abcdef.json'), '[]', { mode: 0o644 });
    symlinkSync('/etc/hostname', join(dir, 'planted'));
    const choice = chooseStateDir(dir, fresh);
    expect(choice.dir).toBe(dir);
    expect(choice.note).toBe(`made ${dir} private: others could read it (it was 755; now 700, its files 600)`);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(modes(dir)).toEqual({ 'settings.json': '600', history: '700', 'history/a-0123': '700', 'history/a-0123/1-0123456789abcdef.json': '600', planted: '777' });
    // A link is not followed: what it leads to keeps its mode.
    expect(statSync('/etc/hostname').mode & 0o777).not.toBe(0o600);
  });

  it('a private folder whose files others can read (settings written 0644 by an older version) gets them made private', () => {
    const dir = join(tempDir(), 'conversation-inspector');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o644 });
    expect(chooseStateDir(dir, fresh).note).toBe(`made ${dir} private: others could read 1 of the files and folders in it (now 600 and 700)`);
    expect(statSync(join(dir, 'settings.json')).mode & 0o777).toBe(0o600);
  });

  const refused = (why: RegExp, make: (dir: string) => void) => () => {
    const dir = join(tempDir(), 'conversation-inspector');
    make(dir);
    const before = lstatSync(dir);
    const choice = chooseStateDir(dir);
    expect(choice.dir).not.toBe(dir);
    expect(statSync(choice.dir).mode & 0o777).toBe(0o700);
    expect(choice.note).toMatch(why);
    expect(choice.note).toContain(`this run keeps its state (settings, caches, earlier versions of saved files) in ${choice.dir} instead`);
    expect(choice.note).not.toContain('\n');
    // Left as it was found.
    expect(lstatSync(dir).mode).toBe(before.mode);
    expect(readdirSync(choice.dir)).toEqual([]);
  };
  it('one writable by others (0777) is left alone and a fresh private folder used instead', refused(/ can be read or written by others \(mode 777\):/, (dir) => {
    mkdirSync(dir);
    chmodSync(dir, 0o777);
  }));
  it('a symbolic link (to a folder of another user) is not followed', refused(/ is a symbolic link:/, (dir) => {
    const theirs = tempDir();
    chmodSync(theirs, 0o777);
    if (root) chownSync(theirs, 12345, 12345);
    symlinkSync(theirs, dir);
  }));
  it('a file where the folder should be', refused(/ is not a directory:/, (dir) => writeFileSync(dir, 'x')));
  (root ? it : it.skip)('one another user made (0700, theirs) is theirs', refused(/ belongs to another user \(uid 12345\):/, (dir) => {
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 12345, 12345);
  }));
  it('one in a folder anyone may write to (0777, no sticky bit: ours could be swapped for theirs)', () => {
    const parent = join(tempDir(), 'open');
    mkdirSync(parent);
    chmodSync(parent, 0o777);
    const choice = chooseStateDir(join(parent, 'conversation-inspector'));
    expect(choice.note).toMatch(/ lies in a folder anyone can write to \(.*, mode 777\):/);
    chmodSync(parent, 0o1777);
    expect(chooseStateDir(join(parent, 'conversation-inspector'))).toEqual({ dir: join(parent, 'conversation-inspector') });
  });
  it('a dangling symbolic link', refused(/ is a symbolic link:/, (dir) => symlinkSync(join(tempDir(), 'nowhere'), dir)));
  it('the fresh folder is one nobody could have made ready: a new name under the temp folder', () => {
    const dir = join(tempDir(), 'conversation-inspector');
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    const a = chooseStateDir(dir).dir;
    const b = chooseStateDir(dir).dir;
    expect(a).not.toBe(b);
    expect(existsSync(a) && existsSync(b)).toBe(true);
  });
});
