import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oasstTrees } from '../../src/core/formats/oasst/codec.js';
import { parseDocumentText, writeDocument } from '../../src/core/formats/document-file.js';
import { problemsOf } from '../../src/core/formats/validity.js';
import { childrenOf, forksOf, leavesOf, pathTo } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';
import type { Loose } from '../support/loose.js';

const FILE = join(FIXTURES, 'formats', 'oasst', '2023-04-12_oasst_ready.trees.jsonl');
const idOf = (r: unknown) => (r as Loose).message_id as string;

/** Every message names as its parent the message whose replies hold it. */
function nested(prompt: Loose, parent: string | null = null, out: string[] = []): string[] {
  expect(prompt.parent_id).toBe(parent);
  out.push(prompt.message_id);
  for (const r of prompt.replies) nested(r, prompt.message_id, out);
  return out;
}

describe('OpenAssistant message trees', () => {
  const text = readFileSync(FILE, 'utf8');
  const opened = parseDocumentText(text, 'trees.jsonl');

  it('each line is a tree; the path shown follows the best-ranked replies; the other answers are forks', () => {
    expect(opened.codec.id).toBe('oasst-trees');
    expect(opened.doc.conversations.map((c) => c.records.length)).toEqual([7, 2]);
    const records = opened.doc.conversations[0].records;
    const tree = oasstTrees.tree!(opened.doc, 0, records);
    const path = pathTo(tree, tree.active);
    expect(path.map((i) => oasstTrees.view(records[i]).category ?? 'prompt')).toEqual(['prompt', 'rank 0', 'prompt', 'rank 0']);
    expect(forksOf(tree, path).map((f) => [f.at, f.options.length])).toEqual([
      [1, 3],
      [3, 2],
    ]);
    expect(oasstTrees.view(records[0])).toMatchObject({ role: 'prompter', normalRole: 'user', timestamp: '2023-02-05T14:23:50.983374+00:00' });
  });

  it('writes back byte for byte; an edited reply deep in the tree changes only its text', () => {
    const all = opened.doc.conversations.map((c) => c.records);
    expect(writeDocument(opened.codec, opened.doc, all).text).toBe(text);
    const edited = all.map((rs, c) => (c === 0 ? rs.map((r, i) => (i === 4 ? oasstTrees.withText(r, 'Woof.') : r)) : rs));
    const out = writeDocument(opened.codec, opened.doc, edited).text;
    expect(out.replace('"Woof."', JSON.stringify('Woof! One big employer, tiny treats.\r\n\tGood boy.'))).toBe(text);
  });

  it('a deleted message’s replies hang from its parent; a tree without its prompt is said to be invalid', () => {
    const all = opened.doc.conversations.map((c) => c.records);
    const without = all.map((rs, c) => (c === 0 ? rs.filter((r) => idOf(r) !== '6708c47f-05c9-4346-b3d2-40b2bd24fde4') : rs));
    const line = JSON.parse(writeDocument(opened.codec, opened.doc, without).text.split('\n')[0]);
    expect(nested(line.prompt)).toHaveLength(6);
    expect(line.prompt.replies[0].replies.map((r: Loose) => r.rank)).toEqual([0, 1]);
    // Without its prompt the tree begins with an answer: written whole, and said to be what OASST would not take.
    const { again } = writeDocument(opened.codec, opened.doc, all.map((rs, c) => (c === 1 ? rs.slice(1) : rs)));
    expect(problemsOf(oasstTrees, again!).map((p) => p.text)).toEqual([expect.stringContaining('begins with the prompter')]);
  });
});

const treeArb = fc.array(fc.record({ parent: fc.nat(), text: edgeString, rank: fc.option(fc.nat({ max: 3 }), { nil: null }) }), { maxLength: 12 }).map((specs) => {
  const prompt: Loose = { message_id: 'p', parent_id: null, text: 'Question?', role: 'prompter', lang: 'en', rank: null, replies: [] };
  const all = [prompt];
  specs.forEach((s, k) => {
    const parent = all[s.parent % all.length];
    const child: Loose = { message_id: `m${k}`, parent_id: parent.message_id, text: s.text, role: parent.role === 'prompter' ? 'assistant' : 'prompter', lang: 'en', rank: s.rank, replies: [] };
    parent.replies.push(child);
    all.push(child);
  });
  return JSON.stringify({ message_tree_id: 'p', tree_state: 'ready_for_export', prompt }) + '\n';
});

describe('OASST trees (properties)', () => {
  it('every path is a root-to-leaf chain; edits (text, deletes past the prompt, inserts) write a tree that nests as it links', () => {
    fc.assert(
      fc.property(treeArb, fc.array(fc.record({ kind: fc.constantFrom('set-text', 'delete', 'insert'), at: fc.nat(), text: edgeString }), { maxLength: 5 }), (text, edits) => {
        const opened = parseDocumentText(text, 'trees.jsonl');
        expect(opened.codec.id).toBe('oasst-trees');
        const records = opened.doc.conversations[0].records.slice();
        expect(writeDocument(opened.codec, opened.doc, [records]).text).toBe(text);
        for (const e of edits) {
          const at = e.at % records.length;
          if (e.kind === 'set-text') records[at] = oasstTrees.withText(records[at], e.text);
          else if (e.kind === 'delete' && at > 0) records.splice(at, 1);
          else if (e.kind === 'insert') records.splice(at + 1, 0, oasstTrees.fromView({ role: 'assistant', normalRole: 'assistant', parts: [{ kind: 'text', text: e.text }] }, records[at]));
          const tree = oasstTrees.tree!(opened.doc, 0, records);
          const children = childrenOf(tree);
          for (const leaf of leavesOf(tree, 'main', children)) {
            const path = pathTo(tree, leaf);
            expect(path[0]).toBe(0);
            path.forEach((node, k) => k > 0 && expect(tree.parent[node]).toBe(path[k - 1]));
          }
        }
        const out = writeDocument(opened.codec, opened.doc, [records]).text;
        const ids = nested(JSON.parse(out).prompt);
        expect(ids).toEqual(records.map(idOf));
        const again = parseDocumentText(out, 'trees.jsonl').doc.conversations[0].records;
        expect(again.map((r) => (r as Loose).text)).toEqual(records.map((r) => (r as Loose).text));
      }),
      { numRuns: 150 },
    );
  });
});
