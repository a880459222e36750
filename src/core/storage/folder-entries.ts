import { readdirSync } from 'node:fs';

/** What a folder holds: each entry's name and kind (d folder, f file, l link, o anything else). */
export interface WalkEntry {
  name: string;
  kind: 'd' | 'f' | 'l' | 'o';
}

const kindOf = (e: { isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }): WalkEntry['kind'] => (e.isDirectory() ? 'd' : e.isFile() ? 'f' : e.isSymbolicLink() ? 'l' : 'o');

/** The entries of a folder with their kinds, which the system gives with the names: a folder is never stat'ed. */
export function folderEntries(dir: string): WalkEntry[] {
  return readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, kind: kindOf(e) }));
}
