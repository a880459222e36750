import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { scanUnits } from '../../src/core/secrets/scan.js';

describe('looking for secrets, again and again (a service that lives for days)', () => {
  // secretlint's profiler marked each run on the performance timeline and kept every mark: 32 a call, never cleared.
  it('leaves nothing behind on the performance timeline, however many texts it looks into', async () => {
    const units = [{ text: 'Deploy with AKIAIOSFODNN7EXAMPLE and the usual settings.\n'.repeat(10), where: 0 }];
    await scanUnits(units);
    const before = performance.getEntriesByType('mark').length + performance.getEntriesByType('measure').length;
    for (let i = 0; i < 200; i++) expect((await scanUnits(units)).length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 20));
    expect(performance.getEntriesByType('mark').length + performance.getEntriesByType('measure').length).toBe(before);
  });
});
