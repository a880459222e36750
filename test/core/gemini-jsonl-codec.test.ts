import { diffLines } from 'diff';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { codecById } from '../../src/core/formats/registry.js';
import { displayText } from '../../src/core/formats/model.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const NAME = 'session-2025-12-02T09-15-8c4d2e1f.jsonl';
const TEXT = readFileSync(join(FIXTURES, 'formats', 'gemini', NAME), 'utf8');
const open = (text: string, name = 'session-x.jsonl') => parseDocumentText(text, name, 'gemini-cli-jsonl');
const jsonl = (...values: unknown[]) => values.map((v) => JSON.stringify(v) + '\n').join('');
const HEADER = { sessionId: 's-1', projectHash: 'ab12', startTime: '2025-12-02T09:00:00.000Z', lastUpdated: '2025-12-02T09:00:00.000Z' };
const msg = (id: string, type: string, content: unknown, extra: Record<string, unknown> = {}) => ({ id, timestamp: '2025-12-02T09:00:01.000Z', type, content, ...extra });

/** Gemini CLI's loader, by JSON.parse: message lines keyed by id (last wins, first places), `$set` merged, `$rewindTo` honoured. */
function geminiLoad(text: string): { messages: Array<Record<string, unknown>>; meta: Record<string, unknown> } {
  const map = new Map<string, Record<string, unknown>>();
  let meta: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Record<string, unknown>;
    if (typeof r.$rewindTo === 'string') {
      const ids = [...map.keys()];
      const at = ids.indexOf(r.$rewindTo);
      if (at === -1) map.clear();
      else for (const id of ids.slice(at)) map.delete(id);
    } else if (typeof r.id === 'string') map.set(r.id, r);
    else if (r.$set) meta = { ...meta, ...(r.$set as object) };
    else meta = { ...meta, ...r };
  }
  const batch = Array.isArray(meta.messages) && meta.messages.length > 0 ? (meta.messages as Array<Record<string, unknown>>) : undefined;
  return { messages: batch ?? [...map.values()], meta };
}

describe('Gemini CLI JSONL session: what is read', () => {
  const { codec, doc } = parseDocumentText(TEXT, NAME);
  const records = doc.conversations[0].records;
  const views = records.map((r) => codec.view(r));

  it('is detected, and holds the messages Gemini CLI loads, in its order', () => {
    expect(codec.id).toBe('gemini-cli-jsonl');
    expect(views.map((v) => [v.id, v.role, v.normalRole])).toEqual([
      ['u-1', 'user', 'user'],
      ['g-1', 'gemini', 'assistant'],
      ['g-2', 'gemini', 'assistant'],
      ['u-2', 'user', 'user'],
      ['g-3', 'gemini', 'assistant'],
      ['g-4', 'gemini', 'assistant'],
      ['i-1', 'info', 'other'],
    ]);
    expect(records).toEqual(geminiLoad(TEXT).messages);
    // The header and six $set lines; the two superseded versions are their messages' history, not counted.
    expect(doc.otherRecords).toBe(7);
    expect(doc.conversations[0].title).toBe("Fix date tests that fail in CI's time zone");
    expect(doc.conversations[0].meta).toEqual({ projectHash: '4b7e1d9a3c5f8e2b6d0a9c1e7f3b5d8a2c4e6f0b1d3a5c7e9f2b4d6a8c0e1f3a', sessionId: '8c4d2e1f-6a7b-4c3d-9e0f-1a2b3c4d5e6f' });
    expect(views[6].meta).toBe(true);
  });

  it('a message appended again is its last line, in the place of its first: the tool call with its result', () => {
    const g1 = views[1];
    expect(g1.parts.map((p) => p.kind)).toEqual(['reasoning', 'tool-call', 'tool-result']);
    const call = g1.parts[1] as { id: string; name: string; arguments: string };
    expect(call).toMatchObject({ id: 'run_shell_command-1764666914880-0', name: 'run_shell_command' });
    expect(JSON.parse(call.arguments)).toEqual({ command: 'npx vitest run test/date.test.ts', description: 'Run the date tests' });
    expect(g1.parts[2]).toMatchObject({ kind: 'tool-result', callId: call.id });
    expect((g1.parts[2] as { text: string }).text).toContain('AssertionError');
    expect(g1.usage).toMatchObject({ input: 9120, output: 38 + 96, reasoning: 96, cacheRead: 0, key: 'g-1' });
    // The failed edit: its error is the result.
    expect(views[4].parts[1]).toMatchObject({ kind: 'tool-result', callId: 'replace-1764666969120-0', isError: true });
    expect(views[2].parts.map((p) => p.kind)).toEqual(['reasoning', 'text']);
    expect(displayText(views[0])).toBe('The date tests fail in CI but pass on my machine. Can you find out why?');
  });

  it('$rewindTo removes that message and those after it; what is appended after it stays', () => {
    const text = jsonl(HEADER, msg('a', 'user', 'A'), msg('b', 'gemini', 'B'), msg('c', 'user', 'C'), { $rewindTo: 'b' }, msg('d', 'gemini', 'D'));
    const { doc } = open(text);
    expect(doc.conversations[0].records.map((r) => (r as { id: string }).id)).toEqual(['a', 'd']);
    expect(doc.otherRecords).toBe(4);
    expect(serializeDocument(codecById('gemini-cli-jsonl')!, doc, [doc.conversations[0].records])).toBe(text);
  });

  it('a $set of messages (a rewritten history) is what the loader reads, and an edit stays inside it', () => {
    const text = jsonl(HEADER, msg('a', 'user', 'old'), { $set: { messages: [msg('x', 'user', 'X'), msg('y', 'gemini', 'Y')], lastUpdated: 'later' } }, msg('b', 'gemini', 'ignored by the loader'));
    const { codec, doc } = open(text);
    const records = doc.conversations[0].records;
    expect(records.map((r) => (r as { id: string }).id)).toEqual(['x', 'y']);
    expect(doc.otherRecords).toBe(3);
    expect(codec.rawText(doc, 0, records[1])).toBe(JSON.stringify(msg('y', 'gemini', 'Y')));
    const out = serializeDocument(codec, doc, [[records[0], codec.withText(records[1], 'Y, edited')]]);
    expect(diffLines(text, out).filter((p) => p.removed).map((p) => p.count)).toEqual([1]);
    expect(geminiLoad(out).messages.map((m) => m.content)).toEqual(['X', 'Y, edited']);
  });

  it('a file of message lines alone (a conversion) is read when asked for, and sniffed weakly', () => {
    const text = jsonl(msg('a', 'user', 'Hi'), msg('b', 'gemini', 'Hello'));
    expect(open(text).doc.conversations[0].records).toHaveLength(2);
    expect(codecById('gemini-cli-jsonl')!.sniff(text, 'x.jsonl')).toBe(15);
    expect(codecById('gemini-cli-jsonl')!.sniff(TEXT, NAME)).toBe(50);
  });

  it('claims no other tool’s JSONL: Claude Code, Codex, Copilot CLI, datasets', () => {
    const codec = codecById('gemini-cli-jsonl')!;
    const all = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? all(join(dir, f)) : [join(dir, f)]));
    const others = all(join(FIXTURES, 'formats')).filter((f) => f.endsWith('.jsonl') && !relative(FIXTURES, f).includes('gemini'));
    expect(others.length).toBeGreaterThan(3);
    for (const f of others) expect(codec.sniff(readFileSync(f, 'utf8').slice(0, 65536), f), relative(FIXTURES, f)).toBe(0);
    // Copilot CLI's session-state events: an id, a type, a session id in the first line, the content in `data`.
    const copilot = jsonl(
      { type: 'session.start', data: { sessionId: 'c-1', version: 1, producer: 'copilot-agent', copilotVersion: '0.0.339', startTime: '2025-12-02T09:00:00.000Z' }, id: 'e-1', timestamp: '2025-12-02T09:00:00.000Z', parentId: null },
      { type: 'user.message', data: { content: 'Hi', attachments: [] }, id: 'e-2', timestamp: '2025-12-02T09:00:01.000Z', parentId: 'e-1' },
    );
    expect(codec.sniff(copilot, 'events.jsonl')).toBe(0);
    expect(() => open(copilot)).toThrow(/not Gemini CLI session/);
  });
});

describe('Gemini CLI JSONL session: what is written', () => {
  it('untouched: the same bytes, CRLF, no final newline and a line still being written included', () => {
    const codec = codecById('gemini-cli-jsonl')!;
    for (const text of [TEXT, TEXT.replaceAll('\n', '\r\n'), TEXT.trimEnd(), TEXT + '{"id":"g-9","type":"gemini","content":"half wri']) {
      const { doc } = open(text, NAME);
      expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(text);
    }
  });

  it('an edit of a message appended several times rewrites its winning line only, and the loader reads the edit', () => {
    const { codec, doc } = open(TEXT, NAME);
    const records = doc.conversations[0].records.slice();
    const before = codec.rawText(doc, 0, records[1])!;
    records[1] = codec.withText(records[1], 'Running the tests first.');
    const out = serializeDocument(codec, doc, [records]);
    expect(diffLines(TEXT, out).filter((p) => p.removed).map((p) => p.value)).toEqual([before + '\n']);
    expect(out.split('\n').length).toBe(TEXT.split('\n').length);
    expect(geminiLoad(out).messages[1].content).toBe('Running the tests first.');
  });

  it('a deleted message takes every version with it; a new one lands where the loader puts it in order', () => {
    const text = jsonl(HEADER, msg('a', 'user', 'A1'), { $set: { lastUpdated: '1' } }, msg('b', 'gemini', 'B'), msg('a', 'user', 'A2'), msg('c', 'user', 'C'));
    const { codec, doc } = open(text);
    const [a, b, c] = doc.conversations[0].records;
    expect([a, b, c].map((r) => (r as { content: string }).content)).toEqual(['A2', 'B', 'C']);
    // Deleting a: neither of its lines stays (else A1 would come back).
    const without = serializeDocument(codec, doc, [[b, c]]);
    expect(without).not.toContain('"A1"');
    expect(geminiLoad(without).messages.map((m) => m.content)).toEqual(['B', 'C']);
    // A new message between a and b goes before b's line: after A1, where the loader places a.
    const added = codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'new' }] });
    const out = serializeDocument(codec, doc, [[a, added, b, c]]);
    expect(geminiLoad(out).messages.map((m) => m.content)).toEqual(['A2', 'new', 'B', 'C']);
    expect(out.startsWith(text.split('\n').slice(0, 3).join('\n') + '\n')).toBe(true);
    // At the end: appended, before a line still being written.
    const partial = text + '{"id":"z","type":"gem';
    const opened = open(partial);
    const last = serializeDocument(codec, opened.doc, [[...opened.doc.conversations[0].records, added]]);
    expect(last.endsWith(JSON.stringify(added) + '\n{"id":"z","type":"gem')).toBe(true);
    // Moved: read back in the new order, each keeping its own text.
    const moved = serializeDocument(codec, doc, [[c, a, b]]);
    expect(geminiLoad(moved).messages.map((m) => m.content)).toEqual(['C', 'A2', 'B']);
  });

  it('a copy gets an id of its own (lines are keyed by id)', () => {
    const { codec, doc } = open(TEXT, NAME);
    const r = doc.conversations[0].records[0];
    const copy = codec.freshIds!(r) as { id: string };
    expect(copy.id).not.toBe((r as { id: string }).id);
    const out = serializeDocument(codec, doc, [[...doc.conversations[0].records, copy]]);
    expect(geminiLoad(out).messages).toHaveLength(8);
  });
});

describe('Gemini CLI JSONL: an edit with edge-biased text, read back by JSON.parse (property)', () => {
  it(NAME, () => {
    const parsed = parseDocumentText(TEXT, NAME);
    const records = parsed.doc.conversations[0].records;
    const original = geminiLoad(TEXT);
    const lines = TEXT.split('\n');
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (at, typed) => {
        const edited = parsed.codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, k) => (k === at ? edited : r))]);
        // An independent reader sees the typed text, byte for byte, and every other message as it was.
        const back = geminiLoad(out);
        expect(back.meta).toEqual(original.meta);
        expect(back.messages.length).toBe(original.messages.length);
        back.messages.forEach((m, k) => {
          if (k !== at) expect(m).toEqual(original.messages[k]);
        });
        const content = back.messages[at].content;
        expect(typeof content === 'string' ? content : (content as Array<{ text: string }>)[0].text).toBe(typed);
        // One line changed: the edited message's winning line.
        const outLines = out.split('\n');
        expect(outLines.length).toBe(lines.length);
        expect(outLines.filter((l, i) => l !== lines[i]).length).toBeLessThanOrEqual(1);
        expect(parsed.codec.view(parseDocumentText(out, NAME).doc.conversations[0].records[at]).parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
        // Nothing changed: the same bytes.
        expect(serializeDocument(parsed.codec, parsed.doc, [records])).toBe(TEXT);
      }),
      { numRuns: 80, seed: 7 },
    );
  });
});
