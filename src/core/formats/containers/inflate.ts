import { constants, gunzipSync } from 'node:zlib';
import { decompress, Decompress } from 'fzstd';
import { ConversationFileError, TooBigError } from '../errors.js';
import { MAX_ZSTD_WINDOW_BYTES, sizeText } from '../../limits.js';

/**
 * Unpacking with a cap counted as the bytes come out (never everything unpacked, then measured), and sizes a
 * file only declares checked before anything is unpacked. `cap` is what this read may come to (limits.ts).
 */

/** The refusal of a file that unpacks (or declares it does) to more than the cap. */
export function unpacksPast(file: string, cap: number, what: string, declared?: number): TooBigError {
  const size = declared === undefined ? `unpacks to more than ${sizeText(cap)}` : `declares ${sizeText(declared)} once unpacked, more than ${sizeText(cap)}`;
  return new TooBigError(file, `${size}, the most ${what} is unpacked to here: it is not read (unpack it yourself to read what it holds)`, cap);
}

const tooLarge = (e: unknown) => (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';

/** A gzip file's text (all its members), zlib stopping at `cap` bytes out (it checks after each 16 KB it writes). */
export function gunzipBounded(file: string, bytes: Uint8Array, cap: number): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: Math.max(1, cap) });
  } catch (e) {
    if (tooLarge(e)) throw unpacksPast(file, cap, 'a gzip file');
    throw new ConversationFileError(file, `not a whole gzip file (${(e as Error).message})`);
  }
}

interface ZstdFrame {
  start: number;
  end: number;
  /** Skippable frames hold no text. */
  skippable: boolean;
  /** The content size its header declares. */
  size?: number;
  window: number;
}

const ZSTD_MAGIC = 0xfd2fb528;

const u32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** What a zstd frame's header at `at` declares, and where its first block begins. */
function zstdHeader(b: Uint8Array, at: number): { skippable: boolean; size?: number; window: number; blocks: number; checksum: boolean } | undefined {
  const magic = u32(b, at);
  if ((magic & 0xfffffff0) === 0x184d2a50) return { skippable: true, window: 0, blocks: at + 8 + u32(b, at + 4), checksum: false };
  if (magic !== ZSTD_MAGIC) return undefined;
  const fhd = b[at + 4];
  const single = (fhd >> 5) & 1;
  at += 5;
  let window = 0;
  if (!single) {
    const wd = b[at++];
    const base = 2 ** (10 + (wd >> 3));
    window = base + (base / 8) * (wd & 7);
  }
  at += [0, 1, 2, 4][fhd & 3];
  const sizeBytes = [single, 2, 4, 8][fhd >> 6];
  let size: number | undefined;
  if (sizeBytes > 0) {
    size = 0;
    for (let i = sizeBytes - 1; i >= 0; i--) size = size * 256 + b[at + i];
    if (sizeBytes === 2) size += 256;
    at += sizeBytes;
  }
  return { skippable: false, size, window: single ? size! : window, blocks: at, checksum: ((fhd >> 2) & 1) === 1 };
}

/**
 * The frames of a zstd file and what each header declares, by walking their block headers (three bytes each,
 * which say how many bytes the block takes in the file): no block is decoded. Throws on a file cut short.
 */
function zstdFrames(file: string, b: Uint8Array): ZstdFrame[] {
  const frames: ZstdFrame[] = [];
  const bad = (why: string) => new ConversationFileError(file, `not a whole zstd file (${why})`);
  let at = 0;
  while (at < b.length) {
    const start = at;
    if (at + 8 > b.length) throw bad(`${b.length - at} bytes after the last frame`);
    const header = zstdHeader(b, at);
    if (!header) throw bad(`no frame at byte ${at}`);
    at = header.blocks;
    if (!header.skippable) {
      for (let last = 0; !last; ) {
        if (at + 3 > b.length) throw bad('a frame cut short');
        const h = b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
        last = h & 1;
        const type = (h >> 1) & 3;
        if (type === 3) throw bad(`a reserved block type at byte ${at}`);
        at += 3 + (type === 1 ? 1 : h >>> 3);
      }
      if (header.checksum) at += 4;
    }
    if (at > b.length) throw bad('a frame cut short');
    frames.push({ start, end: at, skippable: header.skippable, size: header.size, window: header.window });
  }
  return frames;
}

/**
 * A zstd file's text. Every frame's declared size is checked before any is decoded. A frame that declares its
 * size is decoded into a buffer of exactly that size (fzstd writes nothing past it); one that does not is
 * decoded block by block, each counted, through a window of at most MAX_ZSTD_WINDOW_BYTES.
 */
export function unzstdBounded(file: string, bytes: Uint8Array, cap: number): Uint8Array {
  const frames = zstdFrames(file, bytes);
  const declared = frames.reduce((n, f) => n + (f.size ?? 0), 0);
  if (declared > cap) throw unpacksPast(file, cap, 'a zstd file', declared);
  const out: Uint8Array[] = [];
  let total = 0;
  const take = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total > cap) throw unpacksPast(file, cap, 'a zstd file');
    out.push(chunk);
  };
  try {
    for (const f of frames) {
      if (f.skippable) continue;
      const frame = bytes.subarray(f.start, f.end);
      if (f.size !== undefined && f.size > 0) {
        take(decompress(frame));
        continue;
      }
      if (f.window > MAX_ZSTD_WINDOW_BYTES) {
        throw new TooBigError(file, `a zstd frame that does not say its size asks for a ${sizeText(f.window)} window, more than the ${sizeText(MAX_ZSTD_WINDOW_BYTES)} read here: recompress it (zstd without --long) or unpack it yourself`, MAX_ZSTD_WINDOW_BYTES);
      }
      const stream = new Decompress((chunk) => take(chunk.slice()));
      // Pushed a slice at a time: a run-length block makes 128 KB of 4 bytes, so the count is checked often.
      const STEP = 16 * 1024;
      for (let at = 0; at < frame.length; at += STEP) stream.push(frame.subarray(at, at + STEP), at + STEP >= frame.length);
    }
  } catch (e) {
    if (e instanceof ConversationFileError) throw e;
    throw new ConversationFileError(file, `not a whole zstd file (${(e as Error).message})`);
  }
  return out.length === 1 ? out[0] : Buffer.concat(out, total);
}

/** The sentinel that stops a streaming decoder once it has given enough. */
const ENOUGH = new Error('enough');

/**
 * The first `n` bytes a gzip or zstd file unpacks to (fewer if it holds fewer), from its first kilobytes alone:
 * what a listing sniffs a compressed file's format from. Undefined when they do not unpack.
 */
export function inflatedHead(bytes: Uint8Array, n: number): Uint8Array | undefined {
  try {
    // A kilobyte of deflate makes a megabyte at most.
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) return gunzipSync(bytes.subarray(0, 1024), { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, n);
    const first = zstdHeader(bytes, 0);
    if (!first || first.skippable || first.window > MAX_ZSTD_WINDOW_BYTES) return undefined;
    const out: Uint8Array[] = [];
    let total = 0;
    const stream = new Decompress((chunk) => {
      out.push(chunk.slice(0, n - total));
      total += chunk.length;
      if (total >= n) throw ENOUGH;
    });
    try {
      // A block makes 128 KB at most: pushed a little at a time, decoding stops within a block of n.
      for (let at = 0; at < bytes.length; at += 256) stream.push(bytes.subarray(at, at + 256), false);
    } catch (e) {
      if (e !== ENOUGH) throw e;
    }
    return Buffer.concat(out);
  } catch {
    return undefined;
  }
}
