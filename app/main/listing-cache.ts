import type { Summary } from './file-summary.js';

interface Stamp {
  size: number;
  mtime: number;
}

// Rounded as Node rounds a stat's mtime into its Date (the walk keeps only the Date).
const same = (a: Stamp, size: number, mtime: number) => a.size === size && a.mtime === Math.round(mtime);

/**
 * What the listing knows of each file, valid while its (size, mtime) stay the same: re-listing a folder is a
 * stat per file. Token totals come only from files someone opened (the listing never counts).
 */
export class ListingCache {
  private readonly summaries = new Map<string, Stamp & { summary: Summary; whole: boolean }>();
  private readonly totals = new Map<string, Stamp & { model: string; total: number }>();

  summary(file: string, size: number, mtime: number): { summary: Summary; whole: boolean } | undefined {
    const hit = this.summaries.get(file);
    return hit && same(hit, size, mtime) ? hit : undefined;
  }

  setSummary(file: string, size: number, mtime: number, summary: Summary, whole: boolean): void {
    this.summaries.set(file, { size, mtime: Math.round(mtime), summary, whole });
  }

  tokens(file: string, size: number, mtime: number, model: string): number | undefined {
    const hit = this.totals.get(file);
    return hit && same(hit, size, mtime) && hit.model === model ? hit.total : undefined;
  }

  setTokens(file: string, size: number, mtime: number, model: string, total: number): void {
    this.totals.set(file, { size, mtime: Math.round(mtime), model, total });
  }
}
