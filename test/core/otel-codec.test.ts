import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, readDocumentFile, serializeDocument } from '../../src/core/formats/document-file.js';
import { codecById } from '../../src/core/formats/registry.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const DIR = join(FIXTURES, 'formats', 'otel');
const TRACES = readFileSync(join(DIR, 'traces.json'), 'utf8');

describe('OpenTelemetry GenAI traces', () => {
  it('a conversation from its chat spans: each message the first time a call was sent it, each answer with its call’s usage', () => {
    const opened = readDocumentFile(join(DIR, 'traces.json'));
    expect(opened.codec.id).toBe('otel-genai');
    expect(opened.readOnly).toMatch(/a trace records what each model call was sent/);
    const [c] = opened.doc.conversations;
    expect(c.title).toBe('release-helper');
    expect(c.meta?.sessionId).toBe('conv_5f2a9c');
    // The invoke_agent and execute_tool spans are not model calls: other records.
    expect(opened.doc.otherRecords).toBe(2);
    const views = c.records.map((r) => opened.codec.view(r));
    expect(views.map((v) => v.normalRole)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(views[2].parts).toEqual([{ kind: 'tool-call', id: 'call_VSPygqKTWdrhaFErNvMV18Yl', name: 'get_release', arguments: '{"date":"2025-11-28"}' }]);
    expect(views[3].parts[0]).toMatchObject({ kind: 'tool-result', callId: 'call_VSPygqKTWdrhaFErNvMV18Yl' });
    expect(views[4].parts.map((p) => p.kind)).toEqual(['reasoning', 'text']);
    expect(views[2].usage).toMatchObject({ input: 212, output: 19 });
    expect(views[4]).toMatchObject({ model: 'gpt-4.1-mini-2025-04-14', usage: { input: 287, output: 41, cacheRead: 192 } });
    // Only what a call wrote carries usage (the messages it was sent do not).
    expect(views[3].usage).toBeUndefined();
  });

  it('the collector’s file exporter (a request per line) and OpenLLMetry’s indexed attributes', () => {
    const opened = readDocumentFile(join(DIR, 'collector-export.jsonl'));
    const views = opened.doc.conversations[0].records.map((r) => opened.codec.view(r));
    expect(views.map((v) => [v.normalRole, v.parts.map((p) => ('text' in p ? p.text : '')).join('')])).toEqual([
      ['system', 'Translate to French.'],
      ['user', 'Good morning, team.'],
      ['assistant', 'Bonjour à toute l’équipe.'],
      ['user', 'And: see you on Monday.'],
      ['assistant', 'Et : à lundi.'],
    ]);
  });

  it('a call sent a history that differs from the one before (the agent trimmed it) goes on from where they part, marked', () => {
    const doc = JSON.parse(TRACES) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ attributes: Array<{ key: string; value: { stringValue?: string } }> }> }> }> };
    const second = doc.resourceSpans[0].scopeSpans[0].spans[3];
    const input = second.attributes.find((a) => a.key === 'gen_ai.input.messages')!;
    const trimmed = (JSON.parse(input.value.stringValue!) as unknown[]).slice(1);
    input.value.stringValue = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Summary: the user asked about last Friday’s release.' }] }, ...trimmed]);
    const opened = parseDocumentText(JSON.stringify(doc), 'traces.json');
    const views = opened.doc.conversations[0].records.map((r) => opened.codec.view(r));
    expect(views.map((v) => v.normalRole)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(views[3].category).toBe('history rewritten by the agent');
    expect(views.filter((v) => v.category).length).toBe(1);
  });

  it('spans with no messages say the instrumentation did not capture them; it is never a conversion target', () => {
    const bare = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'a', spanId: 'b', name: 'chat', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }] }] }] }] });
    expect(() => parseDocumentText(bare, 'traces.json')).toThrow(/none a model call with messages/);
    expect(codecById('otel-genai')!.readOnly).toBeTruthy();
  });
});

describe('a span’s attributes alone (a trace viewer’s copy, an exporter’s dump)', () => {
  it('a flat attribute map: the messages JSON strings hold are read, with the system instructions, the model and the usage', () => {
    const opened = readDocumentFile(join(DIR, 'span-attributes.json'));
    expect(opened.codec.id).toBe('otel-genai');
    const [c] = opened.doc.conversations;
    expect(c.meta?.sessionId).toBe('thread_release_23');
    const views = c.records.map((r) => opened.codec.view(r));
    expect(views.map((v) => v.normalRole)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(views[0].parts).toEqual([{ kind: 'text', text: 'You are a release assistant. Answer in one short paragraph.' }]);
    expect(views[2].parts).toEqual([{ kind: 'tool-call', id: 'call_7HqL2', name: 'list_pull_requests', arguments: '{"milestone":"2.3","state":"open"}' }]);
    expect(views[3].parts[0]).toMatchObject({ kind: 'tool-result', callId: 'call_7HqL2' });
    expect(views[4]).toMatchObject({ model: 'gpt-4.1-mini-2025-04-14', usage: { input: 318, output: 27, cacheRead: 256 } });
    expect(opened.doc.otherRecords).toBe(0);
  });

  it('one span of OTLP JSON (its attributes [{key, value: {stringValue | intValue}}]): messages, time, usage with the cache written', () => {
    const opened = readDocumentFile(join(DIR, 'span-otlp.json'));
    expect(opened.codec.id).toBe('otel-genai');
    const views = opened.doc.conversations[0].records.map((r) => opened.codec.view(r));
    expect(views.map((v) => v.normalRole)).toEqual(['system', 'user', 'assistant']);
    expect(views[2]).toMatchObject({ timestamp: '2025-12-04T12:00:00.000Z', model: 'claude-sonnet-4-5', usage: { input: 1204, output: 41, cacheWrite: 900 } });
    // The attributes list alone, without its span around it.
    const list = JSON.stringify((JSON.parse(readFileSync(join(DIR, 'span-otlp.json'), 'utf8')) as { attributes: unknown[] }).attributes);
    const bare = parseDocumentText(list, 'attributes.json');
    expect(bare.codec.id).toBe('otel-genai');
    expect(bare.doc.conversations[0].records.map((r) => bare.codec.view(r).normalRole)).toEqual(['system', 'user', 'assistant']);
  });

  it('maps a line each (two calls of one conversation): each message once, each answer with its call’s usage', () => {
    const call = (input: unknown[], output: unknown[], tokens: number) => JSON.stringify({ 'gen_ai.conversation.id': 'c1', 'gen_ai.input.messages': JSON.stringify(input), 'gen_ai.output.messages': JSON.stringify(output), 'gen_ai.usage.input_tokens': tokens, 'gen_ai.usage.output_tokens': 5 });
    const q1 = { role: 'user', parts: [{ type: 'text', content: 'Name a prime.' }] };
    const a1 = { role: 'assistant', parts: [{ type: 'text', content: '7.' }] };
    const q2 = { role: 'user', parts: [{ type: 'text', content: 'A bigger one?' }] };
    const a2 = { role: 'assistant', parts: [{ type: 'text', content: '101.' }] };
    const text = `${call([q1], [a1], 10)}\n${call([q1, a1, q2], [a2], 20)}\n`;
    const opened = parseDocumentText(text, 'spans.jsonl');
    const views = opened.doc.conversations[0].records.map((r) => opened.codec.view(r));
    expect(views.map((v) => v.parts.map((p) => ('text' in p ? p.text : '')).join(''))).toEqual(['Name a prime.', '7.', 'A bigger one?', '101.']);
    expect(views.map((v) => v.usage?.input)).toEqual([undefined, 10, undefined, 20]);
  });

  it('a map of other attributes only is not a trace of model calls', () => {
    expect(() => parseDocumentText(JSON.stringify({ 'http.method': 'GET', 'gen_ai.operation.name': 'chat' }), 'span.json')).toThrow();
  });

  it('edge-biased texts in a flat map read as written; the file comes back byte for byte (property)', () => {
    fc.assert(
      fc.property(edgeString, edgeString, edgeString, fc.constantFrom(0, 2, 4), (system, question, answer, indent) => {
        const text = JSON.stringify(
          {
            'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: system }]),
            'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: question }] }]),
            'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' }]),
            'gen_ai.usage.input_tokens': 3,
          },
          null,
          indent,
        );
        const { codec, doc } = parseDocumentText(text, 'span.json');
        expect(codec.id).toBe('otel-genai');
        expect(doc.conversations[0].records.map((r) => codec.view(r).parts.map((p) => ('text' in p ? p.text : '')).join(''))).toEqual([system, question, answer]);
        expect(serializeDocument(codec, doc, doc.conversations.map((c) => c.records))).toBe(text);
      }),
      { numRuns: 150, seed: 42 },
    );
  });
});
