import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, type Stats } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from './atomic-write.js';

/** The mode of every file kept in the state folder: this user's alone. */
export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

/** A per-user state directory (XDG_STATE_HOME, or ~/.local/state): never a shared, predictable /tmp path. */
export function userStateDir(app = 'conversation-inspector'): string {
  const base = process.env.XDG_STATE_HOME && process.env.XDG_STATE_HOME.startsWith('/') ? process.env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, app);
}

export class PrivateDirError extends Error {
  /** Why, without the folder's path (for messages shown where the path is nobody's business). */
  readonly why: string;
  constructor(readonly dir: string, why: string) {
    super(`${dir} ${why}; refusing to keep private data there (remove it, or fix its owner and mode: chmod 700)`);
    this.name = 'PrivateDirError';
    this.why = `the folder ${why}`;
  }
}

/** Why `st` (an lstat) is no folder to keep private data in, or nothing. Read-only to others is mended, not refused. */
function refusal(st: Stats): string | undefined {
  if (st.isSymbolicLink()) return 'is a symbolic link';
  if (!st.isDirectory()) return 'is not a directory';
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `belongs to another user (uid ${st.uid})`;
  // Others who can write in it could have put anything there (a link where a file will be written, say).
  if (process.platform !== 'win32' && (st.mode & 0o022) !== 0) return `can be read or written by others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * Creates `dir` (mode 0700) when missing and checks that it is a real directory of this user that no one
 * else can write to. A directory someone else created first, or a symlink to one, is refused; one of ours
 * that others could only read (an older version made it 0755) is made 0700.
 */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const st = lstatSync(dir);
  const why = refusal(st);
  if (why) throw new PrivateDirError(dir, why);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) chmodSync(dir, PRIVATE_DIR_MODE);
  return dir;
}

/** A state file: written atomically, 0600, in a folder checked to be private (ensurePrivateDir). */
export function writePrivateFileSync(path: string, data: string | Uint8Array): void {
  ensurePrivateDir(dirname(path));
  writeFileAtomicSync(path, data, { mode: PRIVATE_FILE_MODE });
}

/**
 * Makes what is under `dir` (ours) private: folders 0700, files 0600. Symbolic links are not followed (a
 * link is left as it is: it grants nothing itself). What cannot be changed (another user's file) is left.
 * Returns how many entries were changed.
 */
export function makePrivateTree(dir: string): number {
  let changed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (st.isSymbolicLink()) continue;
      if (st.isDirectory()) changed += makePrivateTree(path);
      const want = st.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
      if ((st.mode & 0o077) !== 0) {
        chmodSync(path, (st.mode & 0o700) | (want & 0o700));
        changed++;
      }
    } catch {
      // gone meanwhile, or not ours to change
    }
  }
  return changed;
}

/** Whether `dir` or anything directly in it can be read by others (then its whole tree is looked at). */
function openToOthers(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => {
      try {
        const st = lstatSync(join(dir, name));
        return !st.isSymbolicLink() && (st.mode & 0o077) !== 0;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

export interface StateDirChoice {
  /** Where this process keeps its state. */
  dir: string;
  /** One line for the user when the folder was not used as it was found (made private, or replaced). */
  note?: string;
}

/**
 * The state folder this process uses: `dir` when it is ours and private. One of ours that others can read (an
 * older version made it 0755, its files 0644) is made private, tree and all. One that is not ours (a symbolic
 * link, another user's, writable by others, not a folder) is left alone and a fresh private folder (0700, a
 * name nobody can guess) is used instead, for this run.
 */
export function chooseStateDir(dir = userStateDir(), fresh = () => mkdtempSync(join(tmpdir(), 'conversation-inspector-state-'))): StateDirChoice {
  let why: string | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    // A file, or a symlink to nowhere, where the folder should be is told by the lstat below.
    if (!lstatOrUndefined(dir)) why = `cannot be created (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  let mode = 0;
  if (!why) {
    try {
      const st = lstatSync(dir);
      why = refusal(st);
      mode = st.mode & 0o777;
    } catch (e) {
      why = `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  }
  // In a folder anyone may write to without the sticky bit (/tmp has it), anyone could swap ours for theirs.
  const parent = lstatOrUndefined(dirname(dir));
  if (!why && parent && process.platform !== 'win32' && (parent.mode & 0o002) !== 0 && (parent.mode & 0o1000) === 0) why = `lies in a folder anyone can write to (${dirname(dir)}, mode ${(parent.mode & 0o777).toString(8)})`;
  if (why) {
    const instead = fresh();
    return { dir: instead, note: `${dir} ${why}: this run keeps its state (settings, caches, earlier versions of saved files) in ${instead} instead. To keep it between runs, remove ${dir} or make it yours alone (chown, chmod 700), or set XDG_STATE_HOME.` };
  }
  if (process.platform === 'win32') return { dir };
  const open = (mode & 0o077) !== 0;
  if (!open && !openToOthers(dir)) return { dir };
  if (open) chmodSync(dir, PRIVATE_DIR_MODE);
  const changed = makePrivateTree(dir);
  return { dir, note: `made ${dir} private: others could read ${open ? `it (it was ${mode.toString(8)}; now 700, its files 600)` : `${changed} of the files and folders in it (now 600 and 700)`}` };
}

const chosen = new Map<string, string>();

/**
 * This process's state folder (chooseStateDir), looked at once per process and place: what was done about it is
 * said then, in one line on stderr, and never again.
 */
export function privateStateDir(say: (line: string) => void = (line) => process.stderr.write(`conversation-inspector: ${line}\n`)): string {
  const wanted = userStateDir();
  let dir = chosen.get(wanted);
  if (dir === undefined) {
    const choice = chooseStateDir(wanted);
    dir = choice.dir;
    chosen.set(wanted, dir);
    if (choice.note) say(choice.note);
  }
  return dir;
}
