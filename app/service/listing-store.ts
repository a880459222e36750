import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '../../src/core/storage/atomic-write.js';
import { ensurePrivateDir } from '../../src/core/storage/private-dir.js';
import type { ListingCache } from './listing-cache.js';

const SAVE_DELAY_MS = 2000;

/**
 * The listing kept on disk between runs, so that a folder listed before is a stat per file at the next start
 * too (its exact counts and token totals, while each file's size and time stay the same). Written a little
 * after the last change and when the runtime closes; a file that cannot be read or written is only a cold start.
 */
export function persistListing(listing: ListingCache, file: string): { flush(): void } {
  try {
    if (existsSync(file)) listing.restore(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    // Damaged or foreign: the listing starts empty and the next save replaces it.
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = false;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    try {
      ensurePrivateDir(dirname(file));
      writeFileAtomicSync(file, JSON.stringify(listing.snapshot()));
    } catch {
      // A cache: not being able to keep it costs the next start a listing, nothing else.
    }
  };
  listing.changed = () => {
    dirty = true;
    if (timer) return;
    timer = setTimeout(flush, SAVE_DELAY_MS);
    timer.unref?.();
  };
  return { flush };
}
