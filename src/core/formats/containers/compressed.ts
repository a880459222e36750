import { decodeText } from '../read.js';
import { nameOf, startsWith, type Container } from './container.js';
import { gunzipBounded, unzstdBounded } from './inflate.js';

const ZSTD = [0x28, 0xb5, 0x2f, 0xfd];
const GZIP = [0x1f, 0x8b];

/** The name inside: `rollout-….jsonl.zst` holds `rollout-….jsonl`. */
const inner = (file: string, ext: string) => nameOf(file).slice(0, -ext.length);

function compressed(id: string, label: string, ext: string, magic: number[], inflate: (file: string, b: Uint8Array, cap: number) => Uint8Array): Container {
  return {
    id,
    label,
    extensions: [ext],
    holds: (file, head) => file.toLowerCase().endsWith(ext) && startsWith(head, magic),
    open(file, bytes, limits) {
      const plain = inflate(file, bytes, limits.maxInflatedBytes);
      return {
        text: decodeText(plain, file),
        name: inner(file, ext),
        readOnly: `it is ${label}-compressed: edits are saved with Save As into an uncompressed ${inner(file, ext).replace(/^.*(\.[^.]+)$/, '$1')} file`,
      };
    },
  };
}

/**
 * A history compressed with zstd (Codex can keep its rollouts as `rollout-….jsonl.zst`), read through fzstd (a
 * pure-JavaScript zstd decoder: Node 20's zlib has no zstd and a native build is not wanted). fzstd only
 * decodes, so such a file is read-only here.
 */
export const zstdContainer = compressed('zstd', 'zstd', '.zst', ZSTD, unzstdBounded);

/** A history kept gzip-compressed (`….jsonl.gz`), as people archive them. */
export const gzipContainer = compressed('gzip', 'gzip', '.gz', GZIP, gunzipBounded);

/** Whether a compressed file's inner name is one a listing shows (`x.jsonl.zst`, not `x.tar.zst`). */
export function compressedInnerName(file: string): string | undefined {
  const lower = file.toLowerCase();
  for (const ext of ['.zst', '.gz']) if (lower.endsWith(ext)) return file.slice(0, -ext.length);
  return undefined;
}
