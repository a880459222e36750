import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grokExport } from '../../src/core/formats/grok/codec.js';
import { parseDocumentText, serializeDocument } from '../../src/core/formats/document-file.js';
import { codecById } from '../../src/core/formats/registry.js';
import { forksOf, pathTo } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';
import type { Loose } from '../support/loose.js';

const NAME = 'prod-grok-backend.json';
const TEXT = readFileSync(join(FIXTURES, 'formats', 'grok', NAME), 'utf8');
const tail = (r: unknown) => String((r as Loose)._id ?? (r as Loose).response_id).slice(-2);

describe('a Grok export', () => {
  const opened = parseDocumentText(TEXT, NAME);
  const [c0, c1] = opened.doc.conversations;

  it('is recognised: each conversation its responses, the human’s and the model’s (whatever the sender says)', () => {
    expect(opened.codec.id).toBe('grok-export');
    expect(opened.doc.conversations.map((c) => [c.title, c.records.length, c.meta?.sessionId])).toEqual([
      ['Rome in two days', 5, '4b7e2a91-3c5d-4f60-8a1b-2c3d4e5f6a70'],
      ['Haiku about the sea', 4, '7d8e9fa0-b1c2-4d3e-8f4a-5b6c7d8e9f01'],
    ]);
    const views = c0.records.map((r) => opened.codec.view(r));
    expect(views.map((v) => [v.role, v.normalRole])).toEqual([['human', 'user'], ['ASSISTANT', 'assistant'], ['ASSISTANT', 'assistant'], ['human', 'user'], ['ASSISTANT', 'assistant']]);
    expect(views[2]).toMatchObject({ model: 'grok-4', timestamp: '2025-11-30T10:54:21.000Z', id: 'a0c1e2f3-0003-4000-8000-000000000003' });
    expect(views[2].parts.map((p) => p.kind)).toEqual(['reasoning', 'text']);
    expect(views[1].parts).toEqual([{ kind: 'text', text: 'Day 1: the Colosseum, the Forum and the Palatine. Day 2: the Vatican Museums and St Peter’s.' }]);
  });

  it('the path ends at the newest leaf; the regenerated answer is a fork', () => {
    const tree = grokExport.tree!(opened.doc, 0, c0.records);
    const path = pathTo(tree, tree.active);
    expect(path.map((i) => tail(c0.records[i]))).toEqual(['01', '03', '04', '05']);
    expect(forksOf(tree, path).map((f) => [f.at, f.options.map((i) => tail(c0.records[i])), f.chosen])).toEqual([[1, ['02', '03'], 1]]);
  });

  it('conversation.leaf_response_id, when it names a response, is where the path ends', () => {
    const text = TEXT.replace('"leaf_response_id": null', '"leaf_response_id": "a0c1e2f3-0002-4000-8000-000000000002"');
    const doc = parseDocumentText(text, NAME).doc;
    const tree = grokExport.tree!(doc, 0, doc.conversations[0].records);
    expect(pathTo(tree, tree.active).map((i) => tail(doc.conversations[0].records[i]))).toEqual(['01', '02']);
  });

  it('an older export: response_id, ISO times, a response without parent_response_id following the one before; attachments', () => {
    const tree = grokExport.tree!(opened.doc, 1, c1.records);
    expect([...tree.parent]).toEqual([-1, 0, 1, 2]);
    const views = c1.records.map((r) => opened.codec.view(r));
    expect(views[0].parts).toEqual([{ kind: 'text', text: 'Write a haiku about the sea, in the mood of this photo.' }, { kind: 'file', ref: '5f4e3d2c-1b0a-4988-8776-655443322110' }]);
    expect(views[1]).toMatchObject({ model: 'grok-3', timestamp: '2025-06-02T08:15:07.000Z' });
    expect(views[3].parts[1]).toEqual({ kind: 'image', ref: 'users/e1d2c3b4-a5f6-4789-9abc-def012345678/generated/0d9c8b7a-6f5e-4d3c-2b1a-098765432100/image.jpg' });
    // An image answer with no words is its image, not an empty message.
    expect(grokExport.view({ _id: 'x', sender: 'assistant', message: '', generated_image_urls: ['a.jpg'] }).parts).toEqual([{ kind: 'image', ref: 'a.jpg' }]);
  });

  it('is written back byte for byte when untouched', () => {
    expect(serializeDocument(opened.codec, opened.doc, opened.doc.conversations.map((c) => c.records))).toBe(TEXT);
    expect(grokExport.validate!(opened.doc)).toEqual([]);
  });

  it('a deleted prompt’s answer hangs from the prompt’s parent; a new response follows the one before it, in a wrapper of its own', () => {
    const records = c0.records.filter((r) => tail(r) !== '04');
    const added = opened.codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'And a third day?' }] }, records[3]) as Loose;
    expect(added).toMatchObject({ conversation_id: '4b7e2a91-3c5d-4f60-8a1b-2c3d4e5f6a70', sender: 'human', parent_response_id: null, create_time: { $date: { $numberLong: expect.stringMatching(/^\d+$/) } } });
    const text = serializeDocument(opened.codec, opened.doc, [[...records, added], c1.records]);
    const back = JSON.parse(text) as Loose;
    const responses = back.conversations[0].responses as Loose[];
    expect(responses.map((w) => w.response.parent_response_id)).toEqual([null, 'a0c1e2f3-0001-4000-8000-000000000001', 'a0c1e2f3-0001-4000-8000-000000000001', 'a0c1e2f3-0003-4000-8000-000000000003', 'a0c1e2f3-0005-4000-8000-000000000005']);
    expect(responses[3].share_link).toEqual({ share_id: 'c2hhcmUtcm9tZQ', created: '2025-11-30T11:05:00.000Z' });
    expect(Object.keys(responses[4])).toEqual(['response']);
    expect(back.conversations[1]).toEqual((JSON.parse(TEXT) as Loose).conversations[1]);
    expect(grokExport.validate!(parseDocumentText(text, NAME).doc)).toEqual([]);
    // A copy gets an id of its own under the conversation's key.
    const copy = grokExport.freshIds!(c1.records[0]) as Loose;
    expect(copy.response_id).not.toBe((c1.records[0] as Loose).response_id);
    expect(copy._id).toBeUndefined();
  });

  it('does not take other formats’ files', () => {
    const grok = codecById('grok-export')!;
    for (const name of ['chatgpt/conversations.json', 'claude-ai/conversations.json', 'openai/chat.json', 'gemini/session-2026-11-30T10-00-3f2a1b9c.json', 'open-webui/chat-export-1764670000.json']) {
      const text = readFileSync(join(FIXTURES, 'formats', name), 'utf8');
      expect(grok.sniff(text.slice(0, 65536), name), name).toBe(0);
      expect(parseDocumentText(text, name).codec.id, name).not.toBe('grok-export');
    }
  });

  it('an edit with edge-biased text reads back by JSON.parse with that text, every other value as it was (property)', () => {
    const all = opened.doc.conversations.flatMap((c, ci) => c.records.map((_, k) => [ci, k] as const));
    const original = JSON.parse(TEXT) as Loose;
    fc.assert(
      fc.property(fc.nat(all.length - 1), edgeString.filter((s) => !s.includes('\u0000')), (pick, typed) => {
        const [ci, k] = all[pick];
        const edited = opened.codec.withText(opened.doc.conversations[ci].records[k], typed);
        fc.pre(edited !== undefined);
        const out = serializeDocument(opened.codec, opened.doc, opened.doc.conversations.map((c, i) => c.records.map((r, j) => (i === ci && j === k ? edited : r))));
        const back = JSON.parse(out) as Loose;
        expect({ ...back, conversations: undefined }).toEqual({ ...original, conversations: undefined });
        back.conversations.forEach((c: Loose, i: number) => {
          if (i !== ci) return expect(c).toEqual(original.conversations[i]);
          expect(c.conversation).toEqual(original.conversations[i].conversation);
          c.responses.forEach((w: Loose, j: number) => {
            const was = original.conversations[i].responses[j];
            if (j !== k) return expect(w).toEqual(was);
            expect(w.response.message).toBe(typed);
            expect({ ...w, response: { ...w.response, message: undefined } }).toEqual({ ...was, response: { ...was.response, message: undefined } });
          });
        });
        const again = parseDocumentText(out, NAME);
        expect(again.codec.view(again.doc.conversations[ci].records[k]).parts.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text).join('')).toBe(typed);
      }),
      { numRuns: 80, seed: 43 },
    );
  });
});
