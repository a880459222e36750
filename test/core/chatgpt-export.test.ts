import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatGptExport } from '../../src/core/formats/chatgpt/codec.js';
import { parseDocumentText, writeDocument } from '../../src/core/formats/document-file.js';
import { childrenOf, forksOf, leavesOf, pathTo } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';
import type { Loose } from '../support/loose.js';

const FILE = join(FIXTURES, 'formats', 'chatgpt', 'conversations.json');
const idOf = (r: unknown) => (r as Loose).id as string;

/** Every parent a node names is a node that names it as a child, and the other way round. */
function linksHold(conversation: Loose): void {
  const mapping = conversation.mapping as Record<string, Loose>;
  for (const [id, node] of Object.entries(mapping)) {
    expect(node.id).toBe(id);
    if (node.parent !== null) expect(mapping[node.parent]?.children, `${id}'s parent ${node.parent}`).toContain(id);
    for (const c of node.children) expect(mapping[c]?.parent, `${id}'s child ${c}`).toBe(id);
  }
  expect(mapping[conversation.current_node], 'current_node is a node').toBeDefined();
}

describe('a ChatGPT export', () => {
  const opened = parseDocumentText(readFileSync(FILE, 'utf8'), 'conversations.json');

  it('is recognised, with every node that has a message a record, in the tree’s order', () => {
    expect(opened.codec.id).toBe('chatgpt-export');
    expect(opened.doc.conversations.map((c) => [c.title, c.records.length])).toEqual([['Lisbon in March', 13], ['Bird photo', 2]]);
    expect(opened.doc.otherRecords).toBe(2);
  });

  it('shows the path current_node ends, and where it forks: the edited prompt and the regenerated answer', () => {
    const records = opened.doc.conversations[0].records;
    const tree = chatGptExport.tree!(opened.doc, 0, records);
    const path = pathTo(tree, tree.active);
    expect(path.map((i) => idOf(records[i]))).toEqual(['n-sys', 'n-ctx', 'u1e', 'a2r', 'u2', 'th', 'rr', 'py', 'out', 'a3']);
    const forks = forksOf(tree, path);
    expect(forks.map((f) => [f.at, f.options.map((i) => idOf(records[i])), f.chosen])).toEqual([
      [2, ['u1', 'u1e'], 1],
      [3, ['a2', 'a2r'], 1],
    ]);
    expect(leavesOf(tree, 'main').map((i) => idOf(records[i]))).toEqual(['a1', 'a2', 'a3']);
  });

  it('reads each content type: hidden context as meta, thoughts as reasoning, a python call and its output, an image', () => {
    const [c0, c1] = opened.doc.conversations.map((c) => c.records.map((r) => chatGptExport.view(r)));
    const byId = Object.fromEntries(c0.map((v) => [v.id, v]));
    expect(byId['n-ctx']).toMatchObject({ meta: true, parts: [{ kind: 'text', text: expect.stringContaining('Kraków') }] });
    expect(byId.th.parts).toEqual([{ kind: 'reasoning', text: 'Daylight\nLisbon is at 38.7°N; near the equinox day length is about 12 hours.', vendor: 'openai' }]);
    expect(byId.py.parts).toEqual([{ kind: 'tool-call', id: 'py', name: 'python', arguments: "import astral\nprint('11h 58m')" }]);
    expect(byId.out).toMatchObject({ normalRole: 'tool', name: 'python', parts: [{ kind: 'tool-result', callId: 'py', text: '11h 58m' }] });
    expect(byId.a3).toMatchObject({ model: 'o3', timestamp: '2025-11-29T07:08:45.000Z' });
    expect(c1[0].parts).toEqual([{ kind: 'image', ref: 'file-service://file-Ab12Cd34' }, { kind: 'text', text: 'What bird is this?' }]);
  });

  it('writes an untouched file back byte for byte, and one edited message as that message alone', () => {
    const text = readFileSync(FILE, 'utf8');
    const all = opened.doc.conversations.map((c) => c.records);
    expect(writeDocument(opened.codec, opened.doc, all).text).toBe(text);
    const edited = all.map((rs, c) => (c === 0 ? rs.map((r) => (idOf(r) === 'a2r' ? chatGptExport.withText(r, 'Museums first.') : r)) : rs));
    const out = writeDocument(opened.codec, opened.doc, edited).text;
    expect(out.length - text.length).toBe('Museums first.'.length - 'March in Lisbon is mild but wet: Day 1 museums (Gulbenkian, Tile Museum), Day 2 Belém, Day 3 Sintra or the Oceanário.'.length);
  });
});

/** A random export: trees of nodes with edge-case text, branches anywhere, a root without a message. */
const exportArb = fc
  .array(fc.record({ parent: fc.nat(), text: edgeString, role: fc.constantFrom('user', 'assistant', 'system', 'tool') }), { minLength: 1, maxLength: 14 })
  .map((specs) => {
    const mapping: Record<string, Loose> = { root: { id: 'root', message: null, parent: null, children: [] } };
    const ids = ['root'];
    specs.forEach((s, k) => {
      const id = `m${k}`;
      const parent = ids[s.parent % ids.length];
      mapping[id] = { id, message: { id, author: { role: s.role, name: null, metadata: {} }, create_time: 1764400000 + k, content: { content_type: 'text', parts: [s.text] }, metadata: {}, recipient: 'all' }, parent, children: [] };
      mapping[parent].children.push(id);
      ids.push(id);
    });
    return JSON.stringify([{ title: 'random', mapping, current_node: ids[ids.length - 1] }], null, 2);
  });

const editArb = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('set-text' as const), at: fc.nat(), text: edgeString }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: edgeString }),
  ),
  { maxLength: 5 },
);

describe('ChatGPT trees (properties)', () => {
  it('every path is a chain from a root to a leaf; edits keep the tree whole and the file consistent', () => {
    fc.assert(
      fc.property(exportArb, editArb, (text, edits) => {
        const opened = parseDocumentText(text, 'conversations.json');
        expect(opened.codec.id).toBe('chatgpt-export');
        const records = opened.doc.conversations[0].records.slice();
        // Untouched, the file is written back byte for byte.
        expect(writeDocument(opened.codec, opened.doc, [records]).text).toBe(text);
        const check = (rs: readonly unknown[]) => {
          const tree = chatGptExport.tree!(opened.doc, 0, rs);
          const children = childrenOf(tree);
          for (const leaf of leavesOf(tree, 'main', children)) {
            const path = pathTo(tree, leaf);
            expect(tree.parent[path[0]]).toBe(-1);
            path.forEach((node, k) => k > 0 && expect(tree.parent[node]).toBe(path[k - 1]));
            expect(children[path[path.length - 1]]).toEqual([]);
          }
        };
        check(records);
        const kept = new Map<string, string>();
        for (const e of edits) {
          if (records.length === 0) break;
          const at = e.at % records.length;
          if (e.kind === 'set-text') records[at] = chatGptExport.withText(records[at], e.text)!;
          else if (e.kind === 'delete') records.splice(at, 1);
          else records.splice(at + 1, 0, chatGptExport.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: e.text }] }));
          check(records);
        }
        for (const r of records) kept.set(idOf(r), JSON.stringify((r as Loose).message.content));
        const { text: out } = writeDocument(opened.codec, opened.doc, [records]);
        const root = JSON.parse(out) as Loose[];
        linksHold(root[0]);
        const again = parseDocumentText(out, 'conversations.json');
        // What was written is what was edited: the same messages, each with its text, none lost or doubled.
        expect(new Map(again.doc.conversations[0].records.map((r) => [idOf(r), JSON.stringify((r as Loose).message.content)]))).toEqual(kept);
      }),
      { numRuns: 150 },
    );
  });
});
