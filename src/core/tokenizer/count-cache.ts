import { hash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../storage/private-dir.js';

/** hash (16 bytes) · count (u32) · check (u32): a torn or foreign record fails its check and ends the read. */
const RECORD = 24;
const WORDS = RECORD / 4;
const CHECK_SALT = 0x9e3779b9;

const checkOf = (w0: number, w1: number, w2: number, w3: number, count: number) => (w0 ^ w1 ^ w2 ^ w3 ^ count ^ CHECK_SALT) >>> 0;

/** The key of a text: the first 16 bytes of its SHA-1, as four words. */
function keyOf(text: string): Uint32Array {
  // The one-shot hash: no Hash object per text (a reopened 100 MB file hashes 300,000 of them).
  const digest = hash('sha1', text, 'buffer') as Buffer;
  return new Uint32Array([digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12)]);
}

/**
 * One encoding's counts: the records of its file, as read, indexed by an open-addressing table over their
 * hashes (a million records load in milliseconds: nothing is made per record but a slot), and the records
 * this process added. Later records of a key win.
 */
class Table {
  /** Records (6 words each): those read from the file, then those added. */
  private words: Uint32Array;
  private size = 0;
  /** Built at the first lookups past a few: a command that looks up a handful of texts only scans. */
  private indexed: Int32Array | undefined;
  private scans = 0;
  readonly pending: Uint32Array[] = [];

  constructor(records: Uint32Array, count: number) {
    this.words = records;
    this.size = count;
  }

  private get slots(): Int32Array {
    if (!this.indexed) {
      this.indexed = new Int32Array(1 << Math.max(4, Math.ceil(Math.log2((this.size + 16) * 2)))).fill(-1);
      for (let r = 0; r < this.size; r++) this.index(r);
    }
    return this.indexed;
  }

  /** The newest record of a key, by a scan from the end (no index). */
  private scan(key: Uint32Array): number | undefined {
    const w = this.words;
    const [k0, k1, k2, k3] = key;
    for (let at = (this.size - 1) * WORDS; at >= 0; at -= WORDS) {
      if (w[at] === k0 && w[at + 1] === k1 && w[at + 2] === k2 && w[at + 3] === k3) return w[at + 4];
    }
    return undefined;
  }

  get count(): number {
    return this.size;
  }

  private same(r: number, key: ArrayLike<number>): boolean {
    const w = this.words;
    const at = r * WORDS;
    return w[at] === key[0] && w[at + 1] === key[1] && w[at + 2] === key[2] && w[at + 3] === key[3];
  }

  private index(r: number): void {
    const words = this.words;
    const slots = this.indexed!;
    const mask = slots.length - 1;
    const at = r * WORDS;
    const k0 = words[at];
    const k1 = words[at + 1];
    const k2 = words[at + 2];
    const k3 = words[at + 3];
    // Nothing allocated per record: a million of them are indexed at load.
    for (let s = k0 & mask; ; s = (s + 1) & mask) {
      const there = slots[s];
      if (there === -1) {
        slots[s] = r;
        return;
      }
      const t = there * WORDS;
      if (words[t] === k0 && words[t + 1] === k1 && words[t + 2] === k2 && words[t + 3] === k3) {
        slots[s] = r;
        return;
      }
    }
  }

  get(key: Uint32Array): number | undefined {
    if (!this.indexed && this.scans++ < 32) return this.scan(key);
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let s = key[0] & mask; ; s = (s + 1) & mask) {
      const r = slots[s];
      if (r === -1) return undefined;
      if (this.same(r, key)) return this.words[r * WORDS + 4];
    }
  }

  add(key: Uint32Array, count: number): void {
    if ((this.size + 1) * WORDS > this.words.length) {
      const grown = new Uint32Array(Math.max(64 * WORDS, this.words.length * 2));
      grown.set(this.words.subarray(0, this.size * WORDS));
      this.words = grown;
    }
    if (this.indexed && (this.size + 1) * 2 > this.indexed.length) {
      this.indexed = new Int32Array(this.indexed.length * 2).fill(-1);
      for (let r = 0; r < this.size; r++) this.index(r);
    }
    const at = this.size * WORDS;
    const record = new Uint32Array([key[0], key[1], key[2], key[3], count >>> 0, checkOf(key[0], key[1], key[2], key[3], count >>> 0)]);
    this.words.set(record, at);
    if (this.indexed) this.index(this.size);
    this.size++;
    this.pending.push(record);
  }

  /** The newest `keep` records of distinct keys (a record whose key's slot points at it), oldest first. */
  newest(keep: number): Uint32Array {
    const latest: number[] = [];
    for (let r = this.size - 1; r >= 0 && latest.length < keep; r--) {
      if (this.slotOf(r)) latest.push(r);
    }
    const out = new Uint32Array(latest.length * WORDS);
    latest.reverse().forEach((r, k) => out.set(this.words.subarray(r * WORDS, (r + 1) * WORDS), k * WORDS));
    return out;
  }

  private slotOf(r: number): boolean {
    const mask = this.slots.length - 1;
    for (let s = this.words[r * WORDS] & mask; ; s = (s + 1) & mask) {
      const there = this.slots[s];
      if (there === -1) return false;
      if (there === r) return true;
    }
  }
}

/** The valid records at the start of a cache file, as words (copied: a file's buffer need not be aligned). */
function readRecords(file: string): { records: Uint32Array; count: number; damaged: boolean } {
  const bytes = readFileSync(file);
  const whole = Math.floor(bytes.length / RECORD);
  let words: Uint32Array;
  if (bytes.byteOffset % 4 === 0) words = new Uint32Array(bytes.buffer, bytes.byteOffset, whole * WORDS);
  else {
    words = new Uint32Array(whole * WORDS);
    new Uint8Array(words.buffer).set(bytes.subarray(0, whole * RECORD));
  }
  let count = 0;
  while (count < whole) {
    const at = count * WORDS;
    if (checkOf(words[at], words[at + 1], words[at + 2], words[at + 3], words[at + 4]) !== words[at + 5]) break;
    count++;
  }
  return { records: words, count, damaged: count * RECORD !== bytes.length };
}

/**
 * Token counts by (encoding, content hash), kept on disk in a private folder: a reopened file, or a file that
 * shares messages with another (sub-agent transcripts, forks, datasets), is counted without counting again.
 * Bounded: past `maxEntries` per encoding the older half is dropped when the file is rewritten.
 */
export class CountCache {
  private readonly tables = new Map<string, Table>();
  private readonly damaged = new Set<string>();

  constructor(private readonly dir: string | undefined, private readonly maxEntries = 2_000_000) {}

  private file(encoding: string): string | undefined {
    return this.dir && /^[a-z0-9_]+$/.test(encoding) ? join(this.dir, `${encoding}.counts`) : undefined;
  }

  private table(encoding: string): Table {
    let table = this.tables.get(encoding);
    if (table) return table;
    let read: { records: Uint32Array; count: number; damaged: boolean } = { records: new Uint32Array(0), count: 0, damaged: false };
    const file = this.file(encoding);
    try {
      if (file && existsSync(file)) read = readRecords(file);
    } catch {
      // An unreadable cache is an empty one: counts are recomputed, never wrong.
    }
    table = new Table(read.records, read.count);
    // Records appended after a torn or foreign one would never be read: the next flush rewrites the file.
    if (read.damaged) this.damaged.add(encoding);
    this.tables.set(encoding, table);
    return table;
  }

  get(encoding: string, text: string): number | undefined {
    return this.table(encoding).get(keyOf(text));
  }

  set(encoding: string, text: string, count: number): void {
    const key = keyOf(text);
    const table = this.table(encoding);
    if (table.get(key) === count >>> 0) return;
    table.add(key, count);
  }

  /** Writes what was added since the last flush (one append per encoding); compacts a cache past its bound. */
  flush(): void {
    if (!this.dir) return;
    try {
      for (const [encoding, table] of this.tables) {
        if (table.pending.length === 0) continue;
        ensurePrivateDir(this.dir);
        const file = this.file(encoding)!;
        const bytes = (words: Uint32Array) => Buffer.from(words.buffer, words.byteOffset, words.byteLength);
        if (table.count > this.maxEntries || this.damaged.has(encoding)) {
          // Insertion order is age: the newest half stays (all of them when only rewriting a damaged file).
          const kept = table.newest(table.count > this.maxEntries ? Math.floor(this.maxEntries / 2) : table.count);
          this.damaged.delete(encoding);
          const temp = `${file}.${process.pid}.tmp`;
          writeFileSync(temp, bytes(kept), { mode: 0o600 });
          renameSync(temp, file);
          this.tables.set(encoding, new Table(kept, kept.length / WORDS));
        } else {
          const all = new Uint32Array(table.pending.length * WORDS);
          table.pending.forEach((r, k) => all.set(r, k * WORDS));
          appendFileSync(file, bytes(all), { mode: 0o600 });
        }
        table.pending.length = 0;
      }
    } catch {
      // A cache that cannot be written only costs a recount next time.
    }
  }
}
