import { appendFileSync, closeSync, fstatSync, readSync } from 'node:fs';
import { procWriters, type FileIdentity } from '../../../src/core/storage/file-writers.js';

/**
 * A save puts a new file in place of the old one (a rename). A program that had the old one open (an agent
 * appending through a handle it keeps, or one that opened it a moment before the rename) goes on writing into
 * the old inode, which no one reads any more: its lines would be lost without a word. So after a save the old
 * inode is followed, through a descriptor the save kept, and whole lines that reach it are appended to the file
 * that now has its name. It is followed while another process holds it (Linux tells; elsewhere, until it has
 * been quiet a while), and at most MAX_FOLLOWED at once.
 */

/** How often the old inode is looked at: often right after the save (a write in flight lands then), then less. */
const FAST_MS = 5;
const FAST_FOR_MS = 1000;
const SLOW_MS = 100;
/** With nobody holding it (or where that cannot be told), it is let go after this long without a write. */
const QUIET_MS = 3000;
/** Where holders cannot be looked up, a followed inode is let go after this long without a write. */
const QUIET_UNKNOWN_MS = 30_000;
/** Holders are looked up this often (a scan of /proc costs tens of ms on a busy machine). */
const SCAN_EVERY_MS = 2000;
export const MAX_FOLLOWED = 64;

interface Followed {
  fd: number;
  /** How far the old inode has been read. */
  at: number;
  /** Bytes after the last whole line read, waiting for the rest of their line. */
  pending: Buffer;
  /** The file that has its name now. */
  path: string;
  old: FileIdentity;
  started: number;
  lastGrowth: number;
  lastScan: number;
  held: boolean | undefined;
  timer?: NodeJS.Timeout;
  /** Lines carried so far (for what a save reports and for tests). */
  carried: number;
}

const followed = new Set<Followed>();
const linux = () => process.platform === 'linux';

/** What reached the old inode since it was last read, as whole lines (the rest waits for its newline). */
function takeLines(f: Followed, flush: boolean): Buffer | undefined {
  let size: number;
  try {
    size = fstatSync(f.fd).size;
  } catch {
    return undefined;
  }
  let fresh: Buffer | undefined;
  if (size > f.at) {
    fresh = Buffer.alloc(size - f.at);
    let off = 0;
    while (off < fresh.length) {
      const n = readSync(f.fd, fresh, off, fresh.length - off, f.at + off);
      if (n === 0) break;
      off += n;
    }
    fresh = fresh.subarray(0, off);
    f.at += off;
  }
  const all = fresh ? Buffer.concat([f.pending, fresh]) : f.pending;
  const cut = flush ? all.length : all.lastIndexOf(0x0a) + 1;
  f.pending = all.subarray(cut);
  return cut > 0 ? all.subarray(0, cut) : undefined;
}

function carry(f: Followed, flush = false): number {
  const lines = takeLines(f, flush);
  if (!lines) return 0;
  f.lastGrowth = performance.now();
  try {
    // Appended (O_APPEND) to whatever file has the name now: an agent appending there too interleaves whole lines.
    appendFileSync(f.path, lines);
  } catch {
    // The file is gone (deleted, its folder too): nothing left to carry the lines into.
    stop(f);
    return 0;
  }
  let n = 0;
  for (const b of lines) if (b === 0x0a) n++;
  f.carried += n;
  return n;
}

function stop(f: Followed): void {
  if (!followed.delete(f)) return;
  clearTimeout(f.timer);
  try {
    closeSync(f.fd);
  } catch {
    // closed already
  }
}

function tick(f: Followed): void {
  if (!followed.has(f)) return;
  carry(f);
  const now = performance.now();
  if (linux() && now - f.lastScan >= SCAN_EVERY_MS) {
    f.lastScan = now;
    const found = procWriters(f.old);
    // A scan that could not look everywhere and found no one tells nothing.
    f.held = found.writers.length > 0 ? true : found.complete ? false : undefined;
  }
  const quietFor = now - f.lastGrowth;
  const letGo = f.held === undefined ? quietFor > QUIET_UNKNOWN_MS : !f.held && quietFor > QUIET_MS;
  if (letGo) {
    carry(f, true);
    stop(f);
    return;
  }
  f.timer = setTimeout(() => tick(f), now - f.started < FAST_FOR_MS ? FAST_MS : SLOW_MS);
  f.timer.unref();
}

/**
 * Follows the old inode of `path` (open as `fd`, read up to `from`; `pending`: bytes read past its last whole
 * line) after a save replaced it. What already arrived is carried at once.
 */
export function followOldInode(fd: number, from: number, pending: Buffer, path: string, old: FileIdentity): void {
  const now = performance.now();
  // The first look for holders a moment after the save, not in its answer's way; held until then.
  const f: Followed = { fd, at: from, pending, path, old, started: now, lastGrowth: now, lastScan: now - SCAN_EVERY_MS + FAST_FOR_MS, held: linux() ? true : undefined, carried: 0 };
  if (followed.size >= MAX_FOLLOWED) {
    const oldest = followed.values().next().value;
    if (oldest) {
      carry(oldest, true);
      stop(oldest);
    }
  }
  followed.add(f);
  tick(f);
}

/** Before another save of `path`: what its followed old inodes hold goes into the file now. */
export function carryNow(path: string): void {
  for (const f of followed) if (f.path === path) carry(f);
}

/** How many old inodes are followed (tests wait for them to be let go). */
export function followedCount(path?: string): number {
  let n = 0;
  for (const f of followed) if (path === undefined || f.path === path) n++;
  return n;
}
