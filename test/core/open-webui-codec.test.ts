import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWebUiExport } from '../../src/core/formats/open-webui/codec.js';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { codecById } from '../../src/core/formats/registry.js';
import type { MessageView } from '../../src/core/formats/model.js';
import { forksOf, leavesOf, pathTo } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';
import type { Loose } from '../support/loose.js';

const NAME = 'chat-export-1764670000.json';
const TEXT = readFileSync(join(FIXTURES, 'formats', 'open-webui', NAME), 'utf8');
// The fixture's message ids by what they are: an edited first prompt (u0 → u1), a regenerated answer (a1 → a1r),
// an edited second prompt (u2 → u2e).
const IDS: Record<string, string> = { '5e0b1f8d-9a2c-4b36-8f40-1d7c6e3a0b00': 'u0', '5e0b1f8d-9a2c-4b36-8f40-1d7c6e3a0b0a': 'a0', '6f1c2a9e-0b3d-4c47-9a51-2e8d7f4b1c01': 'u1', 'b2d4e6f8-1a3c-4e5f-8a7b-9c0d1e2f3a02': 'a1', 'c3e5f7a9-2b4d-4f6a-9b8c-0d1e2f3a4b03': 'a1r', 'd4f6a8b0-3c5e-4a7b-8c9d-1e2f3a4b5c04': 'u2', 'e5a7b9c1-4d6f-4b8c-9d0e-2f3a4b5c6d05': 'a2', 'f6b8c0d2-5e7a-4c9d-8e1f-3a4b5c6d7e06': 'u2e', 'a7c9d1e3-6f8b-4d0e-9f2a-4b5c6d7e8f07': 'a2e' };
const short = (r: unknown) => IDS[(r as Loose).id] ?? (r as Loose).id;
const textOf = (v: MessageView) => v.parts.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text).join('');

/** The flat copy is the path history.currentId ends, each entry the history's message. */
function flatInStep(chat: Loose): void {
  const messages = chat.history.messages as Record<string, Loose>;
  const path: string[] = [];
  for (let at = chat.history.currentId as string | null; at; at = messages[at].parentId) path.unshift(at);
  expect(chat.messages.map((m: Loose) => m.id)).toEqual(path);
  for (const m of chat.messages) expect(m).toEqual(messages[m.id]);
}

describe('an Open WebUI chat export', () => {
  const opened = parseDocumentText(TEXT, NAME);
  const [c0, c1] = opened.doc.conversations;

  it('is recognised: each chat a conversation of its history messages, the system prompt as instructions', () => {
    expect(opened.codec.id).toBe('open-webui-export');
    expect(opened.doc.conversations.map((c) => [c.title, c.records.length])).toEqual([['Rust lifetime error', 9], ['Lisbon weather', 2]]);
    expect(c0.meta).toEqual({ instructions: 'You are a concise Rust tutor.' });
    expect(c1.meta).toBeUndefined();
    expect(c0.records.map(short)).toEqual(['u0', 'a0', 'u1', 'a1', 'a1r', 'u2', 'a2', 'u2e', 'a2e']);
    expect(c0.records.map((r) => opened.codec.view(r).normalRole)).toEqual(['user', 'assistant', 'user', 'assistant', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  });

  it('shows the path to currentId; the regenerated answer and the edited prompt are forks, the edited first prompt a root beside the first (a fork too)', () => {
    const tree = openWebUiExport.tree!(opened.doc, 0, c0.records);
    const path = pathTo(tree, tree.active);
    expect(path.map((i) => short(c0.records[i]))).toEqual(['u1', 'a1r', 'u2e', 'a2e']);
    expect(forksOf(tree, path).map((f) => [f.at, f.options.map((i) => short(c0.records[i])), f.chosen])).toEqual([
      [0, ['u0', 'u1'], 1],
      [1, ['a1', 'a1r'], 1],
      [2, ['u2', 'u2e'], 1],
    ]);
    expect(leavesOf(tree, 'main').map((i) => short(c0.records[i]))).toEqual(['a0', 'a1', 'a2', 'a2e']);
    expect(tree.parent[0]).toBe(-1);
    expect(tree.parent[2]).toBe(-1);
  });

  it('reads the blocks of an answer: reasoning, a tool call with its result; usage, model, time, an attached image', () => {
    const v = c0.records.map((r) => opened.codec.view(r));
    expect(v[4].parts).toEqual([
      { kind: 'reasoning', text: "Two input references, one output reference: elision cannot pick one.\n\nTie both to the same lifetime 'a." },
      { kind: 'text', text: "The return type borrows from `a` or `b`, and Rust's elision rules cannot decide which. Name one lifetime for both: `fn longest<'a>(a: &'a str, b: &'a str) -> &'a str`." },
    ]);
    expect(v[4]).toMatchObject({ model: 'qwen3:14b', timestamp: '2025-12-02T09:50:40.000Z', usage: { input: 61, output: 118, reasoning: 52 } });
    const w = c1.records.map((r) => opened.codec.view(r));
    expect(w[0].parts).toEqual([
      { kind: 'text', text: 'What will the weather be in Lisbon tomorrow? This is the view from my hotel.' },
      { kind: 'image', ref: '/api/v1/files/5d1e7c2a-3b4f-4a6e-9c8d-7b2a1f0e3d44/content' },
    ]);
    expect(w[1].parts).toEqual([
      { kind: 'tool-call', id: 'call_Lx81', name: 'get_forecast', arguments: '{"city": "Lisbon", "day": "tomorrow"}' },
      { kind: 'tool-result', callId: 'call_Lx81', text: '18 °C, light rain after 15:00' },
      { kind: 'text', text: 'Tomorrow in Lisbon: 18 °C, with light rain after 15:00. Take an umbrella for the afternoon.' },
    ]);
  });

  it('is written back byte for byte when untouched; the file is consistent as Open WebUI wrote it', () => {
    expect(serializeDocument(opened.codec, opened.doc, opened.doc.conversations.map((c) => c.records))).toBe(TEXT);
    expect(openWebUiExport.validate!(opened.doc)).toEqual([]);
  });

  it('an edited answer on the shown path changes its flat copy too; one off the path leaves the copy as it was', () => {
    const edit = (name: string, text: string) => opened.doc.conversations.map((c) => c.records.map((r) => (short(r) === name ? opened.codec.withText(r, text) : r)));
    const out = JSON.parse(serializeDocument(opened.codec, opened.doc, edit('a2e', 'Use one lifetime.'))) as Loose[];
    const before = JSON.parse(TEXT) as Loose[];
    expect(out[0].chat.history.messages['a7c9d1e3-6f8b-4d0e-9f2a-4b5c6d7e8f07'].content).toBe('Use one lifetime.');
    flatInStep(out[0].chat);
    expect(out[1]).toEqual(before[1]);
    const off = serializeDocument(opened.codec, opened.doc, edit('a1', 'Add a lifetime.'));
    expect((JSON.parse(off) as Loose[])[0].chat.messages).toEqual(before[0].chat.messages);
    // Only that message's content changed in the text.
    expect(off.length - TEXT.length).toBe('Add a lifetime.'.length - (before[0].chat.history.messages['b2d4e6f8-1a3c-4e5f-8a7b-9c0d1e2f3a02'].content as string).length);
  });

  it('deleting the current answer moves currentId to its parent; a new message continues from there; links and the copy stay whole', () => {
    const records = c0.records.filter((r) => short(r) !== 'a2e');
    let out = JSON.parse(serializeDocument(opened.codec, opened.doc, [records, c1.records])) as Loose[];
    const chat = out[0].chat;
    expect(chat.history.currentId).toBe('f6b8c0d2-5e7a-4c9d-8e1f-3a4b5c6d7e06');
    expect(chat.history.messages['f6b8c0d2-5e7a-4c9d-8e1f-3a4b5c6d7e06'].childrenIds).toEqual([]);
    flatInStep(chat);
    const added = opened.codec.fromView({ role: 'assistant', normalRole: 'assistant', parts: [{ kind: 'text', text: 'Here it is, commented.' }] }, c0.records[8]);
    const text = serializeDocument(opened.codec, opened.doc, [[...records, added], c1.records]);
    out = JSON.parse(text) as Loose[];
    const id = (added as Loose).id as string;
    expect(out[0].chat.history.currentId).toBe(id);
    expect(out[0].chat.history.messages[id]).toMatchObject({ parentId: 'f6b8c0d2-5e7a-4c9d-8e1f-3a4b5c6d7e06', childrenIds: [], role: 'assistant', model: 'qwen3:14b', modelName: 'Qwen3 14B', done: true });
    flatInStep(out[0].chat);
    expect(openWebUiExport.validate!(parseDocumentText(text, NAME).doc)).toEqual([]);
  });

  it('a new answer says its reasoning and tool calls as Open WebUI writes them, and reads back as the same parts', () => {
    const parts: MessageView['parts'] = [
      { kind: 'reasoning', text: 'Check the forecast first.\n> not a quote' },
      { kind: 'tool-call', id: 'call_1', name: 'get_forecast', arguments: '{"city":"Porto <north>"}' },
      { kind: 'tool-result', callId: 'call_1', text: '"15 °C" & wind' },
      { kind: 'text', text: '\nPorto: 15 °C and windy.' },
    ];
    const record = openWebUiExport.fromView({ role: 'assistant', normalRole: 'assistant', parts }) as Loose;
    expect(record.content).toMatch(/^<details type="reasoning" done="true" duration="0">\n<summary>Thought for 0 seconds<\/summary>\n> Check the forecast first\.\n> &gt; not a quote\n<\/details>\n<details type="tool_calls" done="true" id="call_1" name="get_forecast" arguments="\{&quot;city&quot;:&quot;Porto &lt;north&gt;&quot;\}" result="&quot;\\&quot;15 °C\\&quot; &amp; wind&quot;"/);
    expect(openWebUiExport.view(record).parts).toEqual(parts);
    // The answer's text is what an edit changes; the blocks before it stay.
    const edited = openWebUiExport.withText(record, 'Windy.') as Loose;
    expect(openWebUiExport.view(edited).parts).toEqual([...parts.slice(0, 3), { kind: 'text', text: 'Windy.' }]);
    // Words that would read as a block are not taken as an answer's text.
    expect(openWebUiExport.withText(record, '<details type="tool_calls" name="x">')).toBeUndefined();
  });

  it('says what Open WebUI would misread: a currentId naming nothing, links that disagree, a flat copy out of step', () => {
    const broken = JSON.parse(TEXT) as Loose[];
    broken[1].chat.history.currentId = 'gone';
    broken[0].chat.messages.pop();
    broken[0].chat.history.messages['6f1c2a9e-0b3d-4c47-9a51-2e8d7f4b1c01'].childrenIds = [];
    const problems = openWebUiExport.validate!(parseDocumentText(JSON.stringify(broken), NAME).doc).map((p) => [p.conversation, p.message, p.text.split(':')[0]]);
    expect(problems).toEqual([
      [0, 2, 'childrenIds and the children’s parentId disagree'],
      [0, undefined, 'the chat’s flat `messages` copy is not the path history.currentId ends (Open WebUI writes them alike; its search reads the copy)'],
      [1, undefined, 'history.currentId "gone" names no message'],
      [1, undefined, 'the chat’s flat `messages` copy is not the path history.currentId ends (Open WebUI writes them alike; its search reads the copy)'],
    ]);
  });

  it('does not take other formats’ files, and they do not take it', () => {
    const mine = ['open-webui-export', 'grok-export', 'ai-studio-prompt'].map((id) => codecById(id)!);
    for (const [name, id] of [
      ['chatgpt/conversations.json', 'chatgpt-export'],
      ['claude-ai/conversations.json', 'claude-ai-export'],
      ['openai/chat.json', 'openai-chat'],
      ['gemini/session-2026-11-30T10-00-3f2a1b9c.json', 'gemini-cli'],
      ['gemini/chat-history.json', 'gemini-contents'],
    ]) {
      const text = readFileSync(join(FIXTURES, 'formats', name), 'utf8');
      for (const c of mine) expect(c.sniff(text.slice(0, 65536), name), `${c.id} on ${name}`).toBe(0);
      expect(parseDocumentText(text, name).codec.id, name).toBe(id);
    }
    for (const c of ['chatgpt-export', 'claude-ai-export', 'openai-chat', 'gemini-cli', 'gemini-contents']) expect(codecById(c)!.sniff(TEXT.slice(0, 65536), NAME), c).toBeLessThan(55);
  });

  it('an edit with edge-biased text reads back by JSON.parse with that text, every other value as it was, the flat copy in step (property)', () => {
    const all = opened.doc.conversations.flatMap((c, ci) => c.records.map((_, k) => [ci, k] as const));
    const original = JSON.parse(TEXT) as Loose[];
    fc.assert(
      fc.property(fc.nat(all.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (pick, typed) => {
        const [ci, k] = all[pick];
        const edited = opened.codec.withText(opened.doc.conversations[ci].records[k], typed);
        fc.pre(edited !== undefined);
        const records = opened.doc.conversations.map((c, i) => c.records.map((r, j) => (i === ci && j === k ? edited : r)));
        const out = serializeDocument(opened.codec, opened.doc, records);
        const back = JSON.parse(out) as Loose[];
        const id = (edited as Loose).id as string;
        back.forEach((entry, i) => {
          if (i !== ci) return expect(entry).toEqual(original[i]);
          const { chat, ...row } = entry;
          const { chat: chat0, ...row0 } = original[i];
          expect(row).toEqual(row0);
          expect({ ...chat, history: undefined, messages: undefined }).toEqual({ ...chat0, history: undefined, messages: undefined });
          expect(chat.history.currentId).toBe(chat0.history.currentId);
          for (const [key, m] of Object.entries(chat0.history.messages as Record<string, Loose>)) {
            if (key !== id) expect(chat.history.messages[key]).toEqual(m);
            else expect({ ...chat.history.messages[key], content: undefined }).toEqual({ ...m, content: undefined });
          }
          flatInStep(chat);
        });
        const again = parseDocumentText(out, NAME);
        expect(textOf(again.codec.view(again.doc.conversations[ci].records[k]))).toBe(typed);
      }),
      { numRuns: 80, seed: 41 },
    );
  });
});
