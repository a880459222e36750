import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertDocument, parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { problemsOf } from '../../src/core/formats/validity.js';
import { linkToolParts } from '../../src/core/views.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const TEXT = readFileSync(join(FIXTURES, 'formats', 'openhands', 'trajectory.json'), 'utf8');
const OTHERS = [
  ['openai/chat.json', 'openai-chat'],
  ['swe-agent/django__django-11099.traj', 'swe-agent-traj'],
  ['gemini/session-2026-11-30T10-00-3f2a1b9c.json', 'gemini-cli'],
  ['claude-ai/conversations.json', 'claude-ai-export'],
] as const;

type Loose = Record<string, unknown>;

describe('OpenHands trajectories', () => {
  const { codec, doc } = parseDocumentText(TEXT, 'trajectory.json');
  const records = doc.conversations[0].records as Loose[];
  const views = records.map((r) => codec.view(r));

  it('messages and actions are the conversation; the controller’s state changes and recall are kept apart', () => {
    expect(codec.id).toBe('openhands-trajectory');
    expect(records.map((r) => r.id)).toEqual([0, 1, 5, 6, 7, 8, 9, 10, 11]);
    expect(doc.otherRecords).toBe(5);
    expect(views.map((v) => [v.normalRole, v.category])).toEqual([
      ['system', 'system'],
      ['user', 'message'],
      ['assistant', 'run'],
      ['tool', 'run'],
      ['assistant', 'edit'],
      ['tool', 'edit'],
      ['assistant', 'run'],
      ['tool', 'run'],
      ['assistant', 'finish'],
    ]);
    expect(doc.conversations[0].meta).toEqual({ version: '0.59.0' });
  });

  it('an action is a call named by its type with its args, its thought the text; the observation answers it', () => {
    expect(views[2].parts).toEqual([
      { kind: 'text', text: 'Let me look at the file first.' },
      { kind: 'tool-call', id: 'toolu_01AbCdEf2GhIj', name: 'run', arguments: '{"command":"cat /workspace/hello.py","is_input":false,"blocking":false,"is_static":false,"cwd":null,"hidden":false,"confirmation_state":"confirmed","security_risk":0}' },
    ]);
    expect(views[3].parts).toEqual([{ kind: 'tool-result', callId: 'toolu_01AbCdEf2GhIj', text: 'print("Helo, world!")' }]);
    const linked = linkToolParts(views);
    const calls = linked.flatMap((v) => v.parts.flatMap((p) => (p.kind === 'tool-call' ? [p.id] : [])));
    const results = linked.flatMap((v) => v.parts.flatMap((p) => (p.kind === 'tool-result' ? [p.callId] : [])));
    expect(results).toEqual(calls);
    // An edit with no thought: the call alone. The finish is the agent's closing words.
    expect(views[4].parts.map((p) => p.kind)).toEqual(['tool-call']);
    expect(views[8].parts).toEqual([{ kind: 'text', text: 'Fixed the typo: hello.py now prints "Hello, world!".' }]);
  });

  it("usage from the model response in tool_call_metadata, counted once per response", () => {
    expect(views[2].usage).toEqual({ input: 5210, output: 64, cacheWrite: 5206, model: 'claude-sonnet-4-5-20250929', key: 'chatcmpl-5d1f0c2e-8a44-4b1f-9a0e-6f3c2b7d9e11' });
    expect(views[4].usage).toMatchObject({ input: 5311, output: 97, cacheRead: 5206, cacheWrite: 101 });
    // The observation repeats the metadata, not the call.
    expect(views[3].usage).toBeUndefined();
  });

  it('without function calling an observation answers its cause; an MCP call is its tool’s; unknown types are kept, shown as JSON', () => {
    const events = [
      { id: 0, source: 'user', message: 'List files', action: 'message', args: { content: 'List files' } },
      { id: 1, source: 'agent', message: 'Running command: ls', action: 'run', args: { command: 'ls', thought: 'Listing.' } },
      { id: 2, source: 'agent', message: 'Command `ls` executed', cause: 1, observation: 'run', content: 'a.txt', extras: { command: 'ls' } },
      { id: 3, source: 'agent', message: '', action: 'call_tool_mcp', args: { name: 'fetch', arguments: { url: 'https://example.com' }, thought: '' } },
      { id: 4, source: 'agent', message: '', cause: 3, observation: 'mcp', content: '<html>', extras: { name: 'fetch', arguments: {} } },
      { id: 5, source: 'agent', message: '', action: 'teleport', args: { to: 'mars' } },
      { id: 6, source: 'environment', message: '', observation: 'weather', content: '', extras: { sky: 'clear' } },
    ];
    const opened = parseDocumentText(JSON.stringify(events, null, 2), 'trajectory.json');
    expect(opened.codec.id).toBe('openhands-trajectory');
    const v = opened.doc.conversations[0].records.map((r) => opened.codec.view(r));
    expect(v[1].parts[1]).toEqual({ kind: 'tool-call', id: '1', name: 'run', arguments: '{"command":"ls"}' });
    expect(v[2].parts).toEqual([{ kind: 'tool-result', callId: '1', text: 'a.txt' }]);
    expect(v[3].parts).toEqual([{ kind: 'tool-call', id: '3', name: 'fetch', arguments: '{"url":"https://example.com"}' }]);
    expect(v[4].parts[0]).toMatchObject({ kind: 'tool-result', callId: '3' });
    expect(v[5].parts).toEqual([{ kind: 'unknown', type: 'teleport', text: '{"to":"mars"}' }]);
    expect(v[6].parts).toEqual([{ kind: 'unknown', type: 'weather', text: '{"sky":"clear"}' }]);
  });

  it('a delete and an insertion keep the controller’s events where they were', () => {
    const list = records.slice();
    list.splice(1, 1);
    list.push(codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Thanks!' }] }, list[list.length - 1]) as Loose);
    const back = JSON.parse(serializeDocument(codec, doc, [list])) as Loose[];
    const original = JSON.parse(TEXT) as Loose[];
    expect(back.map((e) => e.id)).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 13]);
    // The new message goes after the one before it, the state changes that followed that one after it.
    expect(back[back.length - 3]).toMatchObject({ action: 'message', source: 'user', args: { content: 'Thanks!' } });
    expect(back.slice(-2)).toEqual(original.slice(-2));
  });

  it('a conversion into a trajectory links each observation to its action by cause and metadata', () => {
    const from = parseDocumentText(readFileSync(join(FIXTURES, 'formats', 'openai/chat.json'), 'utf8'), 'chat.json');
    const out = convertDocument(from, 'openhands-trajectory');
    const events = JSON.parse(out) as Loose[];
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i));
    const observations = events.filter((e) => typeof e.observation === 'string');
    expect(observations.length).toBe(2);
    for (const o of observations) {
      const action = events[o.cause as number];
      expect(action.action).toBe('call_tool_mcp');
      expect(o.tool_call_metadata).toEqual(action.tool_call_metadata);
    }
    expect(problemsOf(codec, parseDocumentText(out, 'trajectory.json').doc)).toEqual([]);
  });

  it('takes no other format’s file, and another format’s codec takes none of its', () => {
    for (const [name, id] of OTHERS) {
      const text = readFileSync(join(FIXTURES, 'formats', name), 'utf8');
      expect(codec.sniff(text.slice(0, 65536), name.split('/').pop()!), name).toBe(0);
      expect(parseDocumentText(text, name.split('/').pop()!).codec.id).toBe(id);
    }
  });

  it('untouched, the same bytes; an edit with edge-biased text reads back by JSON.parse, every other value unchanged (property)', () => {
    expect(serializeDocument(codec, doc, [records])).toBe(TEXT);
    const original = JSON.parse(TEXT) as Loose[];
    const at = (i: number) => original.findIndex((e) => e.id === records[i].id);
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => s !== '' && !s.includes('\u0000')), (k, typed) => {
        const edited = codec.withText(records[k], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(codec, doc, [records.map((r, i) => (i === k ? edited : r))]);
        const back = JSON.parse(out) as Loose[];
        expect(back.length).toBe(original.length);
        back.forEach((e, i) => i !== at(k) && expect(e).toEqual(original[i]));
        const e = back[at(k)];
        const args = (e.args ?? {}) as Loose;
        const where = e.action === 'message' || e.action === 'system' ? args.content : e.action === 'finish' ? args.final_thought : e.action ? args.thought : e.content;
        expect(where).toBe(typed);
        const v = codec.view(parseDocumentText(out, 'trajectory.json').doc.conversations[0].records[k]);
        expect(v.parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
      }),
      { numRuns: 80, seed: 11 },
    );
  });
});
