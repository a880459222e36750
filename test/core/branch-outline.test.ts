import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText } from '../../src/core/formats/document-file.js';
import { claudeCodeTree } from '../../src/core/formats/claude-code/tree.js';
import { branchOutline } from '../../src/core/tree/branch-outline.js';
import { childrenOf, pathTo, type MessageTree } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';

/** The outline's promises, for any tree: every record of the thread in exactly one segment; each segment a chain. */
function checkOutline(tree: MessageTree, thread: string) {
  const segments = branchOutline(tree, thread);
  const children = childrenOf(tree);
  const covered = new Map<number, number>();
  for (const g of segments) {
    const chain = pathTo(tree, g.last, false);
    const from = chain.indexOf(g.first);
    expect(from).toBeGreaterThanOrEqual(0);
    const run = chain.slice(from);
    expect(run.length).toBe(g.length);
    for (const r of run) covered.set(r, (covered.get(r) ?? 0) + 1);
    // Inside a run there is one way on.
    for (const r of run.slice(0, -1)) expect(children[r].filter((c) => tree.thread[c] === thread)).toHaveLength(1);
    // Its leaf is under it.
    expect(pathTo(tree, g.leaf, true)).toContain(g.first);
  }
  const all = [...tree.thread.keys()].filter((i) => tree.thread[i] === thread);
  expect([...covered.keys()].sort((a, b) => a - b)).toEqual(all);
  expect([...covered.values()].every((n) => n === 1)).toBe(true);
  return segments;
}

describe('the outline of every branch', () => {
  it('a rewound, compacted Claude Code session: the first run, the two ways from the rewind, the compaction’s chain under the run it continues', () => {
    const name = 'cart-rewind-compact.jsonl';
    const file = parseDocumentText(readFileSync(join(FIXTURES, 'formats', 'claude-code', name), 'utf8'), name);
    const records = file.doc.conversations[0].records;
    const tree = claudeCodeTree(file.doc, records);
    const segments = checkOutline(tree, 'main');
    expect(segments.map((g) => [g.depth, g.compacted])).toEqual([
      [0, false],
      [1, false],
      [1, false],
      // Under the run it continues, not beside the rewind's two ways.
      [2, true],
    ]);
    // The abandoned branch's click shows its own leaf; the other's goes on past the compaction.
    expect(segments[1].leaf).toBe(segments[1].last);
    expect(segments[2].leaf).toBe(segments[3].leaf);
  });

  it('any tree of parent links (property): each record in one run, each run a chain', () => {
    const trees = fc.array(fc.nat(), { minLength: 1, maxLength: 60 }).map((picks): MessageTree => {
      const parent = new Int32Array(picks.length);
      picks.forEach((p, i) => (parent[i] = i === 0 || p % 7 === 0 ? -1 : p % i));
      return { parent, thread: new Array<string>(picks.length).fill('main'), active: picks.length - 1, continues: new Map() };
    });
    fc.assert(fc.property(trees, (tree) => void checkOutline(tree, 'main')));
  });
});
