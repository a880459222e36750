import { describe, expect, it } from 'vitest';
import { addUp } from '../../src/core/usage.js';

describe('a reply the tool wrote itself is no model call', () => {
  it("Claude Code's <synthetic> replies (an API error, 'No response requested.') are not counted, as the usage view does not count them", () => {
    const report = addUp([
      { model: 'claude-sonnet-4-6', input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
      { model: '<synthetic>', input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      { model: 'claude-sonnet-4-6', input: 20, output: 7, cacheRead: 100, cacheWrite: 0 },
    ]);
    expect(report?.calls).toBe(2);
    expect(Object.keys(report!.byModel)).toEqual(['claude-sonnet-4-6']);
    expect(addUp([{ model: '<synthetic>', input: 0, output: 0 }])).toBeUndefined();
  });
});
