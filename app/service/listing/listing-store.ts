import { existsSync, readFileSync } from 'node:fs';
import { writePrivateFileSync } from '../../../src/core/storage/private-dir.js';
import type { ListingCache } from './listing-cache.js';

const SAVE_DELAY_MS = 2000;

/**
 * The listing kept on disk between runs, so that a folder listed before is a stat per file at the next start
 * too (its exact counts and token totals, while each file's size and time stay the same). Written a little
 * after the last change and when the runtime closes; a file that cannot be read or written is only a cold start.
 * Several services share the file (the folder opened next starts before the last one closes, and a second
 * window has its own): each write takes in what the others wrote since, so none of them loses another's totals.
 */
export function persistListing(listing: ListingCache, file: string): { flush(): void } {
  const takeIn = () => {
    try {
      if (existsSync(file)) listing.restore(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      // Damaged or foreign: the listing starts empty and the next save replaces it.
    }
  };
  takeIn();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = false;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    // What this service knows wins: restore only adds what it does not hold.
    takeIn();
    try {
      writePrivateFileSync(file, JSON.stringify(listing.snapshot()));
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
