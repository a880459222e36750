import { join, resolve } from 'node:path';

// Paths only (no vitest import), so scripts outside the test runner can use the e2e support too.
export const ROOT = resolve(import.meta.dirname, '..');
export const FIXTURES = join(ROOT, 'test', 'fixtures');
export const SWARMS = join(FIXTURES, 'swarms');
export const MALFORMED = join(FIXTURES, 'malformed');
