import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../storage/atomic-write.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../storage/private-dir.js';

interface Kept {
  file: string;
  dismissed: string[];
}

/**
 * Findings the user called false positives, per file: one small JSON file per conversation file in the state
 * folder (named by a hash of its path), so that the app's services and the CLI, each reading and writing its
 * own, never write over one another's. What is kept is a finding's key (its rule and a hash of the text
 * found), never the text.
 */
export class DismissedFindings {
  private readonly read = new Map<string, { mtime: number; keys: Set<string> }>();

  constructor(private readonly dir: string) {}

  private fileFor(absolute: string): string {
    return join(this.dir, `${createHash('sha256').update(absolute).digest('hex').slice(0, 32)}.json`);
  }

  /** The keys dismissed in this file (read again when another process changed them). */
  of(absolute: string): ReadonlySet<string> {
    const file = this.fileFor(absolute);
    let mtime: number;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {
      this.read.delete(absolute);
      return new Set();
    }
    const hit = this.read.get(absolute);
    if (hit && hit.mtime === mtime) return hit.keys;
    let keys = new Set<string>();
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<Kept>;
      // A hash clash of two paths is told by the path kept inside.
      if (kept.file === absolute && Array.isArray(kept.dismissed)) keys = new Set(kept.dismissed.filter((k): k is string => typeof k === 'string'));
    } catch {
      // a damaged file dismisses nothing; the next dismissal writes it whole again
    }
    this.read.set(absolute, { mtime, keys });
    return keys;
  }

  /** Dismisses (or brings back) these findings of a file. */
  set(absolute: string, keys: readonly string[], dismissed: boolean): ReadonlySet<string> {
    const next = new Set(this.of(absolute));
    for (const k of keys) {
      if (dismissed) next.add(k);
      else next.delete(k);
    }
    ensurePrivateDir(this.dir);
    const file = this.fileFor(absolute);
    writeFileAtomicSync(file, JSON.stringify({ file: absolute, dismissed: [...next].sort() } satisfies Kept, null, 1) + '\n', { mode: PRIVATE_FILE_MODE });
    this.read.set(absolute, { mtime: statSync(file).mtimeMs, keys: next });
    return next;
  }
}
