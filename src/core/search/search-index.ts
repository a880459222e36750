import { Dictionary } from './dictionary.js';
import { locate, messageCount, termSlot, type Segment } from './segment.js';

export interface IndexHit {
  path: string;
  format: string;
  conversation: number;
  index: number;
  role: string;
}

export interface IndexQuery {
  /** Every one must begin a word of the message (see `queryTerms`). */
  terms: readonly string[];
  /** Only messages of these roles (as the index keeps them: normal roles). */
  roles?: readonly string[];
  /** Only files of these formats (codec ids). */
  formats?: readonly string[];
  /** Hits returned at most. */
  limit?: number;
  /** Counting stops past this many matches (a one-letter prefix matches most of a million messages). */
  countLimit?: number;
}

export interface KeptIndex {
  words: readonly string[];
  roles: readonly string[];
  segments: readonly Segment[];
}

export interface IndexAnswer {
  hits: IndexHit[];
  /** Every matching message, beyond the limit too (up to countLimit). */
  total: number;
  /** Files holding a match (up to where counting stopped). */
  files: number;
  /** Counting stopped at countLimit: total and files are lower bounds. */
  atLeast: boolean;
  /** Matches in each file that has hits listed (all of its matches, listed or not). */
  fileTotals: Record<string, number>;
}

/** The dictionary ids a term stands for, and for a term of many, a mask of them over the dictionary. */
interface Wanted {
  ids: number[];
  mask?: Uint8Array;
}
const MANY_WORDS = 32;

import { comparePaths } from './compare-paths.js';

export { comparePaths };

/**
 * Word search over many files: a segment per file, replaced whole when the file changes. A query looks up
 * each term's word range in every segment (a binary search) and intersects the messages there, rarest term
 * first; nothing is scanned.
 */
export class SearchIndex {
  private readonly segments = new Map<string, Segment>();
  readonly dictionary: Dictionary;
  private order: Segment[] | undefined;
  private readonly roleNames: string[] = [];
  private readonly roleCodes = new Map<string, number>();
  // Reused per query: a stamp per ordinal says which term last marked it.
  private seen = new Uint32Array(1024);
  private stamp = 0;

  constructor(words: readonly string[] = []) {
    this.dictionary = new Dictionary(words);
  }

  roleCode = (role: string): number => {
    let code = this.roleCodes.get(role);
    if (code === undefined) {
      // Codes are a byte: past 255 distinct roles the rest share the last.
      code = Math.min(this.roleNames.length, 255);
      if (code === this.roleNames.length) this.roleNames.push(role);
      this.roleCodes.set(role, code);
    }
    return code;
  };

  get roles(): readonly string[] {
    return this.roleNames;
  }

  get size(): { files: number; messages: number } {
    let messages = 0;
    for (const s of this.segments.values()) messages += messageCount(s);
    return { files: this.segments.size, messages };
  }

  has(path: string, size: number, mtimeMs: number): boolean {
    const s = this.segments.get(path);
    return s !== undefined && s.size === size && s.mtimeMs === mtimeMs;
  }

  paths(): string[] {
    return [...this.segments.keys()];
  }

  /** Adds or replaces a file's segment (built with this index's dictionary and `roleCode`). */
  put(segment: Segment): void {
    this.segments.set(segment.path, segment);
    this.order = undefined;
  }

  remove(path: string): boolean {
    const had = this.segments.delete(path);
    if (had) this.order = undefined;
    return had;
  }

  /** The segments and role names, for keeping the index between runs. */
  export(): KeptIndex {
    return { words: this.dictionary.all().slice(), roles: this.roleNames.slice(), segments: [...this.segments.values()] };
  }

  /** An index kept by `export`. */
  static from(kept: KeptIndex): SearchIndex {
    const index = new SearchIndex(kept.words);
    kept.roles.forEach((r) => index.roleCode(r));
    for (const s of kept.segments) index.put(s);
    return index;
  }

  private sorted(): Segment[] {
    this.order ??= [...this.segments.values()].sort((a, b) => comparePaths(a.path, b.path));
    return this.order;
  }

  query(q: IndexQuery): IndexAnswer {
    const limit = q.limit ?? 500;
    const countLimit = q.countLimit ?? Infinity;
    const hits: IndexHit[] = [];
    const fileTotals: Record<string, number> = {};
    let total = 0;
    let files = 0;
    if (q.terms.length === 0) return { hits, total, files, atLeast: false, fileTotals };
    const formats = q.formats?.length ? new Set(q.formats) : undefined;
    let roleMask: Uint8Array | undefined;
    if (q.roles?.length) {
      roleMask = new Uint8Array(256);
      for (const r of q.roles) {
        const code = this.roleCodes.get(r);
        if (code !== undefined) roleMask[code] = 1;
      }
    }
    // Terms with the fewest words first: most segments lack one of them, and a segment stops at the first it lacks.
    const wanted: Wanted[] = q.terms.map((t) => ({ ids: this.dictionary.withPrefix(t) })).sort((a, b) => a.ids.length - b.ids.length);
    if (wanted.some((w) => w.ids.length === 0)) return { hits, total, files, atLeast: false, fileTotals };
    // A term of many words (a short prefix) is looked up by a pass over each segment's words, against a mask made once.
    for (const w of wanted) {
      if (w.ids.length <= MANY_WORDS) continue;
      w.mask = new Uint8Array(this.dictionary.size);
      for (const id of w.ids) w.mask[id] = 1;
    }
    for (const seg of this.sorted()) {
      if (total >= countLimit && hits.length >= limit) return { hits, total, files, atLeast: true, fileTotals };
      if (formats && !formats.has(seg.format)) continue;
      const found = this.matchIn(seg, wanted, roleMask);
      if (found.length === 0) continue;
      files++;
      total += found.length;
      if (hits.length < limit) fileTotals[seg.path] = found.length;
      for (let i = 0; i < found.length && hits.length < limit; i++) {
        const at = locate(seg, found[i]);
        hits.push({ path: seg.path, format: seg.format, conversation: at.conversation, index: at.index, role: this.roleNames[seg.roles[found[i]]] });
      }
    }
    return { hits, total, files, atLeast: false, fileTotals };
  }

  /** The segment's slots of any of these word ids: a binary search each, or one pass over its terms for many. */
  private slotsOf(seg: Segment, want: Wanted): number[] {
    const slots: number[] = [];
    const { ids, mask } = want;
    if (!mask || ids.length * 16 < seg.terms.length) {
      for (const id of ids) {
        const s = termSlot(seg, id);
        if (s >= 0) slots.push(s);
      }
      return slots;
    }
    for (let s = 0; s < seg.terms.length; s++) if (mask[seg.terms[s]] === 1) slots.push(s);
    return slots;
  }

  /** The ordinals of the segment's messages holding a word of every set, ascending. */
  private matchIn(seg: Segment, wanted: readonly Wanted[], roleMask: Uint8Array | undefined): number[] {
    const ranges: Array<{ slots: number[]; postings: number }> = [];
    for (const want of wanted) {
      const slots = this.slotsOf(seg, want);
      if (slots.length === 0) return [];
      let postings = 0;
      for (const s of slots) postings += seg.postStart[s + 1] - seg.postStart[s];
      ranges.push({ slots, postings });
    }
    ranges.sort((a, b) => a.postings - b.postings);
    const n = messageCount(seg);
    if (this.seen.length < n) this.seen = new Uint32Array(Math.max(n, this.seen.length * 2));
    let candidates: number[] | undefined;
    for (const r of ranges) {
      const stamp = this.nextStamp();
      if (candidates === undefined) {
        const first: number[] = [];
        for (const s of r.slots) {
          for (let p = seg.postStart[s]; p < seg.postStart[s + 1]; p++) {
            const o = seg.postings[p];
            if (this.seen[o] === stamp) continue;
            this.seen[o] = stamp;
            if (!roleMask || roleMask[seg.roles[o]]) first.push(o);
          }
        }
        // One word's postings are ascending already; several words' are merged by sorting.
        if (r.slots.length > 1) first.sort((a, b) => a - b);
        candidates = first;
      } else {
        for (const s of r.slots) for (let p = seg.postStart[s]; p < seg.postStart[s + 1]; p++) this.seen[seg.postings[p]] = stamp;
        candidates = candidates.filter((o) => this.seen[o] === stamp);
      }
      if (candidates.length === 0) return candidates;
    }
    return candidates ?? [];
  }

  private nextStamp(): number {
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
}
