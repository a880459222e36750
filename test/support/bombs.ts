// Decompression bombs, made small on disk: what a container or a huge record costs to read, tested by the bytes
// a file declares and the bytes it really inflates to. Every bomb here is a valid file of its kind (zstd,
// gzip, ZIP, SQLite with its write-ahead log), its one huge value a JSON string of `filler`.
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';

const MB = 1024 * 1024;

/**
 * What a bomb inflates to: `prefix`, then `bytes` of `filler` (whole mebibytes), then `suffix`. Filler is one
 * character: a JSON string's body.
 */
export interface BombText {
  prefix: string;
  bytes: number;
  suffix: string;
  filler?: string;
}

const fillerOf = (t: BombText) => Buffer.alloc(MB, t.filler ?? 'a');
const wholeMB = (t: BombText) => {
  if (t.bytes % MB !== 0) throw new Error('a bomb inflates to whole mebibytes of filler');
  return t.bytes / MB;
};

/** A Claude Code session's line whose one message is `bytes` long: the huge record of a JSONL history. */
export const hugeLine = (bytes: number, filler = 'a'): BombText => ({
  prefix: '{"parentUuid":null,"isSidechain":false,"type":"user","sessionId":"5e55a0b1-0000-4000-8000-000000000001","uuid":"b0000000-0000-4000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"',
  bytes,
  suffix: '"}}\n',
  filler,
});

/** gzip members joined (a file gunzip reads as their texts joined): each mebibyte costs a kilobyte on disk. */
export function gzipBomb(t: BombText): Buffer {
  const one = gzipSync(fillerOf(t), { level: 9 });
  const n = wholeMB(t);
  return Buffer.concat([gzipSync(t.prefix), ...Array.from({ length: n }, () => one), gzipSync(t.suffix)]);
}

/**
 * Raw deflate of the text, each piece compressed on its own and flushed to a byte boundary, so a compressed
 * mebibyte is repeated as it is (its back-references stay inside it).
 */
function deflateBomb(t: BombText): { data: Buffer; size: number; crc: number } {
  const sync = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };
  const filler = fillerOf(t);
  const one = deflateRawSync(filler, sync);
  const n = wholeMB(t);
  let crc = crc32(t.prefix);
  for (let i = 0; i < n; i++) crc = crc32(filler, crc);
  crc = crc32(t.suffix, crc);
  const data = Buffer.concat([deflateRawSync(t.prefix, sync), ...Array.from({ length: n }, () => one), deflateRawSync(t.suffix)]);
  return { data, size: Buffer.byteLength(t.prefix) + t.bytes + Buffer.byteLength(t.suffix), crc };
}

export interface ZipEntry {
  name: string;
  /** Stored as it is. */
  text?: string;
  /** Deflated, as a bomb. */
  bomb?: BombText;
  /** The inflated size the archive's headers declare, when it lies (else the real one). */
  declared?: number;
}

/** A ZIP archive (as Python's zipfile writes one: local headers, data, the central directory, its end). */
export function zipArchive(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const body = e.bomb ? deflateBomb(e.bomb) : { data: Buffer.from(e.text ?? ''), size: Buffer.byteLength(e.text ?? ''), crc: crc32(e.text ?? '') };
    const method = e.bomb ? 8 : 0;
    const size = e.declared ?? body.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(body.crc, 14);
    local.writeUInt32LE(body.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body.data);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(method, 10);
    dir.writeUInt32LE(body.crc, 16);
    dir.writeUInt32LE(body.data.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += 30 + name.length + body.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** An Inspect .eval archive whose header.json is one huge JSON string (the sizes in its headers true, or `declared`). */
export function evalBomb(bytes: number, declared?: number): Buffer {
  return zipArchive([{ name: 'header.json', bomb: { prefix: '{"version":2,"status":"success","eval":{"task":"', bytes, suffix: '"}}' }, declared }]);
}

function zstdBlock(type: 0 | 1, size: number, last: boolean): Buffer {
  const b = Buffer.alloc(3);
  b.writeUIntLE((size << 3) | (type << 1) | (last ? 1 : 0), 0, 3);
  return b;
}

export interface ZstdBombOptions {
  /** The content size the frame's header declares: true for the real one (absent: none, as a stream writes). */
  declared?: number | boolean;
  /** The window's log2 (10 to 41); the frame's blocks are 128 KB, so 17 at least. */
  windowLog?: number;
}

/**
 * A zstd frame written by hand: raw blocks for the text's ends, and for the filler run-length blocks of 128 KB,
 * 4 bytes each (what makes zstd the tightest bomb: 32,768 to 1).
 */
export function zstdBomb(t: BombText, options: ZstdBombOptions = {}): Buffer {
  const windowLog = options.windowLog ?? 23;
  const real = Buffer.byteLength(t.prefix) + t.bytes + Buffer.byteLength(t.suffix);
  const declared = options.declared === true ? real : options.declared === false ? undefined : options.declared;
  // Frame header descriptor: an 8-byte content size when declared, never a single segment (the window is said).
  const header = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, declared === undefined ? 0x00 : 0xc0, (windowLog - 10) << 3]);
  const size = Buffer.alloc(declared === undefined ? 0 : 8);
  if (declared !== undefined) size.writeBigUInt64LE(BigInt(declared));
  const BLOCK = 128 * 1024;
  const parts: Buffer[] = [header, size];
  const raw = (text: string, last: boolean) => {
    const bytes = Buffer.from(text);
    if (bytes.length === 0 && last) parts.push(zstdBlock(0, 0, true));
    for (let at = 0; at < bytes.length; at += BLOCK) {
      const piece = bytes.subarray(at, at + BLOCK);
      parts.push(zstdBlock(0, piece.length, last && at + BLOCK >= bytes.length), piece);
    }
  };
  raw(t.prefix, false);
  const code = Buffer.from(t.filler ?? 'a')[0];
  const rle = Buffer.concat([zstdBlock(1, BLOCK, false), Buffer.from([code])]);
  for (let n = 0; n < t.bytes / BLOCK; n++) parts.push(rle);
  raw(t.suffix, true);
  return Buffer.concat(parts);
}

/** SQLite's WAL checksum (little-endian words, magic 0x377f0682), over whole 8-byte steps, continued from `s`. */
function walSum(data: Buffer, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = 0; i < data.length; i += 8) {
    s0 = (s0 + data.readUInt32LE(i) + s1) >>> 0;
    s1 = (s1 + data.readUInt32LE(i + 4) + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * A write-ahead log beside a database whose one frame (the database's first page, unchanged) commits a database
 * of `pages` pages: a size only declared, the log holding none of those pages.
 */
export function walBomb(db: Uint8Array, pages: number): Buffer {
  const pageSize = ((db[16] << 8) | db[17]) === 1 ? 65536 : (db[16] << 8) | db[17];
  const head = Buffer.alloc(32);
  head.writeUInt32BE(0x377f0682, 0);
  head.writeUInt32BE(3007000, 4);
  head.writeUInt32BE(pageSize, 8);
  head.writeUInt32BE(0, 12);
  head.writeUInt32BE(0x1234, 16);
  head.writeUInt32BE(0x5678, 20);
  let sum = walSum(head.subarray(0, 24), [0, 0]);
  head.writeUInt32BE(sum[0], 24);
  head.writeUInt32BE(sum[1], 28);
  const frame = Buffer.alloc(24);
  frame.writeUInt32BE(1, 0);
  frame.writeUInt32BE(pages, 4);
  frame.writeUInt32BE(0x1234, 8);
  frame.writeUInt32BE(0x5678, 12);
  const page = Buffer.from(db.subarray(0, pageSize));
  sum = walSum(frame.subarray(0, 8), sum);
  sum = walSum(page, sum);
  frame.writeUInt32BE(sum[0], 16);
  frame.writeUInt32BE(sum[1], 20);
  return Buffer.concat([head, frame, page]);
}
