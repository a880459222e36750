import { realpathSync } from 'node:fs';
import type { HandlerMap } from '../dispatch.js';
import type { FolderRequestName } from '../../shared/channels.js';
import { HandlerError } from '../../shared/errors.js';
import { agentPlaces, browseFolders, insideAny, realDirectory } from '../folders/browse-folders.js';
import type { RecentFolders } from '../folders/recent-folders.js';

/** What the folder requests act on: the shell that owns the document service. */
export interface FolderPort {
  current(): string[];
  /** Replaces the document service with one for `dir` (already checked); refuses unsaved edits unless `discard`. */
  open(dir: string, discard: boolean): Promise<string>;
  recents: RecentFolders;
  /** Where folder:browse and folder:open may go (real paths); null where the platform's own dialog chooses. */
  scope: string[] | null;
  /** The platform's own folder dialog (Electron); undefined where there is none. */
  pick?: () => Promise<string | undefined>;
  home: string;
}

/**
 * Browser mode opens folders within its scope only (the home folder and the folder served), whatever was opened
 * before: a recent folder outside it is neither listed nor opened. Electron opens what its dialog chose, now or
 * before. Either way a compromised page cannot wander the disk.
 */
export function folderHandlers(port: FolderPort): HandlerMap<FolderRequestName> {
  // The places are the main side's own list (never the page's word): in Electron they open like a folder chosen.
  const places = () => (port.scope ? agentPlaces(port.home).filter((p) => insideAny(port.scope!, p.path)) : agentPlaces(port.home));
  const isPlace = (real: string) => places().some((p) => realOrSelf(p.path) === real);
  const allowed = (real: string) => port.current().includes(real) || (port.scope !== null ? insideAny(port.scope, real) : port.recents.has(real) || isPlace(real));
  const outside = (path: string) => new HandlerError('FORBIDDEN', port.scope !== null ? `${path} is outside what browser mode may open (${port.scope.join(', ')})` : `${path} was not chosen in the folder dialog`);
  return {
    'folder:recent': () => ({
      current: port.current(),
      recent: port.recents.list().filter((r) => allowed(r.path)),
      browse: port.scope !== null,
      places: places(),
    }),
    'folder:browse': ({ path, hidden }) => {
      if (port.scope === null) throw new HandlerError('FORBIDDEN', 'folders are chosen with the system dialog here');
      const start = path ?? port.current()[0] ?? port.scope[0];
      // From the open folder by default; where that lies outside the scope (a folder under /tmp), from the first place allowed.
      const from = path === undefined && !insideAny(port.scope, start) ? port.scope[0] : start;
      return { ...browseFolders(port.scope, from, hidden), scope: port.scope };
    },
    'folder:open': async ({ path, discard }) => {
      const real = realDirectory(path);
      if (!allowed(real)) throw outside(path);
      return { root: await port.open(real, discard ?? false) };
    },
    'folder:pick': async ({ discard }) => {
      if (!port.pick) throw new HandlerError('FORBIDDEN', 'there is no system folder dialog in browser mode: use folder:browse');
      const chosen = await port.pick();
      if (chosen === undefined) return { root: null };
      return { root: await port.open(realDirectory(chosen), discard ?? false) };
    },
  };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
