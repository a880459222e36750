import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { removeStaleTempsIn, writeFileAtomicSync } from '../../../src/core/storage/atomic-write.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../../src/core/storage/private-dir.js';

export const HISTORY_LIMIT = 20;
/** Past these, the oldest versions go (a file's newest is always kept): twenty saves of a 100 MB file are 2 GB. */
export const FILE_BYTES_LIMIT = 512 * 1024 * 1024;
export const TOTAL_BYTES_LIMIT = 2 * 1024 * 1024 * 1024;

export interface HistoryLimits {
  versions?: number;
  fileBytes?: number;
  totalBytes?: number;
  /** When a version is taken (tests give their own clock). */
  clock?: () => number;
}

export interface HistoryVersion {
  id: string;
  savedAt: number;
  bytes: number;
}

/** `<ms since epoch>[-n]-<sha256 prefix of the content>.<ext>`: the name says when, and what the bytes must hash to. */
const VERSION = /^([0-9]+)(?:-([0-9]+))?-([0-9a-f]{16})(\.[a-z]+)$/;

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/**
 * No version by that id: `malformed` when the id is none a version could have (a request's mistake), else one
 * that is not (or no longer) kept. The message names the id, never the private folder.
 */
export class NoSuchVersionError extends Error {
  constructor(
    id: string,
    readonly malformed: boolean,
  ) {
    super(malformed ? `${JSON.stringify(id)} is not the id of a saved version` : `no saved version ${id}`);
    this.name = 'NoSuchVersionError';
  }
}

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
  private readonly limits: Required<HistoryLimits>;

  constructor(
    private readonly dir: string,
    limits: HistoryLimits = {},
  ) {
    this.limits = { versions: limits.versions ?? HISTORY_LIMIT, fileBytes: limits.fileBytes ?? FILE_BYTES_LIMIT, totalBytes: limits.totalBytes ?? TOTAL_BYTES_LIMIT, clock: limits.clock ?? Date.now };
  }

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
    const now = this.limits.clock();
    // Versions taken in the same millisecond are numbered in the order taken (the list's newest first relies on
    // it), whatever their bytes.
    const order = readdirSync(folder).reduce((most, id) => {
      const m = VERSION.exec(id);
      return m && m[1] === String(now) ? Math.max(most, Number(m[2] ?? 1)) : most;
    }, 0);
    const name = order === 0 ? `${now}-${hash}${ext}` : `${now}-${order + 1}-${hash}${ext}`;
    writeFileAtomicSync(join(folder, name), bytes, { mode: PRIVATE_FILE_MODE });
    let kept = 0;
    this.list(file).forEach((v, i) => {
      kept += v.bytes;
      if (i > 0 && (i >= this.limits.versions || kept > this.limits.fileBytes)) rmSync(join(folder, v.id), { force: true });
    });
    this.pruneTotal();
  }

  /** Every file's versions together within the total: the oldest go first, each file's newest stays. */
  private pruneTotal(): void {
    const all: Array<{ path: string; savedAt: number; bytes: number }> = [];
    let total = 0;
    for (const entry of readdirSync(this.dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const folder = join(this.dir, entry.name);
      const versions = versionsIn(folder);
      versions.forEach((v, i) => {
        total += v.bytes;
        if (i > 0) all.push({ path: join(folder, v.id), savedAt: v.savedAt, bytes: v.bytes });
      });
    }
    if (total <= this.limits.totalBytes) return;
    all.sort((a, b) => a.savedAt - b.savedAt);
    for (const v of all) {
      if (total <= this.limits.totalBytes) break;
      rmSync(v.path, { force: true });
      total -= v.bytes;
    }
  }

  /** Copies the file as it is on disk now (nothing when it does not exist). */
  record(file: string): void {
    if (!existsSync(file)) return;
    this.recordBytes(file, readFileSync(file));
  }

  /** Newest first; files that are not versions (temp files, strays) are not listed. */
  list(file: string): HistoryVersion[] {
    return versionsIn(this.folder(file));
  }

  path(file: string, id: string): string {
    if (!VERSION.test(id)) throw new NoSuchVersionError(id, true);
    return join(this.folder(file), id);
  }

  /** The bytes of a version, checked against the hash in its name. */
  read(file: string, id: string): Buffer {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.path(file, id));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new NoSuchVersionError(id, false);
      throw e;
    }
    if (digest(bytes) !== VERSION.exec(id)![3]) throw new DamagedVersionError(id);
    return bytes;
  }
}

/** The versions in one file's folder, newest first; files that are not versions (temp files, strays) are not listed. */
function versionsIn(folder: string): HistoryVersion[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .map((id) => ({ id, m: VERSION.exec(id) }))
    .filter((v): v is { id: string; m: RegExpExecArray } => v.m !== null)
    .map(({ id, m }) => ({ id, savedAt: Number.parseInt(m[1], 10), order: Number(m[2] ?? 1), bytes: statSync(join(folder, id)).size }))
    .sort((a, b) => b.savedAt - a.savedAt || b.order - a.order)
    .map(({ id, savedAt, bytes }) => ({ id, savedAt, bytes }));
}
