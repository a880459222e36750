import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../../src/core/storage/private-dir.js';

/** hash (16 bytes) · count (u32) · check (u32): a torn or foreign record fails its check and ends the read. */
const RECORD = 24;
const CHECK_SALT = 0x9e3779b9;

function check(record: Buffer): number {
  return (record.readUInt32LE(0) ^ record.readUInt32LE(4) ^ record.readUInt32LE(8) ^ record.readUInt32LE(12) ^ record.readUInt32LE(16) ^ CHECK_SALT) >>> 0;
}

/** The key of a text: 16 bytes of its SHA-1, as a string a Map can hold cheaply. */
function keyOf(text: string): string {
  return createHash('sha1').update(text).digest().toString('latin1', 0, 16);
}

/**
 * Token counts by (encoding, content hash), kept on disk in a private folder: a reopened file, or a file that
 * shares messages with another (sub-agent transcripts, forks, datasets), is counted without counting again.
 * Bounded: past `maxEntries` per encoding the older half is dropped when the file is rewritten.
 */
export class CountCache {
  private readonly maps = new Map<string, Map<string, number>>();
  private readonly pending = new Map<string, Buffer[]>();

  constructor(private readonly dir: string | undefined, private readonly maxEntries = 2_000_000) {}

  private file(encoding: string): string | undefined {
    return this.dir && /^[a-z0-9_]+$/.test(encoding) ? join(this.dir, `${encoding}.counts`) : undefined;
  }

  private map(encoding: string): Map<string, number> {
    let map = this.maps.get(encoding);
    if (map) return map;
    map = new Map();
    this.maps.set(encoding, map);
    const file = this.file(encoding);
    try {
      if (file && existsSync(file)) {
        const bytes = readFileSync(file);
        for (let at = 0; at + RECORD <= bytes.length; at += RECORD) {
          const record = bytes.subarray(at, at + RECORD);
          if (check(record) !== record.readUInt32LE(20)) break;
          map.set(record.toString('latin1', 0, 16), record.readUInt32LE(16));
        }
      }
    } catch {
      // An unreadable cache is an empty one: counts are recomputed, never wrong.
    }
    return map;
  }

  get(encoding: string, text: string): number | undefined {
    return this.map(encoding).get(keyOf(text));
  }

  set(encoding: string, text: string, count: number): void {
    const key = keyOf(text);
    const map = this.map(encoding);
    if (map.get(key) === count) return;
    map.set(key, count);
    if (!this.file(encoding)) return;
    const record = Buffer.alloc(RECORD);
    record.write(key, 0, 16, 'latin1');
    record.writeUInt32LE(count >>> 0, 16);
    record.writeUInt32LE(check(record), 20);
    let list = this.pending.get(encoding);
    if (!list) this.pending.set(encoding, (list = []));
    list.push(record);
  }

  /** Writes what was added since the last flush (one append per encoding); compacts a cache past its bound. */
  flush(): void {
    if (!this.dir) return;
    try {
      ensurePrivateDir(this.dir);
      for (const [encoding, records] of this.pending) {
        const file = this.file(encoding)!;
        const map = this.map(encoding);
        if (map.size > this.maxEntries) {
          // Insertion order is age: the newest half stays.
          const keep = [...map].slice(map.size - Math.floor(this.maxEntries / 2));
          map.clear();
          const out = Buffer.alloc(keep.length * RECORD);
          keep.forEach(([key, count], i) => {
            map.set(key, count);
            const record = out.subarray(i * RECORD, (i + 1) * RECORD);
            record.write(key, 0, 16, 'latin1');
            record.writeUInt32LE(count >>> 0, 16);
            record.writeUInt32LE(check(record), 20);
          });
          const temp = `${file}.${process.pid}.tmp`;
          writeFileSync(temp, out, { mode: 0o600 });
          renameSync(temp, file);
        } else appendFileSync(file, Buffer.concat(records), { mode: 0o600 });
      }
    } catch {
      // A cache that cannot be written only costs a recount next time.
    }
    this.pending.clear();
  }
}
