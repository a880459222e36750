import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendToFile, parseDocumentText, type OpenedFile } from '../../src/core/formats/document-file.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const F = join(FIXTURES, 'formats');
const FILES = ['claude-code/session.jsonl', 'claude-code/cart-rewind-compact.jsonl', 'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl', 'copilot-cli/events.jsonl'];

/** What a document says: per conversation its records, title and meta; the records that are not messages. */
const said = (doc: ReturnType<typeof parseDocumentText>['doc']) => ({ conversations: doc.conversations.map((c) => ({ records: c.records, title: c.title, meta: c.meta })), other: doc.otherRecords, text: doc.text });

describe('a session that grew is read as an append', () => {
  it.each(FILES)('%s: a head read, then the rest appended (cut anywhere, in one piece or several), reads as the whole file; what was read stays the same objects (property)', (name) => {
    const text = readFileSync(join(F, name), 'utf8');
    const whole = parseDocumentText(text, name);
    fc.assert(
      fc.property(fc.array(fc.nat(text.length), { minLength: 1, maxLength: 4 }), (cuts) => {
        const at = [...new Set(cuts)].sort((a, b) => a - b).filter((c) => c > 0);
        if (at.length === 0) return;
        let opened: OpenedFile;
        try {
          opened = parseDocumentText(text.slice(0, at[0]), name, whole.codec.id);
        } catch {
          return; // a head that is not yet a session (no message line yet, say)
        }
        for (let k = 0; k < at.length; k++) {
          const before = opened.doc.conversations[0].records;
          const next = appendToFile(opened, text.slice(at[k], at[k + 1] ?? text.length), name)!;
          // Records of complete lines before the cut are the same objects (the line being written is read again).
          const complete = text.slice(0, at[k]).endsWith('\n') ? before.length : before.length - 1;
          for (let i = 0; i < complete; i++) expect(next.doc.conversations[0].records[i]).toBe(before[i]);
          opened = next;
        }
        expect(said(opened.doc)).toEqual(said(whole.doc));
        // Written back untouched, the same bytes; the views and tree say the same.
        expect(opened.codec.serialize(opened.doc, opened.doc.conversations.map((c) => c.records))).toBe(text);
        const views = (d: typeof whole) => d.doc.conversations[0].records.map((r) => d.codec.view(r));
        expect(views(opened)).toEqual(views(whole));
        if (whole.codec.tree) expect(whole.codec.tree(opened.doc, 0, opened.doc.conversations[0].records)).toEqual(whole.codec.tree(whole.doc, 0, whole.doc.conversations[0].records));
      }),
      { numRuns: 60, seed: 5 },
    );
  });

  it('a bad line in what was appended is an error with its line number in the whole file', () => {
    const name = 'claude-code/session.jsonl';
    const text = readFileSync(join(F, name), 'utf8');
    const opened = parseDocumentText(text, name);
    const lines = text.split('\n').length;
    expect(() => appendToFile(opened, '{"type": "user", oops}\n{}\n', name)).toThrow(new RegExp(`invalid JSON on line ${lines}`));
  });

  it('a session of edge-biased text (CRLF or LF, blank lines, whitespace, separators, syntax characters) grown line by line reads as JSON.parse reads each line, and writes back byte for byte (property)', () => {
    const line = fc.tuple(fc.boolean(), edgeString, fc.constantFrom('', ' ', '\t')).map(([assistant, text, pad]) => ({ assistant, text, pad }));
    fc.assert(
      fc.property(fc.array(line, { minLength: 2, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.nat(), (lines, eol, blank, cutAt) => {
        const records = lines.map((l, i) => ({ type: l.assistant ? 'assistant' : 'user', uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, sessionId: 's', timestamp: '2026-12-01T10:00:00Z', message: l.assistant ? { role: 'assistant', content: [{ type: 'text', text: l.text }] } : { role: 'user', content: l.text } }));
        const text = records.map((r, i) => lines[i].pad + JSON.stringify(r) + eol + (blank && i === 1 ? eol : '')).join('');
        // Cut where a line ends, then the rest appended a line at a time, as an agent writes it.
        const ends = [...text.matchAll(/\n/g)].map((m) => m.index + 1);
        const cut = ends[cutAt % ends.length];
        let opened = parseDocumentText(text.slice(0, cut), 'session.jsonl', 'claude-code');
        for (let at = cut; at < text.length; ) {
          const next = text.indexOf('\n', at) + 1;
          opened = appendToFile(opened, text.slice(at, next), 'session.jsonl')!;
          at = next;
        }
        // An independent reader: JSON.parse of each line that holds something.
        const byJson = text.split(/\r?\n/).filter((x) => x.trim() !== '').map((x) => JSON.parse(x) as unknown);
        expect(opened.doc.conversations[0].records).toEqual(byJson);
        expect(opened.codec.serialize(opened.doc, opened.doc.conversations.map((c) => c.records))).toBe(text);
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});
