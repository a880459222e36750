import { foldCase, isWordUnitAt, MAX_WORD, wordEndAt } from './words.js';

/**
 * A copy of a slice that holds no reference to the text it was cut from (V8 keeps long slices as views
 * into their parent, which would keep every message a word was first met in alive).
 */
const flat = (s: string): string => (s.length < 13 ? s : s.split('').join(''));

/** FNV-1a over UTF-16 units: what `scan` computes as it walks a word. */
function hashOf(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Every word the index has met, by id (ids never change while the index lives), and the words in sorted
 * order for prefix lookups, kept up to date as words come in.
 */
export class Dictionary {
  private readonly words: string[] = [];
  private readonly hashes: number[] = [];
  /** Open addressing: id + 1 per slot, 0 for empty; at most half full. */
  private table = new Int32Array(1 << 12);
  /** Ids in their words' code-unit order; the words met since it was made are merged in on the next lookup. */
  private sorted: number[] = [];
  private sortedUpTo = 0;

  constructor(words: readonly string[] = []) {
    for (const w of words) this.idOf(w);
  }

  get size(): number {
    return this.words.length;
  }

  all(): readonly string[] {
    return this.words;
  }

  idOf(word: string): number {
    return this.idAt(word, 0, word.length, hashOf(word, 0, word.length));
  }

  /** The id of text[start, end) (lowercase already), added if new. */
  private idAt(text: string, start: number, end: number, hash: number): number {
    const mask = this.table.length - 1;
    const len = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot];
      if (entry === 0) break;
      const id = entry - 1;
      if (this.hashes[id] !== hash) continue;
      const w = this.words[id];
      if (w.length === len && text.startsWith(w, start)) return id;
    }
    const id = this.words.length;
    this.words.push(start === 0 && end === text.length ? text : flat(text.slice(start, end)));
    this.hashes.push(hash);
    if (this.words.length * 2 > this.table.length) this.rehash();
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    const mask = this.table.length - 1;
    let slot = this.hashes[id] & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = id + 1;
  }

  private rehash(): void {
    this.table = new Int32Array(this.table.length * 2);
    for (let id = 0; id < this.words.length; id++) this.place(id);
  }

  /**
   * The id of every word of `text`, in order: the words of `forEachWord` (lowercased, cut to MAX_WORD),
   * found without making a string for words met before.
   */
  scan(text: string, each: (id: number) => void): void {
    const lower = foldCase(text);
    const n = lower.length;
    let i = 0;
    while (i < n) {
      while (i < n && !isWordUnitAt(lower, i)) i++;
      if (i >= n) return;
      const start = i;
      let h = 0x811c9dc5;
      const end = wordEndAt(lower, start);
      for (; i < end; i++) if (i - start < MAX_WORD) h = Math.imul(h ^ lower.charCodeAt(i), 0x01000193);
      each(this.idAt(lower, start, Math.min(i, start + MAX_WORD), h >>> 0));
    }
  }

  private order(): number[] {
    if (this.sortedUpTo === this.words.length) return this.sorted;
    const words = this.words;
    const cmp = (a: number, b: number) => (words[a] < words[b] ? -1 : words[a] > words[b] ? 1 : 0);
    const fresh: number[] = [];
    for (let id = this.sortedUpTo; id < words.length; id++) fresh.push(id);
    fresh.sort(cmp);
    // A merge of two sorted runs: a watcher's few new words cost a pass, not a sort of all.
    const merged: number[] = new Array(this.sorted.length + fresh.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sorted.length && j < fresh.length) merged[k++] = cmp(this.sorted[i], fresh[j]) <= 0 ? this.sorted[i++] : fresh[j++];
    while (i < this.sorted.length) merged[k++] = this.sorted[i++];
    while (j < fresh.length) merged[k++] = fresh[j++];
    this.sorted = merged;
    this.sortedUpTo = words.length;
    return merged;
  }

  /** The ids of every word beginning with `prefix`. */
  withPrefix(prefix: string): number[] {
    const order = this.order();
    const words = this.words;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (words[order[mid]] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < order.length && words[order[i]].startsWith(prefix); i++) out.push(order[i]);
    return out;
  }
}
