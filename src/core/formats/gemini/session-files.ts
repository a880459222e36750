import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A session's file as Gemini CLI names it: `session-<start to the minute>-<the session id's first 8 characters>`. */
const SESSION_NAME = /^session-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2})-([\w-]{8})\.jsonl?$/;

/** Whose sub-agent run a Gemini CLI chat file is, by where and how the CLI wrote it; undefined for a session. */
export interface GeminiParent {
  /** The session's own file, where it is known from the folder alone. */
  parentFile?: string;
  /** The session's id, where the folder names it. */
  parentSessionId?: string;
  agentId?: string;
}

/**
 * A sub-agent's run, two ways Gemini CLI has written one. Since its JSONL sessions: a file of its own in a folder
 * named by the session's id inside `chats/` (`chats/<session id>/<run id>.jsonl`). Before: beside the session in
 * `chats/`, under the session's own id and a later start (`session-…T17-51-0f4d27cd.json` after
 * `session-…T17-44-0f4d27cd.json`), the session's file being the first of that id; a resumed session goes on in
 * its own file (or the `.jsonl` of the same name it is moved into), so a later file of an id is a run it started.
 */
export function geminiParentOf(file: string): GeminiParent | undefined {
  const folder = dirname(file);
  if (basename(dirname(folder)) === 'chats' && /^[\w-]{8,}$/.test(basename(folder))) {
    return { parentSessionId: basename(folder), agentId: basename(file).replace(/\.jsonl?$/, '') };
  }
  const name = SESSION_NAME.exec(basename(file));
  if (!name || basename(folder) !== 'chats') return undefined;
  const first = firstOfEachId(folder)?.get(name[2]);
  // Of the same start, it is this session: the `.jsonl` Gemini CLI moves a resumed `.json` session into.
  if (!first || first.start === name[1]) return undefined;
  return { parentFile: join(folder, first.name), agentId: basename(file).replace(/\.jsonl?$/, '') };
}

/** Folders listed, kept while unchanged: each of a folder's thousand sessions asks of the same listing. */
const KEPT = 16;
const listed = new Map<string, { mtimeMs: number; first: Map<string, { name: string; start: string }> }>();

/** For each session id (its 8 characters) in a `chats/` folder, its file that started first; undefined if unreadable. */
function firstOfEachId(folder: string): Map<string, { name: string; start: string }> | undefined {
  let mtimeMs: number;
  let names: string[];
  try {
    mtimeMs = statSync(folder).mtimeMs;
    const known = listed.get(folder);
    if (known?.mtimeMs === mtimeMs) return known.first;
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  const first = new Map<string, { name: string; start: string }>();
  for (const n of names) {
    const m = SESSION_NAME.exec(n);
    if (!m) continue;
    const was = first.get(m[2]);
    if (was === undefined || m[1] < was.start || (m[1] === was.start && n < was.name)) first.set(m[2], { name: n, start: m[1] });
  }
  listed.delete(folder);
  listed.set(folder, { mtimeMs, first });
  if (listed.size > KEPT) listed.delete(listed.keys().next().value!);
  return first;
}
