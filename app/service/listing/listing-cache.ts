import { listCodecs } from '../../../src/core/formats/registry.js';
import type { TreeFile } from '../../../src/core/storage/list-directory.js';
import type { Summary } from './file-summary.js';
import type { WatchEvent } from '../watch/watcher.js';

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
/** What a listing learnt of a file somewhere else (a big file's own service read it whole, or counted it). */
export type ListingNote =
  | { kind: 'summary'; file: string; size: number; mtime: number; summary: Summary; whole: boolean }
  | { kind: 'tokens'; file: string; size: number; mtime: number; model: string; total: number; perConversation?: number[] }
  | { kind: 'findings'; file: string; size: number; mtime: number; found: FoundKeys };

/** The keys of what a file's scan found (a rule and a hash each, never the text): secrets, and personal data. */
export interface FoundKeys {
  secret: string[];
  personal: string[];
}

/** What a listing keeps between runs: the summaries of files read whole, and token totals. */
/** Every format this run reads, and the shape of what a summary holds (bumped when it changes). */
const SUMMARY_SHAPE = 7;
/** The scan's rules (bumped when what they find changes): findings of other rules are found again. */
const FINDINGS_RULES = 1;
function readersNow(): string {
  return `${SUMMARY_SHAPE}:${listCodecs().map((c) => c.id).join(',')}`;
}

export interface ListingSnapshot {
  version: 1;
  /** The formats read when the summaries were made: a run that reads more (or reads them otherwise) makes its own. */
  readers?: string;
  summaries: Array<[file: string, size: number, mtime: number, summary: Summary]>;
  totals: Array<[file: string, size: number, mtime: number, model: string, total: number, perConversation?: number[]]>;
  /** What each file's scan for secrets found, with the rules of `findingsRules`. */
  findings?: Array<[file: string, size: number, mtime: number, found: FoundKeys]>;
  findingsRules?: number;
}

export class ListingCache {
  /** Told of every summary and total set here (a big file's service tells the main one's listing). */
  noted: (note: ListingNote) => void = () => {};
  /** Told after anything worth keeping changed (the main service saves the listing then, a little later). */
  changed: () => void = () => {};

  /** The whole summaries and the totals, to be written down. */
  snapshot(): ListingSnapshot {
    const summaries: ListingSnapshot['summaries'] = [];
    for (const [file, s] of this.summaries) if (s.whole) summaries.push([file, s.size, s.mtime, s.summary]);
    const totals: ListingSnapshot['totals'] = [...this.totals].map(([file, t]) => (t.perConversation ? [file, t.size, t.mtime, t.model, t.total, t.perConversation] : [file, t.size, t.mtime, t.model, t.total]));
    const findings: NonNullable<ListingSnapshot['findings']> = [...this.found].map(([file, f]) => [file, f.size, f.mtime, f.found]);
    return { version: 1, readers: readersNow(), summaries, totals, findings, findingsRules: FINDINGS_RULES };
  }

  /** Takes what an earlier run kept; anything of another shape is ignored (the listing is only a cache). */
  restore(snapshot: unknown): void {
    const s = snapshot as Partial<ListingSnapshot> | null;
    if (!s || s.version !== 1 || !Array.isArray(s.summaries) || !Array.isArray(s.totals)) return;
    // Summaries of another set of readers may call a file unreadable that reads now: only token totals carry over.
    if (s.readers === readersNow()) for (const row of s.summaries) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number' || typeof row[2] !== 'number' || !row[3] || typeof row[3] !== 'object') continue;
      if (!this.summaries.has(row[0])) this.summaries.set(row[0], { size: row[1], mtime: row[2], summary: row[3], whole: true });
    }
    if (s.readers === readersNow() && s.findingsRules === FINDINGS_RULES && Array.isArray(s.findings)) for (const row of s.findings) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number' || typeof row[2] !== 'number') continue;
      const f = row[3] as Partial<FoundKeys> | undefined;
      if (!f || !Array.isArray(f.secret) || !Array.isArray(f.personal)) continue;
      if (!this.found.has(row[0])) this.found.set(row[0], { size: row[1], mtime: row[2], found: { secret: f.secret.filter((k) => typeof k === 'string'), personal: f.personal.filter((k) => typeof k === 'string') } });
    }
    for (const row of s.totals) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number' || typeof row[2] !== 'number' || typeof row[3] !== 'string' || typeof row[4] !== 'number') continue;
      const per = Array.isArray(row[5]) && row[5].every((n) => typeof n === 'number') ? { perConversation: row[5] } : {};
      if (!this.totals.has(row[0])) this.totals.set(row[0], { size: row[1], mtime: row[2], model: row[3], total: row[4], ...per });
    }
  }

  private readonly summaries = new Map<string, Stamp & { summary: Summary; whole: boolean }>();
  private readonly totals = new Map<string, Stamp & { model: string; total: number; perConversation?: number[] }>();
  private readonly found = new Map<string, Stamp & { found: FoundKeys }>();
  /** Each root's files as its last listing found them. */
  private readonly walks = new Map<string, Map<string, Stamp>>();

  hasWalk(root: string): boolean {
    return this.walks.has(root);
  }

  rememberWalk(root: string, files: readonly TreeFile[]): void {
    this.walks.set(root, new Map(files.map((f) => [f.file, { size: f.bytes, mtime: f.modified.getTime() }])));
  }

  /** What differs between the root's last listing and these files (undefined when it was never listed). */
  changesSince(root: string, files: readonly TreeFile[]): WatchEvent[] | undefined {
    const before = this.walks.get(root);
    if (!before) return undefined;
    const events: WatchEvent[] = [];
    const now = new Set<string>();
    for (const f of files) {
      now.add(f.file);
      const was = before.get(f.file);
      if (!was) events.push({ path: f.file, kind: 'added' });
      else if (!same(was, f.bytes, f.modified.getTime())) events.push({ path: f.file, kind: 'changed' });
    }
    for (const file of before.keys()) if (!now.has(file)) events.push({ path: file, kind: 'removed' });
    return events;
  }

  summary(file: string, size: number, mtime: number): { summary: Summary; whole: boolean } | undefined {
    const hit = this.summaries.get(file);
    return hit && same(hit, size, mtime) ? hit : undefined;
  }

  setSummary(file: string, size: number, mtime: number, summary: Summary, whole: boolean): void {
    this.summaries.set(file, { size, mtime: Math.round(mtime), summary, whole });
    this.noted({ kind: 'summary', file, size, mtime, summary, whole });
    if (whole) this.changed();
  }

  /** A note from another service's listing, taken without telling anyone again. */
  take(note: ListingNote): void {
    const noted = this.noted;
    this.noted = () => {};
    if (note.kind === 'summary') this.setSummary(note.file, note.size, note.mtime, note.summary, note.whole);
    else if (note.kind === 'findings') this.setFindings(note.file, note.size, note.mtime, note.found);
    else this.setTokens(note.file, note.size, note.mtime, note.model, note.total, note.perConversation);
    this.noted = noted;
  }

  /** What the file's scan found, while it is as it was scanned. */
  findings(file: string, size: number, mtime: number): FoundKeys | undefined {
    const hit = this.found.get(file);
    return hit && same(hit, size, mtime) ? hit.found : undefined;
  }

  setFindings(file: string, size: number, mtime: number, found: FoundKeys): void {
    this.found.set(file, { size, mtime: Math.round(mtime), found });
    this.noted({ kind: 'findings', file, size, mtime, found });
    this.changed();
  }

  tokens(file: string, size: number, mtime: number, model: string): number | undefined {
    const hit = this.totals.get(file);
    return hit && same(hit, size, mtime) && hit.model === model ? hit.total : undefined;
  }

  /** Each conversation's tokens, for a file of several counted whole. */
  conversationTokens(file: string, size: number, mtime: number, model: string): number[] | undefined {
    const hit = this.totals.get(file);
    return hit && same(hit, size, mtime) && hit.model === model ? hit.perConversation : undefined;
  }

  setTokens(file: string, size: number, mtime: number, model: string, total: number, perConversation?: number[]): void {
    this.totals.set(file, { size, mtime: Math.round(mtime), model, total, ...(perConversation ? { perConversation } : {}) });
    this.noted({ kind: 'tokens', file, size, mtime, model, total, ...(perConversation ? { perConversation } : {}) });
    this.changed();
  }
}
