import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alignSequences, callGroups, compareSessions, compareSide, wordDiff, wordPieces, type CompareMessage } from '../../src/core/compare/index.js';
import { parseDocumentText } from '../../src/core/formats/document-file.js';
import { threadPath } from '../../src/core/tree/thread-paths.js';
import { newestLeafUnder } from '../../src/core/tree/message-tree.js';
import { FIXTURES } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

/** Texts at the edges: white space at both ends, CR and CRLF, tabs, unicode separators, astral characters, empty, huge. */
const edgeText = fc.oneof(
  { weight: 3, arbitrary: fc.lorem({ maxCount: 12 }) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(' ', '\t', '\r\n', '\n', '\u2028', '\u00a0', ''), fc.lorem({ maxCount: 6 }), fc.constantFrom(' ', '\r\n', '\r', '\t\t', '')).map(([a, b, c]) => `${a}${b.replace(/ /g, '\r\n')}${c}`) },
  { weight: 2, arbitrary: edgeString },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '😀𝕏🧪', '\r\n', ' \t ') },
  { weight: 1, arbitrary: fc.lorem({ maxCount: 30 }).map((t) => t.repeat(2000)) },
);
const role = fc.constantFrom('user', 'assistant', 'tool', 'system');
const message = fc.record({ normalRole: role, text: edgeText, tokens: fc.nat(5000) }).map((m): CompareMessage => ({ ...m, role: m.normalRole, prompt: m.normalRole === 'user' }));
const messages = fc.array(message, { maxLength: 25 });

const kinds = (left: CompareMessage[], right: CompareMessage[]) => compareSessions(left, right).rows.map((r) => r.kind);

describe('compareSessions (property)', () => {
  it('aligns identical sessions fully: every row the same, no difference, nothing to add up', () => {
    fc.assert(
      fc.property(messages, (ms) => {
        const c = compareSessions(ms, ms.map((m) => ({ ...m })));
        expect(c.rows.every((r, i) => r.kind === 'same' && r.left === i && r.right === i)).toBe(true);
        expect(c.differences).toEqual([]);
        expect(c.delta.tokens).toBe(0);
        expect(c.rows.length).toBe(ms.length);
      }),
      { numRuns: 150 },
    );
  });

  it('finds a message put in as an insertion where it was put, and one taken out as a deletion', () => {
    fc.assert(
      fc.property(messages, message, fc.nat(), (ms, extra, at) => {
        // A message no other has (its text marked), so that the insertion is not ambiguous.
        const added = { ...extra, text: `${extra.text}\u0000inserted` };
        const k = at % (ms.length + 1);
        const longer = [...ms.slice(0, k), added, ...ms.slice(k)];
        const ins = compareSessions(ms, longer);
        expect(ins.rows.filter((r) => r.kind !== 'same')).toEqual([expect.objectContaining({ kind: 'only-right', right: k })]);
        expect(ins.counts.same).toBe(ms.length);
        expect(ins.delta.tokens).toBe(added.tokens);
        expect(ins.differences).toHaveLength(1);
        const del = compareSessions(longer, ms);
        expect(del.rows.filter((r) => r.kind !== 'same')).toEqual([expect.objectContaining({ kind: 'only-left', left: k })]);
        expect(del.delta.tokens + added.tokens).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps every message of both sides once, in order, whatever the two are', () => {
    fc.assert(
      fc.property(messages, messages, (a, b) => {
        const c = compareSessions(a, b);
        expect(c.rows.flatMap((r) => (r.left === undefined ? [] : [r.left]))).toEqual(a.map((_, i) => i));
        expect(c.rows.flatMap((r) => (r.right === undefined ? [] : [r.right]))).toEqual(b.map((_, i) => i));
        for (const r of c.rows) {
          if (r.kind === 'same') expect(a[r.left!].text).toBe(b[r.right!].text);
          if (r.kind === 'changed') expect(a[r.left!].normalRole).toBe(b[r.right!].normalRole);
        }
        // The turns cover the rows, and add up to the totals.
        expect(c.turns.reduce((n, t) => n + t.end - t.start, 0)).toBe(c.rows.length);
        expect(c.turns.reduce((n, t) => n + t.right.tokens - t.left.tokens, 0)).toBe(c.delta.tokens);
      }),
      { numRuns: 150 },
    );
  });

  it('shows a message edited as one changed row, with the changed words marked', () => {
    const base = (text: string, r = 'user'): CompareMessage => ({ role: r, normalRole: r, text, tokens: text.length, prompt: r === 'user' });
    const a = [base('Fix the cart total.'), base('Reading the cart code now.', 'assistant')];
    const b = [base('Fix the cart total please.'), base('Reading the cart code now.', 'assistant')];
    const c = compareSessions(a, b);
    expect(kinds(a, b)).toEqual(['changed', 'same']);
    const words = c.rows[0].words!;
    expect(words.left).toEqual([]);
    expect(words.right.map(([s, e]) => b[0].text.slice(s, e))).toEqual([' please']);
    expect(c.turns).toHaveLength(1);
  });

  it('begins a turn after each reply of the model: a call is what was sent since the last reply, and the reply', () => {
    const m = (r: string, text: string): CompareMessage => ({ role: r, normalRole: r, text, tokens: 1, prompt: r === 'user' });
    const s = [m('user', 'go'), m('assistant', 'call a tool'), m('tool', 'result'), m('assistant', 'done'), m('user', 'thanks')];
    expect(compareSessions(s, s).turns.map((t) => [t.start, t.end])).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
  });

  it('compares two sessions of 20,000 messages each in another order without a quadratic wait', () => {
    const n = 20_000;
    const mk = (i: number): CompareMessage => ({ role: 'user', normalRole: 'user', text: `message ${i}`, tokens: 1, prompt: true });
    const a = Array.from({ length: n }, (_, i) => mk(i));
    const b = Array.from({ length: n }, (_, i) => mk((i * 7919) % n));
    const c = compareSessions(a, b, { words: false });
    expect(c.rows.filter((r) => r.left !== undefined)).toHaveLength(n);
    expect(c.rows.filter((r) => r.right !== undefined)).toHaveLength(n);
  });
});

describe('wordDiff and wordPieces (property)', () => {
  it('give back both texts whole, mark nothing in equal texts, and never cut an astral character in two', () => {
    fc.assert(
      fc.property(edgeText, edgeText, (a, b) => {
        const pieces = wordPieces(a, b);
        expect(pieces.filter((p) => p.op !== 'added').map((p) => p.text).join('')).toBe(a);
        expect(pieces.filter((p) => p.op !== 'removed').map((p) => p.text).join('')).toBe(b);
        const d = wordDiff(a, b);
        if (a === b) expect(d).toEqual({ left: [], right: [], whitespaceOnly: false });
        const lowSurrogate = (t: string, i: number) => i > 0 && i < t.length && /[\udc00-\udfff]/.test(t[i]) && /[\ud800-\udbff]/.test(t[i - 1]);
        for (const [s, e] of d.left) expect(lowSurrogate(a, s) || lowSurrogate(a, e)).toBe(false);
        for (const [s, e] of d.right) expect(lowSurrogate(b, s) || lowSurrogate(b, e)).toBe(false);
        // Outside the marked ranges the two say the same words.
        const outside = (t: string, ranges: Array<[number, number]>) => {
          let out = '';
          let at = 0;
          for (const [s, e] of ranges) {
            out += t.slice(at, s);
            at = e;
          }
          return (out + t.slice(at)).replace(/\s+/gu, '');
        };
        expect(outside(a, d.left)).toBe(outside(b, d.right));
        if (d.whitespaceOnly) expect(a.replace(/\s+/gu, '')).toBe(b.replace(/\s+/gu, ''));
      }),
      { numRuns: 150 },
    );
  });

  it('says a change of line endings or of white space at the ends is white space only', () => {
    expect(wordDiff('one two\nthree', 'one two\r\nthree').whitespaceOnly).toBe(true);
    expect(wordDiff('  padded ', 'padded').whitespaceOnly).toBe(true);
    expect(wordDiff('one 😀 two', 'one 😃 two')).toEqual({ left: [[4, 6]], right: [[4, 6]], whitespaceOnly: false });
  });
});

describe('alignSequences', () => {
  it('is a longest common subsequence on small inputs (checked against the textbook table)', () => {
    const lcs = (a: number[], b: number[]) => {
      const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) t[i][j] = a[i - 1] === b[j - 1] ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
      return t[a.length][b.length];
    };
    fc.assert(
      fc.property(fc.array(fc.nat(4), { maxLength: 30 }), fc.array(fc.nat(4), { maxLength: 30 }), (a, b) => {
        const runs = alignSequences(a, b);
        for (const r of runs) for (let k = 0; k < r.length; k++) expect(a[r.a + k]).toBe(b[r.b + k]);
        expect(runs.reduce((n, r) => n + r.length, 0)).toBe(lcs(a, b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('compareSide on a Claude Code session with a rewind', () => {
  const text = readFileSync(join(FIXTURES, 'formats/claude-code/cart-rewind-compact.jsonl'), 'utf8');
  const file = parseDocumentText(text, 'cart-rewind-compact.jsonl');
  const records = file.doc.conversations[0].records;
  const tree = file.codec.tree!(file.doc, 0, records);
  const uuid = (r: unknown) => (r as { uuid?: string }).uuid;
  const viewsOf = (path: number[]) => path.map((i) => file.codec.view(records[i]));
  const main = threadPath(tree, 'main').whole;
  const rewound = records.findIndex((r) => uuid(r) === 'a1000000-0000-4000-8000-000000000006');
  const other = threadPath(tree, 'main', newestLeafUnder(tree, rewound)).whole;

  it('makes a response written as several lines (one message.id) one message, priced once at its last line', () => {
    const views = viewsOf(main);
    const groups = callGroups(views);
    const first = groups.find(([s]) => views[s].usage?.key === 'msg_01Cart')!;
    expect(first[1] - first[0]).toBe(2);
    const side = compareSide(views, views.map(() => 10));
    const reply = side.find((m) => m.at === first[0])!;
    expect(reply.lines).toBe(2);
    expect(reply.tokens).toBe(20);
    expect(reply.cost).toBeGreaterThan(0);
    expect(reply.costEstimated).toBeUndefined();
  });

  it('compares the branch the session left with the one it went on with: the shared start the same, then the two ways', () => {
    const a = viewsOf(main);
    const b = viewsOf(other);
    const c = compareSessions(compareSide(a, a.map(() => 5)), compareSide(b, b.map(() => 5)));
    const firstDiff = c.differences[0];
    expect(c.rows.slice(0, firstDiff).every((r) => r.kind === 'same')).toBe(true);
    const leftTexts = c.rows.filter((r) => r.kind === 'only-left' || r.kind === 'changed').map((r) => compareSide(a, [])[r.left!].text);
    const rightTexts = c.rows.filter((r) => r.kind === 'only-right' || r.kind === 'changed').map((r) => compareSide(b, [])[r.right!].text);
    expect(leftTexts.join(' ')).toContain('Sum integer cents then');
    expect(rightTexts.join(' ')).toContain('Use a decimal library instead');
    expect(c.delta.cost).toBeDefined();
  });

  it('estimates the cost of a call the file reports no usage for, from the tokens counted, and says so', () => {
    const m = (r: string, text: string, model?: string) => ({ role: r, normalRole: r as 'user', parts: [{ kind: 'text' as const, text }], ...(model ? { model } : {}) });
    const side = compareSide([m('user', 'hello'), m('assistant', 'hi', 'claude-sonnet-4-5')], [1000, 500]);
    expect(side[1].costEstimated).toBe(true);
    // 1,000 in and 500 out at Sonnet 4.5's $3 and $15 a million.
    expect(side[1].cost).toBeCloseTo((1000 * 3 + 500 * 15) / 1e6, 8);
    expect(compareSide([m('user', 'hello'), m('assistant', 'hi')], [1, 1])[1].cost).toBeUndefined();
  });
});
