import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests never write into the user's real state directory (local history, caches): a fresh one per run.
const state = mkdtempSync(join(tmpdir(), 'ci-test-state-'));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'e2e/**/*.e2e.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { XDG_STATE_HOME: state },
  },
});
