import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { isPlainObject } from '../../message.js';
import type { Aside, AsideReader } from '../codec.js';

/**
 * Where a Gemini CLI session ran. Gemini CLI keeps a project's sessions under `~/.gemini/tmp/<id>/`, `<id>` the
 * SHA-256 of the project's folder as the CLI was started in it (`getProjectHash` in packages/core/src/utils/
 * paths.ts, google-gemini/gemini-cli), or since early 2026 a short name (`ProjectRegistry` in packages/core/src/
 * config/projectRegistry.ts) with the folder written beside it in `.project_root` and in `~/.gemini/projects.json`
 * (`{"projects": {"<folder>": "<name>"}}`; on Windows both lower-cased). A session file keeps the hash as its
 * `projectHash` either way. The folder is found where the store says it: a folder named in the session (a
 * tool's argument, a shell command, the working directory the CLI told the model, `/dir add`'s directories) or
 * one above it whose hash is the project's, then the files beside.
 */

const HASH = /^[0-9a-f]{64}$/;
export const isProjectHash = (s: string): boolean => HASH.test(s);

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** How many folders one session gives to try at most (each hashed once): a session of thousands of paths stops there. */
const MAX_TRIED = 2048;
/** A string that is an absolute path whole: `/x`, `C:\x`, `C:/x`, `\\server\share\x`. */
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|\\\\[^\\/\s])/;
/** Absolute paths inside running text (a shell command, a sentence): each up to the next space or quote. */
const IN_TEXT = /(?:^|[\s"'`=(,;])((?:\/|[A-Za-z]:[\\/])[^\s"'`<>|*?,;()]*)/g;
/** A line that names a folder whole: the working directory Gemini CLI told the model, a list of them. */
const NAMED = /(?:working in the directory:[ \t]*|^[ \t]*-[ \t]+)((?:\/|[A-Za-z]:[\\/]).*?)[ \t]*\r?$/gm;
/** Past this a string is output, not a path or a command: only its folders named on lines are read. */
const LONG = 4096;

/** The absolute paths a string holds: itself when it is one, and those in its text. */
function* pathsIn(text: string): Generator<string> {
  if (text.length < 1024 && !text.includes('\n') && ABSOLUTE.test(text)) yield text.trim();
  for (const m of text.matchAll(NAMED)) yield m[1];
  if (text.length > LONG) return;
  for (const m of text.matchAll(IN_TEXT)) yield m[1].replace(/[.:]+$/, '');
}

/** A path and each folder above it to its root, as Gemini CLI spells a folder (no separator at its end but the root's). */
function* foldersOf(path: string): Generator<string> {
  const windows = /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
  const isSep = (c: string) => c === '/' || (windows && c === '\\');
  // '/', 'C:\' or a share's '\\'.
  const root = windows ? (/^[A-Za-z]:/.test(path) ? 3 : 2) : 1;
  let end = path.length;
  while (end > root && isSep(path[end - 1])) end--;
  for (;;) {
    if (end <= root) {
      if (root !== 2) yield windows ? `${path.slice(0, 2)}\\` : '/';
      return;
    }
    const folder = path.slice(0, end);
    yield folder;
    // A Windows path written with slashes names the folder the CLI spelled with backslashes.
    if (windows && folder.includes('/')) yield folder.replace(/\//g, '\\');
    let at = end - 1;
    while (at >= root && !isSep(path[at])) at--;
    end = at;
  }
}

/** The folder among those `texts` name (or above one) whose hash is `hash`; undefined when none is. */
export function folderOfHash(hash: string, texts: Iterable<string>): string | undefined {
  if (!HASH.test(hash)) return undefined;
  const tried = new Set<string>();
  for (const text of texts) {
    for (const path of pathsIn(text)) {
      for (const folder of foldersOf(path)) {
        if (tried.has(folder)) continue;
        if (tried.size >= MAX_TRIED) return undefined;
        tried.add(folder);
        if (sha256(folder) === hash) return folder;
      }
    }
  }
  return undefined;
}

/** What a session's records say beyond their figures: results and thoughts are output, not where it ran. */
const NOT_NAMING = new Set(['result', 'resultDisplay', 'functionResponse', 'thoughts', 'thought', 'thoughtSignature', 'tokens', 'inlineData', 'id', 'timestamp', 'model']);

/** The strings of a record a folder may be named in (tool arguments, the words of a message), first to last. */
export function* namingStrings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* namingStrings(v);
  else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) if (!NOT_NAMING.has(k)) yield* namingStrings(v);
}

/** The folder a Gemini CLI session ran in, as its records and `directories` say it and its `projectHash` proves it. */
export function sessionFolder(projectHash: unknown, directories: unknown, records: readonly unknown[]): string | undefined {
  if (typeof projectHash !== 'string' || !HASH.test(projectHash)) return undefined;
  return folderOfHash(projectHash, (function* () {
    yield* namingStrings(directories);
    for (const r of records) yield* namingStrings(r);
  })());
}

/** `~/.gemini/projects.json`'s folders by their short names. */
function registryOf(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (text === undefined) return out;
  try {
    const root = JSON.parse(text) as unknown;
    const projects = isPlainObject(root) && isPlainObject(root.projects) ? root.projects : {};
    for (const [folder, name] of Object.entries(projects)) if (typeof name === 'string') out.set(name, folder);
  } catch {
    // Not the registry the CLI writes (half written, say): it names nothing.
  }
  return out;
}

/** A project folder's id as a name people can tell apart: its hash cut short. */
export const hashLabel = (hash: string): string => `Gemini project ${hash.slice(0, 6)}…`;

/**
 * Where a file under Gemini CLI's `tmp/<project>/` (its `chats/`, its `logs.json`, its checkpoints) ran, as the
 * files beside it say: the folder `.project_root` names, the registry's folder of that name (or whose hash the
 * folder's name is), else the folder's own name (a hash cut short).
 */
export function geminiAside(file: string, read: AsideReader): Aside | undefined {
  const dir = dirname(file);
  const chats = basename(dir) === 'chats';
  const project = chats ? dirname(dir) : dir;
  const name = basename(project);
  const hashed = HASH.test(name);
  if (!chats && !hashed && basename(dirname(project)) !== 'tmp') return undefined;
  const marker = read(join(project, '.project_root'))?.trim();
  if (marker) return { project: marker };
  if (basename(dirname(project)) === 'tmp') {
    const registry = registryOf(read(join(dirname(dirname(project)), 'projects.json')));
    const known = hashed ? folderOfHash(name, registry.values()) : registry.get(name);
    if (known) return { project: known };
  }
  return { project: hashed ? hashLabel(name) : name, named: true };
}
