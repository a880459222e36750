import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutLines, FOLD_OVER } from '../../app/renderer/features/compare/layout.js';
import { compareSessions, type CompareMessage } from '../../src/core/compare/index.js';
import type { CompareAnswer } from '../../app/shared/contract.js';

const msg = (normalRole: string, text: string): CompareMessage => ({ role: normalRole, normalRole, text, tokens: text.length, prompt: normalRole === 'user' });
const answerOf = (a: CompareMessage[], b: CompareMessage[]) => compareSessions(a, b) as unknown as CompareAnswer;

describe('layoutLines', () => {
  it('draws every row once (folded runs counted), the two ways after a fork face each other, turns headed', () => {
    const role = fc.constantFrom('user', 'assistant', 'tool');
    const side = fc.array(fc.record({ r: role, t: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f') }), { maxLength: 30 });
    fc.assert(
      fc.property(side, side, (x, y) => {
        const c = answerOf(x.map((m) => msg(m.r, m.t)), y.map((m) => msg(m.r, m.t)));
        const lines = layoutLines(c, new Set());
        const lefts = lines.flatMap((l) => (l.type === 'pair' && l.left !== undefined ? [l.left] : l.type === 'fold' ? c.rows.slice(l.from, l.to).map((r) => r.left!) : []));
        const rights = lines.flatMap((l) => (l.type === 'pair' && l.right !== undefined ? [l.right] : l.type === 'fold' ? c.rows.slice(l.from, l.to).map((r) => r.right!) : []));
        expect(lefts).toEqual(x.map((_, i) => i));
        expect(rights).toEqual(y.map((_, i) => i));
        // Every line of a row comes after its turn's header.
        let turn = -1;
        for (const l of lines) {
          if (l.type === 'turn') turn = l.turn;
          if (l.type === 'pair') expect(c.rows[l.row].turn).toBe(turn);
        }
        // Unfolding every run draws no fold.
        const all = new Set(c.rows.map((_, i) => i));
        expect(layoutLines(c, all).some((l) => l.type === 'fold')).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it(`folds a run of more than ${FOLD_OVER} rows the same, keeping its ends`, () => {
    const same = Array.from({ length: 10 }, (_, i) => msg(i % 2 ? 'assistant' : 'user', `m${i}`));
    const c = answerOf([...same, msg('user', 'left')], [...same, msg('user', 'right')]);
    const lines = layoutLines(c, new Set());
    const fold = lines.find((l) => l.type === 'fold');
    expect(fold).toMatchObject({ from: 2, to: 8 });
    expect(lines.filter((l) => l.type === 'pair').map((l) => (l.type === 'pair' ? l.kind : ''))).toEqual(['same', 'same', 'same', 'same', 'replaced']);
  });
});
