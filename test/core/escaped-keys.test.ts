// JSON may spell any character of a key as an escape ("r\u006fle" is "role"); writers rarely do, but a file that
// does is the same file to JSON.parse, so it is read as the format it is, and written back byte for byte.
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../src/core/index.js';
import { parseWithCodecs } from '../../src/core/formats/registry.js';
import { serializeDocument } from '../../src/core/formats/document-file.js';
import { FIXTURES, ROOT } from '../helpers.js';
import { fixtureFiles } from '../support/fixture-files.js';
import { edgeMessage } from '../support/edge-arbitraries.js';

/** Every key's first letter as a \u escape. */
const escapeKeys = (text: string) => text.replace(/"([A-Za-z])([\w-]*)"(\s*):/g, (_, first: string, rest: string, space: string) => `"\\u${first.charCodeAt(0).toString(16).padStart(4, '0')}${rest}"${space}:`);

describe('keys spelled with escapes', () => {
  const files = [...fixtureFiles(FIXTURES).map((f) => join(FIXTURES, f)), ...fixtureFiles(join(ROOT, 'examples')).map((f) => join(ROOT, 'examples', f))].filter((f) => ['.json', '.jsonl'].includes(extname(f)));

  it('read as the format of the same file with plain keys, the same records, and written back unchanged', () => {
    let checked = 0;
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      let plain;
      try {
        plain = parseWithCodecs(text, f);
      } catch {
        continue; // a fixture of a broken file
      }
      const escaped = escapeKeys(text);
      if (escaped === text) continue;
      const got = parseWithCodecs(escaped, f);
      // A file named for its tool may be read by a more specific codec only by its keys; the format is the same one.
      expect(got.codec.id, f).toBe(plain.codec.id);
      expect(got.doc.conversations.map((c) => c.records), f).toEqual(plain.doc.conversations.map((c) => c.records));
      expect(serializeDocument(got.codec, got.doc, got.doc.conversations.map((c) => c.records)), f).toBe(escaped);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('a list of messages whose every key is escaped is not refused as "found a list of objects with keys: role, content"', () => {
    const got = parseWithCodecs('[{"r\\u006fle": "user", "content": "hi"}]', 'chat.json');
    expect(got.doc.conversations[0].records).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('edge-biased messages with escaped keys, any layout: read as JSON.parse reads them, in the format of their plain twin, written back byte for byte', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.array(edgeMessage, { minLength: 1, maxLength: 6 }), fc.constantFrom(0, 2, 4, '\t'), fc.boolean(), (list, indent, crlf) => {
        const layout = (t: string) => (crlf ? t.replace(/\n/g, '\r\n') : t);
        const plain = layout(JSON.stringify(list, null, indent));
        const escaped = escapeKeys(plain);
        let twin;
        try {
          twin = parseWithCodecs(plain, 'chat.json');
        } catch {
          return; // messages no format here reads as plain keys either
        }
        const got = parseWithCodecs(escaped, 'chat.json');
        expect(got.codec.id).toBe(twin.codec.id);
        expect(got.doc.conversations[0].records).toEqual(JSON.parse(escaped));
        expect(serializeDocument(got.codec, got.doc, got.doc.conversations.map((c) => c.records))).toBe(escaped);
        read++;
      }),
      { numRuns: 300 },
    );
    // Most of them are conversations (the rest exercise nothing here).
    expect(read).toBeGreaterThan(150);
  });
});
