import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { forksOf, pathTo } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const NAME = 'Quartermaster - 2025-11-30@19h02m11s.jsonl';
const FILE = join(FIXTURES, 'formats', 'sillytavern', NAME);

describe('SillyTavern chats', () => {
  it('speakers by name, the narrator as the system, hidden messages marked, the chosen swipe shown and named, reasoning apart', () => {
    const text = readFileSync(FILE, 'utf8');
    const { codec, doc } = parseDocumentText(text, NAME);
    expect(codec.id).toBe('sillytavern-chat');
    expect(doc.conversations[0].title).toBe('Quartermaster · 2025-11-30@19h02m11s');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    // Each swipe the chat was not left at is a record of its own, beside its message, in the swipes' order.
    expect(views.map((v) => [v.role, v.normalRole, v.category])).toEqual([
      ['Quartermaster', 'assistant', 'swipe 1 of 2, chosen'],
      ['Quartermaster', 'assistant', 'swipe 2 of 2'],
      ['Mara', 'user', undefined],
      ['Quartermaster', 'assistant', 'swipe 1 of 3'],
      ['Quartermaster', 'assistant', 'swipe 2 of 3, chosen'],
      ['Quartermaster', 'assistant', 'swipe 3 of 3'],
      ['Narrator', 'system', undefined],
      ['Mara', 'user', undefined],
      ['Mara', 'user', undefined],
    ]);
    expect(views[4].parts[0]).toMatchObject({ kind: 'reasoning' });
    expect(views[4].model).toBe('gpt-4o-2024-11-20');
    expect(views[7].meta).toBe(true);
    expect(doc.otherRecords).toBe(1);
    expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(text);
  });

  it('an edit of a message or of a swipe changes that swipe; with edge-biased text it reads back by JSON.parse, every other line byte for byte (property)', () => {
    const text = readFileSync(FILE, 'utf8');
    const parsed = parseDocumentText(text, NAME);
    const records = parsed.doc.conversations[0].records;
    const lines = text.split('\n');
    // The file line of each record, and which of its swipes it is.
    const places = [[1, 0], [1, 1], [2, -1], [3, 0], [3, 1], [3, 2], [4, -1], [5, -1], [6, -1]];
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (at, typed) => {
        const edited = parsed.codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, k) => (k === at ? edited : r))]);
        const outLines = out.split('\n');
        const [line, swipe] = places[at];
        expect(outLines.length).toBe(lines.length);
        lines.forEach((l, k) => k !== line && expect(outLines[k]).toBe(l));
        const back = JSON.parse(outLines[line]) as { mes: string; swipes?: string[]; swipe_id?: number };
        const was = JSON.parse(lines[line]) as { mes: string; swipes?: string[]; swipe_id?: number };
        if (swipe === -1 || swipe === was.swipe_id) {
          expect(back.mes).toBe(typed);
          if (back.swipes) expect(back.swipes[back.swipe_id ?? 0]).toBe(typed);
        } else {
          // Another swipe: the chat still shows the chosen one.
          expect(back.mes).toBe(was.mes);
          expect(back.swipe_id).toBe(was.swipe_id);
          expect(back.swipes![swipe]).toBe(typed);
        }
      }),
      { numRuns: 80, seed: 13 },
    );
  });

  it('swipes are branches beside their message: the chat goes on from the chosen one; a deleted swipe leaves its message’s swipes', () => {
    const text = readFileSync(FILE, 'utf8');
    const parsed = parseDocumentText(text, NAME);
    const records = parsed.doc.conversations[0].records;
    const tree = parsed.codec.tree!(parsed.doc, 0, records);
    expect(Array.from(tree.parent)).toEqual([-1, -1, 0, 2, 2, 2, 4, 6, 7]);
    expect(tree.active).toBe(8);
    // The first message's other greeting is a fork at the root; the third message's swipes a fork under the second.
    const path = pathTo(tree, tree.active);
    expect(forksOf(tree, path).map((f) => [f.at, f.options, f.chosen])).toEqual([
      [0, [0, 1], 0],
      [2, [3, 4, 5], 1],
    ]);
    // Swipe 1 of 3 deleted: the message keeps swipes 2 and 3, still showing the second (now the first).
    const out = serializeDocument(parsed.codec, parsed.doc, [records.filter((_, k) => k !== 3)]);
    const line = JSON.parse(out.split('\n')[3]) as { mes: string; swipes: string[]; swipe_id: number; swipe_info: unknown[] };
    const was = JSON.parse(text.split('\n')[3]) as { mes: string; swipes: string[]; swipe_id: number; swipe_info: unknown[] };
    expect(line.swipes).toEqual([was.swipes[1], was.swipes[2]]);
    expect(line.swipe_id).toBe(0);
    expect(line.mes).toBe(was.mes);
    expect(line.swipe_info).toHaveLength(2);
    // The message deleted with a swipe left: what is left is a message of its own.
    const alone = serializeDocument(parsed.codec, parsed.doc, [records.filter((_, k) => k !== 0)]);
    expect(JSON.parse(alone.split('\n')[1]) as object).toMatchObject({ mes: '"Another one. Name?"', swipes: ['"Another one. Name?"'], swipe_id: 0 });
  });

  it('a Claude Code or Codex session is not taken for a chat', () => {
    for (const f of ['claude-code/session.jsonl', 'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl']) {
      const { codec } = parseDocumentText(readFileSync(join(FIXTURES, 'formats', f), 'utf8'), f);
      expect(codec.id).not.toBe('sillytavern-chat');
    }
  });
});
