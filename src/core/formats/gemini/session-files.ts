import { readdirSync } from 'node:fs';
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
 * its own file, so a second file of an id is a run the session started.
 */
export function geminiParentOf(file: string): GeminiParent | undefined {
  const folder = dirname(file);
  if (basename(dirname(folder)) === 'chats' && /^[\w-]{8,}$/.test(basename(folder))) {
    return { parentSessionId: basename(folder), agentId: basename(file).replace(/\.jsonl?$/, '') };
  }
  const name = SESSION_NAME.exec(basename(file));
  if (!name || basename(folder) !== 'chats') return undefined;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  // The first file of this id, by its start; one of the same minute says nothing of which came first.
  const first = names
    .map((n) => [n, SESSION_NAME.exec(n)] as const)
    .filter(([, m]) => m && m[2] === name[2])
    .sort((a, b) => (a[1]![1] < b[1]![1] ? -1 : a[1]![1] > b[1]![1] ? 1 : 0))[0];
  if (!first || first[0] === basename(file) || first[1]![1] === name[1]) return undefined;
  return { parentFile: join(folder, first[0]), agentId: basename(file).replace(/\.jsonl?$/, '') };
}
