import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog, CatalogSync, factsOf, inlineReaders, localDay, WorkerReaders, type UsageBy, type UsageRow } from '../../src/core/catalog/index.js';
import { callCost } from '../../src/core/catalog/calls.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { walkConversationTree } from '../../src/core/storage/list-directory.js';
import { addUp, callsOf, reportedTotalsOf, withReportedTotals } from '../../src/core/usage.js';
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
    // The costliest calls name it as the rows by model do.
    expect(catalog.expensiveCalls(10, [dir]).map((c) => c.model)).toEqual(['claude-sonnet-4-6', 'claude-sonnet-4-6']);
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
    // A reader that says every file is unreadable (and has no shard to write when asked): enough to count the threads started.
    const worker = join(tempDir(), 'reader.mjs');
    writeFileSync(worker, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => parentPort.postMessage(m.kind === 'flush' ? { flushed: true } : m.kind === 'quick' ? { quick: null } : { read: { failure: { error: 'not read in this test' }, bytes: m.size } }));\n");
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

/** A run of the Copilot CLI: a start (or a resume), calls of models with their output, and how it ended. */
const copilotCall = fc.record({ model: fc.constantFrom('gpt-5', 'claude-sonnet-4-5-20250929', 'a-model-with-no-price'), output: fc.nat(3000), chunks: fc.integer({ min: 1, max: 2 }) });
const copilotRun = fc.record({
  calls: fc.array(copilotCall, { maxLength: 6 }),
  // Killed (no shutdown), or shut down with each model's figures: requests as many as its calls or more (calls
  // that wrote no message), output at least theirs, input with its cached part, cache writes.
  shutdown: fc.option(fc.record({ moreRequests: fc.nat(3), moreOutput: fc.nat(500), input: fc.nat(200_000), cached: fc.double({ min: 0, max: 1, noNaN: true }), cacheWrite: fc.nat(20_000), reasoning: fc.nat(300) }), { nil: undefined }),
  at: fc.integer({ min: Date.parse('2026-02-27T20:00:00Z'), max: Date.parse('2026-03-02T04:00:00Z') }),
});
type CopilotRun = typeof copilotRun extends fc.Arbitrary<infer T> ? T : never;

/** What a shut-down run reports for a model, as the CLI writes it: the figures the test expects, not derived from the reader. */
function runTotals(run: CopilotRun): Map<string, { requests: number; input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number }> {
  const out = new Map<string, { requests: number; input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number }>();
  const s = run.shutdown!;
  for (const c of run.calls) {
    let t = out.get(c.model);
    if (!t) out.set(c.model, (t = { requests: s.moreRequests, input: s.input, output: s.moreOutput, cacheRead: Math.floor(s.input * s.cached), cacheWrite: s.cacheWrite, reasoning: s.reasoning }));
    t.requests += 1;
    t.output += c.output;
  }
  return out;
}

/** An events.jsonl of runs: the first starts the session, the next resume it. */
function copilotText(runs: readonly CopilotRun[], from = 0): string {
  const lines: unknown[] = [];
  let n = from * 1000;
  let parent: string | null = null;
  const event = (type: string, at: number, data: Record<string, unknown>) => {
    const id = `e${n++}`;
    lines.push({ type, data, id, timestamp: new Date(at + n * 10).toISOString(), parentId: parent });
    parent = id;
  };
  runs.forEach((run, r) => {
    if (from + r === 0) event('session.start', run.at, { sessionId: '5c1e7a42-9d3b-4f6e-b8a1-2f0c4d6e8a13', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.60', startTime: new Date(run.at).toISOString(), context: { cwd: '/home/dev/shop' } });
    else event('session.resume', run.at, { resumeTime: new Date(run.at).toISOString(), eventCount: n, context: { cwd: '/home/dev/shop' } });
    event('user.message', run.at, { content: `run ${from + r}` });
    run.calls.forEach((c, k) => {
      // A call streamed as chunks shares its apiCallId: its output once, from its last chunk.
      for (let chunk = 0; chunk < c.chunks; chunk++) event('assistant.message', run.at, { messageId: `m${n}`, content: `answer ${k}`, toolRequests: [], model: c.model, outputTokens: chunk === c.chunks - 1 ? c.output : Math.floor(c.output / 2), apiCallId: `call_${from + r}_${k}` });
    });
    if (!run.shutdown) return;
    const metrics = Object.fromEntries([...runTotals(run)].map(([model, t]) => [model, { requests: { count: t.requests, cost: 1 }, usage: { inputTokens: t.input, outputTokens: t.output, cacheReadTokens: t.cacheRead, cacheWriteTokens: t.cacheWrite, reasoningTokens: t.reasoning } }]));
    event('session.shutdown', run.at, { shutdownType: 'routine', totalPremiumRequests: 1, modelMetrics: metrics, currentModel: run.calls.at(-1)?.model ?? 'gpt-5' });
  });
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}

/** Usage by model as the runs say it: a shut-down run's totals, a killed run's output per call (its input unknown). */
function copilotExpected(runs: readonly CopilotRun[]): Map<string, { calls: number; inputCalls: number; input: number; output: number; cacheRead: number; cacheWrite: number }> {
  const out = new Map<string, { calls: number; inputCalls: number; input: number; output: number; cacheRead: number; cacheWrite: number }>();
  const row = (model: string) => {
    const key = model.replace(/(\d)\.(\d)/g, '$1-$2');
    let r = out.get(key);
    if (!r) out.set(key, (r = { calls: 0, inputCalls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }));
    return r;
  };
  for (const run of runs) {
    if (run.shutdown) {
      for (const [model, t] of runTotals(run)) Object.assign(row(model), ((r) => ({ calls: r.calls + t.requests, inputCalls: r.inputCalls + t.requests, input: r.input + t.input, output: r.output + t.output, cacheRead: r.cacheRead + t.cacheRead, cacheWrite: r.cacheWrite + t.cacheWrite }))(row(model)));
    } else {
      for (const c of run.calls) Object.assign(row(c.model), ((r) => ({ ...r, calls: r.calls + 1, output: r.output + c.output }))(row(c.model)));
    }
  }
  return out;
}

describe('the catalog’s usage of Copilot CLI sessions', () => {
  it('is each run’s shutdown totals (input, cache, requests) and a killed run’s output per call, never its output twice (property, built at once or appended to)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(copilotRun, { minLength: 1, maxLength: 4 }), fc.array(copilotRun, { maxLength: 2 }), async (runs, later) => {
        const dir = tempDir();
        const file = join(dir, 'session-state', '5c1e7a42-9d3b-4f6e-b8a1-2f0c4d6e8a13', 'events.jsonl');
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, copilotText(runs));
        const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
        const sync = new CatalogSync(catalog);
        await sync.syncFolders([dir]);
        const check = (all: readonly CopilotRun[]) => {
          const want = copilotExpected(all);
          const got = new Map(catalog.usage('model', [dir]).map(({ key, calls, inputCalls, input, output, cacheRead, cacheWrite }) => [key, { calls, inputCalls, input, output, cacheRead, cacheWrite }]));
          expect(got).toEqual(new Map([...want].filter(([, r]) => r.calls > 0)));
          expectSameUsage(catalog, dir);
          // The session opened (the app's figures, `tokens`) adds up the same.
          const { codec, doc } = readDocumentFile(file);
          const views = doc.conversations[0].records.map((r) => codec.view(r));
          const opened = addUp(withReportedTotals(callsOf(views), reportedTotalsOf(codec, doc, 0, views.length)).map((c) => c.usage));
          const sum = (k: 'calls' | 'inputCalls' | 'input' | 'output' | 'cacheRead' | 'cacheWrite') => [...want.values()].reduce((n, r) => n + r[k], 0);
          const keys = ['calls', 'inputCalls', 'input', 'output', 'cacheRead', 'cacheWrite'] as const;
          expect(Object.fromEntries(keys.map((k) => [k, opened?.[k] ?? 0]))).toEqual(Object.fromEntries(keys.map((k) => [k, sum(k)])));
        };
        check(runs);
        // Resumed later: the new runs appended, read from where the file ended.
        if (later.length > 0) {
          appendFileSync(file, copilotText(later, runs.length));
          sync.update(file);
          check([...runs, ...later]);
        }
        catalog.close();
      }),
      { numRuns: 40 },
    );
  });

  it('a resumed session adds up its runs’ shutdowns; the session row says its input, its cost is no floor', async () => {
    const dir = tempDir();
    const file = join(dir, 'events.jsonl');
    const at = Date.parse('2026-03-01T10:00:00Z');
    const run = (output: number, input: number): CopilotRun => ({ calls: [{ model: 'gpt-5', output, chunks: 1 }], shutdown: { moreRequests: 0, moreOutput: 0, input, cached: 0.5, cacheWrite: 0, reasoning: 0 }, at });
    writeFileSync(file, copilotText([run(100, 10_000), run(50, 30_000)]));
    const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
    await new CatalogSync(catalog).syncFolders([dir]);
    expect(catalog.sessions({ under: [dir] })[0]).toMatchObject({ calls: 2, inputCalls: 2, outputCalls: 2, input: 40_000, output: 150, cacheRead: 20_000 });
    expect(catalog.usage('tool', [dir]).map((r) => [r.key, r.calls, r.inputCalls, r.input, r.output])).toEqual([['Copilot CLI', 2, 2, 40_000, 150]]);
    catalog.close();
  });
});
