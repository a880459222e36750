import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertDocument, parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { problemsOf } from '../../src/core/formats/validity.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const TEXT = readFileSync(join(FIXTURES, 'formats', 'atif', 'trajectory.json'), 'utf8');
const OTHERS = [
  ['openai/chat.json', 'openai-chat'],
  ['swe-agent/django__django-11099.traj', 'swe-agent-traj'],
  ['gemini/session-2026-11-30T10-00-3f2a1b9c.json', 'gemini-cli'],
  ['claude-ai/conversations.json', 'claude-ai-export'],
] as const;

type Loose = Record<string, unknown>;

describe('ATIF trajectories', () => {
  const { codec, doc } = parseDocumentText(TEXT, 'trajectory.json');
  const views = doc.conversations[0].records.map((r) => codec.view(r));

  it('each step is a record: the system prompt, the user, the agent’s turns holding their calls and results', () => {
    expect(codec.id).toBe('atif-trajectory');
    expect(views.map((v) => [v.role, v.normalRole])).toEqual([
      ['system', 'system'],
      ['user', 'user'],
      ['agent', 'assistant'],
      ['agent', 'assistant'],
      ['agent', 'assistant'],
      ['agent', 'assistant'],
    ]);
    expect(doc.conversations[0].meta).toEqual({ sessionId: '7c1e4f2a-9b3d-4e8a-b6f0-2d5c8a1e3f90', version: '0.59.0' });
    expect(views[2].parts.map((p) => p.kind)).toEqual(['reasoning', 'text', 'tool-call', 'tool-result']);
    expect(views[2].parts[0]).toEqual({ kind: 'reasoning', text: 'The task names one failing test. Running it first shows the traceback.' });
    expect(views[2].parts[2]).toEqual({ kind: 'tool-call', id: 'toolu_01Xq7bHn2VpRk', name: 'execute_bash', arguments: '{"command":"cd /app && python -m pytest tests/test_dates.py -x -q"}' });
    // Two parallel calls and their results, paired by source_call_id.
    const calls = views[3].parts.flatMap((p) => (p.kind === 'tool-call' ? [p.id] : []));
    const results = views[3].parts.flatMap((p) => (p.kind === 'tool-result' ? [p.callId] : []));
    expect(results).toEqual(calls);
    expect(calls).toEqual(['toolu_01Lm4sWc8TyQa', 'toolu_01Pd9fGk3ZuNe']);
    // A turn with only reasoning and a call: no text.
    expect(views[4].parts.map((p) => p.kind)).toEqual(['reasoning', 'tool-call', 'tool-result']);
    expect(views[0].timestamp).toBe('2025-11-28T14:02:11.512Z');
    expect(views[5].model).toBe('anthropic/claude-sonnet-4-5');
  });

  it('metrics are the step’s usage: prompt_tokens every input token, the cached ones among them', () => {
    expect(views[2].usage).toEqual({ input: 6120, output: 148, cacheRead: 5890 });
    expect(views[3].usage).toEqual({ input: 6518, output: 201, cacheRead: 6120, reasoning: 64 });
    expect(views[0].usage).toBeUndefined();
  });

  it('what Harbor refuses is said: none in the fixture, a step out of order after a deletion', () => {
    expect(problemsOf(codec, doc)).toEqual([]);
    const out = serializeDocument(codec, doc, [doc.conversations[0].records.filter((_, i) => i !== 1)]);
    const again = parseDocumentText(out, 'trajectory.json').doc;
    expect(problemsOf(codec, again).map((p) => p.text)[0]).toMatch(/step_id 3 where Harbor expects 2/);
  });

  it('a conversion into a trajectory numbers the steps and puts each result in the step of its call', () => {
    const from = parseDocumentText(readFileSync(join(FIXTURES, 'formats', 'openai/chat.json'), 'utf8'), 'chat.json');
    const out = convertDocument(from, 'atif-trajectory');
    const root = JSON.parse(out) as { schema_version: string; agent: Loose; steps: Loose[]; final_metrics: Loose };
    expect(root.schema_version).toBe('ATIF-v1.4');
    expect(root.steps.map((s) => s.step_id)).toEqual(root.steps.map((_, i) => i + 1));
    const both = root.steps.find((s) => Array.isArray(s.tool_calls))!;
    expect((both.tool_calls as Loose[]).map((c) => c.tool_call_id)).toEqual(['call_9a', 'call_9b']);
    expect(((both.observation as Loose).results as Loose[]).map((r) => r.source_call_id)).toEqual(['call_9a', 'call_9b']);
    expect(problemsOf(codec, parseDocumentText(out, 'trajectory.json').doc)).toEqual([]);
    for (const s of root.steps) if (s.source !== 'agent') expect(Object.keys(s).filter((k) => ['tool_calls', 'metrics', 'reasoning_content', 'model_name'].includes(k))).toEqual([]);
  });

  it('takes no other format’s file, and another format’s codec takes none of its', () => {
    for (const [name, id] of OTHERS) {
      const text = readFileSync(join(FIXTURES, 'formats', name), 'utf8');
      expect(codec.sniff(text.slice(0, 65536), name.split('/').pop()!), name).toBe(0);
      expect(parseDocumentText(text, name.split('/').pop()!).codec.id).toBe(id);
    }
  });

  it('untouched, the same bytes; an edit with edge-biased text reads back by JSON.parse, every other value unchanged (property)', () => {
    const records = doc.conversations[0].records;
    expect(serializeDocument(codec, doc, [records])).toBe(TEXT);
    const original = JSON.parse(TEXT) as Loose & { steps: Loose[] };
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => s !== '' && !s.includes('\u0000')), (at, typed) => {
        const edited = codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(codec, doc, [records.map((r, k) => (k === at ? edited : r))]);
        const back = JSON.parse(out) as typeof original;
        for (const key of Object.keys(original)) if (key !== 'steps') expect(back[key]).toEqual(original[key]);
        back.steps.forEach((s, k) => (k === at ? expect(s).toEqual({ ...original.steps[k], message: typed }) : expect(s).toEqual(original.steps[k])));
        const v = codec.view(parseDocumentText(out, 'trajectory.json').doc.conversations[0].records[at]);
        expect(v.parts.some((p) => p.kind === 'text' && p.text === typed)).toBe(true);
      }),
      { numRuns: 80, seed: 11 },
    );
  });
});
