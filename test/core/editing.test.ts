import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdit, EditError, EditHistory, type EditCommand, type Message } from '../../src/core/index.js';

const base = (): Message[] => ['a', 'b', 'c', 'd', 'e'].map((c, i) => ({ role: i % 2 ? 'assistant' : 'user', content: c }));

describe('edit commands', () => {
  it('update makes a new object and keeps the others', () => {
    const m = base();
    const { messages } = applyEdit(m, { type: 'update', index: 1, patch: { content: 'B', category: 'output' } });
    expect(messages[1]).toEqual({ role: 'assistant', content: 'B', category: 'output' });
    expect(messages[1]).not.toBe(m[1]);
    expect(messages[0]).toBe(m[0]);
    expect(m[1].content).toBe('b');
  });

  it('update can remove keys, and refuses an empty role', () => {
    const m: Message[] = [{ role: 'user', content: 'x', category: 'input' }];
    expect(applyEdit(m, { type: 'update', index: 0, patch: {}, remove: ['category'] }).messages[0]).toEqual({ role: 'user', content: 'x' });
    expect(() => applyEdit(m, { type: 'update', index: 0, patch: { role: '' } })).toThrow(EditError);
  });

  it('insert, delete (many), move (many)', () => {
    const m = base();
    expect(applyEdit(m, { type: 'insert', index: 0, messages: [{ role: 'System', content: 'S' }] }).messages.map((x) => x.content)).toEqual(['S', 'a', 'b', 'c', 'd', 'e']);
    expect(applyEdit(m, { type: 'delete', indexes: [3, 1] }).messages.map((x) => x.content)).toEqual(['a', 'c', 'e']);
    expect(applyEdit(m, { type: 'move', indexes: [0, 2], to: 3 }).messages.map((x) => x.content)).toEqual(['b', 'd', 'e', 'a', 'c']);
    expect(applyEdit(m, { type: 'move', indexes: [4], to: 0 }).messages.map((x) => x.content)).toEqual(['e', 'a', 'b', 'c', 'd']);
  });

  it('refuses indexes that do not exist', () => {
    expect(() => applyEdit(base(), { type: 'delete', indexes: [9] })).toThrow(/message 9 does not exist/);
    expect(() => applyEdit(base(), { type: 'update', index: -1, patch: {} })).toThrow(EditError);
    expect(() => applyEdit(base(), { type: 'insert', index: 7, messages: [] })).toThrow(EditError);
  });
});

const command = (n: number): fc.Arbitrary<EditCommand> =>
  fc.oneof(
    fc.record({ type: fc.constant('update' as const), index: fc.nat(n - 1), patch: fc.record({ content: fc.string() }) }),
    fc.record({ type: fc.constant('insert' as const), index: fc.nat(n), messages: fc.array(fc.record({ role: fc.constant('user'), content: fc.string() }), { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.constant('delete' as const), indexes: fc.uniqueArray(fc.nat(n - 1), { minLength: 1, maxLength: Math.min(3, n) }) }),
    fc.record({ type: fc.constant('move' as const), indexes: fc.uniqueArray(fc.nat(n - 1), { minLength: 1, maxLength: Math.min(3, n) }), to: fc.nat(n) }),
  );

describe('undo and redo (property)', () => {
  it('undoing every edit returns the very same objects; redoing returns the edited list', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 2, max: 8 }), (seeds, size) => {
        const start: Message[] = Array.from({ length: size }, (_, i) => ({ role: 'user', content: `m${i}` }));
        const history = new EditHistory();
        const states: Message[][] = [start];
        let current = start;
        for (const seed of seeds) {
          if (current.length === 0) break;
          const cmd = fc.sample(command(current.length), { numRuns: 1, seed })[0];
          current = history.apply(current, cmd);
          states.push(current);
        }
        for (let k = states.length - 2; k >= 0; k--) {
          current = history.undo(current)!;
          expect(current).toHaveLength(states[k].length);
          current.forEach((m, i) => expect(m).toBe(states[k][i]));
        }
        expect(history.undo(current)).toBeUndefined();
        for (let k = 1; k < states.length; k++) {
          current = history.redo(current)!;
          expect(current).toEqual(states[k]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a new edit clears redo; labels describe the next undo and redo', () => {
    const h = new EditHistory();
    let m = h.apply(base(), { type: 'delete', indexes: [0] });
    expect(h.canUndo).toBe('delete message 0');
    m = h.undo(m)!;
    expect(h.canRedo).toBe('delete message 0');
    h.apply(m, { type: 'update', index: 0, patch: { content: 'x' } });
    expect(h.canRedo).toBeUndefined();
  });
});
