import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const FILES = [
  { name: 'session-2026-11-30T10-00-3f2a1b9c.json', list: (root: { messages: unknown[] }) => root.messages },
  { name: 'chat-history.json', list: (root: unknown[]) => root },
] as const;

describe('Gemini files: an edit with edge-biased text, read back by JSON.parse (property)', () => {
  for (const f of FILES) {
    it(f.name, () => {
      const text = readFileSync(join(FIXTURES, 'formats', 'gemini', f.name), 'utf8');
      const parsed = parseDocumentText(text, f.name);
      const records = parsed.doc.conversations[0].records;
      const original = JSON.parse(text);
      fc.assert(
        fc.property(fc.nat(records.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (at, typed) => {
          const edited = parsed.codec.withText(records[at], typed);
          fc.pre(edited !== undefined);
          const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, k) => (k === at ? edited : r))]);
          // An independent reader sees the typed text, byte for byte, and every other message as it was.
          const back = JSON.parse(out);
          const list = (f.list as (root: unknown) => unknown[])(back);
          const before = (f.list as (root: unknown) => unknown[])(original);
          list.forEach((m, k) => {
            if (k !== at) expect(m).toEqual(before[k]);
          });
          expect(JSON.stringify(list[at])).toContain(JSON.stringify(typed).slice(1, -1));
          const parts = parsed.codec.view(parseDocumentText(out, f.name).doc.conversations[0].records[at]).parts;
          // An emptied message holds no text to show (no empty part).
          if (typed === '') expect(parts.filter((p) => p.kind === 'text' && p.text !== '')).toEqual([]);
          else expect(parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
          // Nothing changed: the same bytes.
          expect(serializeDocument(parsed.codec, parsed.doc, [records])).toBe(text);
        }),
        { numRuns: 80, seed: 7 },
      );
    });
  }
});
