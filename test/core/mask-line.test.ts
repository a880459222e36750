import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskedLine } from '../../src/core/secrets/mask-line.js';
import { PLANTED } from '../support/planted-secrets.js';

describe('a line with secrets masked (what the sidebar shows of a first prompt or title)', () => {
  it('no planted secret of any rule is left whole in it', () => {
    // Private keys span lines: a title is one line; the rules whose secrets fit a line.
    const rules = Object.entries(PLANTED).filter(([rule]) => !['privatekey', 'email', 'phone-number', 'ip-address'].includes(rule));
    for (const [rule, arb] of rules)
      fc.assert(
        fc.property(arb, (p) => {
          const line = maskedLine(`Post to Slack using ${p.text} please`);
          expect(line, rule).not.toContain(p.secret);
          expect(line).toMatch(/^Post to Slack using .*•.* please$/);
        }),
        { numRuns: 50 },
      );
  });
  it('text without secrets is left as it is', () => {
    for (const t of ['Why does `cli --version` print nothing?', 'commit 3f9a2c7e1b4d6f8a0c2e4b6d8f0a1c3e5b7d9f21 on main', 'mail bob.smith@gmail.com about task-sk-runner', 'session 0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b']) expect(maskedLine(t)).toBe(t);
  });
});
