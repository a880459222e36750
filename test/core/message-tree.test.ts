import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText } from '../../src/core/formats/document-file.js';
import { claudeCodeTree } from '../../src/core/formats/claude-code/tree.js';
import { childrenOf, forksOf, leavesOf, newestLeafUnder, pathTo, threadsOf } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';

const open = (name: string) => {
  const file = parseDocumentText(readFileSync(join(FIXTURES, 'formats', 'claude-code', name), 'utf8'), name);
  const records = file.doc.conversations[0].records;
  return { file, records, tree: claudeCodeTree(file.doc, records) };
};
const text = (r: unknown) => JSON.stringify((r as { message?: { content?: unknown } }).message?.content ?? (r as { subtype?: string }).subtype);

describe('a Claude Code session as a tree', () => {
  it('the rewind is a fork: the active path takes the later branch; the abandoned one is a leaf of its own', () => {
    const { records, tree } = open('cart-rewind-compact.jsonl');
    const active = pathTo(tree, tree.active, true);
    const texts = active.map((i) => text(records[i]));
    expect(texts.some((t) => t.includes('Sum integer cents then'))).toBe(true);
    expect(texts.some((t) => t.includes('Use a decimal library instead.'))).toBe(false);
    const forks = forksOf(tree, active);
    expect(forks).toHaveLength(1);
    expect(forks[0].options.map((i) => text(records[i]))).toEqual(['"Use a decimal library instead."', '"Sum integer cents then, and add a test."']);
    expect(forks[0].chosen).toBe(1);
    expect(leavesOf(tree, 'main').map((i) => text(records[i])).some((t) => t.includes('new dependency for one sum'))).toBe(true);
  });

  it('a compaction boundary starts what the model is sent now; the history before it is a step away', () => {
    const { records, tree } = open('cart-rewind-compact.jsonl');
    const context = pathTo(tree, tree.active);
    expect(text(records[context[0]])).toBe('"compact_boundary"');
    const whole = pathTo(tree, tree.active, true);
    expect(whole.length).toBeGreaterThan(context.length);
    expect(whole.slice(-context.length)).toEqual(context);
    expect(text(records[whole[0]])).toContain('The cart total is off by a cent');
  });

  it('the system line between two messages is a link: the message after it hangs from the message before it', () => {
    const { records, tree } = open('cart-rewind-compact.jsonl');
    const commit = records.findIndex((r) => text(r).includes('Commit it.'));
    expect(text(records[tree.parent[commit]])).toContain('Done: `total` now sums');
  });

  it('a sub-agent’s messages are a thread of their own; the main thread never holds them', () => {
    const { records, tree } = open('session.jsonl');
    expect(threadsOf(tree)).toEqual(['main', 'side:c0000000']);
    const main = pathTo(tree, tree.active, true);
    expect(main.every((i) => tree.thread[i] === 'main')).toBe(true);
    expect(main.map((i) => text(records[i])).some((t) => t.includes('Found 2 more'))).toBe(false);
  });

  it('every path is a chain from a root to a leaf, in one thread; the newest leaf under a node is under it (property)', () => {
    const { tree } = open('cart-rewind-compact.jsonl');
    const children = childrenOf(tree);
    fc.assert(
      fc.property(fc.nat(tree.parent.length - 1), (node) => {
        const leaf = newestLeafUnder(tree, node, children);
        const path = pathTo(tree, leaf);
        expect(path.at(-1)).toBe(leaf);
        expect(tree.parent[path[0]]).toBe(-1);
        for (let k = 1; k < path.length; k++) expect(tree.parent[path[k]]).toBe(path[k - 1]);
        expect(new Set(path.map((i) => tree.thread[i])).size).toBe(1);
        expect(pathTo(tree, leaf, true)).toContain(node);
      }),
    );
  });
});
