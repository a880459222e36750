import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDocument, parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { codecById } from '../../src/core/formats/registry.js';
import { displayText, type MessageView } from '../../src/core/formats/model.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const NAME = 'session-export.json';
const TEXT = readFileSync(join(FIXTURES, 'formats', 'opencode', NAME), 'utf8');
type Message = { info: Record<string, unknown>; parts: Array<Record<string, unknown>> };

describe('OpenCode export: what is read', () => {
  const { codec, doc } = parseDocumentText(TEXT, NAME);
  const views = doc.conversations[0].records.map((r) => codec.view(r));
  const kinds = (v: MessageView) => v.parts.map((p) => (p.kind === 'unknown' ? `unknown:${p.type}` : p.kind));

  it('is detected; the session’s title and directory, each message’s role, time and model', () => {
    expect(codec.id).toBe('opencode-export');
    expect(doc.conversations[0].title).toBe("Fix date tests failing in CI's time zone");
    expect(doc.conversations[0].meta).toEqual({ sessionId: 'ses_52b1f0c4effeA7qLm3Rt9Vb2Yz', cwd: '/home/dev/app', version: '1.0.120' });
    expect(views.map((v) => [v.role, v.normalRole])).toEqual([
      ['user', 'user'],
      ['assistant', 'assistant'],
      ['assistant', 'assistant'],
      ['assistant', 'assistant'],
      ['user', 'user'],
      ['assistant', 'assistant'],
    ]);
    expect(views[0].timestamp).toBe(new Date(1764666910402).toISOString());
    expect(views[1].model).toBe('claude-sonnet-4-5');
    expect(views[0].id).toBe('msg_ad4e0f3b0001K8pQz2Wm5Xr7Nd');
  });

  it('parts: text (synthetic ones too), a file, reasoning, tool calls with their results in the same message; step parts not shown; others kept as they are', () => {
    expect(kinds(views[0])).toEqual(['text', 'text', 'text', 'file']);
    expect(views[0].parts[3]).toEqual({ kind: 'file', ref: 'src/date.ts', mediaType: 'text/plain' });
    expect(kinds(views[1])).toEqual(['reasoning', 'text', 'tool-call', 'tool-result']);
    expect(views[1].parts[2]).toMatchObject({ kind: 'tool-call', id: 'toolu_01Hk3FqT9vXw2Zr8Lm4Np6Qs', name: 'bash' });
    expect(JSON.parse((views[1].parts[2] as { arguments: string }).arguments)).toMatchObject({ command: 'TZ=America/New_York npx vitest run test/date.test.ts' });
    expect(views[1].parts[3]).toMatchObject({ kind: 'tool-result', callId: 'toolu_01Hk3FqT9vXw2Zr8Lm4Np6Qs' });
    expect((views[1].parts[3] as { text: string }).text).toContain("AssertionError: expected '2026-12-01'");
    // The failed edit: its error is its result.
    expect(views[2].parts).toEqual([
      expect.objectContaining({ kind: 'tool-call', id: 'toolu_01Pq7RsD2fGh5Jk8Lz3Xc6Vb', name: 'edit' }),
      { kind: 'tool-result', callId: 'toolu_01Pq7RsD2fGh5Jk8Lz3Xc6Vb', text: 'Error: oldString not found in content', isError: true },
    ]);
    // A step's patch is the files it changed; the agent a prompt names is in its text already.
    expect(kinds(views[3])).toEqual(['tool-call', 'tool-result', 'text', 'file']);
    expect(views[3].parts[3]).toEqual({ kind: 'file', ref: '/home/dev/app/src/date.ts' });
    expect(kinds(views[4])).toEqual(['text']);
    expect(kinds(views[5])).toEqual(['reasoning', 'text']);
    expect(displayText(views[5])).toContain('Only `src/report.ts`');
  });

  it('usage from the step-finish parts: input with the cache, output with the reasoning; none for the user', () => {
    expect(views[1].usage).toEqual({ input: 6 + 11804 + 2210, output: 142 + 58, cacheRead: 11804, cacheWrite: 2210, reasoning: 58, key: 'msg_ad4e0f3b0002K8pQz2Wm5Xr7Nd' });
    expect(views[0].usage).toBeUndefined();
    // Several steps in one message add up; without step parts, the message's own tokens.
    const step = (input: number) => ({ id: 'p', type: 'step-finish', reason: 'tool-calls', cost: 0.01, tokens: { input, output: 10, reasoning: 0, cache: { read: 100, write: 0 } } });
    const two = { info: { id: 'm', role: 'assistant', tokens: { input: 7, output: 10, reasoning: 0, cache: { read: 100, write: 0 } } }, parts: [step(5), step(7)] };
    expect(codec.view(two).usage).toMatchObject({ input: 212, output: 20, cacheRead: 200 });
    expect(codec.view({ ...two, parts: [] }).usage).toMatchObject({ input: 107, output: 10 });
  });

  it('a compaction part marks the boundary; the summary the assistant wrote for it is marked', () => {
    const boundary = codec.view({ info: { id: 'm1', role: 'user' }, parts: [{ id: 'p1', type: 'compaction', auto: true }] });
    expect(boundary).toMatchObject({ compaction: { trigger: 'auto' }, parts: [] });
    expect(codec.view({ info: { id: 'm2', role: 'assistant', summary: true }, parts: [{ type: 'text', text: 'So far: …' }] }).summary).toBe(true);
  });

  it('a call that failed before the model wrote anything (an API error, no tokens) reads as its error, the tool’s own line: no turn, no usage', async () => {
    const { turnFigures } = await import('../../src/core/turn-figures.js');
    const failedAt = 1764265493315;
    const failed = { info: { id: 'msg_f', role: 'assistant', modelID: 'claude-opus-4-5', time: { created: failedAt }, error: { name: 'APIError', data: { message: ' Extra usage must be enabled to use Opus. ', statusCode: 400 } }, cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } }, parts: [] };
    const v = codec.view(failed);
    expect(v.parts).toEqual([{ kind: 'text', text: 'APIError 400: Extra usage must be enabled to use Opus.' }]);
    expect(v.meta).toBe(true);
    expect(v.usage).toBeUndefined();
    expect(turnFigures([views[0], v, views[1]], { tokens: [10, 10, 10] }).map((t) => [t.first, t.last, t.estimated])).toEqual([[2, 2, false]]);
    // An error without a message says its name; a message that did write something is the model's as before.
    expect(codec.view({ ...failed, info: { ...failed.info, error: { name: 'MessageAbortedError' } } }).parts).toEqual([{ kind: 'text', text: 'MessageAbortedError' }]);
    const wrote = codec.view({ ...failed, parts: [{ type: 'text', text: 'Half an answer' }] });
    expect([wrote.meta, wrote.parts]).toEqual([undefined, [{ kind: 'text', text: 'Half an answer' }]]);
  });

  it('sniffs its exports and no other JSON fixture', () => {
    expect(codec.sniff(TEXT, NAME)).toBe(45);
    const all = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? all(join(dir, f)) : [join(dir, f)]));
    const others = all(join(FIXTURES, 'formats')).filter((f) => f.endsWith('.json') && !f.includes('opencode'));
    expect(others.length).toBeGreaterThan(5);
    for (const f of others) expect(codec.sniff(readFileSync(f, 'utf8').slice(0, 65536), f), relative(FIXTURES, f)).toBe(0);
  });
});

describe('OpenCode export: what is written', () => {
  it('untouched: the same bytes', () => {
    const { codec, doc } = parseDocumentText(TEXT, NAME);
    expect(serializeDocument(codec, doc, [doc.conversations[0].records])).toBe(TEXT);
  });

  it('the text edited is the one the user or model wrote, not what OpenCode added', () => {
    const { codec, doc } = parseDocumentText(TEXT, NAME);
    const records = doc.conversations[0].records.slice();
    records[0] = codec.withText(records[0], 'Why do the date tests fail in CI?');
    const back = JSON.parse(serializeDocument(codec, doc, [records])) as { messages: Message[] };
    expect(back.messages[0].parts.map((p) => p.text)).toEqual(['Why do the date tests fail in CI?', expect.stringContaining('Called the Read tool'), expect.stringContaining('<file>'), undefined]);
    expect(codec.withText({ info: { role: 'user' }, parts: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, 'x')).toBeUndefined();
  });

  it('a new message from a view: a tool part holds the call and its result (or its error); a result without its call is text', () => {
    const codec = codecById('opencode-export')!;
    const near = (parseDocumentText(TEXT, NAME).doc.conversations[0].records[1] as Message);
    const made = codec.fromView(
      {
        role: 'assistant',
        normalRole: 'assistant',
        parts: [
          { kind: 'reasoning', text: 'Checking.' },
          { kind: 'tool-call', id: 'c1', name: 'bash', arguments: '{"command":"ls"}' },
          { kind: 'tool-result', callId: 'c1', text: 'a.ts' },
          { kind: 'tool-call', id: 'c2', name: 'read', arguments: '{"filePath":"x"}' },
          { kind: 'tool-result', callId: 'c2', text: 'no such file', isError: true },
          { kind: 'tool-result', callId: 'elsewhere', text: 'orphan' },
        ],
        usage: { input: 120, output: 30, cacheRead: 100, reasoning: 10 },
      },
      near,
    ) as Message;
    expect(made.info).toMatchObject({ role: 'assistant', sessionID: near.info.sessionID, providerID: 'anthropic', modelID: 'claude-sonnet-4-5', tokens: { input: 20, output: 20, reasoning: 10, cache: { read: 100, write: 0 } } });
    expect(made.parts.map((p) => [p.type, (p.state as { status?: string } | undefined)?.status ?? p.text])).toEqual([
      ['reasoning', 'Checking.'],
      ['tool', 'completed'],
      ['tool', 'error'],
      ['text', 'orphan'],
    ]);
    expect(made.parts.every((p) => p.messageID === made.info.id)).toBe(true);
    const v = codec.view(made);
    expect(v.parts.filter((p) => p.kind === 'tool-result').map((p) => [(p as { callId: string }).callId, (p as { isError?: boolean }).isError])).toEqual([
      ['c1', undefined],
      ['c2', true],
    ]);
    expect(codec.loses({ role: 'tool', normalRole: 'tool', parts: [{ kind: 'tool-result', callId: 'x', text: 'y' }] }).join()).toMatch(/apart from its call/);
    // A new file of such messages (a conversion's) reads back, and is sniffed as this format.
    const text = emptyDocument(codec, [[made, codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Hi' }] })]]);
    expect(parseDocumentText(text, 'x.json').codec.id).toBe('opencode-export');
    // Ids sort in the order made (OpenCode orders messages by id): a conversion makes them in order.
    // Written as `opencode export` prints it: the session's info, then its messages.
    const written = JSON.parse(text) as { info: { title: string }; messages: Message[] };
    expect(written.info.title).toBeTruthy();
    const ids = written.messages.map((m) => m.info.id as string);
    expect(ids.slice().sort()).toEqual(ids);
  });

  it('a copy gets ids of its own, its parts too', () => {
    const { codec, doc } = parseDocumentText(TEXT, NAME);
    const r = doc.conversations[0].records[1] as Message;
    const copy = codec.freshIds!(r) as Message;
    expect(copy.info.id).not.toBe(r.info.id);
    expect(copy.parts.every((p, k) => p.id !== r.parts[k].id && p.messageID === copy.info.id)).toBe(true);
  });
});

describe('OpenCode export: an edit with edge-biased text, read back by JSON.parse (property)', () => {
  it(NAME, () => {
    const parsed = parseDocumentText(TEXT, NAME);
    const records = parsed.doc.conversations[0].records;
    const original = JSON.parse(TEXT) as { info: unknown; messages: Message[] };
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (at, typed) => {
        const edited = parsed.codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(parsed.codec, parsed.doc, [records.map((r, k) => (k === at ? edited : r))]);
        // An independent reader sees the typed text, byte for byte, and everything else as it was.
        const back = JSON.parse(out) as { info: unknown; messages: Message[] };
        expect(back.info).toEqual(original.info);
        expect(back.messages.length).toBe(original.messages.length);
        back.messages.forEach((m, k) => {
          if (k !== at) expect(m).toEqual(original.messages[k]);
        });
        const was = original.messages[at];
        const changed = back.messages[at].parts.flatMap((p, i) => (JSON.stringify(p) === JSON.stringify(was.parts[i]) ? [] : [i]));
        expect(back.messages[at].info).toEqual(was.info);
        expect(changed.length).toBeLessThanOrEqual(1);
        if (changed.length === 1) {
          const i = changed[0];
          expect(back.messages[at].parts[i]).toEqual({ ...was.parts[i], text: typed });
        }
        expect(back.messages[at].parts.some((p) => p.type === 'text' && p.text === typed)).toBe(true);
        expect(parsed.codec.view(parseDocumentText(out, NAME).doc.conversations[0].records[at]).parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
        // Nothing changed: the same bytes.
        expect(serializeDocument(parsed.codec, parsed.doc, [records])).toBe(TEXT);
      }),
      { numRuns: 80, seed: 7 },
    );
  });
});
