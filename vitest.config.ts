import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests never write into the user's real state directory (local history, caches): a fresh one per run.
const state = mkdtempSync(join(tmpdir(), 'ci-test-state-'));

// The 100 MB end-to-end test bounds the page's longest task: it runs last and alone, so that on a 2-core
// machine no other test file's work lands in its page's tasks.
const ALONE = ['e2e/specs/scale.e2e.test.ts'];

const shared = { testTimeout: 30_000, hookTimeout: 30_000, pool: 'forks' as const, env: { XDG_STATE_HOME: state }, setupFiles: ['test/support/formats-ready.ts'] };

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'tests', include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'e2e/**/*.e2e.test.ts'], exclude: ALONE, sequence: { groupOrder: 0 } } },
      { test: { ...shared, name: 'alone', include: ALONE, sequence: { groupOrder: 1 } } },
    ],
  },
});
