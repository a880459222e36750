import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isPlainObject } from './message.js';
import { walkConversationTree } from './storage/list-directory.js';

export interface ConversationListing {
  id: string;
  name: string;
  created_at: string;
  filepath: string;
}

const CONVERSATION_EXTENSIONS = ['.json', '.yaml', '.yml'];

/** The spec's listings are flat: the one lister, not looking into subfolders, without a cap. */
function filesIn(dir: string): string[] {
  return walkConversationTree(dir, { depth: 0, cap: Infinity }).files.map((f) => f.path);
}

/** `<name>.json`, `.yaml`, `.yml`, then `<name>` itself, in that order. */
export function findConversationFile(name: string, dir: string): string | undefined {
  for (const candidate of [...CONVERSATION_EXTENSIONS.map((ext) => name + ext), name]) {
    const path = join(dir, candidate);
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return undefined;
}

/** JSON files carrying a `{metadata: {id, name, created_at}}` wrapper, newest first. */
export function listConversations(dir: string): ConversationListing[] {
  const out: ConversationListing[] = [];
  for (const file of filesIn(dir)) {
    if (extname(file).toLowerCase() !== '.json') continue;
    const filepath = join(dir, file);
    try {
      const root = JSON.parse(readFileSync(filepath, 'utf8')) as unknown;
      if (!isPlainObject(root) || !isPlainObject(root.metadata)) continue;
      const { id, name, created_at } = root.metadata;
      if (id === undefined || name === undefined || created_at === undefined) continue;
      out.push({ id: String(id), name: String(name), created_at: String(created_at), filepath });
    } catch {
      // unreadable files are not conversations with metadata
    }
  }
  return out.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

/** Sorted names (without extension) of every .json, .yaml and .yml file. */
export function listCachedConversations(dir: string): string[] {
  return filesIn(dir)
    .filter((f) => CONVERSATION_EXTENSIONS.includes(extname(f).toLowerCase()))
    .map((f) => f.slice(0, -extname(f).length))
    .sort();
}
