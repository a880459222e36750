import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Our temp files are named `.<file>.ci-save-<pid>-<random>.tmp` beside the file: hidden, and recognisable as
 * ours (and whose) so that leftovers of a killed save can be removed without touching anyone else's files.
 */
const TEMP = /^\.(.+)\.ci-save-(\d+)-[0-9a-f]{12}\.tmp$/;

export function isOurTempFile(name: string): boolean {
  return TEMP.test(name);
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.ci-save-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temp files a killed save of ours left beside `path`: only names of our pattern, for this file, of
 * processes that no longer run. A live process's temp may be a save in progress and is left alone.
 */
export function removeStaleTemps(path: string): string[] {
  return removeStale(dirname(path), basename(path));
}

/** Every stale temp file of ours in `dir`, whichever file it was for (a folder only we write to). */
export function removeStaleTempsIn(dir: string): string[] {
  return removeStale(dir, undefined);
}

function removeStale(dir: string, base: string | undefined): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = TEMP.exec(name);
    if (!m || (base !== undefined && m[1] !== base) || processAlive(Number(m[2]))) continue;
    try {
      rmSync(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // gone already, or not ours to remove after all
    }
  }
  return removed;
}

export interface AtomicWriteOptions {
  /**
   * Called after the new content is on disk in the temp file and just before the rename puts it in place:
   * the last moment to refuse (by throwing), with nothing replaced yet (the temp file is then removed), or to
   * add to the end of what is written (`append`: what a writer appended to the old file meanwhile).
   */
  beforeRename?: (temp: { path: string; append(bytes: Uint8Array): void }) => void;
  /** The file's mode, whatever it was before (a state file: 0600); without one, the target keeps its own. */
  mode?: number;
}

/** Bytes added to the end of a temp file, flushed to disk before it is renamed into place. */
function appender(temp: string) {
  return {
    path: temp,
    append(bytes: Uint8Array) {
      if (bytes.length === 0) return;
      const fd = openSync(temp, 'a');
      try {
        writeAll(fd, bytes);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
  };
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not every platform can fsync a directory; the rename is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes a file atomically: the whole content to a temp file in the same directory (flushed to disk), then a
 * rename over the target. A crash or kill at any moment leaves either the old file or the new one, never a
 * mix; a killed save's temp file is removed by the next save of that file. The target keeps its permissions;
 * a missing parent directory is created.
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  removeStaleTemps(path);
  let mode = options.mode;
  if (mode === undefined) {
    try {
      mode = statSync(path).mode & 0o7777;
    } catch {
      // a new file: the default mode under the umask
    }
  }
  const temp = tempPathFor(path);
  const fd = openSync(temp, 'wx', mode ?? 0o666);
  try {
    try {
      if (mode !== undefined) fchmodSync(fd, mode);
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    options.beforeRename?.(appender(temp));
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
  syncDirectory(dir);
}

/** How far a long write has gone, in bytes. */
export interface WriteProgress {
  done: number;
  total: number;
}

/** A save stopped on request before anything was replaced. */
export class WriteCancelled extends Error {
  constructor() {
    super('cancelled before the file was replaced');
    this.name = 'WriteCancelled';
  }
}

const CHUNK = 8 * 1024 * 1024;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * writeFileAtomicSync for long writes: the temp file is written a chunk at a time, with `progress` after each
 * and room between them for other work (a request to cancel); `cancelled` is asked between chunks and right
 * before the rename, and a cancel leaves the target as it was (the temp file removed).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions & { progress?: (p: WriteProgress) => void; cancelled?: () => boolean } = {}): Promise<void> {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  removeStaleTemps(path);
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    // a new file: the default mode under the umask
  }
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const temp = tempPathFor(path);
  const fd = openSync(temp, 'wx', mode ?? 0o666);
  try {
    try {
      if (mode !== undefined) fchmodSync(fd, mode);
      let off = 0;
      while (off < bytes.length) {
        const end = Math.min(bytes.length, off + CHUNK);
        while (off < end) off += writeSync(fd, bytes, off, end - off);
        options.progress?.({ done: off, total: bytes.length });
        if (off < bytes.length) {
          await turn();
          if (options.cancelled?.()) throw new WriteCancelled();
        }
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    await turn();
    if (options.cancelled?.()) throw new WriteCancelled();
    options.beforeRename?.(appender(temp));
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
  syncDirectory(dir);
}
