import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { displayText, readableArguments } from '../../src/core/formats/model.js';
import { problemsOf } from '../../src/core/formats/validity.js';
import { FIXTURES } from '../helpers.js';
import { tableRow } from '../../app/service/documents/skeleton.js';
import { resultHeadline } from '../../src/core/formats/result-text.js';
import { edgeString } from '../support/edge-arbitraries.js';

const DIR = join(FIXTURES, 'formats', 'codex');
const HISTORY = readFileSync(join(DIR, 'history.jsonl'), 'utf8');
const LEGACY_NAME = 'legacy/sessions/2025/08/20/rollout-2025-08-20T07-41-05-3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4.jsonl';
const LEGACY = readFileSync(join(DIR, LEGACY_NAME), 'utf8');

describe('Codex history.jsonl: the prompts typed, one conversation per session', () => {
  it('is read, grouped by session_id in the order first typed, each prompt a user message with its time', () => {
    const { codec, doc } = parseDocumentText(HISTORY, 'history.jsonl');
    expect(codec.id).toBe('codex-history');
    expect(doc.conversations.map((c) => c.meta?.sessionId)).toEqual(['7d0c1a52-3e4f-4b6a-9c8d-1e2f3a4b5c6d', '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d', '5f4e3d2c-1b0a-4987-a6b5-c4d3e2f1a0b9']);
    expect(doc.conversations.map((c) => c.records.length)).toEqual([3, 2, 1]);
    // Its first prompt on one line, cut at 80 characters.
    expect(doc.conversations[1].title).toBe('rename the config key `timeout_ms` to `timeout` everywhere, and keep the old ke…');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views.map((v) => v.normalRole)).toEqual(['user', 'user', 'user']);
    expect(views.map((v) => displayText(v))).toEqual(['why does `make test` hang on the integration suite?', 'run it with --verbose and show me the last test that starts', 'ok, add a 30 s timeout to that fixture']);
    expect(views[0].timestamp).toBe('2025-12-01T12:00:00.000Z');
    // The multi-line prompt keeps its line break; the raw view is its own line.
    expect(displayText(codec.view(doc.conversations[1].records[0]))).toContain('everywhere,\nand keep');
    expect(codec.rawText(doc, 2, doc.conversations[2].records[0])).toBe(HISTORY.split('\n')[4]);
  });

  it('is read-only, and its bytes come back as they were', () => {
    const { codec, doc } = parseDocumentText(HISTORY, 'history.jsonl');
    expect(codec.readOnly).toMatch(/up arrow/);
    expect(serializeDocument(codec, doc, doc.conversations.map((c) => c.records))).toBe(HISTORY);
  });

  it('a line that is no prompt says where it is', () => {
    const broken = `${HISTORY}{"session_id":"x","ts":1}\n`;
    expect(() => parseDocumentText(broken, 'history.jsonl')).toThrow(/history\.jsonl:7:1: this line is no prompt of Codex’s history/);
  });

  it('edge-biased prompts (any text JSON holds) are read as typed, and written back byte for byte (property)', () => {
    const prompt = fc.record({ session: fc.constantFrom('a1', 'b2', 'c3'), ts: fc.integer({ min: 0, max: 4_000_000_000 }), text: edgeString.filter((s) => s !== '') });
    fc.assert(
      fc.property(fc.array(prompt, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (ps, eol) => {
        const text = ps.map((p) => JSON.stringify({ session_id: p.session, ts: p.ts, text: p.text })).join(eol) + eol;
        const { codec, doc } = parseDocumentText(text, 'history.jsonl');
        expect(codec.id).toBe('codex-history');
        const order = [...new Set(ps.map((p) => p.session))];
        expect(doc.conversations.map((c) => c.meta?.sessionId)).toEqual(order);
        expect(doc.conversations.flatMap((c) => c.records.map((r) => displayText(codec.view(r))))).toEqual(order.flatMap((s) => ps.filter((p) => p.session === s).map((p) => p.text)));
        expect(serializeDocument(codec, doc, doc.conversations.map((c) => c.records))).toBe(text);
      }),
      { numRuns: 150, seed: 39 },
    );
  });
});

describe('a Codex rollout from before session_meta (August 2025): bare items and state lines', () => {
  it('is read as a rollout: its items are messages, its first line and state lines are kept, its session named', () => {
    const { codec, doc } = parseDocumentText(LEGACY, LEGACY_NAME);
    expect(codec.id).toBe('codex-rollout');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views.map((v) => v.role)).toEqual(['user', 'user', 'reasoning', 'function_call', 'function_call_output', 'function_call', 'function_call_output', 'assistant']);
    // The session's own first line and the five state lines.
    expect(doc.otherRecords).toBe(6);
    // The environment Codex told the model is its context, not a prompt.
    expect(views[0].meta).toBe(true);
    expect(displayText(views[1])).toBe('The vote counter double-counts ballots that have trailing spaces. Fix it.');
    expect(views[2].parts).toEqual([{ kind: 'reasoning', text: 'Probably the key is not trimmed before the map lookup. Look for where ballots are parsed.' }]);
    expect(views[3].parts[0]).toMatchObject({ kind: 'tool-call', id: 'call_q1w2e3r4', name: 'shell' });
    expect(views[4].parts[0]).toMatchObject({ kind: 'tool-result', callId: 'call_q1w2e3r4' });
    expect(doc.conversations[0].meta).toEqual({ sessionId: '3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4', cwd: '/home/dev/tally', instructions: 'Keep diffs small. Run `cargo test -p tally` before saying a change is done.', gitBranch: 'main', version: undefined, startedAt: '2025-08-20T07:41:05.318Z' });
    expect(doc.conversations[0].title).toBe('/home/dev/tally');
    expect(problemsOf(codec, doc)).toEqual([]);
  });

  it('is detected by its head alone under another name, and not by a file that only starts alike', () => {
    expect(parseDocumentText(LEGACY, 'session.jsonl').codec.id).toBe('codex-rollout');
    expect(() => parseDocumentText('{"id":"x","timestamp":"2025-08-20T07:41:05Z"}\n{"kind":"note"}\n', 'notes.jsonl')).toThrow(/not a conversation format/);
  });

  it('an edit rewrites one bare line (no payload wrapper), a new message is a bare item as its neighbours are', () => {
    const { codec, doc } = parseDocumentText(LEGACY, LEGACY_NAME);
    const records = doc.conversations[0].records.slice();
    records[7] = codec.withText(records[7], 'Trimmed the name; all tests pass.');
    records.push(codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Thanks — commit it.' }] }, records[0]));
    const out = serializeDocument(codec, doc, [records]);
    const before = LEGACY.split('\n');
    const after = out.split('\n');
    expect(after.length).toBe(before.length + 1);
    // Every line but the edited one is still there, as it was.
    expect(before.filter((l) => !after.includes(l))).toEqual([before[12]]);
    expect(JSON.parse(after[12])).toEqual({ type: 'message', id: null, role: 'assistant', content: [{ type: 'output_text', text: 'Trimmed the name; all tests pass.' }] });
    const added = JSON.parse(after.find((l) => l.includes('commit it'))!) as Record<string, unknown>;
    expect(added).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks — commit it.' }] });
    expect(added.payload).toBeUndefined();
    const again = parseDocumentText(out, LEGACY_NAME);
    expect(again.doc.conversations[0].records.length).toBe(9);
    expect(again.doc.otherRecords).toBe(6);
  });

  it('edge-biased texts edited into a legacy rollout read back as written, every other line byte for byte (property)', () => {
    const { codec, doc } = parseDocumentText(LEGACY, LEGACY_NAME);
    expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(LEGACY);
    const editable = doc.conversations[0].records.map((r, i) => (codec.withText(r, 'x') !== undefined ? i : -1)).filter((i) => i >= 0);
    fc.assert(
      fc.property(fc.constantFrom(...editable), edgeString, (k, text) => {
        const records = doc.conversations[0].records.slice();
        records[k] = codec.withText(records[k], text);
        const out = serializeDocument(codec, doc, [records]);
        const again = parseDocumentText(out, LEGACY_NAME);
        expect(again.codec.id).toBe('codex-rollout');
        expect(displayText(codec.view(again.doc.conversations[0].records[k]))).toBe(text);
        const before = LEGACY.split('\n');
        expect(out.split('\n').filter((l, i) => l !== before[i]).length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 150, seed: 40 },
    );
  });
});

describe('a tool result wrapped in JSON (old Codex: {"output": …, "metadata": …})', () => {
  it('shows its output in the table row; what the model was sent stays the text as written', () => {
    const { codec, doc } = parseDocumentText(LEGACY, LEGACY_NAME);
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    const result = views[4];
    expect(result.parts[0]).toMatchObject({ kind: 'tool-result' });
    expect((result.parts[0] as { text: string }).text).toMatch(/^\{"output":/);
    expect(tableRow(result, 4).preview).toBe("41:pub fn parse_ballot(line: &str) -> Ballot { 42: let name = line.split(',').next().unwrap();");
    // A call reads as its name and what it was asked: the command's words, the folder, a number by its name.
    expect(tableRow(views[3], 3).preview).toBe('shell: bash -lc grep -n "fn parse_ballot" -A 12 src/lib.rs · /home/dev/tally · timeout_ms=60000');
    // A result that is not wrapped shows as it is.
    expect(tableRow(views[6], 6).preview).toBe('failed in sandbox LinuxSeccomp with execution error: command timed out');
  });

  it('a headline is the text itself unless it is a JSON object with a non-empty output, stdout, content, result or text string', () => {
    expect(resultHeadline('{"output":"  ","stdout":"hi"}')).toBe('hi');
    expect(resultHeadline('{"output":3}')).toBe('{"output":3}');
    expect(resultHeadline('["output"]')).toBe('["output"]');
    expect(resultHeadline('{not json')).toBe('{not json');
    expect(resultHeadline(' plain ')).toBe(' plain ');
    // A call's arguments: what it says first, then the values that need their names.
    expect(readableArguments('{"replace_all":false,"file_path":"src/a.ts","old_string":"x","limit":null}')).toBe('src/a.ts · x · replace_all=false');
    expect(readableArguments('not json')).toBe('not json');
  });
});
