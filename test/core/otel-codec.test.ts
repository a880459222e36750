import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText, readDocumentFile } from '../../src/core/formats/document-file.js';
import { codecById } from '../../src/core/formats/registry.js';
import { FIXTURES } from '../helpers.js';

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
