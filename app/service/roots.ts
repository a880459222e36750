import { existsSync } from 'node:fs';
import { partPath, splitPartPath } from '../../src/core/storage/file-parts.js';
import { confined, inside, realPath as real } from '../../src/core/storage/confine.js';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { HandlerError } from '../shared/errors.js';

export { inside };

/**
 * The directories the user opened. Every path from the renderer is resolved against them and refused when
 * it escapes (`..`, an absolute path elsewhere, a symlink pointing out): main never trusts a renderer path.
 */
export class Roots {
  private readonly list: string[] = [];

  constructor(roots: readonly string[] = []) {
    for (const r of roots) this.add(r);
  }

  add(root: string): string {
    const r = real(resolve(root));
    if (!this.list.includes(r)) this.list.push(r);
    return r;
  }

  all(): string[] {
    return [...this.list];
  }

  /** The root a request means: the given one (which must be open) or the first. */
  root(root?: string): string {
    if (root === undefined) {
      if (this.list.length === 0) throw new HandlerError('NOT_FOUND', 'no folder is open');
      return this.list[0];
    }
    const r = real(resolve(root));
    if (!this.list.includes(r)) throw new HandlerError('FORBIDDEN', `${root} is not an opened folder`);
    return r;
  }

  /**
   * The real path to read for an absolute path the service came upon itself (a file the watcher saw, a
   * session's sub-agent file): undefined when it leads out of the opened folders. The rule of `resolve`.
   */
  confine(absolute: string): string | undefined {
    return confined(this.list, absolute);
  }

  /** An absolute, real path inside an opened root; `path` is relative to the first root or absolute. */
  resolve(path: string): string {
    if (path.includes('\0')) throw new HandlerError('FORBIDDEN', 'invalid path');
    const base = this.root();
    const candidate = isAbsolute(path) ? resolve(path) : resolve(base, path);
    const refused = () => new HandlerError('FORBIDDEN', `${path} is outside the opened folders`);
    const target = this.confine(candidate);
    // A part of a file read a part at a time names no file of its own: the file it is part of is what is read,
    // and it is confined as any file is (a symlink named like a session may point anywhere).
    const part = splitPartPath(target ?? real(candidate));
    if (part && !(target !== undefined && existsSync(target))) {
      const file = this.confine(part.file);
      if (file === undefined) throw refused();
      return partPath(file, part.number);
    }
    if (target === undefined) throw refused();
    return target;
  }

  /** How the renderer names a file: relative to the first root when inside it. */
  display(absolute: string): string {
    const base = this.list[0];
    return base && inside(base, absolute) ? relative(base, absolute).split(sep).join('/') : absolute;
  }
}
