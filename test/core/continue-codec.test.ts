import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { codecById } from '../../src/core/formats/registry.js';
import { linkToolParts } from '../../src/core/views.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { Catalog, CatalogSync } from '../../src/core/catalog/index.js';
import { folderOfUri } from '../../src/core/formats/continue/codec.js';
import { edgeString } from '../support/edge-arbitraries.js';

type Loose = Record<string, unknown>;
const NAME = '3f1c9a2e-7b4d-4e8f-a1c2-5d6e7f8a9b0c.json';
const TEXT = readFileSync(join(FIXTURES, 'formats', 'continue', NAME), 'utf8');

describe('Continue sessions', () => {
  it('history items: roles, thinking, tool calls and the tool messages answering them, context items as files', () => {
    const { codec, doc } = parseDocumentText(TEXT, NAME);
    expect(codec.id).toBe('continue-session');
    expect(doc.conversations[0].title).toBe('Fix the flaky date test');
    expect(doc.conversations[0].meta).toEqual({ sessionId: '3f1c9a2e-7b4d-4e8f-a1c2-5d6e7f8a9b0c', cwd: '/home/dev/cal' });
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views.map((v) => v.role)).toEqual(['user', 'thinking', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(views.map((v) => v.normalRole)).toEqual(['user', 'assistant', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'tool', 'assistant']);
    // The file the user attached is a reference beside the typed words.
    expect(views[0].parts).toEqual([
      { kind: 'text', text: 'Why does the date test fail in CI? ' },
      { kind: 'file', ref: 'file:///home/dev/cal/src/date.test.ts' },
    ]);
    expect(views[1].parts).toEqual([{ kind: 'reasoning', text: "CI runs in UTC; the test builds a local-time Date, so it depends on the machine's zone.", vendor: 'anthropic', signed: 'EqQBCkYIBhgCKkDsVn1k3vQ9x2T1mZlq' }]);
    expect(views[2].parts[1]).toEqual({ kind: 'tool-call', id: 'toolu_01AbCdEf', name: 'read_file', arguments: '{"filepath":"src/date.test.ts"}' });
    expect(views[2].model).toBe('claude-sonnet-4-20250514');
    expect(views[2].usage).toEqual({ input: 2210, output: 64, cacheRead: 1800, cacheWrite: 0, key: '7e3a4f5b-2c1d-4e0f-9a8b-6c7d8e9f0a1b' });
    // A tool message's context items are its output, which its content says: not repeated.
    expect(views[3].parts).toHaveLength(1);
    expect(views[3].parts[0]).toMatchObject({ kind: 'tool-result', callId: 'toolu_01AbCdEf' });
    // An item's `reasoning` (the GUI's) is the reasoning of that answer; parallel calls, each answered.
    expect(views[6].parts.map((p) => p.kind)).toEqual(['reasoning', 'tool-call', 'tool-call']);
    const parts = linkToolParts(views).flatMap((v) => v.parts);
    expect(parts.filter((p) => p.kind === 'tool-result').map((p) => (p as { callId?: string }).callId)).toEqual(parts.filter((p) => p.kind === 'tool-call').map((p) => (p as { id?: string }).id));
  });

  it('sessions.json, the index of the sessions, is read as that index (read-only, titling the sessions), not as a conversation', () => {
    const index = JSON.stringify([{ sessionId: '3f1c9a2e-7b4d-4e8f-a1c2-5d6e7f8a9b0c', title: 'Fix the flaky date test', dateCreated: '1718000000000', workspaceDirectory: 'file:///home/dev/cal' }]);
    for (const name of ['sessions.json', 'copy of sessions.json']) {
      const { codec, doc } = parseDocumentText(index, name);
      expect(codec.id, name).toBe('continue-session-index');
      expect(codec.companion).toBe(true);
      const record = doc.conversations[0].records[0];
      expect(codec.view(record)).toMatchObject({ meta: true, id: '3f1c9a2e-7b4d-4e8f-a1c2-5d6e7f8a9b0c', timestamp: new Date(1718000000000).toISOString() });
      expect(codec.sessionName!(record)).toEqual({ sessionId: '3f1c9a2e-7b4d-4e8f-a1c2-5d6e7f8a9b0c', name: 'Fix the flaky date test' });
    }
  });

  it('does not take other formats’ files, and they do not take it', () => {
    const cont = codecById('continue-session')!;
    for (const [name, id] of [
      ['openai/chat.json', 'openai-chat'],
      ['gemini/session-2026-11-30T10-00-3f2a1b9c.json', 'gemini-cli'],
      ['claude-ai/conversations.json', 'claude-ai-export'],
      ['vscode-chat/chat.json', 'vscode-chat'],
    ]) {
      const text = readFileSync(join(FIXTURES, 'formats', name), 'utf8');
      expect(cont.sniff(text.slice(0, 65536), name), name).toBe(0);
      expect(parseDocumentText(text, name).codec.id, name).toBe(id);
    }
  });

  it('untouched, the session is written back byte for byte (Continue writes it on one line)', () => {
    const { codec, doc } = parseDocumentText(TEXT, NAME);
    expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(TEXT);
  });

  it("an edited user message says the new text in the GUI's editor state too; a tool result is editable", () => {
    const { codec, doc } = parseDocumentText(TEXT, NAME);
    const records = doc.conversations[0].records.slice();
    records[5] = codec.withText(records[5], 'Use UTC.\n\nThen run the tests.');
    records[3] = codec.withText(records[3], 'export {};');
    expect(codec.withText(records[1], 'x')).toBeUndefined();
    const out = serializeDocument(codec, doc, [records]);
    expect(out.split('\n')).toHaveLength(1);
    const back = JSON.parse(out) as { history: Loose[] };
    expect(back.history[5].message).toEqual({ role: 'user', content: 'Use UTC.\n\nThen run the tests.', id: '0b6d7c8e-5f4a-4b3c-2d1e-9f0a1b2c3d4e' });
    expect(back.history[5].editorState).toEqual({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Use UTC.' }] },
        { type: 'paragraph', content: [] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Then run the tests.' }] },
      ],
    });
    expect((back.history[3].message as Loose).content).toBe('export {};');
  });

  it('new messages are history items Continue reads: a tool result names its call, reasoning goes in `reasoning`', () => {
    const codec = codecById('continue-session')!;
    expect(codec.fromView({ role: 'tool', normalRole: 'tool', parts: [{ kind: 'tool-result', callId: 'toolu_9', text: 'ok' }] })).toEqual({ message: { role: 'tool', content: 'ok', toolCallId: 'toolu_9' }, contextItems: [] });
    const answer = codec.fromView({ role: 'assistant', normalRole: 'assistant', parts: [{ kind: 'reasoning', text: 'Hm.' }, { kind: 'text', text: 'Done.' }, { kind: 'tool-call', id: 'c1', name: 'ls', arguments: '{}' }] }) as Loose;
    expect(answer.message).toEqual({ role: 'assistant', content: 'Done.', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] });
    expect(codec.view(answer).parts).toEqual([{ kind: 'reasoning', text: 'Hm.' }, { kind: 'text', text: 'Done.' }, { kind: 'tool-call', id: 'c1', name: 'ls', arguments: '{}' }]);
    // A copy of a message gets an id of its own.
    const first = parseDocumentText(TEXT, NAME).doc.conversations[0].records[0] as { message: Loose };
    const copy = codec.freshIds!(structuredClone(first)) as { message: Loose };
    expect(copy.message.id).not.toBe(first.message.id);
    expect({ ...copy.message, id: undefined }).toEqual({ ...first.message, id: undefined });
  });

  it('an edit with edge-biased text reads back by JSON.parse with that text, every other value as it was (property)', () => {
    const parsed = parseDocumentText(TEXT, NAME);
    const records = parsed.doc.conversations[0].records;
    const original = JSON.parse(TEXT) as Loose & { history: Array<{ message: Loose }> };
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => s !== '' && !s.includes('\u0000')), (at, typed) => {
        const edited = parsed.codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, k) => (k === at ? edited : r))]);
        const back = JSON.parse(out) as Loose & { history: Array<{ message: Loose; editorState?: unknown }> };
        for (const key of Object.keys(original)) if (key !== 'history') expect(back[key]).toEqual(original[key]);
        original.history.forEach((h, k) => {
          if (k !== at) return expect(back.history[k]).toEqual(h);
          const content = back.history[k].message.content;
          expect(typeof content === 'string' ? content : (content as Array<{ text?: string }>).map((p) => p.text).join('')).toBe(typed);
          expect({ ...back.history[k].message, content: undefined }).toEqual({ ...h.message, content: undefined });
        });
        const v = parsed.codec.view(parseDocumentText(out, NAME).doc.conversations[0].records[at]);
        expect(v.parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
      }),
      { numRuns: 80, seed: 29 },
    );
  });
});

describe('a Continue session in the session list', () => {
  const ID = '3f1c9a2e-7b4d-4e8f-a1c2-5d6e7f8a9b0c';

  it('is dated by the index beside it (sessions.json’s dateCreated), keeping no time of its own; never by its file’s time', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, NAME), TEXT);
    const other = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
    writeFileSync(join(dir, `${other}.json`), TEXT.replace(ID, other));
    const sessions = () => Catalog.open(join(tempDir(), 'catalog.sqlite'));
    // No index yet: no date (the file's time is when it was last written, not when the session was).
    let catalog = sessions();
    await new CatalogSync(catalog).syncFolders([dir]);
    const dated = () => new Map(catalog.sessions({ under: [dir] }).map((s) => [s.sessionId, [s.firstAt, s.lastAt]]));
    expect(dated()).toEqual(
      new Map([
        [ID, [undefined, undefined]],
        [other, [undefined, undefined]],
      ]),
    );
    catalog.close();
    // The index dates the session it lists; one it does not list stays undated.
    const made = Date.parse('2026-03-04T16:45:28.993Z');
    writeFileSync(join(dir, 'sessions.json'), JSON.stringify([{ sessionId: ID, title: 'Fix the flaky date test', dateCreated: String(made), workspaceDirectory: 'file:///home/dev/cal' }]));
    catalog = sessions();
    await new CatalogSync(catalog).syncFolders([dir]);
    expect(dated()).toEqual(
      new Map([
        [ID, [new Date(made).toISOString(), new Date(made).toISOString()]],
        [other, [undefined, undefined]],
      ]),
    );
    expect(catalog.sessions({ under: [dir], from: '2026-03-04', to: '2026-03-04' }).map((s) => s.sessionId)).toEqual([ID]);
    catalog.close();
  });

  it('ran in the folder its workspace URI names, as a path (property over POSIX folders; Windows drive URIs as VS Code writes them)', () => {
    const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((s) => !/[\\/%]/.test(s) && ![...s].some((c) => c.charCodeAt(0) < 0x20));
    fc.assert(
      // A first folder named like a drive (`/c:`) is one in a file URI (`file:///c:/…` is how VS Code writes C:\):
      // a POSIX folder of that name cannot be told apart, and is left out; so are `.` and `..`, which a path
      // resolves before it is a URI.
      fc.property(fc.array(name.filter((n) => n !== '.' && n !== '..'), { minLength: 1, maxLength: 4 }).filter((parts) => !/^[A-Za-z]:$/.test(parts[0])), (parts) => {
        const folder = `/${parts.join('/')}`;
        expect(folderOfUri(pathToFileURL(folder).href)).toBe(folder);
      }),
      { numRuns: Number(process.env.RUNS ?? 200) },
    );
    expect(folderOfUri('file:///c%3A/Users/me/dev/tax%20app')).toBe('c:\\Users\\me\\dev\\tax app');
    expect(folderOfUri('file:///C:/work')).toBe('C:\\work');
    expect(folderOfUri('file://server/share/app')).toBe('\\\\server\\share\\app');
    expect(folderOfUri('vscode-remote://wsl%2Bubuntu/home/me/app')).toBe('vscode-remote://wsl%2Bubuntu/home/me/app');
    expect(folderOfUri('/home/me/app')).toBe('/home/me/app');
    expect(folderOfUri(pathToFileURL('/c:/x').href)).toBe('c:\\x');
  });
});
