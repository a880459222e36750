import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { reportedUsage } from '../../src/core/usage.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const FILE = join(FIXTURES, 'formats', 'cline', 'tasks', '1764670000000', 'ui_messages.json');

describe("Cline's ui_messages.json", () => {
  it('the task and replies as the user, the model words, tools and commands as calls, output as results; model calls, checkpoints and an empty ask kept as records', () => {
    const text = readFileSync(FILE, 'utf8');
    const { codec, doc } = parseDocumentText(text, FILE);
    expect(codec.id).toBe('cline-ui-messages');
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    // Three api_req_started, a checkpoint and the empty ask after the completion: records, not messages.
    expect(views.length).toBe(12);
    expect(doc.otherRecords).toBe(5);
    expect(views[0]).toMatchObject({ normalRole: 'user', category: 'task', timestamp: '2025-12-02T10:06:40.000Z' });
    // The first model call's usage is that of the turn it wrote, on its first message.
    expect(views[1]).toMatchObject({ category: 'reasoning', usage: { input: 12 + 10450, output: 188, cacheWrite: 10450, cacheRead: 0 } });
    expect(views[1].parts[0].kind).toBe('reasoning');
    expect(views[3].parts[0]).toMatchObject({ kind: 'text', text: expect.stringMatching(/^readFile scripts\/deploy\.sh\n/) });
    expect(views[5].parts[0]).toMatchObject({ kind: 'tool-call', name: 'execute_command', arguments: JSON.stringify({ command: 'sh scripts/deploy.sh --dry-run' }) });
    expect(views[6]).toMatchObject({ normalRole: 'tool' });
    expect(views[8]).toMatchObject({ role: 'cline', meta: true, category: 'error' });
    expect(views[9].parts[0]).toMatchObject({ kind: 'text', text: 'Should the dry-run line go to stderr or stdout?' });
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
        const i = original.findIndex((m) => JSON.stringify(m) === JSON.stringify(records[at]));
        original.forEach((m, k) => k !== i && expect(back[k]).toEqual(m));
        expect(back[i].text).toBe(typed);
      }),
      { numRuns: 100, seed: 5 },
    );
  });
});

const BOOKKEEPING = join(FIXTURES, 'formats', 'cline', 'tasks', '1765101600000', 'ui_messages.json');

describe("Cline's bookkeeping in ui_messages.json: records kept for the save, not messages", () => {
  const text = readFileSync(BOOKKEEPING, 'utf8');
  const entries = JSON.parse(text) as Array<Record<string, unknown>>;
  const calls = entries.filter((e) => e.say === 'api_req_started').map((e) => JSON.parse(e.text as string) as Record<string, number>);

  it('model calls, checkpoints, retries, progress, a resume prompt and empty asks are not rows; the task reads as it went', () => {
    const { codec, doc } = parseDocumentText(text, BOOKKEEPING);
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    expect(entries.length).toBe(33);
    expect(views.length).toBe(13);
    expect(doc.otherRecords).toBe(20);
    expect(views.map((v) => v.category)).toEqual(['task', 'reasoning', 'text', 'tool', 'reasoning', 'tool', 'command', 'command_output', 'completion_result', 'user_feedback', 'command', 'command_output', 'completion_result']);
    expect(views.map((v) => v.normalRole)).toEqual(['user', 'assistant', 'assistant', 'assistant', 'assistant', 'assistant', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(views.some((v) => v.meta)).toBe(false);
  });

  it('each api_req_started’s tokens are the reported usage of the turn it wrote, all of them counted once, with the model', () => {
    const { codec, doc } = parseDocumentText(text, BOOKKEEPING);
    const views = doc.conversations[0].records.map((r) => codec.view(r));
    const used = views.filter((v) => v.usage);
    expect(used.length).toBe(calls.length);
    expect(new Set(used.map((v) => v.usage!.key)).size).toBe(calls.length);
    // The first call's usage is on the reasoning that opens its turn; the call that failed mid-stream (it wrote no
    // message) on the last message before it, so no call's tokens are missing.
    expect(views[1].usage).toMatchObject({ input: 9 + 11820, output: 214, cacheWrite: 11820, cacheRead: 0, model: 'claude-sonnet-4-5' });
    expect(views[3].usage).toMatchObject({ output: 1 });
    expect(views[4].usage).toMatchObject({ output: 388 });
    const report = reportedUsage(views)!;
    expect(report.calls).toBe(calls.length);
    expect(report.input).toBe(calls.reduce((n, c) => n + c.tokensIn + c.cacheReads + c.cacheWrites, 0));
    expect(report.output).toBe(calls.reduce((n, c) => n + c.tokensOut, 0));
    expect(report.cacheRead).toBe(calls.reduce((n, c) => n + c.cacheReads, 0));
  });

  it('written back byte for byte; an edit, a deletion and a new message leave every record where it was', () => {
    const { codec, doc } = parseDocumentText(text, BOOKKEEPING);
    expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(text);
    const records = doc.conversations[0].records.slice();
    records[12] = codec.withText(records[12], 'All 48 tests pass; nothing else changed.');
    records.splice(2, 1);
    records.push(codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Thanks.' }] }));
    const back = JSON.parse(serializeDocument(codec, doc, [records])) as Array<Record<string, unknown>>;
    expect(back.length).toBe(33);
    const kept = (list: Array<Record<string, unknown>>) => list.filter((e) => e.say === 'api_req_started' || e.say === 'checkpoint_created' || e.ask === 'resume_completed_task').map((e) => JSON.stringify(e));
    expect(kept(back)).toEqual(kept(entries));
    expect(back.find((e) => e.say === 'completion_result' && e.ts === entries[31].ts)!.text).toBe('All 48 tests pass; nothing else changed.');
    // A new message goes after the message before it (the last completion), ahead of the empty ask that followed it.
    const added = back.findIndex((e) => e.text === 'Thanks.');
    expect(back[added]).toMatchObject({ type: 'say', say: 'user_feedback' });
    expect(back[added - 1]).toMatchObject({ say: 'completion_result', text: 'All 48 tests pass; nothing else changed.' });
    const again = parseDocumentText(JSON.stringify(back), BOOKKEEPING);
    expect(again.doc.conversations[0].records.length).toBe(13);
    expect(again.doc.otherRecords).toBe(20);
  });

  it('edge-biased edits of any message read back as written, Cline’s records untouched (property)', () => {
    const { codec, doc } = parseDocumentText(text, BOOKKEEPING);
    const records = doc.conversations[0].records;
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => s !== '' && !s.includes('\u0000')), (at, typed) => {
        const edited = codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(codec, doc, [records.map((r, k) => (k === at ? edited : r))]);
        const again = parseDocumentText(out, BOOKKEEPING);
        expect(again.doc.otherRecords).toBe(20);
        expect((again.doc.conversations[0].records[at] as { text?: string }).text).toBe(typed);
        const back = JSON.parse(out) as unknown[];
        entries.forEach((e, k) => {
          if (e !== undefined && JSON.stringify(e) !== JSON.stringify(records[at])) expect(back[k]).toEqual(e);
        });
      }),
      { numRuns: 120, seed: 39 },
    );
  });
});

describe('an edit never turns a Cline message into one of its records', () => {
  it('an ask emptied of its text would be a waiting button: that edit is not offered; a say may be emptied', () => {
    const { codec, doc } = parseDocumentText(readFileSync(BOOKKEEPING, 'utf8'), BOOKKEEPING);
    const records = doc.conversations[0].records;
    const output = records.find((r) => (r as { ask?: string }).ask === 'command_output')!;
    expect(codec.withText(output, '')).toBeUndefined();
    expect(codec.withText(output, '2 passed')).toMatchObject({ ask: 'command_output', text: '2 passed' });
    expect(codec.withText(records[2], '')).toMatchObject({ say: 'text', text: '' });
  });
});
