// Who else has a file open for writing: Linux's /proc (a real child process holding the file), and lsof's
// output as macOS prints it (parsed from a sample written here).
import { spawn } from 'node:child_process';
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLsof, procWriters, type FileIdentity } from '../../src/core/storage/file-writers.js';
import { tempDir } from '../helpers.js';

const linux = process.platform === 'linux';

/** A child process that opens `file` with `flags` and keeps it open until killed; resolves once it has. */
function holder(file: string, flags: 'a' | 'r') {
  const child = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(file)}, '${flags}'); process.stdout.write('open'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const opened = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { child, opened };
}

const identity = (path: string): FileIdentity => {
  const st = statSync(path);
  return { path, dev: st.dev, ino: st.ino };
};

describe('who has a file open for writing', () => {
  (linux ? it : it.skip)('Linux: a process appending through a handle it keeps is found by pid and name; one that only reads it is not', async () => {
    const dir = tempDir();
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, '{"a":1}\n');
    expect(procWriters(identity(file)).writers).toEqual([]);
    const reader = holder(file, 'r');
    const writer = holder(file, 'a');
    try {
      await Promise.all([reader.opened, writer.opened]);
      const found = procWriters(identity(file));
      expect(found.writers).toEqual([{ pid: writer.child.pid, name: 'node' }]);
      expect(found.how).toBe('proc');
      // Replaced by a rename, the old inode is still held: found by what it was, not by the name.
      const old = identity(file);
      writeFileSync(join(dir, 'next'), '{"b":2}\n');
      renameSync(join(dir, 'next'), file);
      expect(procWriters(identity(file)).writers).toEqual([]);
      expect(procWriters(old).writers.map((w) => w.pid)).toEqual([writer.child.pid]);
    } finally {
      reader.child.kill();
      writer.child.kill();
    }
  });

  (linux ? it : it.skip)('the scan is bounded: past its limit it stops and says it could not look everywhere', () => {
    const dir = tempDir();
    const file = join(dir, 'x.jsonl');
    writeFileSync(file, '\n');
    expect(procWriters(identity(file), '/proc', 0).complete).toBe(false);
  });

  it('lsof -F pca: processes with the file open for writing (w, u), each once; readers and this process left out', () => {
    const out = ['p101', 'cclaude', 'f12', 'aw', 'f13', 'au', 'p202', 'cless', 'f4', 'ar', `p${process.pid}`, 'cnode', 'f30', 'aw', 'p303', 'cpython3', 'f7', 'au', ''].join('\n');
    expect(parseLsof(out)).toEqual([
      { pid: 101, name: 'claude' },
      { pid: 303, name: 'python3' },
    ]);
    expect(parseLsof('')).toEqual([]);
  });
});
