import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { writePrivateFileSync } from '../../../src/core/storage/private-dir.js';
import { RecentFolder } from '../../shared/contract.js';
import { isDirectoryAt } from './browse-folders.js';

const MAX_RECENT = 12;

/** The folders opened before, newest first, kept in a JSON file (none when no file is given: tests). */
export class RecentFolders {
  private entries: RecentFolder[] = [];

  constructor(private readonly file?: string) {
    if (!file || !existsSync(file)) return;
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      // Entry by entry: a damaged one is dropped, the rest kept.
      if (Array.isArray(raw)) for (const e of raw) {
        const parsed = RecentFolder.safeParse(e);
        if (parsed.success) this.entries.push(parsed.data);
      }
    } catch {
      // an unreadable list starts empty
    }
  }

  /** Only folders still there: one removed since is left out (and kept, in case a drive comes back). */
  list(): RecentFolder[] {
    return this.entries.filter((e) => isDirectoryAt(e.path));
  }

  has(path: string): boolean {
    return this.entries.some((e) => e.path === path);
  }

  add(path: string, now = Date.now()): void {
    this.entries = [{ path, name: basename(path) || path, openedAt: now }, ...this.entries.filter((e) => e.path !== path)].slice(0, MAX_RECENT);
    if (!this.file) return;
    try {
      writePrivateFileSync(this.file, JSON.stringify(this.entries, null, 2) + '\n');
    } catch {
      // the list is a convenience: a folder opens even where it cannot be kept
    }
  }
}
