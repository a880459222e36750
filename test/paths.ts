import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Paths only (no vitest import), so scripts outside the test runner can use the e2e support too.
export const ROOT = resolve(import.meta.dirname, '..');
export const FIXTURES = join(ROOT, 'test', 'fixtures');
export const SWARMS = join(FIXTURES, 'swarms');
export const MALFORMED = join(FIXTURES, 'malformed');

/**
 * Files other people's tools wrote (shared/realfiles beside the checkout, or beside the folder of worktrees);
 * undefined where there is none: tests of them are skipped with a printed reason.
 */
export const REALFILES = [process.env.REALFILES, join(ROOT, '..', 'shared', 'realfiles'), join(ROOT, '..', '..', 'shared', 'realfiles')].find((p): p is string => !!p && existsSync(p));
