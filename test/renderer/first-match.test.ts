import { describe, expect, it } from 'vitest';
import { fromFirstMatch } from '../../app/renderer/features/highlight.js';

describe("a row's text while the file is searched", () => {
  const text = 'Let me look at how the repository builds its mocks before changing anything: the mockgen directives live in internal/storage and are run by go generate.';

  it('starts a little before its first match when the match lies past what the cell shows, at a word', () => {
    const shown = fromFirstMatch(text, 'mockgen');
    expect(shown.startsWith('…')).toBe(true);
    expect(text.endsWith(shown.slice(1))).toBe(true);
    const at = shown.indexOf('mockgen');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThanOrEqual(50);
    // A word whole, not its end.
    expect(text[text.length - shown.length] === ' ' || text.length - shown.length + 1 === 0).toBe(true);
  });

  it('is the text as it is when the match is in sight, when nothing matches, and with no query', () => {
    expect(fromFirstMatch(text, 'Let')).toBe(text);
    expect(fromFirstMatch(text, 'zzzyx')).toBe(text);
    expect(fromFirstMatch(text, '')).toBe(text);
    // The search's rule: a word beginning with the query's, whatever its case.
    expect(fromFirstMatch(text, 'GENERATE')).toMatch(/^….*generate\.$/);
  });
});
