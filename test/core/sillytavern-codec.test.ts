import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
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
    expect(views.map((v) => [v.role, v.normalRole])).toEqual([
      ['Quartermaster', 'assistant'],
      ['Mara', 'user'],
      ['Quartermaster', 'assistant'],
      ['Narrator', 'system'],
      ['Mara', 'user'],
      ['Mara', 'user'],
    ]);
    expect(views[0].category).toBe('swipe 1 of 2');
    expect(views[2].category).toBe('swipe 2 of 3');
    expect(views[2].parts[0]).toMatchObject({ kind: 'reasoning' });
    expect(views[2].model).toBe('gpt-4o-2024-11-20');
    expect(views[4].meta).toBe(true);
    expect(doc.otherRecords).toBe(1);
    expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(text);
  });

  it('an edit of a message with swipes changes the chosen swipe with it; with edge-biased text it reads back by JSON.parse, every other line byte for byte (property)', () => {
    const text = readFileSync(FILE, 'utf8');
    const parsed = parseDocumentText(text, NAME);
    const records = parsed.doc.conversations[0].records;
    const lines = text.split('\n');
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (at, typed) => {
        const edited = parsed.codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, k) => (k === at ? edited : r))]);
        const outLines = out.split('\n');
        expect(outLines.length).toBe(lines.length);
        lines.forEach((l, k) => k !== at + 1 && expect(outLines[k]).toBe(l));
        const back = JSON.parse(outLines[at + 1]) as { mes: string; swipes?: string[]; swipe_id?: number };
        expect(back.mes).toBe(typed);
        if (back.swipes) expect(back.swipes[back.swipe_id ?? 0]).toBe(typed);
      }),
      { numRuns: 80, seed: 13 },
    );
  });

  it('a Claude Code or Codex session is not taken for a chat', () => {
    for (const f of ['claude-code/session.jsonl', 'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl']) {
      const { codec } = parseDocumentText(readFileSync(join(FIXTURES, 'formats', f), 'utf8'), f);
      expect(codec.id).not.toBe('sillytavern-chat');
    }
  });
});
