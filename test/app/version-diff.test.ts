import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { versionDiff } from '../../app/service/editing/version-diff.js';

const lines = fc.array(fc.constantFrom('    {', '    }', '"role": "user",', '"content": "hi"', '', 'é ✓', '\t"x": 1'), { maxLength: 60 });
const count = (text: string) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

describe('a kept version beside the file now', () => {
  it('accounts for every line of both: unchanged (shown or folded) and removed make the old, unchanged and added the new', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const before = a.join('\n') + (a.length ? '\n' : '');
        const after = b.join('\n') + (b.length ? '\n' : '');
        const { lines: out, added, removed } = versionDiff(before, after);
        const same = out.filter((l) => l.kind === 'same').length + out.filter((l) => l.kind === 'folded').reduce((n, l) => n + (l.count ?? 0), 0);
        expect(same + removed).toBe(count(before));
        expect(same + added).toBe(count(after));
        // Shown in order: the lines that are not added, unfolded, are the old file's.
        if (!out.some((l) => l.kind === 'folded')) expect(out.filter((l) => l.kind !== 'added').map((l) => l.text)).toEqual(a);
      }),
    );
  });

  it('keeps three lines around a change and folds the rest', () => {
    const old = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const now = old.map((l, i) => (i === 20 ? 'line 20 changed' : l));
    const { lines: out, added, removed } = versionDiff(old.join('\n') + '\n', now.join('\n') + '\n');
    expect([added, removed]).toEqual([1, 1]);
    expect(out.map((l) => (l.kind === 'folded' ? `… ${l.count}` : `${l.kind[0]} ${l.text}`))).toEqual(['… 17', 's line 17', 's line 18', 's line 19', 'r line 20', 'a line 20 changed', 's line 21', 's line 22', 's line 23', '… 16']);
  });
});

describe('a line changed in place is marked by word', () => {
  it('only the words that changed, on the removed line and on the added one', () => {
    const before = '{"role": "user", "content": "Book the 9:40 train to Porto"}\n';
    const after = '{"role": "user", "content": "Book the 11:05 train to Porto"}\n';
    const { lines: out } = versionDiff(before, after);
    const removed = out.find((l) => l.kind === 'removed')!;
    const added = out.find((l) => l.kind === 'added')!;
    expect(removed.changed!.map(([a, b]) => removed.text.slice(a, b))).toEqual(['9', '40']);
    expect(added.changed!.map(([a, b]) => added.text.slice(a, b))).toEqual(['11', '05']);
  });
  it('the ranges lie within their line', () => {
    const line = fc.array(fc.constantFrom('a', 'bb', ' ', '"x"', ':', '9', 'é'), { maxLength: 20 }).map((w) => w.join(''));
    fc.assert(
      fc.property(line, line, (x, y) => {
        const { lines: out } = versionDiff(`${x}\n`, `${y}\n`);
        for (const l of out) for (const [a, b] of l.changed ?? []) expect(0 <= a && a < b && b <= l.text.length).toBe(true);
      }),
    );
  });
});
