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

describe('random Claude Code sessions with sub-agents and rewinds (property)', () => {
  /** Lines as Claude Code writes them: main-thread turns, Task sub-agents interleaved, rewinds from earlier turns. */
  const session = fc
    .array(fc.record({ kind: fc.constantFrom('main', 'main', 'side', 'rewind'), text: fc.string({ maxLength: 12 }), back: fc.nat(5) }), { minLength: 1, maxLength: 30 })
    .map((steps) => {
      const lines: Array<Record<string, unknown>> = [];
      const mainUuids: string[] = [];
      let sideTip: string | null = null;
      steps.forEach((s, k) => {
        const uuid = `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;
        const role = k % 2 === 0 ? 'user' : 'assistant';
        const base = { uuid, sessionId: 's', cwd: '/w', version: '2.0.31', timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, k)).toISOString(), type: role, message: { role, content: `${s.kind} ${k} ${s.text}` } };
        if (s.kind === 'side') {
          lines.push({ ...base, parentUuid: sideTip, isSidechain: true });
          sideTip = uuid;
          return;
        }
        sideTip = null;
        const parent = s.kind === 'rewind' && mainUuids.length > 0 ? mainUuids[Math.max(0, mainUuids.length - 1 - s.back)] : (mainUuids.at(-1) ?? null);
        lines.push({ ...base, parentUuid: parent, isSidechain: false });
        mainUuids.push(uuid);
      });
      return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    });

  it('the main thread’s path (and so its plan) never holds a sub-agent’s message; every path is a root-to-leaf chain', () => {
    fc.assert(
      fc.property(session, (text) => {
        const file = parseDocumentText(text, 'session.jsonl');
        const records = file.doc.conversations[0].records;
        const tree = claudeCodeTree(file.doc, records);
        const side = (i: number) => (records[i] as { isSidechain?: boolean }).isSidechain === true;
        if (tree.active >= 0) expect(pathTo(tree, tree.active, true).some(side)).toBe(false);
        const children = childrenOf(tree);
        for (const thread of threadsOf(tree))
          for (const leaf of leavesOf(tree, thread, children)) {
            const path = pathTo(tree, leaf, true);
            expect(tree.parent[path[0]]).toBe(-1);
            for (let k = 1; k < path.length; k++) expect(tree.parent[path[k]]).toBe(path[k - 1]);
            expect(path.every((i) => side(i) === (thread !== 'main'))).toBe(true);
          }
      }),
      { numRuns: 200 },
    );
  });
});
