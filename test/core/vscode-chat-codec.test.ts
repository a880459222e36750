import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument, writeDocument } from '../../src/core/formats/document-file.js';
import { candidates, codecById } from '../../src/core/formats/registry.js';
import { displayText } from '../../src/core/formats/model.js';
import { linkToolParts } from '../../src/core/views.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

type Loose = Record<string, unknown>;
const DIR = join(FIXTURES, 'formats', 'vscode-chat');
const EXPORT = 'chat.json';
const SESSION = 'chatSessions/0b9a8f7e-6d5c-4b4a-3f2e-1d0c9b8a7f6e.json';
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');
const open = (name: string) => parseDocumentText(read(name), name);

describe('VS Code chat sessions', () => {
  it('"Export Chat…": each request a user message, its response the answer; a cancelled request with no parts has none', () => {
    const { codec, doc } = open(EXPORT);
    expect(codec.id).toBe('vscode-chat');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views.map((v) => v.normalRole)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(displayText(views[0])).toBe('@workspace Why does parseDate fail on offsets like +05:30?');
    expect(views[0].timestamp).toBe('2024-06-10T06:13:20.000Z');
    // The attached file, and a selection of it (a Location), are references.
    expect(views[0].parts[1]).toEqual({ kind: 'file', ref: '/home/dev/cal/src/date.ts' });
    expect(views[2].parts[1]).toEqual({ kind: 'file', ref: '/home/dev/cal/src/date.ts:1-4' });
    expect(views[1].model).toBe('copilot/claude-sonnet-4');
    expect(displayText(views[4])).toBe('Also handle negative offsets like -03:00');
  });

  it('response parts: thinking, markdown run together with inline references, tool invocations with their calls and results, edits as files, unknown kinds kept', () => {
    const { codec, doc } = open(EXPORT);
    const [, first, , second] = doc.conversations[0].records.map((r) => codec.view(r));
    // The empty thinking part (its end marker), prepareToolInvocation and undoStop show nothing.
    expect(first.parts.map((p) => p.kind)).toEqual(['reasoning', 'tool-call', 'tool-result', 'text']);
    expect(first.parts[0]).toEqual({ kind: 'reasoning', text: 'The user asks about offsets. I should read the parser before answering.' });
    // The call as the model made it (result.metadata.toolCallRounds, its id with copilot-chat's __vscode-N suffix).
    expect(first.parts[1]).toEqual({ kind: 'tool-call', id: 'toolu_01ReadDate', name: 'copilot_readFile', arguments: '{"filePath":"/home/dev/cal/src/date.ts","startLine":1,"endLine":40}' });
    expect(first.parts[2]).toMatchObject({ kind: 'tool-result', callId: 'toolu_01ReadDate' });
    expect((first.parts[2] as { text: string }).text).toContain('export function parseDate');
    // An inline reference reads as VS Code's text of the response spells it: the file's base name.
    expect((first.parts[3] as { text: string }).text).toMatch(/^The offset is matched in date\.ts by /);

    expect(second.parts.map((p) => p.kind)).toEqual(['text', 'tool-call', 'tool-result', 'file', 'tool-call', 'tool-result', 'tool-call', 'tool-result', 'unknown']);
    const results = second.parts.filter((p) => p.kind === 'tool-result') as Array<{ text: string }>;
    // A prompt-tsx result's text leaves; an MCP tool's embedded output from resultDetails.
    expect(results[1].text).toContain('✓ parses +05:30');
    expect(results[2].text).toBe('{"zone":"Asia/Kolkata","offset":"+05:30"}');
    expect(second.parts[6]).toMatchObject({ kind: 'tool-call', name: 'mcp_tz_timezone_lookup', arguments: '{\n  "zone": "Asia/Kolkata"\n}' });
    // The text edit group is the file it changed (its code block link to the same file is not repeated).
    expect(second.parts[3]).toEqual({ kind: 'file', ref: '/home/dev/cal/src/date.ts' });
    expect(second.parts[8]).toMatchObject({ kind: 'unknown', type: 'questionCarousel' });
    expect(JSON.parse((second.parts[8] as { text: string }).text)).toMatchObject({ kind: 'questionCarousel', isUsed: false });
    // Every result answers the call before it.
    const linked = linkToolParts([first, second]).flatMap((v) => v.parts);
    expect(linked.filter((p) => p.kind === 'tool-result').map((p) => (p as { callId?: string }).callId)).toEqual(linked.filter((p) => p.kind === 'tool-call').map((p) => (p as { id?: string }).id));
  });

  it('a chatSessions file: its customTitle is the title, its sessionId kept', () => {
    const { codec, doc } = open(SESSION);
    expect(codec.id).toBe('vscode-chat');
    expect(doc.conversations[0].title).toBe('The --tz flag');
    expect(doc.conversations[0].meta?.sessionId).toBe('0b9a8f7e-6d5c-4b4a-3f2e-1d0c9b8a7f6e');
    expect(doc.conversations[0].records.map((r) => codec.view(r).model)).toEqual([undefined, 'copilot/gpt-4.1']);
  });

  it('does not take other formats’ files, and they do not take it', () => {
    const vscode = codecById('vscode-chat')!;
    for (const [name, id] of [
      ['openai/chat.json', 'openai-chat'],
      ['gemini/session-2026-11-30T10-00-3f2a1b9c.json', 'gemini-cli'],
      ['claude-ai/conversations.json', 'claude-ai-export'],
      ['continue/3f1c9a2e-7b4d-4e8f-a1c2-5d6e7f8a9b0c.json', 'continue-session'],
    ]) {
      const text = readFileSync(join(FIXTURES, 'formats', name), 'utf8');
      expect(vscode.sniff(text.slice(0, 65536), name), name).toBe(0);
      expect(parseDocumentText(text, name).codec.id, name).toBe(id);
    }
    for (const name of [EXPORT, SESSION]) expect(candidates(name, read(name).slice(0, 65536))[0].id).toBe('vscode-chat');
  });

  it('untouched, both files are written back byte for byte', () => {
    for (const name of [EXPORT, SESSION]) {
      const { codec, doc } = open(name);
      expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(read(name));
    }
  });

  it('an edited request keeps its @-mention part while its text still starts with it, and its parts say the new text', () => {
    const { codec, doc } = open(EXPORT);
    const records = doc.conversations[0].records.slice();
    records[0] = codec.withText(records[0], '@workspace And for "Z"?');
    const out = JSON.parse(serializeDocument(codec, doc, [records])) as { requests: Loose[] };
    const message = out.requests[0].message as { text: string; parts: Loose[] };
    expect(message.text).toBe('@workspace And for "Z"?');
    expect(message.parts.map((p) => p.kind)).toEqual(['agent', 'text']);
    expect(message.parts[1]).toMatchObject({ text: ' And for "Z"?', range: { start: 10, endExclusive: 23 }, editorRange: { startLineNumber: 1, startColumn: 11, endLineNumber: 1, endColumn: 24 } });
    // Without the mention the message is one text part, over two lines here.
    const plain = codec.withText(doc.conversations[0].records[0], 'first\nsecond') as { message: { parts: Loose[] } };
    expect(plain.message.parts).toEqual([{ range: { start: 0, endExclusive: 12 }, editorRange: { startLineNumber: 1, startColumn: 1, endLineNumber: 2, endColumn: 7 }, text: 'first\nsecond', kind: 'text' }]);
  });

  it('a deleted answer leaves its request with an empty response; a new answer after a request joins it', () => {
    const { codec, doc } = open(EXPORT);
    const records = doc.conversations[0].records;
    const original = JSON.parse(read(EXPORT)) as { requests: Loose[] };
    // Delete the first answer: the first request keeps everything else.
    const out = JSON.parse(serializeDocument(codec, doc, [records.filter((_, i) => i !== 1)])) as { requests: Loose[] };
    expect(out.requests[0]).toEqual({ ...original.requests[0], response: [] });
    expect(out.requests.slice(1)).toEqual(original.requests.slice(1));
    // An answer for the cancelled request at the end.
    const answer = codec.fromView({ role: 'assistant', normalRole: 'assistant', parts: [{ kind: 'text', text: 'Negative offsets work the same way.' }] });
    const withAnswer = JSON.parse(serializeDocument(codec, doc, [[...records, answer]])) as { requests: Loose[] };
    expect(withAnswer.requests).toHaveLength(3);
    expect(withAnswer.requests[2]).toEqual({ ...original.requests[2], response: [{ value: 'Negative offsets work the same way.', supportThemeIcons: false, supportHtml: false }] });
  });

  it('an answer with no request of its own before it gets an empty one, which reads as no message; saved again, the same bytes', () => {
    const { codec, doc } = open(EXPORT);
    const records = doc.conversations[0].records;
    // The first request deleted: its answer leads. Two answers in a row after it.
    const edited = [records[1], records[3], records[2], records[4]];
    const out = serializeDocument(codec, doc, [edited]);
    const back = JSON.parse(out) as { requests: Array<{ message: Loose; response: unknown[] }> };
    expect(back.requests.map((q) => q.message.text)).toEqual(['', '', 'Fix it so both +05:30 and +0530 work, and run the date tests.', 'Also handle negative offsets like -03:00']);
    expect(back.requests[0]).toMatchObject({ message: { text: '', parts: [] }, variableData: { variables: [] } });
    expect(back.requests.map((q) => q.response.length)).toEqual([7, 8, 0, 0]);
    const again = parseDocumentText(out, EXPORT);
    expect(again.doc.conversations[0].records).toEqual(edited.map((r) => (Array.isArray(r) ? r : { ...(r as Loose), response: [] })));
    expect(serializeDocument(again.codec, again.doc, [again.doc.conversations[0].records])).toBe(out);
  });

  it('a copied request gets a request id of its own', () => {
    const { codec, doc } = open(EXPORT);
    const first = doc.conversations[0].records[0] as Loose;
    const copy = codec.freshIds!(structuredClone(first)) as Loose;
    expect(copy.requestId).not.toBe(first.requestId);
    expect({ ...copy, requestId: undefined }).toEqual({ ...first, requestId: undefined });
  });

  it('a conversion into it holds calls with their results and reads back the same', () => {
    const codec = codecById('vscode-chat')!;
    const answer = codec.fromView({
      role: 'assistant',
      normalRole: 'assistant',
      parts: [
        { kind: 'reasoning', text: 'Look first.' },
        { kind: 'text', text: 'Checking.' },
        { kind: 'tool-call', id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' },
        { kind: 'tool-result', callId: 'call_1', text: 'const a = 1;' },
      ],
    });
    const text = JSON.stringify([codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Read a.ts' }] }), answer], null, 4);
    const back = parseDocumentText(text, 'x.json', 'vscode-chat');
    expect(back.doc.conversations[0].records.map((r) => codec.view(r).parts)).toEqual([
      [{ kind: 'text', text: 'Read a.ts' }],
      [
        { kind: 'reasoning', text: 'Look first.' },
        { kind: 'text', text: 'Checking.' },
        { kind: 'tool-call', id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' },
        { kind: 'tool-result', callId: 'call_1', text: 'const a = 1;' },
      ],
    ]);
  });

  it('any deletes, moves, copies, new messages and edits are written, and read back as the records written (property)', () => {
    const { codec, doc } = open(EXPORT);
    const step = fc.oneof(
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), role: fc.constantFrom('user' as const, 'assistant' as const), text: fc.string({ maxLength: 20 }) }),
      fc.record({ kind: fc.constant('copy' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
      fc.record({ kind: fc.constant('text' as const), at: fc.nat(), text: fc.string({ maxLength: 20 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), (steps) => {
        const list = doc.conversations[0].records.slice();
        for (const s of steps) {
          const n = list.length;
          if (s.kind === 'delete' && n > 1) list.splice(s.at % n, 1);
          if (s.kind === 'insert') list.splice(s.at % (n + 1), 0, codec.fromView({ role: s.role, normalRole: s.role, parts: [{ kind: 'text', text: s.text }] }));
          if (s.kind === 'copy' && n > 0) list.splice((s.at % n) + 1, 0, structuredClone(list[s.at % n]));
          if (s.kind === 'move' && n > 1) list.splice(s.to % n, 0, list.splice(s.at % n, 1)[0]);
          if (s.kind === 'text' && n > 0) list[s.at % n] = codec.withText(list[s.at % n], s.text) ?? list[s.at % n];
        }
        // writeDocument reads the output back and refuses it unless every record reads as written.
        const { text } = writeDocument(codec, doc, [list]);
        expect(parseDocumentText(text, EXPORT).doc.conversations[0].records).toHaveLength(list.length);
      }),
      { numRuns: 80, seed: 5 },
    );
  });

  for (const name of [EXPORT, SESSION]) {
    it(`${name}: an edit with edge-biased text reads back by JSON.parse with that text, every other value as it was (property)`, () => {
      const text = read(name);
      const parsed = open(name);
      const records = parsed.doc.conversations[0].records;
      const original = JSON.parse(text) as Loose & { requests: Loose[] };
      // Where each record stands: request k, or its response (parse reads them in this order).
      const at = original.requests.flatMap((q, k) => [{ k, response: false }, ...(Array.isArray(q.response) && q.response.length > 0 ? [{ k, response: true }] : [])]);
      expect(at.length).toBe(records.length);
      fc.assert(
        // Some texts keep the first request's @-mention at their start.
        fc.property(fc.nat(records.length - 1), fc.constantFrom('', '@workspace '), edgeString.filter((s) => s !== '' && !s.includes('\u0000')), (i, mention, body) => {
          const typed = mention + body;
          const edited = parsed.codec.withText(records[i], typed);
          fc.pre(edited !== undefined);
          const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, j) => (j === i ? edited : r))]);
          const back = JSON.parse(out) as Loose & { requests: Loose[] };
          const { k, response } = at[i];
          for (const key of Object.keys(original)) if (key !== 'requests') expect(back[key]).toEqual(original[key]);
          back.requests.forEach((q, j) => {
            if (j !== k) return expect(q).toEqual(original.requests[j]);
            if (response) {
              expect({ ...q, response: undefined }).toEqual({ ...original.requests[j], response: undefined });
              const md = (q.response as Loose[]).filter((p) => typeof p.kind !== 'string' && typeof p.value === 'string');
              expect(md.map((p) => p.value)).toEqual([typed]);
            } else {
              expect({ ...q, message: undefined }).toEqual({ ...original.requests[j], message: undefined });
              const message = q.message as { text: string; parts: Array<{ text: string; range: { start: number; endExclusive: number } }> };
              expect(message.text).toBe(typed);
              // The last text part runs to the end of the new text.
              const last = message.parts[message.parts.length - 1];
              expect(typed.slice(last.range.start)).toBe(last.text);
              expect(last.range.endExclusive).toBe(typed.length);
            }
          });
          const v = parsed.codec.view(parseDocumentText(out, name).doc.conversations[0].records[i]);
          expect(v.parts.some((p) => p.kind === 'text' && p.text === typed)).toBe(true);
        }),
        { numRuns: 80, seed: 17 },
      );
    });
  }
});
