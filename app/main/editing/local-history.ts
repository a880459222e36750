import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

export const HISTORY_LIMIT = 20;

export interface HistoryVersion {
  id: string;
  savedAt: number;
  bytes: number;
}

/** Earlier versions of each file, kept in the app's data directory before every save (the last 20). */
export class LocalHistory {
  constructor(private readonly dir: string) {}

  private folder(file: string): string {
    const key = createHash('sha256').update(file).digest('hex').slice(0, 16);
    return join(this.dir, `${basename(file, extname(file))}-${key}`);
  }

  /** Copies the file as it is on disk now; the oldest versions beyond the limit are removed. */
  record(file: string): void {
    if (!existsSync(file)) return;
    const folder = this.folder(file);
    mkdirSync(folder, { recursive: true });
    let name = `${Date.now()}${extname(file)}`;
    for (let n = 2; existsSync(join(folder, name)); n++) name = `${Date.now()}-${n}${extname(file)}`;
    copyFileSync(file, join(folder, name));
    const versions = this.list(file);
    for (const old of versions.slice(HISTORY_LIMIT)) rmSync(join(folder, old.id), { force: true });
  }

  /** Newest first. */
  list(file: string): HistoryVersion[] {
    const folder = this.folder(file);
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .map((id) => ({ id, savedAt: Number.parseInt(id, 10), bytes: statSync(join(folder, id)).size }))
      .sort((a, b) => b.savedAt - a.savedAt || b.id.localeCompare(a.id));
  }

  path(file: string, id: string): string {
    if (!/^[0-9]+(-[0-9]+)?\.[a-z]+$/.test(id)) throw new Error(`no version ${id}`);
    return join(this.folder(file), id);
  }
}
