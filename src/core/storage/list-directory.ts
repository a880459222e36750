import { closeSync, openSync, readdirSync, readSync, statSync, type Dirent } from 'node:fs';
import { confined, realRoots } from './confine.js';
import { nameOf } from '../util/file-name.js';
import { extname, join, sep } from 'node:path';
import { isConversationExtension } from '../formats/registry.js';
import { isAiderChatName, isAiderInputName, looksLikeAiderChat } from '../formats/aider/names.js';
import { listedByName, listedByNameExtensions } from '../formats/containers/container.js';
import { isOpenCodeStoragePiece } from '../formats/containers/listed-names.js';
import { unreadStoreNamed } from '../formats/containers/unread-stores.js';
import { isClineTaskName, looksLikeClineTask } from '../formats/cline/task-names.js';

/** Hidden folders agent tools write their histories into: looked into; every other hidden folder is not. */
export const AGENT_FOLDERS = new Set(['.claude', '.codex', '.swarms', '.cline', '.roo', '.continue', '.aider', '.gemini', '.cursor', '.openai', '.agents', '.copilot', '.opencode', '.crush']);
const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__', '.git', '.hg', '.svn', '.venv', 'venv', 'dist', 'build', 'target']);

export const DEFAULT_DEPTH = 8;
export const DEFAULT_FILE_CAP = 20_000;

export interface TreeFile {
  /** Relative to the folder listed, with "/" between parts. */
  path: string;
  /** The file to read: its real path where `path` is a link (inside the folders walked; see `outside`). */
  file: string;
  bytes: number;
  modified: Date;
  /** The file's mtime to the fraction of a ms and its inode, as the walk found them: what a catalog compares. */
  mtimeMs?: number;
  ino?: number;
}

export interface TreeListing {
  files: TreeFile[];
  /** The cap was reached: more files exist than are listed. */
  truncated: boolean;
  /** Folders not looked into because they were deeper than the depth limit. */
  tooDeep: number;
  /** Symbolic links named like a conversation file or a folder looked into that lead out of the folders walked: never read. */
  outside: OutsideLink[];
}

/** A symbolic link that leads out of the folders walked: its name, and nothing of what it leads to. */
export interface OutsideLink {
  /** Relative to the folder listed, with "/" between parts. */
  path: string;
  /** The link itself (absolute), never what it leads to. */
  link: string;
  /** It leads to a folder. */
  folder: boolean;
}

export interface TreeOptions {
  depth?: number;
  cap?: number;
  /** The folders links may lead into (default: the folder walked); a link out of them is listed in `outside`, never read. */
  within?: readonly string[];
}

/** Whether a folder is looked into: not dependencies or version control, not hidden unless an agent tool's. */
export function visitFolder(name: string): boolean {
  if (SKIPPED_FOLDERS.has(name)) return false;
  return !name.startsWith('.') || AGENT_FOLDERS.has(name);
}

function head(file: string, bytes = 512): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** path.extname of a file's name, without its checks (asked of every file a walk meets). */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
}

/**
 * Whether a file is a conversation file by its name: a known extension; Markdown only when it is a MEMORY.md
 * or an Aider chat history (`.aider.chat.history.md`) by its name or by its header (other Markdown is
 * documentation, not history); `.history` only as Aider's `.aider.input.history`; never a tool's sidecar.
 */
export function isConversationFileName(file: string, readHead: () => string = () => head(file)): boolean {
  const name = nameOf(file);
  const ext = extensionOf(name).toLowerCase();
  if (ext === '.zst' || ext === '.gz') {
    // A compressed history: what its name says it holds (`rollout-….jsonl.zst`, not `logs.tar.gz`).
    const inner = file.slice(0, -ext.length);
    return extname(inner) !== '' && extname(inner).toLowerCase() !== '.md' && isConversationFileName(inner, () => '');
  }
  // A database of a tool not read here, by the name and folder that tool gives it: listed, with why it is not read.
  if (unreadStoreNamed(file)) return true;
  // Another app's database is listed by the name that app gives it (not every `.db` is one).
  if (listedByNameExtensions().has(ext)) return listedByName(file);
  if (ext === '.eval') return true;
  if (!isConversationExtension(ext)) return false;
  // The pieces of an OpenCode session (its messages and parts, each a file): the session file is listed.
  if (isOpenCodeStoragePiece(file)) return false;
  // A tool's own sidecar beside a history (Claude Code's sub-agent `agent-<id>.meta.json`) is not one.
  if (/^agent-[\w-]+\.meta\.json$/.test(name)) return false;
  // Continue's index of its sessions beside them (each session is a file of its own).
  if (/[\\/]\.continue[\\/]sessions[\\/]sessions\.json$/.test(file)) return false;
  if (ext === '.history') return isAiderInputName(file);
  if (ext !== '.md') return true;
  if (/^memory\.md$/i.test(name) || isAiderChatName(file) || isClineTaskName(file)) return true;
  const h = readHead();
  return /^\s*# Agent Memory\b/.test(h) || /^## Interaction Log\s*$/m.test(h) || looksLikeAiderChat(h) || looksLikeClineTask(h);
}

/** Every conversation file under `root`, depth-first in name order, within the depth limit and the cap. */
export function walkConversationTree(root: string, options: TreeOptions = {}): TreeListing {
  const depth = options.depth ?? DEFAULT_DEPTH;
  const cap = options.cap ?? DEFAULT_FILE_CAP;
  const files: TreeFile[] = [];
  const outside: OutsideLink[] = [];
  const within = realRoots(options.within ?? [root]);
  let truncated = false;
  let tooDeep = 0;
  // Each folder's path from the root, built as the walk goes down (path.relative for each of 10,000 files cost
  // a listing 13 ms).
  const visit = (dir: string, level: number, under: string) => {
    let entries: Dirent[];
    try {
      // The entries' kinds come with their names: a folder or a file not named as a conversation is never stat'ed.
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.length >= cap) {
        truncated = true;
        return;
      }
      const name = entry.name;
      // Below the root, joined by hand: the folder is path.join's already and a name holds no separator (its
      // normalising cost a walk of 3,000 files 25 ms).
      const full = level === 0 ? join(dir, name) : dir + sep + name;
      if (entry.isDirectory()) {
        if (!visitFolder(name)) continue;
        if (level >= depth) tooDeep++;
        else visit(full, level + 1, `${under}${name}/`);
        continue;
      }
      let st;
      let file = full;
      try {
        if (entry.isSymbolicLink()) {
          // A link is read through its real path, and only inside the folders walked (confine.ts); one leading
          // out is listed by its name alone. Links to folders are not followed (no cycles).
          const target = statSync(full);
          const real = confined(within, full);
          if (real === undefined) {
            if (target.isDirectory() ? visitFolder(name) : target.isFile() && isConversationFileName(full, () => '')) outside.push({ path: under + name, link: full, folder: target.isDirectory() });
            continue;
          }
          if (!target.isFile()) continue;
          // A link's name says what it is; its head is that of the file it leads to (inside).
          if (!isConversationFileName(full, () => head(real))) continue;
          st = statSync(real);
          file = real;
        } else {
          if (!entry.isFile() || !isConversationFileName(full)) continue;
          st = statSync(full);
        }
      } catch {
        continue;
      }
      if (!st.isFile()) continue;
      files.push({ path: under + name, file, bytes: st.size, modified: st.mtime, mtimeMs: st.mtimeMs, ino: st.ino });
    }
  };
  visit(root, 0, '');
  return { files, truncated, tooDeep, outside };
}
