import fc from 'fast-check';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import {
  buildSegment,
  comparePaths,
  Dictionary,
  firstRegexMatch,
  firstTermMatch,
  matcherOf,
  MAX_WORD,
  queryTerms,
  readableSnippet,
  searchableMessages,
  SearchIndex,
  searchDocument,
  snippetAround,
  textMatches,
  wordsOf,
  type IndexHit,
  type IndexQuery,
  type KeptIndex,
  type SearchableMessage,
  type SegmentSource,
} from '../../src/core/search/index.js';
import { FIXTURES, SWARMS } from '../helpers.js';
import { EDGE_ATOMS, edgeString } from '../support/edge-arbitraries.js';

// ---------------------------------------------------------------------------------------------------------
// Generators: texts made of edge strings and words of a small vocabulary (so that queries hit), joined by
// every kind of separator; files of conversations of such messages.

/** Words queries are made from: mixed case, accents, astral letters, CJK, numbers, Greek sigmas, İ. */
const VOCAB = [
  'alpha', 'alphabet', 'Alpine', 'ALPS', 'beta', 'betamax', 'get_weather', 'Tokyo', 'tokyo.', 'straße', 'STRASSE', 'Ünïcode',
  '𝔘𝔫𝔦code', '😀smile', '中文字', '12', '3.14', 'x', 'naïve', 'e\u0301clair', 'İstanbul', 'ΟΔΟΣ', 'ΑΣ', 'Σ', 'οδός', 'ſtraße', 'aϐc', 'x\u0345y', 'x'.repeat(70),
];
const SEPARATORS = [' ', '  ', '\n', '\r\n', '\r', '\t', '\u2028', '\u2029', '\u3000', '\xa0', '-', '.', "'", '/', ': ', ''];
const ROLES = ['system', 'user', 'assistant', 'tool', 'other', 'System: '];
const PATHS = ['run2/a.json', 'run10/a.json', 'Run2/a.json', 'run1/b.jsonl', 'B.json', 'a/b/c.yaml', 'é.json', 'z.jsonl', 'a b/ü.json'];
const FORMATS = ['swarms-json', 'claude-code', 'sharegpt-jsonl'];

const textArb: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...VOCAB) }, { weight: 2, arbitrary: edgeString }), fc.constantFrom(...SEPARATORS)), { maxLength: 10 })
  .map((parts) => parts.map(([a, b]) => a + b).join(''));

interface Msg {
  role: string;
  text: string;
}
interface FileSpec {
  path: string;
  format: string;
  conversations: Msg[][];
}

const messageArb: fc.Arbitrary<Msg> = fc.record({ role: fc.constantFrom(...ROLES), text: textArb });
const conversationsArb: fc.Arbitrary<Msg[][]> = fc.array(fc.array(messageArb, { maxLength: 6 }), { maxLength: 3 });
const fileArb: fc.Arbitrary<FileSpec> = fc.record({ path: fc.constantFrom(...PATHS), format: fc.constantFrom(...FORMATS), conversations: conversationsArb });
const filesArb = fc.uniqueArray(fileArb, { selector: (f) => f.path, maxLength: 6 });

// ---------------------------------------------------------------------------------------------------------
// The model: a brute-force scan with textMatches over the same messages.

function messagesOf(f: FileSpec): SearchableMessage[] {
  return f.conversations.flatMap((c, conversation) => c.map((m, index) => ({ conversation, index, role: m.role, text: m.text })));
}

function sourceOf(f: FileSpec, stamp = 1): SegmentSource {
  return { path: f.path, format: f.format, size: stamp, mtimeMs: stamp, messages: messagesOf(f), conversationSizes: f.conversations.map((c) => c.length) };
}

function put(index: SearchIndex, f: FileSpec, stamp = 1): void {
  index.put(buildSegment(sourceOf(f, stamp), index.dictionary, index.roleCode));
}

function indexOf(files: readonly FileSpec[]): SearchIndex {
  const index = new SearchIndex();
  for (const f of files) put(index, f);
  return index;
}

function bruteForce(files: readonly FileSpec[], q: IndexQuery): IndexHit[] {
  const roles = q.roles?.length ? new Set(q.roles) : undefined;
  const formats = q.formats?.length ? new Set(q.formats) : undefined;
  const out: IndexHit[] = [];
  for (const f of [...files].sort((a, b) => comparePaths(a.path, b.path))) {
    if (formats && !formats.has(f.format)) continue;
    for (const m of messagesOf(f)) {
      if (roles && !roles.has(m.role)) continue;
      if (textMatches(m.text, q.terms)) out.push({ path: f.path, format: f.format, conversation: m.conversation, index: m.index, role: m.role });
    }
  }
  return out;
}

const LIMIT_ALL = 1_000_000;

function expectAnswer(index: SearchIndex, files: readonly FileSpec[], q: IndexQuery): void {
  const expected = bruteForce(files, q);
  const answer = index.query(q);
  expect(answer.hits).toEqual(expected.slice(0, q.limit ?? 500));
  expect(answer.total).toBe(expected.length);
  expect(answer.files).toBe(new Set(expected.map((h) => h.path)).size);
}

/** Queries for these files: prefixes of words they hold (one, several, upper-cased), words they do not, odd ones. */
function queriesFor(g: fc.GeneratorValue, files: readonly FileSpec[]): Array<{ query: string; from?: { path: string; conversation: number; index: number } }> {
  const sources = files.flatMap((f) => messagesOf(f).map((m) => ({ path: f.path, m, words: wordsOf(m.text) }))).filter((s) => s.words.length > 0);
  // Cut between characters, not inside a surrogate pair (half of one is no character a user types).
  const prefix = (w: string) => [...w].slice(0, g(fc.integer, { min: 1, max: [...w].length })).join('');
  const anyWord = () => {
    if (sources.length === 0) return 'alpha';
    const s = g(fc.constantFrom, ...sources);
    return g(fc.constantFrom, ...s.words);
  };
  const out: Array<{ query: string; from?: { path: string; conversation: number; index: number } }> = [];
  for (let i = 0; i < 3 && sources.length > 0; i++) {
    const s = g(fc.constantFrom, ...sources);
    // A prefix of a word of this message: the message must be among the hits.
    out.push({ query: prefix(g(fc.constantFrom, ...s.words)), from: { path: s.path, conversation: s.m.conversation, index: s.m.index } });
  }
  out.push({ query: `${prefix(anyWord())} ${prefix(anyWord())}` });
  out.push({ query: [prefix(anyWord()), prefix(anyWord()), prefix(anyWord())].join(g(fc.constantFrom, '-', ', ', '\n', '\t', '\u3000')) });
  out.push({ query: prefix(anyWord()).toUpperCase() });
  out.push({ query: `  ${prefix(anyWord()).toUpperCase()}\r\n${prefix(anyWord())}  ` });
  out.push({ query: 'qqzzyxnowhere' });
  out.push({ query: `${prefix(anyWord())} qqzzyxnowhere` });
  out.push({ query: g(fc.constantFrom, '😀', '𝔘𝔫', '𝔘𝔫𝔦CODE', 'ünï', 'STRASSE', 'straß', 'ΟΔΟΣ', 'οδος', 'ας', 'İst', 'istan', 'éclair', 'e\u0301', '中文', '3', '3.1', 'x'.repeat(80)) });
  out.push({ query: g(() => edgeString) });
  return out;
}

const filtersArb = fc.record({
  roles: fc.subarray([...ROLES, 'nobody']),
  formats: fc.subarray([...FORMATS, 'openai-chat']),
  limit: fc.oneof(fc.constant(LIMIT_ALL), fc.integer({ min: 0, max: 4 }), fc.constant(undefined)),
});

// ---------------------------------------------------------------------------------------------------------

/** Lowercased with the Greek and long-s forms folded, written out apart from the code under test. */
const referenceFold = (text: string): string =>
  text.toLowerCase().replace(/ς/g, 'σ').replace(/ſ/g, 's').replace(/ϐ/g, 'β').replace(/ϑ/g, 'θ').replace(/ϕ/g, 'φ').replace(/ϖ/g, 'π').replace(/ϰ/g, 'κ').replace(/ϱ/g, 'ρ').replace(/ϵ/g, 'ε').replace(/ẛ/g, 'ṡ').replace(/[\u0345\u1fbe]/g, 'ι');

describe('words', () => {
  /**
   * An independent reading of the rule: runs of letters, digits and marks (astral ones too; an emoji or a lone
   * surrogate half separates), lowercased with the Greek and long-s forms folded, cut.
   */
  const reference = (text: string): string[] => {
    const lower = referenceFold(text);
    const out: string[] = [];
    let word = '';
    // By code point: a well-formed pair is one character; a lone half is its own and no letter.
    for (const ch of lower + ' ') {
      // A Chinese or Japanese character is a word of its own.
      const alone = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u.test(ch);
      if (/^[\p{L}\p{N}\p{M}]$/u.test(ch) && !alone) word += ch;
      else {
        if (word) out.push(word.slice(0, MAX_WORD));
        word = '';
        if (alone) out.push(ch);
      }
    }
    return out;
  };

  it('wordsOf is the runs of word characters, lowercased and cut to MAX_WORD (property)', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        expect(wordsOf(text)).toEqual(reference(text));
      }),
      { numRuns: 500 },
    );
  });

  it('matches prefixes of words in any case, every term, never parts inside a word', () => {
    const t = 'Hello World, get_weather("Tokyo") 3.14 😀smile';
    expect(textMatches(t, queryTerms('wor'))).toBe(true);
    expect(textMatches(t, queryTerms('HEL wor'))).toBe(true);
    expect(textMatches(t, queryTerms('get_wea'))).toBe(true);
    expect(textMatches(t, queryTerms('tokyo 14'))).toBe(true);
    expect(textMatches(t, queryTerms('😀sm'))).toBe(true);
    expect(textMatches(t, queryTerms('orld'))).toBe(false);
    // `_` separates words: a part of a tool's name finds it.
    expect(textMatches(t, queryTerms('weather'))).toBe(true);
    expect(textMatches(t, queryTerms('eather'))).toBe(false);
    expect(textMatches(t, queryTerms('hello planet'))).toBe(false);
    expect(queryTerms('  Foo-BAR foo\r\n')).toEqual(['foo', 'bar']);
    expect(queryTerms('... -- ')).toEqual([]);
    expect(textMatches(t, [])).toBe(false);
  });
});

describe('SearchIndex', () => {
  it('answers exactly what a scan with textMatches answers, in path order, with filters, totals and limits (property)', () => {
    fc.assert(
      fc.property(filesArb, fc.gen(), filtersArb, (files, g, filters) => {
        const index = indexOf(files);
        expect(index.size).toEqual({ files: files.length, messages: files.reduce((n, f) => n + messagesOf(f).length, 0) });
        for (const { query, from } of queriesFor(g, files)) {
          const terms = queryTerms(query);
          expectAnswer(index, files, { terms, limit: LIMIT_ALL });
          if (from) {
            // Independent of the model: the message the word was taken from is found.
            const hits = index.query({ terms, limit: LIMIT_ALL }).hits;
            expect(hits.some((h) => h.path === from.path && h.conversation === from.conversation && h.index === from.index)).toBe(true);
          }
          expectAnswer(index, files, { terms, roles: filters.roles, formats: filters.formats, limit: filters.limit });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a segment holds each message’s distinct words once, terms and postings ascending, roles and conversations in place (property)', () => {
    fc.assert(
      fc.property(filesArb, (files) => {
        const index = indexOf(files);
        const kept = index.export();
        expect(kept.words).toEqual(index.dictionary.all());
        for (const f of files) {
          const seg = kept.segments.find((s) => s.path === f.path)!;
          const messages = messagesOf(f);
          expect(seg.format).toBe(f.format);
          expect([...seg.roles].map((r) => kept.roles[r])).toEqual(messages.map((m) => m.role));
          expect([...seg.convStart]).toEqual(f.conversations.reduce((acc, c) => [...acc, acc[acc.length - 1] + c.length], [0]));
          for (let t = 1; t < seg.terms.length; t++) expect(seg.terms[t]).toBeGreaterThan(seg.terms[t - 1]);
          expect(seg.postStart[0]).toBe(0);
          expect(seg.postStart[seg.terms.length]).toBe(seg.postings.length);
          const wordsAt: Array<Set<string>> = messages.map(() => new Set());
          for (let t = 0; t < seg.terms.length; t++) {
            expect(seg.postStart[t + 1]).toBeGreaterThan(seg.postStart[t]);
            for (let p = seg.postStart[t]; p < seg.postStart[t + 1]; p++) {
              if (p > seg.postStart[t]) expect(seg.postings[p]).toBeGreaterThan(seg.postings[p - 1]);
              wordsAt[seg.postings[p]].add(kept.words[seg.terms[t]]);
            }
          }
          messages.forEach((m, o) => expect(wordsAt[o]).toEqual(new Set(wordsOf(m.text))));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('orders files as people sort them (run2 before run10), then conversation, then index', () => {
    const msg = (text: string): Msg => ({ role: 'user', text });
    const files: FileSpec[] = [
      { path: 'run10/a.json', format: 'swarms-json', conversations: [[msg('tokyo')]] },
      { path: 'run2/a.json', format: 'swarms-json', conversations: [[msg('no'), msg('Tokyo')], [], [msg('TOKYO!'), msg('tok')]] },
      { path: 'b.json', format: 'swarms-json', conversations: [[msg('x tokyo')]] },
    ];
    const hits = indexOf(files).query({ terms: queryTerms('TOK') }).hits.map((h) => `${h.path}#${h.conversation}:${h.index}`);
    expect(hits).toEqual(['b.json#0:0', 'run2/a.json#0:1', 'run2/a.json#2:0', 'run2/a.json#2:1', 'run10/a.json#0:0']);
  });

  it('put with the same path replaces the file, and remove forgets it, as a fresh index would (property)', () => {
    const op = fc.oneof(
      { weight: 3, arbitrary: fileArb.map((file) => ({ kind: 'put' as const, file })) },
      { weight: 1, arbitrary: fc.constantFrom(...PATHS).map((path) => ({ kind: 'remove' as const, path })) },
    );
    fc.assert(
      fc.property(filesArb, fc.array(op, { minLength: 1, maxLength: 8 }), fc.gen(), (initial, ops, g) => {
        const index = indexOf(initial);
        const model = new Map(initial.map((f) => [f.path, f]));
        let stamp = 1;
        for (const o of ops) {
          if (o.kind === 'put') {
            put(index, o.file, ++stamp);
            model.set(o.file.path, o.file);
            expect(index.has(o.file.path, stamp, stamp)).toBe(true);
            expect(index.has(o.file.path, stamp - 1, stamp - 1)).toBe(false);
          } else {
            expect(index.remove(o.path)).toBe(model.delete(o.path));
            expect(index.has(o.path, 1, 1)).toBe(false);
          }
          const files = [...model.values()];
          expect(index.paths().sort()).toEqual([...model.keys()].sort());
          const fresh = indexOf(files);
          for (const { query } of queriesFor(g, files)) {
            const q = { terms: queryTerms(query), limit: LIMIT_ALL };
            expect(index.query(q)).toEqual(fresh.query(q));
            expectAnswer(index, files, q);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('an exported index, restored (also after v8 serialize/deserialize), answers the same and keeps taking files (property)', () => {
    fc.assert(
      fc.property(filesArb, fileArb, fc.gen(), filtersArb, (files, extra, g, filters) => {
        const index = indexOf(files);
        const kept = index.export();
        const restored = SearchIndex.from(kept);
        const revived = SearchIndex.from(deserialize(serialize(kept)) as KeptIndex);
        const queries = queriesFor(g, files);
        for (const { query } of queries) {
          const q = { terms: queryTerms(query), roles: filters.roles, formats: filters.formats, limit: filters.limit };
          const want = index.query(q);
          expect(restored.query(q)).toEqual(want);
          expect(revived.query(q)).toEqual(want);
        }
        // Restored word ids and role codes are the ones the kept segments use: new files mix with old ones.
        const all = [...files.filter((f) => f.path !== extra.path), extra];
        put(revived, extra, 2);
        for (const { query } of [...queries, ...queriesFor(g, all)]) expectAnswer(revived, all, { terms: queryTerms(query), roles: filters.roles, limit: LIMIT_ALL });
        expect(revived.roles.slice(0, index.roles.length)).toEqual(index.roles);
      }),
      { numRuns: 150 },
    );
  });

  it('a kept index survives v8 with its typed arrays intact', () => {
    const index = indexOf([{ path: 'a.json', format: 'swarms-json', conversations: [[{ role: 'user', text: 'hello tokyo' }, { role: 'tool', text: 'get_weather' }]] }]);
    const revived = deserialize(serialize(index.export())) as KeptIndex;
    expect(revived.segments[0].terms).toBeInstanceOf(Uint32Array);
    expect(revived.segments[0].roles).toBeInstanceOf(Uint8Array);
    expect(SearchIndex.from(revived).query({ terms: ['get'] }).hits).toEqual([{ path: 'a.json', format: 'swarms-json', conversation: 0, index: 1, role: 'tool' }]);
  });

  it('finds nothing for no terms, and a term no file holds empties the answer', () => {
    const index = indexOf([{ path: 'a.json', format: 'swarms-json', conversations: [[{ role: 'user', text: 'alpha beta' }]] }]);
    expect(index.query({ terms: [] })).toEqual({ hits: [], total: 0, files: 0, atLeast: false, fileTotals: {} });
    expect(index.query({ terms: ['alpha', 'gamma'] })).toEqual({ hits: [], total: 0, files: 0, atLeast: false, fileTotals: {} });
    expect(index.query({ terms: ['alpha'], roles: ['nobody'] })).toEqual({ hits: [], total: 0, files: 0, atLeast: false, fileTotals: {} });
    expect(index.query({ terms: ['alpha'], limit: 0 })).toEqual({ hits: [], total: 1, files: 1, atLeast: false, fileTotals: {} });
  });

  it('many words and many messages: the one-pass slot lookup and the binary search agree with the scan', () => {
    // A query term with many words under it (a short prefix) takes the mask pass; a rare one the binary search.
    const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
    const files: FileSpec[] = [0, 1, 2].map((f) => ({
      path: `f${f}.json`,
      format: 'swarms-json',
      conversations: [Array.from({ length: 400 }, (_, i) => ({ role: ROLES[i % 5], text: `${words[(i * 7 + f) % 3000]} ${words[(i * 13) % 3000]} common${i % 3}` }))],
    }));
    const index = indexOf(files);
    for (const query of ['w', 'w1', 'w1z', 'common0 w', 'common1 w2', 'w2s common', 'wz', 'comm w1 w2']) {
      expectAnswer(index, files, { terms: queryTerms(query), limit: LIMIT_ALL });
      expectAnswer(index, files, { terms: queryTerms(query), roles: ['user', 'tool'], limit: 10 });
    }
  });
});

describe('Dictionary', () => {
  const wordArb = fc.oneof(
    fc.constantFrom(...VOCAB.map((w) => w.toLowerCase()), 'a', 'ab', 'abc', 'b', ''),
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.constantFrom(...EDGE_ATOMS),
  );

  it('keeps ids stable and withPrefix gives exactly the words starting with the prefix, across batches (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(wordArb, { maxLength: 40 }), { minLength: 1, maxLength: 6 }), fc.gen(), (batches, g) => {
        const dict = new Dictionary();
        const ids = new Map<string, number>();
        for (const batch of batches) {
          for (const w of batch) {
            const id = dict.idOf(w);
            if (ids.has(w)) expect(id).toBe(ids.get(w));
            else {
              expect(id).toBe(ids.size);
              ids.set(w, id);
            }
          }
          expect(dict.size).toBe(ids.size);
          const known = [...ids.keys()];
          const prefixes = ['', 'a', 'zzz', ...known.slice(0, 10).map((w) => w.slice(0, g(fc.integer, { min: 0, max: w.length }))), g(fc.string, { maxLength: 3 })];
          for (const p of prefixes) {
            const got = dict.withPrefix(p);
            const words = got.map((id) => dict.all()[id]);
            expect(words).toEqual(known.filter((w) => w.startsWith(p)).sort());
          }
        }
        for (const [w, id] of ids) {
          expect(dict.all()[id]).toBe(w);
          expect(dict.idOf(w)).toBe(id);
        }
        expect(dict.size).toBe(ids.size);
      }),
      { numRuns: 300 },
    );
  });

  it('past the table growth and through many merges: every word keeps its id, prefixes stay exact', () => {
    const dict = new Dictionary();
    const all: string[] = [];
    for (let batch = 0; batch < 6; batch++) {
      for (let i = 0; i < 1500; i++) {
        const w = `${String.fromCharCode(97 + ((i * 7 + batch) % 26))}${(i * 31 + batch * 1000).toString(36)}`;
        if (!all.includes(w)) all.push(w);
        dict.idOf(w);
      }
      for (const p of ['a', 'b1', 'q', 'z9', 'k0', 'mm']) expect(dict.withPrefix(p).map((id) => dict.all()[id])).toEqual(all.filter((w) => w.startsWith(p)).sort());
    }
    expect(dict.size).toBe(all.length);
    all.forEach((w, id) => expect(dict.idOf(w)).toBe(id));
    expect(dict.withPrefix('').length).toBe(all.length);
  });

  it('scan gives the ids of wordsOf, in order, long words cut as wordsOf cuts them (property)', () => {
    fc.assert(
      fc.property(fc.array(textArb, { minLength: 1, maxLength: 5 }), (texts) => {
        const dict = new Dictionary(['alpha', 'tokyo']);
        for (const text of texts) {
          const scanned: number[] = [];
          dict.scan(text, (id) => scanned.push(id));
          expect(scanned.map((id) => dict.all()[id])).toEqual(wordsOf(text));
          expect(scanned).toEqual(wordsOf(text).map((w) => dict.idOf(w)));
        }
        expect(new Set(dict.all()).size).toBe(dict.size);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------

const BREAK = /[\n\r\u2028\u2029]/;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** Whether a cut at `at` falls between the halves of a surrogate pair. */
const splitsPair = (text: string, at: number) => at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));
function lineAround(text: string, at: number): [number, number] {
  let start = at;
  while (start > 0 && !BREAK.test(text[start - 1])) start--;
  let end = at;
  while (end < text.length && !BREAK.test(text[end])) end++;
  return [start, end];
}

/** The snippet's promises: the line's text around the match, the match at `match`, cut cleanly. */
function checkSnippet(text: string, at: [number, number], width = 160): void {
  const s = snippetAround(text, at, width);
  const [lineStart, lineEnd] = lineAround(text, at[0]);
  // A match longer than the snippet is shown up to its width (never splitting a pair).
  let stop = Math.min(at[1], lineEnd, at[0] + width);
  if (stop < at[1] && stop > at[0] && splitsPair(text, stop)) stop--;
  expect(s.text).not.toMatch(BREAK);
  expect(s.text.slice(s.match[0], s.match[1])).toBe(text.slice(at[0], stop).replace(/\t/g, ' '));
  const head = s.text.startsWith('…') ? 1 : 0;
  const tail = s.text.endsWith('…') && s.match[1] < s.text.length ? 1 : 0;
  const from = at[0] - (s.match[0] - head);
  const to = from + s.text.length - head - tail;
  expect(from).toBeGreaterThanOrEqual(lineStart);
  expect(to).toBeLessThanOrEqual(lineEnd);
  expect(s.text.slice(head, s.text.length - tail)).toBe(text.slice(from, to).replace(/\t/g, ' '));
  // An ellipsis exactly where the line goes on with more than white space.
  expect(head === 1).toBe(/\S/.test(text.slice(lineStart, from)));
  expect(tail === 1).toBe(/\S/.test(text.slice(to, lineEnd)));
  expect(splitsPair(text, from)).toBe(false);
  expect(splitsPair(text, to)).toBe(false);
  expect(to - from).toBeLessThanOrEqual(width);
  // Nothing worth showing is lost: a short line is shown whole.
  if (lineEnd - lineStart <= width - 2) expect([from, to]).toEqual([lineStart + (text.slice(lineStart, at[0]).length - text.slice(lineStart, at[0]).trimStart().length), lineEnd - (text.slice(stop, lineEnd).length - text.slice(stop, lineEnd).trimEnd().length)]);
}

describe('snippets', () => {
  const snippetText = textArb.filter((t) => !t.includes('…'));

  it('the first word a term begins is found wherever textMatches says it is there (property)', () => {
    fc.assert(
      fc.property(snippetText, fc.gen(), (text, g) => {
        const words = wordsOf(text);
        const query = words.length ? g(fc.constantFrom, ...words).slice(0, g(fc.integer, { min: 1, max: 8 })) : g(fc.constantFrom, ...VOCAB);
        const terms = queryTerms(query);
        const at = firstTermMatch(text, terms);
        if (!textMatches(text, terms)) return;
        expect(at).toBeDefined();
        expect(matcherOf(query)(text)).toEqual(at);
        const [start, end] = at!;
        // Folded as search folds (ϐ is β, ſ is s): a match on "ſtraße" for "st" is right.
        expect(terms.some((t) => referenceFold(text.slice(start, end)).startsWith(referenceFold(t)))).toBe(true);
        // It begins a word: the text parted there has the same words.
        expect([...wordsOf(text.slice(0, start)), ...wordsOf(text.slice(start))]).toEqual(wordsOf(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('a one-word query matches exactly the texts textMatches accepts, at their first match (property)', () => {
    fc.assert(
      fc.property(snippetText, fc.gen(), (text, g) => {
        const words = wordsOf(text);
        const word = words.length && g(fc.boolean) ? g(fc.constantFrom, ...words) : g(fc.constantFrom, ...VOCAB);
        const query = word.slice(0, g(fc.integer, { min: 1, max: 8 }));
        const terms = queryTerms(query);
        if (terms.length !== 1) return;
        const found = matcherOf(query)(text);
        expect(found !== undefined).toBe(textMatches(text, terms));
        expect(found).toEqual(firstTermMatch(text, terms));
      }),
      { numRuns: 2000 },
    );
  });

  it('a tool call found partly by a word of its JSON is shown as a reader reads it, around the word that is there', () => {
    const searched = 'Read\n{"file_path":"/src/tax/rounding.ts","limit":40}';
    const readable = 'Read: /src/tax/rounding.ts · limit=40';
    const snippetOf = (query: string) => {
      const matcher = matcherOf(query);
      return readableSnippet(searched, matcher(searched)!, readable, matcher);
    };
    // Both words in what a reader reads: around them there, as before.
    expect(snippetOf('read rounding').text).toBe(readable);
    // `file` only in a key: the line shows the call's values around `Read`, not the tool's bare name.
    expect(snippetOf('read file')).toEqual({ text: readable, match: [0, 4] });
    // The only word found is a key's: the text as searched, where it is.
    expect(snippetOf('file').text).toContain('"file_path"');
  });

  it('holds the match at `match`, on one line, never splitting a surrogate pair, about 160 characters (property)', () => {
    fc.assert(
      fc.property(snippetText, fc.gen(), fc.constantFrom(160, 40, 10), (text, g, width) => {
        const words = wordsOf(text);
        if (words.length === 0) return;
        const terms = queryTerms(g(fc.constantFrom, ...words));
        const at = firstTermMatch(text, terms);
        expect(at).toBeDefined();
        checkSnippet(text, at!, width);
      }),
      { numRuns: 1000 },
    );
  });

  it('regex matches: the snippet keeps the match’s first line (property)', () => {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    fc.assert(
      fc.property(snippetText, fc.gen(), (text, g) => {
        const words = wordsOf(text);
        if (words.length === 0) return;
        const a = escape(g(fc.constantFrom, ...words));
        const b = escape(g(fc.constantFrom, ...words));
        const source = g(fc.constantFrom, a, `${a}[\\s\\S]*?${b}`, `${a}\\s+${b}`, `\\s${a}`, `[\\s\\S]{0,5}${a}`);
        const at = firstRegexMatch(text, new RegExp(source, 'iu'));
        if (at) checkSnippet(text, at);
      }),
      { numRuns: 1000 },
    );
  });

  it('examples: a long line is cut with ellipses, a CR or multi-line match keeps one line, tabs become spaces', () => {
    const long = `${'lorem '.repeat(100)}Tokyo${' ipsum'.repeat(100)}`;
    const s = snippetAround(long, firstTermMatch(long, ['tokyo'])!);
    expect(s.text.startsWith('…') && s.text.endsWith('…')).toBe(true);
    expect(s.text.slice(s.match[0], s.match[1])).toBe('Tokyo');
    expect(s.text.length).toBeLessThanOrEqual(162);
    // A pattern that takes a whole 50,000-character line shows a snippet's width of it, not the line.
    const whole = snippetAround('x'.repeat(50_000), [0, 50_000]);
    expect(whole.text).toBe(`${'x'.repeat(160)}…`);
    expect(whole.match).toEqual([0, 160]);

    expect(snippetAround('xx a\nb yy', [3, 6])).toEqual({ text: 'xx a', match: [3, 4] });
    expect(snippetAround('first\r\nsecond tokyo\r\nthird', [14, 19])).toEqual({ text: 'second tokyo', match: [7, 12] });
    const bar = '10%\r50%\r100% done\ttokyo';
    expect(snippetAround(bar, firstTermMatch(bar, ['tokyo'])!)).toEqual({ text: '100% done tokyo', match: [10, 15] });
    const m = snippetAround('\nabc', [0, 2]);
    expect(m.match[0]).toBeGreaterThanOrEqual(0);
    expect(m.text).not.toMatch(BREAK);
    // Astral letters around the cut stay whole.
    const astral = `${'😀'.repeat(200)} tokyo ${'𝔘'.repeat(200)}`;
    const a = snippetAround(astral, firstTermMatch(astral, ['tokyo'])!);
    expect(a.text.slice(a.match[0], a.match[1])).toBe('tokyo');
    expect(a.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it('a match on a word whose lowercase is longer (İ) is highlighted on the word as written', () => {
    expect(firstTermMatch('go to İstanbul now', queryTerms('İstan'))).toEqual([6, 11]);
    expect(firstTermMatch('ΑΣ\'Α', queryTerms('ασ'))).toBeDefined();
    expect(matcherOf('ασ')('ΑΣ\'Α')).toBeDefined();
    // Long texts: the match far in, after many words, after letters that lowercase longer.
    const long = `${'İİ lorem ΑΣ\'Α ipsum '.repeat(5000)}dolor İstanbul tokyo`;
    expect(textMatches(long, queryTerms('tokyo'))).toBe(true);
    const at = firstTermMatch(long, queryTerms('tokyo'))!;
    expect(long.slice(at[0], at[1])).toBe('tokyo');
    const ist = firstTermMatch(long, queryTerms('İSTANB'))!;
    expect(long.slice(ist[0], ist[1])).toBe('İstanb');
    const noSpaces = `${'x'.repeat(100_000)}.İstanbul`;
    expect(noSpaces.slice(...firstTermMatch(noSpaces, ['i̇stan'])!)).toBe('İstan');
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('searchableMessages', () => {
  const FORMATS_DIR = join(FIXTURES, 'formats');
  const open = (file: string) => {
    const opened = readDocumentFile(file);
    const { messages, conversationSizes } = searchableMessages(opened.codec, opened.doc);
    return { opened, messages, conversationSizes };
  };
  const indexFor = (path: string, file: string) => {
    const { opened, messages, conversationSizes } = open(file);
    const index = new SearchIndex();
    index.put(buildSegment({ path, format: opened.codec.id, size: 1, mtimeMs: 1, messages, conversationSizes }, index.dictionary, index.roleCode));
    return { index, messages };
  };
  const find = (index: SearchIndex, q: string, roles?: string[]) => index.query({ terms: queryTerms(q), roles }).hits.map((h) => `${h.conversation}:${h.index}:${h.role}`);

  it('holds tool calls (name and arguments) and tool results: swarms tool_calls.json', () => {
    const { index, messages } = indexFor('tool_calls.json', join(SWARMS, 'tool_calls.json'));
    expect(messages).toHaveLength(6);
    // The assistant message's content is empty: only its tool calls make it findable.
    expect(find(index, 'get_weather', ['assistant'])).toEqual(['0:2:assistant']);
    expect(find(index, 'GET_WEA osaka', ['assistant'])).toEqual(['0:2:assistant']);
    expect(find(index, 'city osaka')).toEqual(['0:2:assistant', '0:4:tool']);
    expect(find(index, 'temp_c rain')).toEqual(['0:4:tool']);
    expect(find(index, 'tokyo')).toEqual(['0:1:user', '0:2:assistant', '0:3:tool', '0:5:assistant']);
  });

  it('holds tool calls, results and reasoning in other formats', () => {
    const anthropic = indexFor('a.json', join(FORMATS_DIR, 'anthropic', 'api_conversation_history.json')).index;
    expect(find(anthropic, 'read_file')).toEqual(['0:1:assistant']);
    expect(find(anthropic, 'replace_in_file src')).toEqual(['0:3:assistant']);
    expect(find(anthropic, 'console log render')).toEqual(['0:2:user']);
    // Reasoning (a thinking block) is searched too.
    expect(find(anthropic, 'parser')).toEqual(['0:1:assistant']);

    const code = indexFor('s.jsonl', join(FORMATS_DIR, 'claude-code', 'session.jsonl')).index;
    expect(find(code, 'read date test')).toContain('0:2:assistant');
    expect(find(code, 'probably timezone')).toEqual(['0:1:assistant']);

    const codex = indexFor('r.jsonl', join(FORMATS_DIR, 'codex', 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl')).index;
    expect(find(codex, 'apply_patch')).toEqual(['0:5:assistant']);
    expect(find(codex, 'cargo_pkg_version')).toEqual(['0:4:tool']);
  });

  it('the scan over a parsed file finds what the index finds, with snippets holding the match', () => {
    for (const file of [join(SWARMS, 'tool_calls.json'), join(FORMATS_DIR, 'openai', 'chat.json'), join(FORMATS_DIR, 'sharegpt', 'dataset.jsonl')]) {
      const { opened } = open(file);
      const { index } = indexFor('f', file);
      for (const q of ['get_weather', 'tokyo', 'sky clear', 'TEMP', 'paris 18', 'capital jap']) {
        const scanned = searchDocument('f', opened.codec, opened.doc, matcherOf(q));
        expect(scanned.map((h) => `${h.conversation}:${h.index}:${h.role}`)).toEqual(find(index, q));
        for (const h of scanned) {
          expect(h.snippet).not.toMatch(BREAK);
          expect(queryTerms(q).some((t) => h.snippet.slice(h.match[0], h.match[1]).toLowerCase().startsWith(t))).toBe(true);
        }
      }
      expect(searchDocument('f', opened.codec, opened.doc, matcherOf('tokyo'), { formats: ['langchain'] })).toEqual([]);
    }
  });
});

describe('SearchIndex counting limit', () => {
  it('stops counting past countLimit once the hits are listed, and says the figures are lower bounds', () => {
    const index = new SearchIndex();
    for (let f = 0; f < 50; f++) {
      const messages = Array.from({ length: 20 }, (_, i) => ({ conversation: 0, index: i, role: 'user', text: `alpha beta ${f} ${i}` }));
      index.put(buildSegment({ path: `f${f}.json`, format: 'openai-chat', size: 1, mtimeMs: 1, messages, conversationSizes: [20] }, index.dictionary, index.roleCode));
    }
    const all = index.query({ terms: ['alpha'], limit: 10 });
    expect([all.total, all.files, all.atLeast]).toEqual([1000, 50, false]);
    const capped = index.query({ terms: ['alpha'], limit: 10, countLimit: 100 });
    expect(capped.atLeast).toBe(true);
    expect(capped.total).toBeGreaterThanOrEqual(100);
    expect(capped.total).toBeLessThan(1000);
    expect(capped.hits).toEqual(all.hits);
    // Under the limit, the count is exact and says so.
    expect(index.query({ terms: ['alpha', '7'], limit: 10, countLimit: 100 })).toMatchObject({ atLeast: false });
  });
});
