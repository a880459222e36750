import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeRecords, settle, wordDiff } from '../../src/core/editing/merge.js';
import { markDerived } from '../../src/core/message.js';

const rec = (text: string) => ({ role: 'user', content: text });
/** An edit as the app makes it: a new object derived from the one it edits. */
const edit = (r: object, text: string) => {
  const next = { ...r, content: text };
  markDerived(next, r);
  return next;
};
const texts = (records: unknown[]) => records.map((r) => (r as { content: string }).content);

describe('merging my edits onto a file that changed on disk', () => {
  it('an agent appended while I edited one message and deleted another: both kept, nothing to ask', () => {
    const base = ['a', 'b', 'c', 'd'].map(rec);
    const mine = [base[0], edit(base[1], 'B (mine)'), base[3]];
    const theirs = [...['a', 'b', 'c', 'd'].map(rec), rec('e (appended)'), rec('f (appended)')];
    const r = mergeRecords(base, mine, theirs);
    expect(r.conflicts).toEqual([]);
    expect(r.applied).toBe(2);
    expect(texts(r.records)).toEqual(['a', 'B (mine)', 'd', 'e (appended)', 'f (appended)']);
    // The untouched ones are theirs (the file's records as read again), so they keep their bytes.
    expect(r.records[0]).toBe(theirs[0]);
  });

  it('a message I added stays after the one it followed, whatever the agent appended', () => {
    const base = ['a', 'b'].map(rec);
    const mine = [base[0], rec('mine after a'), base[1]];
    const theirs = [...['a', 'b'].map(rec), rec('c')];
    expect(texts(mergeRecords(base, mine, theirs).records)).toEqual(['a', 'mine after a', 'b', 'c']);
  });

  it('both changed the same message: a conflict, settled either way', () => {
    const base = ['a', 'b', 'c'].map(rec);
    const mine = [base[0], edit(base[1], 'b mine'), base[2]];
    const theirs = [rec('a'), rec('b theirs'), rec('c'), rec('d')];
    const r = mergeRecords(base, mine, theirs);
    expect(r.conflicts.map((c) => [c.index, texts([c.mine]), texts([c.theirs])])).toEqual([[1, ['b mine'], ['b theirs']]]);
    expect(texts(settle(r, ['theirs']))).toEqual(['a', 'b theirs', 'c', 'd']);
    expect(texts(settle(r, ['mine']))).toEqual(['a', 'b mine', 'c', 'd']);
  });

  it('the agent deleted a message I changed: a conflict; mine puts it back', () => {
    const base = ['a', 'b', 'c'].map(rec);
    const mine = [base[0], edit(base[1], 'b mine'), base[2]];
    const theirs = [rec('a'), rec('c')];
    const r = mergeRecords(base, mine, theirs);
    expect(r.conflicts.length).toBe(1);
    expect(r.conflicts[0].theirs).toBeUndefined();
    expect(texts(settle(r, ['mine']))).toEqual(['a', 'b mine', 'c']);
    expect(texts(settle(r, ['theirs']))).toEqual(['a', 'c']);
  });

  it('when the agent only appended, the merge is my edits plus what it appended, never a conflict (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 12 }), fc.array(fc.oneof(fc.record({ k: fc.constant('edit' as const), at: fc.nat(), text: fc.string() }), fc.record({ k: fc.constant('delete' as const), at: fc.nat() }), fc.record({ k: fc.constant('add' as const), at: fc.nat(), text: fc.string() })), { maxLength: 6 }), fc.array(fc.string(), { maxLength: 4 }), (words, steps, appended) => {
        const base = words.map(rec);
        let mine: object[] = base.slice();
        const added = new Set<object>();
        for (const s of steps) {
          if (s.k === 'edit' && mine.length) {
            const at = s.at % mine.length;
            const edited = edit(mine[at], s.text);
            if (added.has(mine[at])) added.add(edited);
            mine[at] = edited;
          }
          if (s.k === 'delete' && mine.length) mine = mine.filter((_, i) => i !== s.at % mine.length);
          if (s.k === 'add') {
            const r = rec(`added ${s.text}`);
            added.add(r);
            mine.splice(s.at % (mine.length + 1), 0, r);
          }
        }
        // Whether theirs is read as the same objects (an append) or afresh, what they appended goes after the last
        // record of mine from the base, and what I added after that goes after theirs: mine are the newest lines.
        const cut = mine.findLastIndex((r) => !added.has(r)) + 1;
        const expected = [...texts(mine.slice(0, cut)), ...appended.map((a) => `appended ${a}`), ...texts(mine.slice(cut))];
        const afresh = mergeRecords(base, mine, [...words.map(rec), ...appended.map((a) => rec(`appended ${a}`))]);
        expect(afresh.conflicts).toEqual([]);
        expect(texts(afresh.records)).toEqual(expected);
        const asAppend = mergeRecords(base, mine, [...base, ...appended.map((a) => rec(`appended ${a}`))]);
        expect(texts(asAppend.records)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('marks the changed words of a conflict', () => {
    expect(wordDiff('The flag was off.', 'The flag was on.')).toEqual([{ text: 'The flag was ' }, { text: 'off', side: 'theirs' }, { text: 'on', side: 'mine' }, { text: '.' }]);
  });
});
