import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { containerOf } from '../../src/core/formats/containers/index.js';
import { isConversationFileName } from '../../src/core/storage/list-directory.js';

const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));

function head(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(64);
    return b.subarray(0, readSync(fd, b, 0, 64, 0));
  } finally {
    closeSync(fd);
  }
}

/** Whether a file is read through a container (compressed, an archive, a database, a log replayed). */
export const inContainer = (file: string) => containerOf(file, head(file)) !== undefined;

/**
 * The conversation files under `dir` as a listing finds them, relative to it: those whose text a codec reads
 * itself (`text`), or those read through a container (`containers`).
 */
export function fixtureFiles(dir: string, which: 'text' | 'containers' | 'all' = 'text'): string[] {
  return walk(dir)
    .filter((f) => isConversationFileName(f))
    .filter((f) => which === 'all' || inContainer(f) === (which === 'containers'))
    .map((f) => relative(dir, f));
}
