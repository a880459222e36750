import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { removeStaleTempsIn, writeFileAtomicSync } from '../../../src/core/storage/atomic-write.js';
import { ensurePrivateDir } from '../../../src/core/storage/private-dir.js';

export const HISTORY_LIMIT = 20;

export interface HistoryVersion {
  id: string;
  savedAt: number;
  bytes: number;
}

/** `<ms since epoch>[-n]-<sha256 prefix of the content>.<ext>`: the name says when, and what the bytes must hash to. */
const VERSION = /^([0-9]+)(?:-([0-9]+))?-([0-9a-f]{16})(\.[a-z]+)$/;

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

export class DamagedVersionError extends Error {
  constructor(id: string) {
    super(`the saved version ${id} is damaged (its content no longer matches what was saved); it was not restored`);
    this.name = 'DamagedVersionError';
  }
}

/**
 * Earlier versions of each file, kept before every save (the last 20) in a private directory of this user.
 * Each version is written atomically and named by its content hash, so a restore can tell a damaged copy.
 */
export class LocalHistory {
  constructor(private readonly dir: string) {}

  private folder(file: string): string {
    const key = createHash('sha256').update(file).digest('hex').slice(0, 16);
    return join(ensurePrivateDir(this.dir), `${basename(file, extname(file))}-${key}`);
  }

  /** Keeps `bytes` (the file as it is on disk now) as a version; the oldest beyond the limit are removed. */
  recordBytes(file: string, bytes: Buffer): void {
    const folder = ensurePrivateDir(this.folder(file));
    removeStaleTempsIn(folder);
    const ext = extname(file).toLowerCase().replace(/[^.a-z]/g, '') || '.txt';
    const hash = digest(bytes);
    const now = Date.now();
    let name = `${now}-${hash}${ext}`;
    for (let n = 2; existsSync(join(folder, name)); n++) name = `${now}-${n}-${hash}${ext}`;
    writeFileAtomicSync(join(folder, name), bytes);
    for (const old of this.list(file).slice(HISTORY_LIMIT)) rmSync(join(folder, old.id), { force: true });
  }

  /** Copies the file as it is on disk now (nothing when it does not exist). */
  record(file: string): void {
    if (!existsSync(file)) return;
    this.recordBytes(file, readFileSync(file));
  }

  /** Newest first; files that are not versions (temp files, strays) are not listed. */
  list(file: string): HistoryVersion[] {
    const folder = this.folder(file);
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .map((id) => ({ id, m: VERSION.exec(id) }))
      .filter((v): v is { id: string; m: RegExpExecArray } => v.m !== null)
      .map(({ id, m }) => ({ id, savedAt: Number.parseInt(m[1], 10), order: Number(m[2] ?? 1), bytes: statSync(join(folder, id)).size }))
      .sort((a, b) => b.savedAt - a.savedAt || b.order - a.order)
      .map(({ id, savedAt, bytes }) => ({ id, savedAt, bytes }));
  }

  path(file: string, id: string): string {
    if (!VERSION.test(id)) throw new Error(`no version ${id}`);
    return join(this.folder(file), id);
  }

  /** The bytes of a version, checked against the hash in its name. */
  read(file: string, id: string): Buffer {
    const bytes = readFileSync(this.path(file, id));
    if (digest(bytes) !== VERSION.exec(id)![3]) throw new DamagedVersionError(id);
    return bytes;
  }
}
