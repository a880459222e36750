import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog, CatalogSync, factsOf, inlineReaders, localDay, WorkerReaders, type UsageBy, type UsageRow } from '../../src/core/catalog/index.js';
import { callCost } from '../../src/core/catalog/calls.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { walkConversationTree } from '../../src/core/storage/list-directory.js';
import { tempDir } from '../helpers.js';

const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'gpt-5', 'a-model-with-no-price', undefined];

/** One Claude Code line: a user prompt, or an assistant's reply with its usage (a call's lines share its id). */
const line = fc.record({
  user: fc.boolean(),
  // Days around local midnights and a month's turn, now and then no time or one that is not a time.
  at: fc.oneof(fc.integer({ min: Date.parse('2026-02-27T20:00:00Z'), max: Date.parse('2026-03-02T04:00:00Z') }).map((t) => new Date(t).toISOString()), fc.constantFrom(undefined, 'not a time', '')),
  model: fc.constantFrom(...MODELS),
  call: fc.integer({ min: 0, max: 5 }),
  input: fc.oneof(fc.nat(5000), fc.constant(undefined)),
  output: fc.nat(3000),
  cacheRead: fc.nat(90000),
  cacheWrite: fc.nat(4000),
  text: fc.constantFrom<string>('a tax question', ' tabs\tand\r\nCRLF ', 'ΟΔΟΣ 𝔘 done', ''),
});

type Line = typeof line extends fc.Arbitrary<infer T> ? T : never;

function textOf(lines: readonly Line[], sessionId: string, from = 0): string {
  return lines
    .map((l, i) => {
      const base = { parentUuid: null, isSidechain: false, sessionId, uuid: `${sessionId}-${from + i}`, ...(l.at === undefined ? {} : { timestamp: l.at }) };
      if (l.user) return JSON.stringify({ ...base, type: 'user', message: { role: 'user', content: l.text || 'hello' } });
      const usage = { ...(l.input === undefined ? {} : { input_tokens: l.input }), output_tokens: l.output, cache_read_input_tokens: l.cacheRead, cache_creation_input_tokens: l.cacheWrite };
      return JSON.stringify({ ...base, type: 'assistant', requestId: `req_${sessionId}_${l.call}`, message: { id: `msg_${sessionId}_${l.call}`, role: 'assistant', ...(l.model ? { model: l.model } : {}), content: [{ type: 'text', text: l.text }], usage } });
    })
    .map((l) => `${l}\n`)
    .join('');
}

/** Usage added up straight from every file's calls, as a whole read of each gives them. */
function expectedUsage(dir: string, by: UsageBy): Map<string, Omit<UsageRow, 'key'>> {
  const out = new Map<string, Omit<UsageRow, 'key'> & { of: Set<string> }>();
  for (const f of walkConversationTree(dir).files) {
    const opened = readDocumentFile(f.file);
    const facts = factsOf(f.file, opened);
    for (const c of facts.calls) {
      const session = facts.sessions[c.conversation];
      const key = (by === 'day' ? localDay(c.at) : by === 'model' ? c.model : by === 'project' ? session.project : facts.tool) ?? '';
      let row = out.get(key);
      if (!row) out.set(key, (row = { calls: 0, sessions: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0, unpricedCalls: 0, inputCalls: 0, of: new Set() }));
      const cost = callCost(c);
      row.calls += c.n;
      row.input += c.input ?? 0;
      if (c.input !== undefined) row.inputCalls += c.n;
      row.output += c.output ?? 0;
      row.cacheRead += c.cacheRead;
      row.cacheWrite += c.cacheWrite;
      row.costUsd += cost ?? 0;
      if (cost === undefined) row.unpricedCalls += c.n;
      row.of.add(`${f.file}\u0000${c.conversation}`);
      row.sessions = row.of.size;
    }
  }
  return new Map([...out].map(([k, { of: _of, ...row }]) => [k, row]));
}

function expectSameUsage(catalog: Catalog, dir: string): void {
  for (const by of ['day', 'model', 'project', 'tool'] as const) {
    const want = expectedUsage(dir, by);
    const got = catalog.usage(by, [dir]);
    expect(got.map((r) => r.key).sort(), by).toEqual([...want.keys()].sort());
    for (const { key, costUsd, ...row } of got) {
      const { costUsd: wantCost, ...wantRow } = want.get(key)!;
      expect(row, `${by} ${key}`).toEqual(wantRow);
      expect(costUsd, `${by} ${key}`).toBeCloseTo(wantCost, 9);
    }
  }
}

describe('the catalog’s usage', () => {
  it('by day, model, project and tool equals usage added up from every call, built at once or appended to (property over random stores)', async () => {
    const session = fc.record({ project: fc.constantFrom('-home-u-a', '-home-u-b b', '-home-u-ü'), lines: fc.array(line, { minLength: 1, maxLength: 14 }), appended: fc.array(line, { maxLength: 6 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(session, { minLength: 1, maxLength: 5 }), async (sessions) => {
        const dir = tempDir();
        const files = sessions.map((s, i) => {
          mkdirSync(join(dir, s.project), { recursive: true });
          const file = join(dir, s.project, `0000000${i}-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl`);
          writeFileSync(file, textOf(s.lines, `s${i}`));
          return file;
        });
        const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
        const sync = new CatalogSync(catalog);
        await sync.syncFolders([dir]);
        expectSameUsage(catalog, dir);
        // Appended to, twice (the first append reads the file whole, the second only what it adds).
        sessions.forEach((s, i) => {
          const half = Math.ceil(s.appended.length / 2);
          for (const part of [s.appended.slice(0, half), s.appended.slice(half)]) {
            if (part.length === 0) continue;
            appendFileSync(files[i], textOf(part, `s${i}`, s.lines.length + (part === s.appended ? 0 : half)));
            sync.update(files[i]);
          }
        });
        expectSameUsage(catalog, dir);
        catalog.close();
      }),
      { numRuns: 40 },
    );
  });

  it('a Claude model is one row by model however the tool spells its version (claude-sonnet-4.6, claude-sonnet-4-6)', async () => {
    const dir = tempDir();
    const at = '2026-03-01T10:00:00Z';
    const line = (model: string, call: number) => ({ user: false, at, model, call, input: 10, output: 100, cacheRead: 0, cacheWrite: 0, text: `reply ${call}` });
    writeFileSync(join(dir, '00000001-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'), textOf([line('claude-sonnet-4.6', 0), line('claude-sonnet-4-6', 1)], 's'));
    const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
    await new CatalogSync(catalog).syncFolders([dir]);
    expect(catalog.usage('model', [dir]).map((r) => [r.key, r.calls, r.output])).toEqual([['claude-sonnet-4-6', 2, 200]]);
    catalog.close();
  });

  it('a reply Claude Code wrote itself (model "<synthetic>": an API error, an interruption) is no row of usage', async () => {
    const dir = tempDir();
    const at = '2026-03-01T10:00:00Z';
    const line = (model: string, call: number, output: number) => ({ user: false, at, model, call, input: 0, output, cacheRead: 0, cacheWrite: 0, text: `reply ${call}` });
    writeFileSync(join(dir, '00000001-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'), textOf([line('claude-sonnet-4-5-20250929', 0, 120), line('<synthetic>', 1, 0)], 's'));
    const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
    await new CatalogSync(catalog).syncFolders([dir]);
    expect(catalog.usage('model', [dir]).map((r) => [r.key, r.calls, r.output])).toEqual([['claude-sonnet-4-5-20250929', 1, 120]]);
    expect(catalog.usage('day', [dir]).map((r) => r.calls)).toEqual([1]);
    catalog.close();
  });

  it('an append adds exactly the new lines’ messages and calls; a file that shrank is read again whole', async () => {
    const dir = tempDir();
    const file = join(dir, '00000001-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl');
    const at = (n: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + n * 60_000).toISOString();
    const first = [0, 1, 2, 3].map((n) => ({ user: n % 2 === 0, at: at(n), model: 'claude-sonnet-4-5-20250929', call: n, input: 10, output: 100 + n, cacheRead: 0, cacheWrite: 0, text: `first words ${n}` }));
    writeFileSync(file, textOf(first, 's'));
    const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
    const sync = new CatalogSync(catalog);
    await sync.syncFolders([dir]);
    const row = () => catalog.sessions({ under: [dir] })[0];
    const hits = (word: string) => catalog.search([word], { under: [dir], limit: 100, countLimit: 100 }).hits.map((h) => h.index);
    expect(row()).toMatchObject({ messages: 4, calls: 2, output: 101 + 103 });
    // The first append reads the file whole and keeps it parsed; the next reads only its new lines.
    appendFileSync(file, textOf([{ ...first[1], at: at(4), call: 4, output: 7, text: 'second words' }], 's', 4));
    expect(sync.update(file)).toBe(true);
    appendFileSync(file, textOf([{ ...first[0], at: at(5), text: 'third words' }, { ...first[1], at: at(6), call: 6, output: 9, text: 'third reply' }], 's', 5));
    expect(sync.update(file)).toBe(true);
    expect(row()).toMatchObject({ messages: 7, calls: 4, output: 101 + 103 + 7 + 9 });
    expect(hits('third')).toEqual([5, 6]);
    expect(hits('words')).toEqual([0, 1, 2, 3, 4, 5]);
    expect(catalog.usage('day', [dir]).map((r) => [r.key, r.calls, r.output])).toEqual([[localDay(at(0)), 4, 101 + 103 + 7 + 9]]);
    // Shrunk to its first two lines: read again whole, nothing of the lines gone is kept.
    writeFileSync(file, readFileSync(file, 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
    expect(sync.update(file)).toBe(true);
    expect(row()).toMatchObject({ messages: 2, calls: 1, output: 101 });
    expect(hits('third')).toEqual([]);
    expectSameUsage(catalog, dir);
    catalog.close();
  });

  it('starts no reader thread when the catalog is up to date, and one per file at most as they are read', async () => {
    const dir = tempDir();
    for (let i = 0; i < 3; i++) writeFileSync(join(dir, `0000000${i}-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl`), textOf([{ user: true, at: undefined, model: undefined, call: 0, input: 1, output: 1, cacheRead: 0, cacheWrite: 0, text: 'hello' }], `s${i}`));
    const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
    await new CatalogSync(catalog, inlineReaders).syncFolders([dir]);
    // A reader that says every file is unreadable: enough to count the threads started.
    const worker = join(tempDir(), 'reader.mjs');
    writeFileSync(worker, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => parentPort.postMessage(m.kind === 'quick' ? { quick: null } : { read: { failure: { error: 'not read in this test' }, bytes: m.size } }));\n");
    const readers = new WorkerReaders(new URL(`file://${worker}`), 2);
    try {
      expect((await new CatalogSync(catalog, readers).syncFolders([dir])).read).toBe(0);
      expect(readers.threads).toBe(0);
      writeFileSync(join(dir, '00000009-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'), 'changed\n');
      expect((await new CatalogSync(catalog, readers).syncFolders([dir])).read).toBe(1);
      expect(readers.threads).toBe(1);
      expect(catalog.failures([dir]).map((f) => f.error)).toEqual(['not read in this test']);
    } finally {
      readers.close();
      catalog.close();
    }
  });
});
