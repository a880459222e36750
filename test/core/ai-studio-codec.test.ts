import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aiStudioPrompt } from '../../src/core/formats/ai-studio/codec.js';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { codecById } from '../../src/core/formats/registry.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';
import type { Loose } from '../support/loose.js';

const NAME = 'Bayesian network factorization.json';
const TEXT = readFileSync(join(FIXTURES, 'formats', 'ai-studio', NAME), 'utf8');

describe('a Google AI Studio prompt', () => {
  const opened = parseDocumentText(TEXT, NAME);
  const records = opened.doc.conversations[0].records;

  it('is recognised: its chunks the records, thoughts as reasoning, the system instruction as instructions, the draft kept apart', () => {
    expect(opened.codec.id).toBe('ai-studio-prompt');
    expect(opened.doc.conversations[0].meta).toEqual({ instructions: 'You are a statistics tutor. Check the student’s reasoning before giving the answer.' });
    expect(opened.doc.otherRecords).toBe(1);
    const views = records.map((r) => opened.codec.view(r));
    expect(views.map((v) => [v.role, v.normalRole, v.parts.map((p) => p.kind).join()])).toEqual([
      ['user', 'user', 'text'],
      ['model', 'assistant', 'reasoning'],
      ['model', 'assistant', 'text'],
      ['user', 'user', 'text'],
      ['model', 'assistant', 'reasoning'],
      ['model', 'assistant', 'text'],
    ]);
    expect(views[1].parts[0]).toMatchObject({ text: expect.stringMatching(/^\*\*Reading the graph\*\*\n\nA and B have no parents/) });
    expect(views[2].model).toBe('gemini-2.5-pro');
    expect(views[0].model).toBeUndefined();
  });

  it('attachments are references; an attachment chunk has no text to edit', () => {
    const image = { driveImage: { id: '1Qm7ZrXv3yTn8bKc2LwP5sHd9FgJ0aEiU' }, role: 'user', tokenCount: 258 };
    expect(aiStudioPrompt.view(image).parts).toEqual([{ kind: 'image', ref: 'drive:1Qm7ZrXv3yTn8bKc2LwP5sHd9FgJ0aEiU' }]);
    expect(aiStudioPrompt.view({ role: 'user', inlineImage: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }).parts).toEqual([{ kind: 'image', ref: 'inlineImage (inline)', mediaType: 'image/png' }]);
    expect(aiStudioPrompt.withText(image, 'x')).toBeUndefined();
  });

  it('the system instruction as {text}, or {} when unset', () => {
    const file = JSON.parse(TEXT) as Loose;
    file.systemInstruction = { text: 'Be brief.' };
    expect(parseDocumentText(JSON.stringify(file), NAME).doc.conversations[0].meta).toEqual({ instructions: 'Be brief.' });
    file.systemInstruction = {};
    expect(parseDocumentText(JSON.stringify(file), NAME).doc.conversations[0].meta).toBeUndefined();
  });

  it('is written back byte for byte when untouched; an edit keeps the streamed parts in step with the text', () => {
    expect(serializeDocument(opened.codec, opened.doc, [records])).toBe(TEXT);
    const edited = records.map((r, i) => (i === 2 ? opened.codec.withText(r, 'Yes: the product of each node given its parents.') : r));
    const back = JSON.parse(serializeDocument(opened.codec, opened.doc, [edited])) as Loose;
    expect(back.chunkedPrompt.chunks[2]).toEqual({ text: 'Yes: the product of each node given its parents.', role: 'model', finishReason: 'STOP', tokenCount: 88, parts: [{ text: 'Yes: the product of each node given its parents.' }] });
    const thought = opened.codec.withText(records[1], 'Check the parents.') as Loose;
    expect(thought.parts).toEqual([{ text: 'Check the parents.', thought: true }]);
  });

  it('new chunks: a thought of its own, or the text of the turn', () => {
    expect(aiStudioPrompt.fromView({ role: 'assistant', normalRole: 'assistant', parts: [{ kind: 'reasoning', text: 'Hm.' }] })).toEqual({ text: 'Hm.', role: 'model', isThought: true });
    expect(aiStudioPrompt.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'Why?' }] })).toEqual({ text: 'Why?', role: 'user' });
    expect(aiStudioPrompt.loses({ role: 'system', normalRole: 'system', parts: [{ kind: 'text', text: 'x' }] })[0]).toMatch(/system role/);
  });

  it('does not take other formats’ files', () => {
    const mine = codecById('ai-studio-prompt')!;
    for (const name of ['chatgpt/conversations.json', 'claude-ai/conversations.json', 'openai/chat.json', 'gemini/session-2026-11-30T10-00-3f2a1b9c.json', 'gemini/chat-history.json']) {
      const text = readFileSync(join(FIXTURES, 'formats', name), 'utf8');
      expect(mine.sniff(text.slice(0, 65536), name), name).toBe(0);
      expect(parseDocumentText(text, name).codec.id, name).not.toBe('ai-studio-prompt');
    }
  });

  it('an edit with edge-biased text reads back by JSON.parse with that text, every other value as it was (property)', () => {
    const original = JSON.parse(TEXT) as Loose;
    fc.assert(
      fc.property(fc.nat(records.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (at, typed) => {
        const edited = opened.codec.withText(records[at], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(opened.codec, opened.doc, [records.map((r, k) => (k === at ? edited : r))]);
        const back = JSON.parse(out) as Loose;
        expect({ ...back, chunkedPrompt: undefined }).toEqual({ ...original, chunkedPrompt: undefined });
        expect(back.chunkedPrompt.pendingInputs).toEqual(original.chunkedPrompt.pendingInputs);
        back.chunkedPrompt.chunks.forEach((c: Loose, k: number) => {
          const was = original.chunkedPrompt.chunks[k];
          if (k !== at) return expect(c).toEqual(was);
          expect(c.text).toBe(typed);
          if (was.parts) expect(c.parts[0].text).toBe(typed);
          expect({ ...c, text: undefined, parts: undefined }).toEqual({ ...was, text: undefined, parts: undefined });
        });
        const v = opened.codec.view(parseDocumentText(out, NAME).doc.conversations[0].records[at]);
        expect(typed === '' ? v.parts.length === 0 : v.parts.some((p) => 'text' in p && p.text === typed)).toBe(true);
      }),
      { numRuns: 80, seed: 47 },
    );
  });
});
