import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { linkToolParts } from '../../src/core/views.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const DIR = join(FIXTURES, 'formats', 'swe-agent');
const FILES = [
  { name: 'django__django-11099.traj', list: (root: Record<string, unknown[]>) => root.history },
  { name: 'pager-fix.traj.json', list: (root: Record<string, unknown[]>) => root.messages },
] as const;

describe('SWE-agent trajectories', () => {
  it("SWE-agent's history: the demonstration marked, each call answered by the tool message naming it in tool_call_ids; the steps kept", () => {
    const text = readFileSync(join(DIR, FILES[0].name), 'utf8');
    const { codec, doc } = parseDocumentText(text, FILES[0].name);
    expect(codec.id).toBe('swe-agent-traj');
    const views = linkToolParts(doc.conversations[0].records.map((r) => codec.view(r)));
    expect(views.map((v) => v.normalRole)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
    expect(views[1].meta).toBe(true);
    expect(views[2].category).toBe('observation');
    const calls = views.flatMap((v) => v.parts.flatMap((p) => (p.kind === 'tool-call' ? [p.id] : [])));
    const results = views.flatMap((v) => v.parts.flatMap((p) => (p.kind === 'tool-result' ? [p.callId] : [])));
    expect(results).toEqual(calls);
    expect(doc.otherRecords).toBe(4);
  });

  it("mini-SWE-agent's messages: command output sent back as a user message is an observation; usage from extra", () => {
    const { codec, doc } = parseDocumentText(readFileSync(join(DIR, FILES[1].name), 'utf8'), FILES[1].name);
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views[3].category).toBe('observation');
    expect(views[2].usage).toEqual({ input: 812, output: 31 });
  });

  it('a plain OpenAI request body is not taken for a trajectory', () => {
    const { codec } = parseDocumentText(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }), 'body.json');
    expect(codec.id).toBe('openai-chat');
  });

  for (const f of FILES) {
    it(`${f.name}: an edit with edge-biased text reads back by JSON.parse; untouched, the same bytes (property)`, () => {
      const text = readFileSync(join(DIR, f.name), 'utf8');
      const parsed = parseDocumentText(text, f.name);
      const records = parsed.doc.conversations[0].records;
      const original = JSON.parse(text) as Record<string, unknown[]>;
      expect(serializeDocument(parsed.codec, parsed.doc, [records])).toBe(text);
      fc.assert(
        fc.property(fc.nat(records.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (at, typed) => {
          const edited = parsed.codec.withText(records[at], typed);
          fc.pre(edited !== undefined);
          const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, k) => (k === at ? edited : r))]);
          const back = JSON.parse(out) as Record<string, unknown[]>;
          const list = f.list(back);
          f.list(original).forEach((m, k) => k !== at && expect(list[k]).toEqual(m));
          // What is not the conversation (the steps, the info) is as it was.
          for (const key of Object.keys(original)) if (!['history', 'messages'].includes(key)) expect(back[key]).toEqual(original[key]);
          const v = parsed.codec.view(parseDocumentText(out, f.name).doc.conversations[0].records[at]);
          expect(v.parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
        }),
        { numRuns: 80, seed: 11 },
      );
    });
  }
});
