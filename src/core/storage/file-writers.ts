import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

/**
 * Which other processes hold a file open for writing (an agent appending to its session through a handle it
 * keeps). A save that replaced such a file's inode would cut the writer off: what it writes next lands in the
 * old inode, which nobody reads. Linux: a scan of /proc/<pid>/fd (a readlink per descriptor, bounded);
 * macOS: lsof on the one file, given a fraction of a second; elsewhere, not known.
 */

export interface FileWriter {
  pid: number;
  /** The process's name (its comm on Linux, its command on macOS). */
  name: string;
}

export interface WritersFound {
  writers: FileWriter[];
  /** False when some processes could not be looked at (another user's, or past the scan's bound). */
  complete: boolean;
  how: 'proc' | 'lsof';
}

/** A file as the kernel knows it: the name its links show, and the inode it must be (a file replaced keeps its old name with " (deleted)"). */
export interface FileIdentity {
  path: string;
  dev: number;
  ino: number;
}

/** Past this many descriptors looked at, or this long, the scan stops (a machine with thousands of processes): `complete` says so. */
export const SCAN_LIMIT = 200_000;
export const SCAN_MS = 500;
/** lsof is asked only if it answers this quickly; past it, nothing is known. */
export const LSOF_TIMEOUT_MS = 400;

const O_ACCMODE = 3;

/** The open mode of a descriptor, from its fdinfo: written to (O_WRONLY or O_RDWR). */
function openForWriting(pid: string, fd: string): boolean {
  try {
    const m = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'));
    return m ? (Number.parseInt(m[1], 8) & O_ACCMODE) !== 0 : true;
  } catch {
    return true; // gone meanwhile, or unreadable: counted, since a writer missed costs lines
  }
}

function commOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() || `process ${pid}`;
  } catch {
    return `process ${pid}`;
  }
}

/** Linux: every other process's descriptors that point at the file, opened for writing. */
export function procWriters(file: FileIdentity, root = '/proc', limit = SCAN_LIMIT): WritersFound {
  const until = performance.now() + SCAN_MS;
  const writers: FileWriter[] = [];
  let complete = true;
  let looked = 0;
  const self = String(process.pid);
  const deleted = `${file.path} (deleted)`;
  let pids: string[];
  try {
    pids = readdirSync(root);
  } catch {
    return { writers, complete: false, how: 'proc' };
  }
  for (const pid of pids) {
    if (pid === self || !/^\d+$/.test(pid)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`${root}/${pid}/fd`);
    } catch (e) {
      // Another user's process (or one that just ended): not ours to see.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') complete = false;
      continue;
    }
    if ((looked += fds.length) > limit || performance.now() > until) {
      complete = false;
      break;
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`${root}/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (link !== file.path && link !== deleted) continue;
      try {
        // The same name may be another inode by now: the descriptor's own file decides.
        const st = statSync(`${root}/${pid}/fd/${fd}`);
        if (st.ino !== file.ino || st.dev !== file.dev) continue;
      } catch {
        continue;
      }
      if (!openForWriting(pid, fd)) continue;
      writers.push({ pid: Number(pid), name: commOf(pid) });
      break;
    }
  }
  return { writers, complete, how: 'proc' };
}

/** `lsof -F pca` output: a `p` line per process, then its `c` (command), `f` and `a` (access: r, w, u) lines. */
export function parseLsof(output: string): FileWriter[] {
  const writers: FileWriter[] = [];
  let pid: number | undefined;
  let name = '';
  let added = false;
  for (const line of output.split('\n')) {
    const tag = line[0];
    const value = line.slice(1);
    if (tag === 'p') {
      pid = Number(value);
      name = `process ${value}`;
      added = false;
    } else if (tag === 'c') name = value;
    else if (tag === 'a' && (value === 'w' || value === 'u') && pid !== undefined && pid !== process.pid && !added) {
      writers.push({ pid, name });
      added = true;
    }
  }
  return writers;
}

function lsofWriters(path: string): Promise<WritersFound | undefined> {
  return new Promise((resolve) => {
    execFile('lsof', ['-n', '-P', '-F', 'pca', '--', path], { timeout: LSOF_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) => {
      // lsof answers 1 when no process has the file open; a timeout or a missing lsof tells nothing.
      if (error && (error.killed || typeof error.code !== 'number' || error.code !== 1)) return resolve(undefined);
      resolve({ writers: parseLsof(stdout), complete: true, how: 'lsof' });
    });
  });
}

/** Other processes that have the file open for writing now; undefined where that cannot be known here. */
export async function writersOf(file: FileIdentity, platform: NodeJS.Platform = process.platform): Promise<WritersFound | undefined> {
  if (platform === 'linux') return procWriters(file);
  if (platform === 'darwin') return lsofWriters(file.path);
  return undefined;
}
