import { readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { HandlerError } from '../../shared/errors.js';
import { inside } from '../roots.js';
import { agentPlaceCandidates, type AgentPlace } from './agent-places.js';

/** Folders listed at most per answer: a directory of 50,000 session folders still answers at once. */
export const MAX_LISTED = 2000;

export function insideAny(scope: readonly string[], target: string): boolean {
  return scope.some((root) => inside(root, target));
}

/** The real path of a directory, or why it is not one. */
export function realDirectory(path: string): string {
  if (path.includes('\0') || !isAbsolute(path)) throw new HandlerError('BAD_INPUT', `${path} is not an absolute path`);
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch {
    throw new HandlerError('NOT_FOUND', `${path}: no such folder`);
  }
  if (!isDirectoryAt(real)) throw new HandlerError('NOT_FOUND', `${path} is not a folder`);
  return real;
}

export interface FolderListing {
  path: string;
  parent: string | null;
  dirs: Array<{ name: string; path: string }>;
  truncated: boolean;
}

/**
 * The folders inside `path`, which must lie within `scope` (real paths, so a symlink cannot lead out).
 * Files are never listed: the dialog picks folders, and a file's name is none of its business.
 */
export function browseFolders(scope: readonly string[], path: string, hidden = false): FolderListing {
  const real = realDirectory(path);
  if (!insideAny(scope, real)) throw new HandlerError('FORBIDDEN', `${path} is outside what browser mode may open (${scope.join(', ')})`);
  let names: string[] = [];
  try {
    names = readdirSync(real, { withFileTypes: true })
      .filter((d) => (hidden || !d.name.startsWith('.')) && (d.isDirectory() || (d.isSymbolicLink() && linksInside(scope, join(real, d.name)))))
      .map((d) => d.name);
  } catch (e) {
    throw new HandlerError('FORBIDDEN', `${path}: ${(e as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied' : 'cannot be read'}`);
  }
  names.sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }));
  const up = dirname(real);
  return {
    path: real,
    parent: up !== real && insideAny(scope, up) ? up : null,
    dirs: names.slice(0, MAX_LISTED).map((name) => ({ name, path: join(real, name) })),
    truncated: names.length > MAX_LISTED,
  };
}

/** A symlinked folder is listed only when it leads somewhere that may be opened. */
function linksInside(scope: readonly string[], path: string): boolean {
  try {
    const target = realpathSync(path);
    return isDirectoryAt(target) && insideAny(scope, target);
  } catch {
    return false;
  }
}

/** A folder there (following symlinks); false when there is none or it cannot be read. */
export function isDirectoryAt(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Where agents keep their histories, where they exist: one click instead of a walk through hidden folders. */
export function agentPlaces(home = homedir(), platform: NodeJS.Platform = process.platform, env: Readonly<Record<string, string | undefined>> = process.env): AgentPlace[] {
  return agentPlaceCandidates({ home, platform, env }).filter((p) => isDirectoryAt(p.path));
}

/** The extensions of the files the service reads: what an Open File dialog offers. */
export { conversationExtensions } from '../../../src/core/formats/registry.js';
