/**
 * Byte-pair merging in O(n log n). js-tiktoken rescans every pair after each merge, which is quadratic in the
 * length of a piece: a run without spaces (base64, minified code, a hash, 'x' × 20,000) took a minute. This
 * gives exactly the same tokens: at each step it merges the adjacent pair of lowest rank, the leftmost of
 * equal ranks, as tiktoken does, but finds it with a heap and updates only the two pairs a merge changes.
 */

export type RankMap = ReadonlyMap<string, number>;

/** A binary min-heap of (rank, start, part, version), ordered by rank then start. */
class PairHeap {
  private rank: number[] = [];
  private start: number[] = [];
  private part: number[] = [];
  private version: number[] = [];

  get size(): number {
    return this.rank.length;
  }

  private less(a: number, b: number): boolean {
    return this.rank[a] < this.rank[b] || (this.rank[a] === this.rank[b] && this.start[a] < this.start[b]);
  }

  private swap(a: number, b: number): void {
    for (const arr of [this.rank, this.start, this.part, this.version]) {
      const t = arr[a];
      arr[a] = arr[b];
      arr[b] = t;
    }
  }

  push(rank: number, start: number, part: number, version: number): void {
    this.rank.push(rank);
    this.start.push(start);
    this.part.push(part);
    this.version.push(version);
    let i = this.rank.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  /** Removes the least entry and returns its part and version. */
  pop(): { part: number; version: number } {
    const top = { part: this.part[0], version: this.version[0] };
    const last = this.rank.length - 1;
    this.swap(0, last);
    this.rank.pop();
    this.start.pop();
    this.part.pop();
    this.version.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.rank.length && this.less(l, m)) m = l;
      if (r < this.rank.length && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
}

function key(bytes: Uint8Array, from: number, to: number): string {
  let s = String(bytes[from]);
  for (let i = from + 1; i < to; i++) s += ',' + bytes[i];
  return s;
}

/** The token ranks of one pre-tokenizer piece (its UTF-8 bytes), merged as tiktoken merges. */
export function bytePairEncode(bytes: Uint8Array, ranks: RankMap): number[] {
  const n = bytes.length;
  if (n === 0) return [];
  const whole = ranks.get(key(bytes, 0, n));
  if (whole !== undefined) return [whole];
  // Parts form a linked list over byte ranges; part i starts at byte i until merged away.
  const end = new Int32Array(n);
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const version = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    end[i] = i + 1;
    next[i] = i + 1 < n ? i + 1 : -1;
    prev[i] = i - 1;
  }
  const heap = new PairHeap();
  const offer = (i: number) => {
    const j = next[i];
    if (j === -1) return;
    const rank = ranks.get(key(bytes, i, end[j]));
    if (rank !== undefined) heap.push(rank, i, i, version[i]);
  };
  for (let i = 0; i + 1 < n; i++) offer(i);
  while (heap.size > 0) {
    const { part: i, version: v } = heap.pop();
    // Stale: part i grew or lost its neighbour since this pair was offered.
    if (v !== version[i] || next[i] === -1) continue;
    const j = next[i];
    end[i] = end[j];
    next[i] = next[j];
    if (next[j] !== -1) prev[next[j]] = i;
    version[i]++;
    version[j]++;
    offer(i);
    const p = prev[i];
    if (p !== -1) {
      version[p]++;
      offer(p);
    }
  }
  const out: number[] = [];
  for (let i = 0; i !== -1; i = next[i]) {
    const rank = ranks.get(key(bytes, i, end[i]));
    if (rank !== undefined) out.push(rank);
  }
  return out;
}
