import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { FIXTURES } from './paths.js';

export { ROOT, FIXTURES, SWARMS, MALFORMED, REALFILES } from './paths.js';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

/** A fresh temp directory, removed after the test. */
export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ci-test-'));
  dirs.push(d);
  return d;
}

/** Copies a fixture into a fresh temp dir (fixtures are never edited in place) and returns its path. */
export function fixtureCopy(relative: string): string {
  const dir = tempDir();
  const target = join(dir, relative.split('/').pop()!);
  cpSync(join(FIXTURES, relative), target);
  return target;
}

export function read(path: string): string {
  return readFileSync(path, 'utf8');
}

export const silentLogger = () => {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (m: string) => warnings.push(m) } };
};
