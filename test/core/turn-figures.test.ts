import { describe, expect, it } from 'vitest';
import type { MessageView, Part } from '../../src/core/formats/model.js';
import { turnFigures } from '../../src/core/turn-figures.js';
import { callsOf } from '../../src/core/usage.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { walkConversationTree } from '../../src/core/storage/list-directory.js';
import { REALFILES } from '../support/realfiles.js';

const turnsOf = (views: MessageView[], eachMessage = false) => turnFigures(views, { eachMessage }).map(({ first, last }) => ({ first, last }));

const text = (t: string): Part => ({ kind: 'text', text: t });
const call = (id: string): Part => ({ kind: 'tool-call', id, name: 'Bash', arguments: '{}' });
const result = (id: string): Part => ({ kind: 'tool-result', callId: id, text: 'ok' });
const v = (normalRole: MessageView['normalRole'], parts: Part[], extra: Partial<MessageView> = {}): MessageView => ({ role: normalRole, normalRole, parts, ...extra });

const SONNET = 'claude-sonnet-4-5-20250929';

describe('turns: one API call each, its lines and the results it waited for', () => {
  it('a model message that holds its calls and their results (Gemini CLI) is a call of its own, its usage in its turn', () => {
    const views = [
      v('assistant', [call('a'), result('a')]),
      v('user', [text('was it done?')]),
      v('assistant', [text('Checking.'), call('b'), result('b')], { usage: { key: 'g1', input: 100, output: 10 }, model: 'gemini-2.5-pro' }),
      v('assistant', [text('Now the status.'), call('c'), result('c')], { usage: { key: 'g2', input: 120, output: 12 }, model: 'gemini-2.5-pro' }),
      v('assistant', [text('Done.')], { usage: { key: 'g3', input: 130, output: 5 }, model: 'gemini-2.5-pro' }),
    ];
    expect(turnsOf(views)).toEqual([
      { first: 0, last: 0 },
      { first: 2, last: 2 },
      { first: 3, last: 3 },
      { first: 4, last: 4 },
    ]);
    const figures = turnFigures(views);
    expect(figures.map((t) => t.estimated)).toEqual([true, false, false, false]);
    expect(figures.slice(1).map((t) => t.output)).toEqual([10, 12, 5]);
  });

  it.skipIf(!REALFILES)('every call a real file reports lies in a turn, of whatever tool (the turn strip adds up to the reported usage)', () => {
    let checked = 0;
    for (const f of walkConversationTree(REALFILES!).files) {
      let opened: ReturnType<typeof readDocumentFile>;
      try {
        opened = readDocumentFile(f.file);
      } catch {
        continue;
      }
      for (const conv of opened.doc.conversations) {
        const views = conv.records.map((r) => opened.codec.view(r));
        const calls = callsOf(views);
        if (calls.length === 0) continue;
        const turns = turnFigures(views);
        const inTurn = (at: number) => turns.some((t) => t.first <= at && at <= t.last);
        expect(calls.filter((c) => !inTurn(c.at)).map((c) => c.at), f.path).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('a response written a line per block (one key) is one turn with its results; the next key begins the next; a prompt belongs to none', () => {
    const views = [
      v('user', [text('why is the total off?')]),
      v('assistant', [text('Looking.')], { usage: { key: 'msg_1', input: 10, output: 5 }, model: SONNET }),
      v('assistant', [call('a')], { usage: { key: 'msg_1', input: 10, output: 40 }, model: SONNET }),
      v('assistant', [call('b')], { usage: { key: 'msg_1', input: 10, output: 90 }, model: SONNET }),
      v('user', [result('a')]),
      v('user', [result('b')]),
      v('assistant', [text('Found it.')], { usage: { key: 'msg_2', input: 200, cacheRead: 150, output: 30 }, model: SONNET }),
      v('user', [text('thanks')]),
    ];
    expect(turnsOf(views)).toEqual([
      { first: 1, last: 5 },
      { first: 6, last: 6 },
    ]);
    const figures = turnFigures(views);
    // Each call once, from its last line: 90 out, not 5 + 40 + 90.
    expect(figures[0]).toMatchObject({ first: 1, last: 5, input: 10, output: 90, estimated: false, model: SONNET });
    expect(figures[1]).toMatchObject({ input: 200, cacheRead: 150, output: 30, estimated: false });
    // Sonnet 4.5 at $3 in, $0.30 cache reads, $15 out per million.
    expect(figures[1].usd).toBeCloseTo((50 * 3 + 150 * 0.3 + 30 * 15) / 1e6, 10);
  });

  it('without call keys, a model message after a result is the next call; two lines of one response before any result are one', () => {
    const views = [v('system', [text('be brief')]), v('user', [text('q')]), v('assistant', [{ kind: 'reasoning', text: 'hm' }]), v('assistant', [call('x')]), v('tool', [result('x')]), v('assistant', [text('done')]), v('user', [text('more')]), v('assistant', [text('ok')])];
    expect(turnsOf(views)).toEqual([
      { first: 2, last: 4 },
      { first: 5, last: 5 },
      { first: 7, last: 7 },
    ]);
  });

  it('the swarms formats write one message per call: each model message is a turn, agents read as speaking for the model too', () => {
    const views = [v('user', [text('topic')]), v('assistant', [text('yes')], { role: 'Pro' }), v('assistant', [text('no')], { role: 'Con' }), v('assistant', [text('Judge: yes')])];
    expect(turnsOf(views, true)).toHaveLength(3);
    expect(turnsOf(views, false)).toHaveLength(1);
  });

  it('a turn the file reports nothing of is estimated from the counts: input what came before it since the last compaction, output its own lines', () => {
    const views = [
      v('user', [text('q1')]),
      v('assistant', [call('x')]),
      v('tool', [result('x')]),
      v('assistant', [text('a1')]),
      v('user', [text('summary')], { compaction: { preTokens: 5000 } }),
      v('user', [text('q2')]),
      v('assistant', [text('a2')]),
    ];
    const tokens = [100, 20, 300, 40, 50, 7, 9];
    const figures = turnFigures(views, { tokens, model: SONNET });
    expect(figures.map((f) => [f.first, f.input, f.output, f.estimated])).toEqual([
      [1, 100, 20, true],
      [3, 420, 40, true],
      // After the compaction: the summary and the prompt, not what it replaced.
      [6, 57, 9, true],
    ]);
    expect(figures[2].usd).toBeCloseTo((57 * 3 + 9 * 15) / 1e6, 12);
    expect(figures[0].model).toBe(SONNET);
    // Without counts, an estimated turn says nothing rather than 0.
    expect(turnFigures(views)[0]).toEqual({ first: 1, last: 2, model: undefined, estimated: true });
  });

  it('a turn the file reports nothing of after one it reports: the prompt that call was sent counts as read from the cache, until a compaction', () => {
    const views = [
      v('user', [text('q1')]),
      v('assistant', [text('a1')], { usage: { key: 'r1', input: 1000, cacheRead: 800, output: 50 }, model: SONNET }),
      v('user', [text('q2')]),
      v('assistant', [text('a2, cut off')]),
      v('user', [text('summary')], { compaction: { preTokens: 5000 } }),
      v('user', [text('q3')]),
      v('assistant', [text('a3')]),
    ];
    const tokens = [900, 60, 400, 30, 50, 7, 9];
    const figures = turnFigures(views, { tokens, model: SONNET });
    // 1,360 counted before it; 1,000 of them the last reported call's prompt.
    expect(figures[1]).toMatchObject({ input: 1360, cacheRead: 1000, output: 30, estimated: true });
    expect(figures[1].usd).toBeCloseTo((360 * 3 + 1000 * 0.3 + 30 * 15) / 1e6, 12);
    // After the compaction nothing is cached.
    expect(figures[2]).toMatchObject({ input: 57, output: 9, estimated: true });
    expect(figures[2].cacheRead).toBeUndefined();
  });

  it('a model without a price has no cost, not $0', () => {
    const views = [v('user', [text('q')]), v('assistant', [text('a')], { usage: { input: 10, output: 2 }, model: 'no-such-model-7' })];
    expect(turnFigures(views)[0]).toMatchObject({ input: 10, output: 2, usd: undefined, estimated: false });
  });

  it('an estimated turn named by a router, no model (Gemini CLI\'s auto-gemini-3), is priced at the session\'s model, as the transcript prices it', () => {
    const views = [v('user', [text('q')]), v('assistant', [text('a')], { model: 'auto-gemini-3' })];
    const [routed] = turnFigures(views, { tokens: [100, 20], model: 'gemini-2.5-pro' });
    const [own] = turnFigures([views[0], { ...views[1], model: 'gemini-2.5-pro' }], { tokens: [100, 20] });
    expect(routed).toMatchObject({ input: 100, output: 20, model: 'gemini-2.5-pro', estimated: true });
    expect(routed.usd).toBeGreaterThan(0);
    expect(routed.usd).toBe(own.usd);
    // A turn's own priced model stays its own; with no session model, the router's name is kept (and no price).
    expect(turnFigures([views[0], { ...views[1], model: SONNET }], { tokens: [100, 20], model: 'gemini-2.5-pro' })[0].model).toBe(SONNET);
    expect(turnFigures(views, { tokens: [100, 20] })[0]).toMatchObject({ model: 'auto-gemini-3', usd: undefined });
  });
});
