import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const FILE = join(FIXTURES, 'formats', 'cline', 'tasks', '1764670000000', 'ui_messages.json');

describe("Cline's ui_messages.json", () => {
  it('the task and replies as the user, the model words, tools and commands as calls, output as results, model calls as notices with their usage', () => {
    const text = readFileSync(FILE, 'utf8');
    const { codec, doc } = parseDocumentText(text, FILE);
    expect(codec.id).toBe('cline-ui-messages');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views[0]).toMatchObject({ normalRole: 'user', category: 'task', timestamp: '2025-12-02T10:06:40.000Z' });
    expect(views[1]).toMatchObject({ meta: true, usage: { input: 12 + 10450, output: 188, cacheWrite: 10450, cacheRead: 0 } });
    expect(views[2].parts[0].kind).toBe('reasoning');
    expect(views[4].parts[0]).toMatchObject({ kind: 'text', text: expect.stringMatching(/^readFile scripts\/deploy\.sh\n/) });
    expect(views[8].parts[0]).toMatchObject({ kind: 'tool-call', name: 'execute_command', arguments: JSON.stringify({ command: 'sh scripts/deploy.sh --dry-run' }) });
    expect(views[9]).toMatchObject({ normalRole: 'tool' });
    expect(views[13].parts[0]).toMatchObject({ kind: 'text', text: 'Should the dry-run line go to stderr or stdout?' });
    expect(views.filter((v) => v.normalRole === 'user').map((v) => v.category)).toEqual(['task', 'user_feedback', 'user_feedback']);
    // Roles say who speaks (one chip each); what Cline calls a message is its category.
    expect([...new Set(views.map((v) => v.role))].sort()).toEqual(['assistant', 'cline', 'tool', 'user']);
    expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(text);
  });

  it("the model's history beside it (api_conversation_history.json) is not taken for it", () => {
    const { codec } = parseDocumentText(readFileSync(join(FIXTURES, 'formats', 'anthropic', 'api_conversation_history.json'), 'utf8'), 'api_conversation_history.json');
    expect(codec.id).toBe('anthropic-messages');
  });

  it('an edit with edge-biased text reads back by JSON.parse with that text, everything else as it was (property)', () => {
    const text = readFileSync(FILE, 'utf8');
    const parsed = parseDocumentText(text, FILE);
    const records = parsed.doc.conversations[0].records;
    const original = JSON.parse(text) as unknown[];
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (at, typed) => {
        const edited = parsed.codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, k) => (k === at ? edited : r))]);
        const back = JSON.parse(out) as Array<{ text?: string }>;
        original.forEach((m, k) => k !== at && expect(back[k]).toEqual(m));
        expect(back[at].text).toBe(typed);
      }),
      { numRuns: 100, seed: 5 },
    );
  });
});
