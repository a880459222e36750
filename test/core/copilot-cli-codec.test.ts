import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { copilotCliEvents as codec } from '../../src/core/formats/copilot-cli/codec.js';
import { displayText, type MessageView } from '../../src/core/formats/model.js';
import { pathTo } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const FILE = join(FIXTURES, 'formats', 'copilot-cli', 'events.jsonl');
const TEXT = readFileSync(FILE, 'utf8');
const read = (text = TEXT) => parseDocumentText(text, 'events.jsonl');
const viewsOf = (records: readonly unknown[]): MessageView[] => records.map((r) => codec.view(r));
type Event = { type: string; id: string; parentId: string | null; data: Record<string, unknown> };
const lines = (text: string) => text.split('\n');

/** Where each kind of message keeps the text an edit writes. */
function textOf(e: Event): unknown {
  const d = e.data;
  if (e.type === 'session.compaction_complete') return d.summaryContent;
  if (e.type === 'tool.execution_complete') return d.result !== undefined ? (d.result as { content?: unknown }).content : (d.error as { message?: unknown }).message;
  return d.content;
}

describe('Copilot CLI events.jsonl: the fixture', () => {
  it('is detected, and its messages read in order with their roles and texts', () => {
    const { codec: found, doc } = read();
    expect(found.id).toBe('copilot-cli-events');
    const v = viewsOf(doc.conversations[0].records);
    expect(v.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'compaction', 'user', 'reasoning', 'assistant', 'tool', 'assistant']);
    expect(v.filter((m) => m.normalRole === 'user' && !m.summary).map((m) => displayText(m))).toEqual(['Why does `npm test` fail on the cart module?', 'Fix it and add a test for a 0% discount.', 'Run the whole test suite first.']);
    expect(doc.conversations[0].title).toBe('Why does `npm test` fail on the cart module?');
    expect(doc.conversations[0].meta).toEqual({ sessionId: '5c1e7a42-9d3b-4f6e-b8a1-2f0c4d6e8a13', cwd: '/home/dev/shop', version: '1.0.61', gitBranch: 'fix/cart-discount' });
    expect(doc.otherRecords).toBe(21);
    // Reasoning recorded on the message and as an event of its own; tokens per model call.
    expect(v[2].parts.map((p) => p.kind)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(v[2]).toMatchObject({ model: 'claude-sonnet-4.5', usage: { output: 118, key: 'msg_vrtx_01Qw8' } });
    expect(v[14].parts).toEqual([{ kind: 'reasoning', text: 'Run npm test for the full suite before adding the 0% case to src/cart.test.ts.' }]);
    expect(v[12]).toMatchObject({ summary: true, compaction: { trigger: 'manual', preTokens: 41872 } });
    expect(displayText(v[12])).toContain('ignored the return value of `applyDiscount`');
  });

  it('pairs every tool request with its completion by toolCallId; a failure is an error result', () => {
    const v = viewsOf(read().doc.conversations[0].records);
    const calls = v.flatMap((m) => m.parts).filter((p) => p.kind === 'tool-call');
    const results = v.flatMap((m) => m.parts).filter((p) => p.kind === 'tool-result');
    expect(calls.map((c) => c.name)).toEqual(['bash', 'view', 'view', 'edit', 'bash']);
    expect(results.map((r) => r.callId)).toEqual(calls.map((c) => c.id));
    expect(JSON.parse(calls[3].arguments)).toEqual({ path: '/home/dev/shop/src/cart.ts', old_str: '  applyDiscount(sum, percent);\n  return sum;', new_str: '  return applyDiscount(sum, percent);' });
    expect(results.map((r) => r.isError === true)).toEqual([false, false, true, false, false]);
    expect(results[2].text).toBe('Path /home/dev/shop/src/discount.ts does not exist. Please provide a valid path.');
    expect(results[0].text).toContain('Expected: 90');
  });

  it('is one path through its compaction, resumed from the last message', () => {
    const { doc } = read();
    const records = doc.conversations[0].records;
    const tree = codec.tree!(doc, 0, records);
    expect(tree.active).toBe(records.length - 1);
    expect([...tree.continues]).toEqual([[12, 11]]);
    expect(pathTo(tree, tree.active)).toEqual([12, 13, 14, 15, 16, 17]);
    expect(pathTo(tree, tree.active, true)).toEqual(records.map((_, i) => i));
  });
});

describe('Copilot CLI events.jsonl: writing back', () => {
  it('keeps event types it does not know as other records, and writes an unchanged file back byte for byte', () => {
    const unknown = '{"type":"future.kind_of_event","data":{"x":[1,{"y":"z"}]},"id":"f0000000-0000-4000-8000-000000000001","timestamp":"2026-11-24T08:18:25.000Z","parentId":"7e5a0026-1c2d-4e3f-9a0b-1d2e3f400026"}';
    const bare = '{"type":"session.idle_probe"}';
    const text = lines(TEXT).slice(0, 20).concat(unknown, bare, lines(TEXT).slice(20)).join('\n');
    const { codec: found, doc } = read(text);
    expect(found.id).toBe('copilot-cli-events');
    expect(doc.otherRecords).toBe(23);
    const records = doc.conversations[0].records;
    expect(serializeDocument(codec, doc, [records])).toBe(text);
    // An edit elsewhere leaves them as they were.
    const out = serializeDocument(codec, doc, [records.map((r, i) => (i === 1 ? codec.withText(r, 'Changed.') : r))]);
    expect(lines(out)).toContain(unknown);
    expect(lines(out)).toContain(bare);
  });

  it('an edit of a prompt changes its line alone, and the prompt inside what the model was sent', () => {
    const { doc } = read();
    const records = doc.conversations[0].records;
    const out = serializeDocument(codec, doc, [records.map((r, i) => (i === 8 ? codec.withText(r, 'Fix it; no new test.') : r))]);
    const changed = lines(out).map((l, i) => (l === lines(TEXT)[i] ? -1 : i)).filter((i) => i >= 0);
    expect(changed).toHaveLength(1);
    const e = JSON.parse(lines(out)[changed[0]]) as Event;
    expect(e.data.content).toBe('Fix it; no new test.');
    expect(e.data.transformedContent).toBe('<current_datetime>2026-11-24T08:16:40.502+00:00</current_datetime>\n\nFix it; no new test.');
  });

  it('keeps the parentId chain whole: a deleted message’s follower names its parent, a new one is spliced in', () => {
    const { doc } = read();
    const records = doc.conversations[0].records.slice();
    const deleted = records.splice(7, 1)[0] as Event;
    const added = codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Also check the pricing module.' }] }, records[7]);
    records.splice(8, 0, added);
    const out = serializeDocument(codec, doc, [records]);
    const events = lines(out).filter((l) => l !== '').map((l) => JSON.parse(l) as Event);
    events.forEach((e, i) => expect(e.parentId, `line ${i + 1}`).toBe(i === 0 ? null : events[i - 1].id));
    // Only the lines the chain runs through changed: the follower of the deleted one, the new one, its follower.
    const before = new Set(lines(TEXT));
    const changed = lines(out).filter((l) => l !== '' && !before.has(l));
    expect(changed).toHaveLength(3);
    expect(lines(TEXT).filter((l) => !lines(out).includes(l))).toHaveLength(3);
    expect(events.some((e) => e.id === deleted.id)).toBe(false);
    const again = read(out).doc;
    expect(again.conversations[0].records).toHaveLength(records.length);
    expect(displayText(codec.view(again.conversations[0].records[8]))).toBe('Also check the pricing module.');
    const tree = codec.tree!(again, 0, again.conversations[0].records);
    expect(pathTo(tree, tree.active, true)).toEqual(records.map((_, i) => i));
  });

  it('a sub-agent’s events (agentId) are a thread of their own; the main thread goes on past them', () => {
    const ev = (id: number, type: string, data: object, agentId?: string) => JSON.stringify({ type, data, id: `e${id}`, timestamp: `2026-11-24T08:00:0${id}.000Z`, parentId: id === 1 ? null : `e${id - 1}`, ...(agentId ? { agentId } : {}) });
    const text =
      [
        ev(1, 'session.start', { sessionId: 's', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.61' }),
        ev(2, 'user.message', { content: 'Explore the repo.' }),
        ev(3, 'assistant.message', { messageId: 'm1', content: '', toolRequests: [{ toolCallId: 't1', name: 'task', arguments: { prompt: 'List the modules.' } }] }),
        ev(4, 'subagent.started', { toolCallId: 't1', agentName: 'explore', agentDisplayName: 'Explore', agentDescription: '' }),
        ev(5, 'user.message', { content: 'List the modules.' }, 'a1'),
        ev(6, 'assistant.message', { messageId: 'm2', content: 'cart, pricing.', toolRequests: [] }, 'a1'),
        ev(7, 'subagent.completed', { toolCallId: 't1', agentName: 'explore', agentDisplayName: 'Explore' }),
        ev(8, 'tool.execution_complete', { toolCallId: 't1', success: true, result: { content: 'cart, pricing.' } }),
      ].join('\n') + '\n';
    const { codec: found, doc } = read(text);
    expect(found.id).toBe('copilot-cli-events');
    const records = doc.conversations[0].records;
    const tree = codec.tree!(doc, 0, records);
    expect(tree.thread).toEqual(['main', 'main', 'side:a1', 'side:a1', 'main']);
    expect([...tree.parent]).toEqual([-1, 0, -1, 2, 1]);
    expect(viewsOf(records).map((v) => v.sidechain === true)).toEqual([false, false, true, true, false]);
  });
});

describe('Copilot CLI events.jsonl: an edit with edge-biased text, read back by JSON.parse (property)', () => {
  it('the edited line holds exactly the typed text, every other line keeps its bytes', () => {
    const { doc } = read();
    const records = doc.conversations[0].records;
    const original = lines(TEXT);
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString, (at, typed) => {
        const edited = codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(codec, doc, [records.map((r, k) => (k === at ? edited : r))]);
        const line = original.indexOf(codec.rawText(doc, 0, records[at])!);
        const now = lines(out);
        expect(now).toHaveLength(original.length);
        now.forEach((l, k) => {
          if (k !== line) expect(l).toBe(original[k]);
        });
        // An independent reader sees the typed text, and nothing else changed.
        const back = JSON.parse(now[line]) as Event;
        expect(textOf(back)).toBe(typed);
        expect(back).toEqual(JSON.parse(JSON.stringify(edited)));
        expect(codec.view(read(out).doc.conversations[0].records[at]).parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
        // Nothing changed: the same bytes.
        expect(serializeDocument(codec, doc, [records])).toBe(TEXT);
      }),
      { numRuns: 80, seed: 17 },
    );
  });
});

describe('Copilot CLI events.jsonl: sniffing', () => {
  const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
  const others = ['claude-code', 'codex'].flatMap((d) => files(join(FIXTURES, 'formats', d))).filter((f) => f.endsWith('.jsonl'));

  it('does not claim the Claude Code and Codex fixtures', () => {
    expect(others.length).toBeGreaterThan(3);
    for (const f of others) {
      const text = readFileSync(f, 'utf8');
      expect(codec.sniff(text.slice(0, 65536), basename(f)), f).toBe(0);
      expect(parseDocumentText(text, basename(f)).codec.id, f).not.toBe('copilot-cli-events');
    }
  });

  it('claims a Copilot log by its first event, and a converted file of messages alone', () => {
    expect(codec.sniff(TEXT.slice(0, 65536), 'events.jsonl')).toBe(50);
    const made = [codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Hi' }] })].map((r) => JSON.stringify(r)).join('\n') + '\n';
    expect(codec.sniff(made, 'x.jsonl')).toBe(40);
    expect(parseDocumentText(made, 'x.jsonl').codec.id).toBe('copilot-cli-events');
  });
});
