import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert } from '../../src/core/formats/convert.js';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { displayText } from '../../src/core/formats/model.js';
import { linkToolParts } from '../../src/core/views.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';
import { openAiFineTuneErrors } from '../support/openai-finetune-check.js';

const DIR = join(FIXTURES, 'formats', 'copilot-cli', 'history-session-state');
const TIMELINE_NAME = 'session_e4d3c2b1-a098-4f7e-8d6c-5b4a39281706_1760012400100.json';
const TIMELINE = readFileSync(join(DIR, TIMELINE_NAME), 'utf8');
const CHAT = readFileSync(join(DIR, 'session_5d1f2e3a-9b8c-4d7e-a6f5-0e1d2c3b4a59_1759915816398.json'), 'utf8');

describe('a Copilot CLI session (before 0.0.342) that kept everything in its timeline', () => {
  it('is read from its timeline: prompts, answers, calls with their results, notices (it opened with 0 messages)', () => {
    const { codec, doc } = parseDocumentText(TIMELINE, TIMELINE_NAME);
    expect(codec.id).toBe('copilot-cli-session');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(views.map((v) => v.role)).toEqual(['user', 'copilot', 'tool_call_requested', 'tool_call_completed', 'tool_call_completed', 'info', 'user', 'copilot']);
    expect(views.map((v) => v.normalRole)).toEqual(['user', 'assistant', 'assistant', 'tool', 'assistant', 'other', 'user', 'assistant']);
    expect(doc.otherRecords).toBe(0);
    expect(doc.conversations[0].meta).toEqual({ sessionId: 'e4d3c2b1-a098-4f7e-8d6c-5b4a39281706' });
    expect(doc.conversations[0].title).toBe('List the TODOs left in src/ and tell me which one blocks the release.');
    // A requested call and its completion, linked by callId.
    expect(views[2].parts).toEqual([{ kind: 'tool-call', id: 'toolu_01Hs8vYq2LkP', name: 'bash', arguments: JSON.stringify({ command: 'grep -rn TODO src/', description: 'Find TODO comments under src', sessionId: 'main', async: false }) }]);
    expect(views[3].parts).toEqual([{ kind: 'tool-result', callId: 'toolu_01Hs8vYq2LkP', text: expect.stringContaining('TODO(release)'), isError: undefined }]);
    // A run the timeline has only as finished: the call and its (failed) result, so no call is lost.
    expect(views[4].parts.map((p) => p.kind)).toEqual(['tool-call', 'tool-result']);
    expect(views[4].parts[1]).toMatchObject({ callId: 'toolu_01Rt4mNb7XcQ', isError: true });
    expect(views[5]).toMatchObject({ meta: true, parts: [{ kind: 'text', text: 'Operation cancelled by user' }] });
    expect(views[0].timestamp).toBe('2025-10-09T12:20:00.101Z');
  });

  it('is written back byte for byte; a session with chat messages is still read from them, its timeline kept', () => {
    const t = parseDocumentText(TIMELINE, TIMELINE_NAME);
    expect(serializeDocument(t.codec, t.doc, [t.doc.conversations[0].records])).toBe(TIMELINE);
    const c = parseDocumentText(CHAT, 'session.json');
    expect(c.doc.conversations[0].records.length).toBe(7);
    expect(c.doc.otherRecords).toBe(4);
    expect(serializeDocument(c.codec, c.doc, [c.doc.conversations[0].records])).toBe(CHAT);
  });

  it('is found by its head without chatMessages at all (older files), and not for another file with a timeline', () => {
    const without = TIMELINE.replace('  "chatMessages": [],\n', '');
    expect(without).not.toContain('chatMessages');
    const { codec, doc } = parseDocumentText(without, 'session.json');
    expect(codec.id).toBe('copilot-cli-session');
    expect(doc.conversations[0].records.length).toBe(8);
    expect(() => parseDocumentText(JSON.stringify({ sessionId: 'x', timeline: [{ type: 'deploy', at: 1 }] }), 'deploys.json')).toThrow();
  });

  it('an edit changes one entry; a new message is a timeline entry of its kind', () => {
    const { codec, doc } = parseDocumentText(TIMELINE, TIMELINE_NAME);
    const records = doc.conversations[0].records.slice();
    records[7] = codec.withText(records[7], 'The blocker is `src/auth.ts:12`.');
    records.push(codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'fix it' }] }, records[0]));
    const out = serializeDocument(codec, doc, [records]);
    const again = parseDocumentText(out, TIMELINE_NAME);
    const views = again.doc.conversations[0].records.map((r) => again.codec.view(r));
    expect(views.length).toBe(9);
    expect(displayText(views[7])).toBe('The blocker is `src/auth.ts:12`.');
    expect(views[8]).toMatchObject({ role: 'user', normalRole: 'user' });
    expect((JSON.parse(out) as { timeline: Array<{ type: string }> }).timeline[8].type).toBe('user');
    // Every entry not edited keeps its text.
    for (const r of doc.conversations[0].records.slice(0, 7)) expect(out).toContain(codec.rawText(doc, 0, r)!);
  });

  it('into OpenAI fine-tuning JSONL: both calls, each answered by its result (the finished-only run too)', () => {
    const from = parseDocumentText(TIMELINE, TIMELINE_NAME);
    const out = convert(from, 'openai-chat-jsonl');
    expect(out.problems).toEqual([]);
    expect(openAiFineTuneErrors(out.text)).toEqual([]);
    const views = linkToolParts(from.doc.conversations[0].records.map((r) => from.codec.view(r)));
    const calls = views.flatMap((v) => v.parts).filter((p) => p.kind === 'tool-call');
    expect(calls.length).toBe(2);
    const messages = (JSON.parse(out.text.trim()) as { messages: Array<{ role: string; tool_call_id?: string }> }).messages;
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['toolu_01Hs8vYq2LkP', 'toolu_01Rt4mNb7XcQ']);
  });

  it('edge-biased timelines are read as written and written back byte for byte; an edit reads back as written (property)', () => {
    const entry = fc.oneof(
      fc.record({ type: fc.constant('user'), text: edgeString }),
      fc.record({ type: fc.constant('copilot'), text: edgeString }),
      fc.record({ type: fc.constant('info'), text: edgeString }),
      fc.record({ type: fc.constant('tool_call_completed'), callId: fc.constantFrom('toolu_a', 'toolu_b'), name: fc.constantFrom('bash', 'view'), arguments: fc.record({ command: edgeString }), result: fc.record({ type: fc.constantFrom('success', 'error'), log: edgeString }) }),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), fc.constantFrom(0, 2, 4), edgeString, (timeline, indent, edit) => {
        const text = JSON.stringify({ sessionId: 's', startTime: '2025-10-09T12:20:00.100Z', chatMessages: [], timeline: timeline.map((e, i) => ({ id: String(i), timestamp: '2025-10-09T12:20:00.100Z', ...e })) }, null, indent);
        const { codec, doc } = parseDocumentText(text, 'session.json');
        expect(codec.id).toBe('copilot-cli-session');
        const records = doc.conversations[0].records;
        expect(records.length).toBe(timeline.length);
        timeline.forEach((e, i) => {
          const v = codec.view(records[i]);
          if ('text' in e) expect(displayText(v)).toBe(e.text);
          else expect(v.parts.find((p) => p.kind === 'tool-result')).toMatchObject({ text: e.result.log });
        });
        expect(serializeDocument(codec, doc, [records])).toBe(text);
        const k = timeline.findIndex((e) => 'text' in e);
        if (k === -1) return;
        const next = records.slice();
        next[k] = codec.withText(next[k], edit);
        const again = parseDocumentText(serializeDocument(codec, doc, [next]), 'session.json', 'copilot-cli-session');
        expect(displayText(codec.view(again.doc.conversations[0].records[k]))).toBe(edit);
      }),
      { numRuns: 150, seed: 41 },
    );
  });
});
