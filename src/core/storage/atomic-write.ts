import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Writes a file atomically: a temp file in the same directory, then a rename. A crash mid-write leaves the
 * old file intact. The parent directory is created when missing.
 */
export function writeFileAtomicSync(path: string, data: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic.sync(path, data, { encoding: 'utf8' });
}
