import { inflateRawSync } from 'node:zlib';
import { ConversationFileError } from '../errors.js';
import { sizeText } from '../../limits.js';
import { unpacksPast } from './inflate.js';

/** A file of a ZIP archive, as its central directory lists it. */
export interface ZipEntry {
  name: string;
  method: number;
  encrypted: boolean;
  /** Bytes in the archive. */
  compressed: number;
  /** Bytes once inflated, as the directory declares them (counted again while inflating: a declaration can lie). */
  size: number;
  /** Where its local header is. */
  offset: number;
}

const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32;

/**
 * The files of a ZIP archive from its central directory (ZIP64 too, as Python's zipfile writes past 4 GB):
 * names and sizes, nothing inflated.
 */
export function zipEntries(file: string, b: Uint8Array): ZipEntry[] {
  const bad = (why: string) => new ConversationFileError(file, `not a whole ZIP archive (${why})`);
  let end = -1;
  for (let at = b.length - 22; at >= Math.max(0, b.length - 22 - 0xffff); at--) {
    if (u32(b, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end === -1) throw bad('no end of central directory');
  let count = u16(b, end + 10);
  let dirAt = u32(b, end + 16);
  if ((count === 0xffff || dirAt === 0xffffffff) && end >= 20 && u32(b, end - 20) === 0x07064b50) {
    const end64 = u64(b, end - 12);
    if (end64 + 56 > b.length || u32(b, end64) !== 0x06064b50) throw bad('a ZIP64 end record out of place');
    count = u64(b, end64 + 32);
    dirAt = u64(b, end64 + 48);
  }
  const entries: ZipEntry[] = [];
  let at = dirAt;
  for (let i = 0; i < count; i++) {
    if (at + 46 > b.length || u32(b, at) !== 0x02014b50) throw bad(`entry ${i + 1} of ${count} is not where the directory says`);
    const nameLength = u16(b, at + 28);
    const extraLength = u16(b, at + 30);
    const commentLength = u16(b, at + 32);
    const entry: ZipEntry = {
      name: Buffer.from(b.buffer, b.byteOffset + at + 46, nameLength).toString('utf8'),
      method: u16(b, at + 10),
      encrypted: (u16(b, at + 8) & 1) === 1,
      compressed: u32(b, at + 20),
      size: u32(b, at + 24),
      offset: u32(b, at + 42),
    };
    // ZIP64: each field at its 32-bit maximum is in the extra field 0x0001, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength; x += 4 + u16(b, x + 2)) {
      if (u16(b, x) !== 0x0001) continue;
      let v = x + 4;
      for (const k of ['size', 'compressed', 'offset'] as const) {
        if (entry[k] !== 0xffffffff) continue;
        entry[k] = u64(b, v);
        v += 8;
      }
    }
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The inflated bytes of some files of an archive, together no more than `cap`: the sizes the directory declares
 * are checked first, then each file's real bytes are counted as zlib inflates them (it stops at what the file
 * declares, or what is left of the cap, whichever is less).
 */
export function unzipBounded(file: string, b: Uint8Array, entries: readonly ZipEntry[], cap: number): Map<string, Uint8Array> {
  const declared = entries.reduce((n, e) => n + e.size, 0);
  if (declared > cap) throw unpacksPast(file, cap, 'an archive', declared);
  const out = new Map<string, Uint8Array>();
  let left = cap;
  for (const e of entries) {
    const where = `${file}#${e.name}`;
    if (e.encrypted) throw new ConversationFileError(where, 'encrypted: it cannot be read');
    if (e.method !== 0 && e.method !== 8) throw new ConversationFileError(where, `compressed by method ${e.method}, which is read here only as stored (0) or deflated (8)`);
    if (e.offset + 30 > b.length || u32(b, e.offset) !== 0x04034b50) throw new ConversationFileError(file, `not a whole ZIP archive (${e.name} is not where the directory says)`);
    const start = e.offset + 30 + u16(b, e.offset + 26) + u16(b, e.offset + 28);
    if (start + e.compressed > b.length) throw new ConversationFileError(file, `not a whole ZIP archive (${e.name} is cut short)`);
    const data = b.subarray(start, start + e.compressed);
    let bytes: Uint8Array;
    if (e.method === 0) bytes = data;
    else {
      const most = Math.min(e.size, left);
      try {
        bytes = inflateRawSync(data, { maxOutputLength: Math.max(1, most) });
      } catch (err) {
        if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') throw new ConversationFileError(where, `not whole (${(err as Error).message})`);
        if (most < left) throw new ConversationFileError(where, `inflates past the ${sizeText(e.size)} the archive declares for it: the archive is damaged or forged`);
        throw unpacksPast(file, cap, 'an archive');
      }
    }
    if (bytes.length > e.size) throw new ConversationFileError(where, `holds more than the ${sizeText(e.size)} the archive declares for it: the archive is damaged or forged`);
    left -= bytes.length;
    out.set(e.name, bytes);
  }
  return out;
}
