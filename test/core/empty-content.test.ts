import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocumentText } from '../../src/core/formats/document-file.js';
import { sentText } from '../../src/core/formats/model.js';
import { hasUnreadPart } from '../../src/core/formats/unread.js';
import { serializeConversation } from '../../src/core/formats/write.js';
import type { Message } from '../../src/core/message.js';
import { edgeJson, edgeString } from '../support/edge-arbitraries.js';
import { pyyamlLoad, pyyamlMissing } from '../support/pyyaml.js';

// PyYAML is what swarms users read their YAML with: where it is here, it says what each content is.
const missing = pyyamlMissing();
if (missing) console.log(`the PyYAML cross-check of empty contents is skipped: ${missing}`);

/** Two words at least, of edge pieces: what a swarms agent's name ("Research Manager") or a note can be. */
const words = fc
  .tuple(fc.array(edgeString.filter((s) => /\S/.test(s) && !s.includes('\u0000')), { minLength: 2, maxLength: 4 }), fc.constantFrom(' ', '  ', '\t', ' \n ', '\u3000'))
  .map(([ws, sep]) => ws.map((w) => w.trim() || 'x').join(sep));

/** Metadata with prose in it (a note, a task, a nested summary), beside ids and times. */
const metadata = fc.record(
  { note: words, task: fc.record({ summary: words, status: fc.constantFrom('open', 'done') }), extra: edgeJson, id: fc.constantFrom('msg_01AbC', '00000000-0000-0000-0000-000000000001') },
  { requiredKeys: ['note'] },
);

/** A message whose content is empty, under a role and with metadata of several words. */
const emptyMessage = fc.record({ role: words, content: fc.constantFrom('', null), metadata, name: fc.option(words, { nil: undefined }) }, { requiredKeys: ['role', 'content', 'metadata'] });
const fullMessage = fc.record({ role: fc.oneof(words, fc.constantFrom('user', 'assistant')), content: words, metadata }, { requiredKeys: ['role', 'content'] });
const conversation = fc.array(fc.oneof(emptyMessage, fullMessage), { minLength: 1, maxLength: 8 }).filter((l) => l.some((m) => m.content === '' || m.content === null));

const isEmpty = (m: { content?: unknown }) => m.content === '' || m.content === null;
const strip = (m: Record<string, unknown>) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as Message;

const LISTS = fc.sample(conversation, { numRuns: 400, seed: 20261205 });

describe('an empty content is an empty message, never an unread part (swarms JSON and YAML)', () => {
  it('the case a tester met: {"role": "Research Manager", "content": ""} is empty, 0 parts, no raw JSON', () => {
    const text = JSON.stringify([{ role: 'Research Manager', content: '' }, { role: 'Writer', content: 'A draft.' }], null, 4);
    const { codec, doc } = parseDocumentText(text, 'swarms.json', 'swarms-json');
    const view = codec.view(doc.conversations[0].records[0]);
    expect(hasUnreadPart(view)).toBe(false);
    expect(view.parts).toEqual([]);
  });

  it.each(['json', 'yaml'] as const)('%s: every empty content, under any multi-word role and metadata, reads as no parts (property)', (format) => {
    const failures: string[] = [];
    for (const list of LISTS) {
      const messages = list.map(strip);
      const text = serializeConversation(messages, { format });
      const { codec, doc } = parseDocumentText(text, `x.${format}`, `swarms-${format}`);
      const records = doc.conversations[0].records;
      expect(records.length).toBe(messages.length);
      records.forEach((r, i) => {
        const view = codec.view(r);
        if (isEmpty(messages[i]) && (hasUnreadPart(view) || view.parts.length > 0)) failures.push(`${format} message ${i} (${JSON.stringify(messages[i].role)}): ${JSON.stringify(view.parts).slice(0, 200)}`);
        if (!isEmpty(messages[i]) && (hasUnreadPart(view) || sentText(view) !== messages[i].content)) failures.push(`${format} message ${i}: the content reads as ${JSON.stringify(sentText(view)).slice(0, 200)}`);
      });
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it.skipIf(missing !== undefined)('YAML: where PyYAML reads a content as empty (swarms reads it so), this tool shows an empty message; else its text', () => {
    const texts = LISTS.map((list) => serializeConversation(list.map(strip), { format: 'yaml' }));
    const { pure } = pyyamlLoad(texts);
    const failures: string[] = [];
    let empties = 0;
    texts.forEach((text, k) => {
      const py = pure[k];
      if (!py.ok) return failures.push(`PyYAML refused list ${k}: ${py.error}`);
      const { codec, doc } = parseDocumentText(text, 'x.yaml', 'swarms-yaml');
      (py.value as Array<{ content: unknown }>).forEach((m, i) => {
        const view = codec.view(doc.conversations[0].records[i]);
        if (isEmpty(m)) {
          empties++;
          if (view.parts.length > 0) failures.push(`list ${k} message ${i}: PyYAML reads no content, this tool ${JSON.stringify(view.parts).slice(0, 200)}`);
        } else if (sentText(view) !== m.content) failures.push(`list ${k} message ${i}: PyYAML reads ${JSON.stringify(m.content).slice(0, 80)}, this tool ${JSON.stringify(sentText(view)).slice(0, 80)}`);
      });
    });
    expect(failures.slice(0, 5)).toEqual([]);
    expect(empties).toBeGreaterThan(300);
  });

  it('a record that holds words under a shape its reader does not know, with no content field, is still an unread part', () => {
    const text = JSON.stringify([{ role: 'Research Manager', payload: { say: 'Day one: the old town, then the river walk.' } }]);
    const { codec, doc } = parseDocumentText(text, 'swarms.json', 'swarms-json');
    expect(hasUnreadPart(codec.view(doc.conversations[0].records[0]))).toBe(true);
  });

  it('an empty field beside another content field that holds words does not make the message empty', () => {
    const text = JSON.stringify([{ role: 'user', text: '', body: { said: 'the words are here, not in text' } }]);
    const { codec, doc } = parseDocumentText(text, 'swarms.json', 'swarms-json');
    // swarms reads `content`, absent here: the empty `text` beside a `body` of words does not say the message is empty.
    expect(hasUnreadPart(codec.view(doc.conversations[0].records[0]))).toBe(true);
  });
});
