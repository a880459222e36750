import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertDocument, parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { sentText } from '../../src/core/formats/model.js';
import { linkToolParts } from '../../src/core/views.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const NAME = '2025-12-01T10-00-00_gsm8k_abc123.json';
const TEXT = readFileSync(join(FIXTURES, 'formats', 'inspect', NAME), 'utf8');
const OTHERS = [
  ['openai/chat.json', 'openai-chat'],
  ['swe-agent/django__django-11099.traj', 'swe-agent-traj'],
  ['gemini/session-2026-11-30T10-00-3f2a1b9c.json', 'gemini-cli'],
  ['claude-ai/conversations.json', 'claude-ai-export'],
] as const;

type Loose = Record<string, unknown>;

describe('Inspect AI eval logs (JSON)', () => {
  const { codec, doc } = parseDocumentText(TEXT, NAME);
  const views = doc.conversations.map((c) => linkToolParts(c.records.map((r) => codec.view(r))));

  it('each sample per epoch is a conversation of its messages; the events are kept, counted', () => {
    expect(codec.id).toBe('inspect-eval-json');
    expect(doc.conversations.map((c) => c.title)).toEqual(['sample 1 · epoch 1', 'sample 2 · epoch 1']);
    for (const v of views) expect(v.map((m) => m.normalRole)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(doc.otherRecords).toBe(2);
    // The tools the model was offered, from its model event.
    expect(doc.conversations[0].meta?.tools?.map((t) => t.name)).toEqual(['python']);
  });

  it('an inline image is an image part, never text', () => {
    const user = views[0][1];
    expect(user.parts.map((p) => p.kind)).toEqual(['text', 'image']);
    const image = user.parts[1] as { ref: string; mediaType?: string };
    expect(image.mediaType).toBe('image/png');
    expect(image.ref).toMatch(/^data:image\/png;base64,… \(\d+ characters\)$/);
    expect(sentText(user)).not.toContain('iVBOR');
  });

  it('reasoning (signed, or redacted), tool calls and the tool messages answering them, errors', () => {
    const a = views[0][2];
    expect(a.parts.map((p) => p.kind)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(a.parts[0]).toMatchObject({ kind: 'reasoning', vendor: 'anthropic', signed: 'EqQBCkYIBxgCKkDsV3x4dGhpbmtpbmctc2lnbmF0dXJl' });
    expect(a.parts[2]).toEqual({ kind: 'tool-call', id: 'toolu_01GsmPy7Qw', name: 'python', arguments: '{"code":"print((16 - 3 - 4) * 2)"}' });
    expect(views[0][3]).toMatchObject({ name: 'python', parts: [{ kind: 'tool-result', callId: 'toolu_01GsmPy7Qw', text: '18\n' }] });
    expect(views[1][2].parts.map((p) => (p.kind === 'reasoning' ? (p.encrypted ? 'encrypted' : 'reasoning') : p.kind))).toEqual(['encrypted', 'tool-call']);
    expect(views[1][3].parts[0]).toEqual({ kind: 'tool-result', callId: 'toolu_01RobeCalc', text: 'Command timed out before completing.', isError: true });
    expect(views[0][2].model).toBe('claude-sonnet-4-5-20250929');
  });

  it("usage from the model event (or the sample's output) that wrote the message, every prompt token counted in input", () => {
    // Anthropic's input_tokens leave the cache out; the total says so.
    expect(views[0][2].usage).toEqual({ input: 1436, output: 188, cacheWrite: 1024, model: 'anthropic/claude-sonnet-4-5', key: 'Ax5nB2cD7eF9gH3jK4mL6p' });
    expect(views[0][4].usage).toEqual({ input: 1120, output: 27, cacheRead: 1024, model: 'claude-sonnet-4-5-20250929', key: 'Ma2xC4vB6nM8qW3eR5tY7u' });
    expect(views[1][4].usage).toMatchObject({ input: 782, output: 486 });
    expect(views[1][2].usage).toBeUndefined();
  });

  it('takes no other format’s file, and another format’s codec takes none of its', () => {
    for (const [name, id] of OTHERS) {
      const text = readFileSync(join(FIXTURES, 'formats', name), 'utf8');
      expect(codec.sniff(text.slice(0, 65536), name.split('/').pop()!), name).toBe(0);
      expect(parseDocumentText(text, name.split('/').pop()!).codec.id).toBe(id);
    }
  });

  it('a conversion into a log: a sample per conversation, tool messages naming their function', () => {
    const from = parseDocumentText(readFileSync(join(FIXTURES, 'formats', 'openai/chat.json'), 'utf8'), 'chat.json');
    const log = JSON.parse(convertDocument(from, 'inspect-eval-json')) as { eval: Loose; samples: Array<{ id: number; epoch: number; messages: Loose[] }> };
    expect(log.eval.task).toBe('imported');
    expect(log.samples.map((s) => [s.id, s.epoch])).toEqual([[1, 1]]);
    const tool = log.samples[0].messages.find((m) => m.role === 'tool')!;
    expect(tool.function).toBe('get_weather');
    const call = log.samples[0].messages.find((m) => Array.isArray(m.tool_calls))!;
    expect((call.tool_calls as Loose[])[0]).toMatchObject({ id: 'call_9a', function: 'get_weather', arguments: { city: 'Paris' }, type: 'function' });
  });

  it('untouched, the same bytes; an edit with edge-biased text reads back by JSON.parse, every other value unchanged (property)', () => {
    expect(serializeDocument(codec, doc, doc.conversations.map((c) => c.records))).toBe(TEXT);
    const original = JSON.parse(TEXT) as Loose & { samples: Array<Loose & { messages: Loose[] }> };
    const places = doc.conversations.flatMap((c, ci) => c.records.map((_, k) => [ci, k] as const));
    fc.assert(
      fc.property(fc.nat(places.length - 1), edgeString.filter((s) => s !== '' && !s.includes('\u0000')), (at, typed) => {
        const [ci, k] = places[at];
        const edited = codec.withText(doc.conversations[ci].records[k], typed);
        fc.pre(edited !== undefined);
        const records = doc.conversations.map((c, i) => c.records.map((r, j) => (i === ci && j === k ? edited : r)));
        const out = serializeDocument(codec, doc, records);
        const back = JSON.parse(out) as typeof original;
        for (const key of Object.keys(original)) if (key !== 'samples') expect(back[key]).toEqual(original[key]);
        back.samples.forEach((s, i) => {
          for (const key of Object.keys(s)) if (key !== 'messages') expect(s[key]).toEqual(original.samples[i][key]);
          s.messages.forEach((m, j) => {
            if (i !== ci || j !== k) return expect(m).toEqual(original.samples[i].messages[j]);
            const content = m.content;
            expect(typeof content === 'string' ? content : (content as Loose[]).find((b) => b.type === 'text')?.text).toBe(typed);
          });
        });
        const again = parseDocumentText(out, NAME);
        expect(again.codec.id).toBe('inspect-eval-json');
        expect(codec.view(again.doc.conversations[ci].records[k]).parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
      }),
      { numRuns: 80, seed: 11 },
    );
  });
});
