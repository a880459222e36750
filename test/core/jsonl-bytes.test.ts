// A log read a line at a time from its bytes (syntax/utf8-text.ts) must give exactly what reading its decoded text
// gives: the same lines at the same places, the same values, style, errors and document, and the same text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../src/core/formats/all.js';
import { parseJsonl } from '../../src/core/formats/syntax/jsonl.js';
import { utf8Text } from '../../src/core/formats/syntax/utf8-text.js';
import { parseDocumentBytes, parseDocumentText, readDocumentFile } from '../../src/core/formats/document-file.js';

const RUNS = Number(process.env.RUNS ?? 300);

/** Text at the edges: ASCII, Latin-1, CJK, astral characters, separators, escapes and the format's own characters. */
const edgy = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', ' ', '\t', '\u2028', '\u2029', '\u00a0', '\u3000', 'é', '😀', '\\u00e9', '"}{][,:', '\r', '\r\n', 'x'.repeat(5000)),
);

const record = fc.oneof(
  fc.record({ type: fc.constant('user'), sessionId: fc.constant('s1'), parentUuid: fc.constantFrom(null, 'a'), uuid: fc.uuid(), message: fc.record({ role: fc.constant('user'), content: edgy }) }),
  fc.record({ type: fc.constant('assistant'), sessionId: fc.constant('s1'), parentUuid: fc.constant('a'), uuid: fc.uuid(), message: fc.record({ role: fc.constant('assistant'), content: fc.array(fc.record({ type: fc.constant('text'), text: edgy }), { maxLength: 3 }) }) }),
  fc.record({ type: fc.constant('summary'), summary: edgy, leafUuid: fc.uuid() }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** How a line is written: compact, spaced as Python writes it, escaped to ASCII, indented, or not JSON at all. */
const line = fc.oneof(
  { weight: 6, arbitrary: record.map((r) => JSON.stringify(r)) },
  { weight: 2, arbitrary: record.map((r) => JSON.stringify(r).replace(/","/g, '", "').replace(/":/g, '": ')) },
  { weight: 2, arbitrary: record.map((r) => JSON.stringify(r).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(' ', '\t', '  '), record).map(([ws, r]) => `${ws}${JSON.stringify(r)}${ws}`) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t', '\u3000', '\u00a0 ') },
);
const broken = fc.constantFrom('{"a":', '{"x": tru}', 'not json é', '[1,]');

const file = fc.record({
  bom: fc.boolean(),
  lines: fc.array(fc.tuple(line, fc.constantFrom('\n', '\n', '\r\n')), { maxLength: 12 }),
  // Now and then a line that is not JSON, somewhere: an error at its line and column, or a partial last line.
  broken: fc.option(fc.tuple(fc.nat(), broken), { freq: 8 }),
  end: fc.constantFrom('', '\n', '\r\n', '\r'),
}).map(({ bom, lines, broken, end }) => {
  if (broken) lines.splice(broken[0] % (lines.length + 1), 0, [broken[1], '\n']);
  const text = lines.map(([l, eol]) => l + eol).join('');
  return Buffer.from(`${bom ? '\ufeff' : ''}${end === '' || text === '' ? text : text.replace(/(\r\n|\n|\r)$/, '') + end}`, 'utf8');
});

type Outcome = { ok: unknown } | { error: string; line?: number; column?: number };
const outcome = (f: () => unknown): Outcome => {
  try {
    return { ok: f() };
  } catch (e) {
    const err = e as { message: string; line?: number; column?: number };
    return { error: err.message, line: err.line, column: err.column };
  }
};

describe('a JSONL file read a line at a time from its bytes', () => {
  it('gives the baseline its decoded text gives: lines, places, values, style, a partial last line and errors', () => {
    fc.assert(
      fc.property(file, (bytes) => {
        const body = bytes[0] === 0xef ? bytes.subarray(3) : bytes;
        const fromText = outcome(() => parseJsonl(body.toString('utf8'), 'f.jsonl'));
        const fromBytes = outcome(() => parseJsonl(utf8Text(body), 'f.jsonl'));
        expect(fromBytes).toEqual(fromText);
      }),
      { numRuns: RUNS },
    );
  });

  it('gives the document its text gives, detected alike, with the same text when asked for', () => {
    fc.assert(
      fc.property(file, (bytes) => {
        const viaText = outcome(() => {
          const o = parseDocumentText(bytes.toString('utf8'), 's.jsonl');
          return { codec: o.codec.id, bom: o.bom, conversations: o.doc.conversations, baseline: o.doc.baseline, other: o.doc.otherRecords, text: o.doc.text };
        });
        const viaBytes = outcome(() => {
          const o = parseDocumentBytes(bytes, 's.jsonl');
          return { codec: o.codec.id, bom: o.bom, conversations: o.doc.conversations, baseline: o.doc.baseline, other: o.doc.otherRecords, text: o.doc.text };
        });
        expect(viaBytes).toEqual(viaText);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads a Claude Code session without decoding its whole text, and decodes it when the text is asked for', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-jsonl-bytes-'));
    try {
      const path = join(dir, 's.jsonl');
      const lines = [
        { type: 'user', sessionId: 's1', parentUuid: null, uuid: 'u1', message: { role: 'user', content: 'naïve café 😀' } },
        { type: 'assistant', sessionId: 's1', parentUuid: 'u1', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: 'plain' }] } },
      ];
      const text = lines.map((l) => JSON.stringify(l)).join('\r\n') + '\r\n';
      writeFileSync(path, text);
      const opened = readDocumentFile(path);
      expect(opened.codec.id).toBe('claude-code');
      expect(typeof Object.getOwnPropertyDescriptor(opened.doc, 'text')?.get).toBe('function');
      expect(opened.doc.conversations[0].records).toHaveLength(2);
      expect(opened.doc.text).toBe(text);
      opened.doc.text = 'replaced';
      expect(opened.doc.text).toBe('replaced');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
