import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The one rule for what may be read under the folders a user opened: a path is read only through its real path
 * (every symbolic link on the way resolved), and only when that real path lies in one of those folders. The
 * listing, search, exports, session links, the CLI's walks and the service's requests all ask here, so a link
 * that leads out (to a file or a folder, relative or absolute, through a chain of links or a `..` after one) is
 * never read by any of them.
 */

/** Whether `target` is `root` or lies under it (both resolved; a name like `..notes` is inside). */
export function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real path of `path`. One that does not exist yet (a file about to be saved) is its nearest existing
 * parent's real path joined with the rest; a link that leads nowhere is the path it names, resolved.
 */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = resolve(path, '..');
    return parent === path ? path : resolve(realPath(parent), relative(parent, path));
  }
}

/** The real paths of these folders, once each, in order: what `confined` takes. */
export function realRoots(roots: readonly string[]): string[] {
  const out: string[] = [];
  for (const r of roots) {
    const real = realPath(resolve(r));
    if (!out.includes(real)) out.push(real);
  }
  return out;
}

/**
 * Where `path` really is when that is inside one of `roots` (real paths, as `realRoots` gives them): the path to
 * read, never the link. Undefined when it leads out of them.
 */
export function confined(roots: readonly string[], path: string): string | undefined {
  if (path.includes('\0')) return undefined;
  const real = realPath(resolve(path));
  return roots.some((r) => inside(r, real)) ? real : undefined;
}

/** What a listing says of a symbolic link that leads out of the folders it walks (nothing of what it leads to). */
export const OUTSIDE_LINK_NOTE = 'a link outside the opened folders: not read';
