import { appendFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog, CatalogSync, factsOf } from '../../src/core/catalog/index.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { searchCatalog } from '../../src/core/catalog/search.js';
import { walkConversationTree } from '../../src/core/storage/list-directory.js';
import { costOf, reportedUsage } from '../../src/core/usage.js';
import { queryTerms, textMatches } from '../../src/core/search/index.js';
import { ROOT, FIXTURES, tempDir } from '../helpers.js';
import { EDGE_ATOMS } from '../support/edge-arbitraries.js';
import { isoTime as isoOf } from '../../src/core/catalog/times.js';

const EXAMPLES = join(ROOT, 'examples');

function catalogOf(dir: string, file = join(tempDir(), 'catalog.sqlite')) {
  const catalog = Catalog.open(file);
  const sync = new CatalogSync(catalog);
  return { catalog, sync, file };
}

/** What a catalog holds, without its row ids (which differ between two builds of the same files). */
function contents(catalog: Catalog, under: string) {
  return catalog
    .sessions({ under: [under] })
    .map(({ id: _id, bytes: _b, modifiedMs: _m, ...s }) => s)
    .sort((a, b) => (a.path + a.conversation).localeCompare(b.path + b.conversation));
}

describe('the session catalog', () => {
  it('lists every session of the examples with the figures a whole read of each file gives', async () => {
    const dir = tempDir();
    cpSync(EXAMPLES, join(dir, 'examples'), { recursive: true });
    const { catalog, sync } = catalogOf(dir);
    const done = await sync.syncFolders([dir]);
    expect(done.read).toBeGreaterThan(10);
    const rows = catalog.sessions({ under: [dir] });
    for (const row of rows) {
      const opened = readDocumentFile(row.path);
      const records = opened.doc.conversations[row.conversation].records;
      expect(row.messages, row.path).toBe(records.length);
      expect(row.format).toBe(opened.codec.id);
      // Copilot CLI's messages record their output alone; its session.shutdown has the run's whole figures.
      if (opened.codec.usageTotals?.(opened.doc, row.conversation).length) continue;
      const usage = reportedUsage(records.map((r) => opened.codec.view(r)));
      expect(row.calls, row.path).toBe(usage?.calls ?? 0);
      expect(row.output, row.path).toBe(usage?.output ?? 0);
      expect(row.input, row.path).toBe(usage?.input ?? 0);
      const cost = usage ? costOf(usage) : undefined;
      if (cost && cost.unpriced.length < Object.keys(usage!.byModel).length) expect(row.costUsd, row.path).toBeCloseTo(cost.usd, 9);
      else expect(row.costUsd, row.path).toBeUndefined();
    }
    // The example Copilot CLI session's shutdown: 7 requests, 118,204 in (96,320 cached), 952 out.
    expect(rows.find((r) => r.format === 'copilot-cli-events')).toMatchObject({ calls: 7, inputCalls: 7, input: 118_204, cacheRead: 96_320, output: 952 });
    // A sub-agent's own file is a sub-agent of its session, by where Claude Code puts it.
    const sub = rows.find((r) => r.path.includes('/subagents/'));
    expect(sub?.kind).toBe('subagent');
    expect(sub?.parentFile).toBe(join(dir, 'examples/agents/claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13.jsonl'));
    expect(sub?.title).toBeTruthy();
    catalog.close();
  });

  it('a sub-agent Claude Code 2.0.x kept beside its session (agent-<id>.jsonl) is that session’s, by the session its lines name', async () => {
    const dir = tempDir();
    const sid = '7de1dd02-0000-4000-8000-000000000001';
    const line = (o: object) => JSON.stringify({ sessionId: sid, timestamp: '2025-10-01T10:00:00.000Z', cwd: '/home/dev/app', ...o });
    writeFileSync(join(dir, `${sid}.jsonl`), [line({ type: 'user', parentUuid: null, isSidechain: false, uuid: 'u1', message: { role: 'user', content: 'look at the build' } })].join('\n') + '\n');
    writeFileSync(join(dir, 'agent-af374ee1.jsonl'), [line({ type: 'user', parentUuid: null, isSidechain: true, agentId: 'af374ee1', uuid: 'a1', message: { role: 'user', content: 'Warmup' } }), line({ type: 'assistant', parentUuid: 'a1', isSidechain: true, agentId: 'af374ee1', uuid: 'a2', message: { role: 'assistant', content: [{ type: 'text', text: 'ready' }] } })].join('\n') + '\n');
    // A sub-agent whose session's id could name no file beside it stays a sub-agent of no file.
    writeFileSync(join(dir, 'agent-bb.jsonl'), line({ sessionId: '../x', type: 'user', parentUuid: null, isSidechain: true, agentId: 'bb', uuid: 'b1', message: { role: 'user', content: 'hi' } }) + '\n');
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const rows = catalog.sessions({ under: [dir] });
    expect(rows.find((r) => r.path.endsWith('agent-af374ee1.jsonl'))).toMatchObject({ kind: 'subagent', agentId: 'af374ee1', parentFile: join(dir, `${sid}.jsonl`) });
    const loose = rows.find((r) => r.path.endsWith('agent-bb.jsonl'));
    expect(loose?.kind).toBe('subagent');
    expect(loose?.parentFile).toBeUndefined();
    catalog.close();
  });

  it('reads nothing again when nothing changed, a changed file again, and drops a file that is gone', async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats/claude-code'), join(dir, 'cc'), { recursive: true });
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const before = catalog.sessions({ under: [dir] }).length;
    expect((await sync.syncFolders([dir])).read).toBe(0);
    const session = join(dir, 'cc/session.jsonl');
    rmSync(session);
    const again = await sync.syncFolders([dir]);
    expect(again.dropped).toBe(1);
    expect(catalog.sessions({ under: [dir] }).some((s) => s.path === session)).toBe(false);
    expect(catalog.sessions({ under: [dir] }).length).toBe(before - 1);
    catalog.close();
  });

  it('an appended session reads as the same catalog as one built from nothing, however the lines arrive (property)', async () => {
    const source = readFileSync(join(EXAMPLES, 'agents/claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13.jsonl'), 'utf8');
    const lines = source.split('\n').filter((l) => l !== '').map((l) => `${l}\n`);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }), fc.boolean(), async (steps, cutMidLine) => {
        const dir = tempDir();
        const file = join(dir, 'b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13.jsonl');
        let at = Math.min(3, lines.length);
        writeFileSync(file, lines.slice(0, at).join(''));
        const { catalog, sync } = catalogOf(dir);
        await sync.syncFolders([dir]);
        for (const n of steps) {
          if (at >= lines.length) break;
          const next = lines.slice(at, at + n).join('');
          at = Math.min(lines.length, at + n);
          if (cutMidLine && next.length > 10) {
            // An agent caught mid-line: half a line now, the rest later.
            appendFileSync(file, next.slice(0, next.length - 5));
            sync.update(file);
            appendFileSync(file, next.slice(next.length - 5));
          } else appendFileSync(file, next);
          sync.update(file);
        }
        const fresh = catalogOf(dir);
        await fresh.sync.syncFolders([dir]);
        expect(contents(catalog, dir)).toEqual(contents(fresh.catalog, dir));
        const q = (c: Catalog) => c.search(['the'], { under: [dir], limit: 1000, countLimit: 1000 }).hits;
        expect(q(catalog)).toEqual(q(fresh.catalog));
        catalog.close();
        fresh.catalog.close();
      }),
      { numRuns: 25 },
    );
  });

  it('a file rewritten (not appended to) is read again whole', async () => {
    const dir = tempDir();
    const file = join(dir, 'session.jsonl');
    cpSync(join(FIXTURES, 'formats/claude-code/session.jsonl'), file);
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const before = catalog.sessions({ under: [dir] })[0];
    // Same size, other bytes near the end: a rewrite, not an append.
    const text = readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    lines.pop();
    writeFileSync(`${file}.tmp`, `${lines.join('\n')}\n${lines[lines.length - 1]}\n`);
    renameSync(`${file}.tmp`, file);
    sync.update(file);
    const after = catalog.sessions({ under: [dir] })[0];
    expect(after.messages).toBe(readDocumentFile(file).doc.conversations[0].records.length);
    expect(after.messages).not.toBe(before.messages + 1000);
    catalog.close();
  });

  it('the prompt histories and indexes beside the sessions are searched, never listed as sessions, nor a file of titles alone', async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats/claude-code/history.jsonl'), join(dir, 'history.jsonl'));
    cpSync(join(FIXTURES, 'formats/opencode/prompt-history.jsonl'), join(dir, 'prompt-history.jsonl'));
    cpSync(join(FIXTURES, 'formats/claude-code/session.jsonl'), join(dir, 'session.jsonl'));
    // Claude Code's file of summary lines alone (titles of other sessions' leaves): no session of its own.
    writeFileSync(join(dir, '5d1f2e3a-9b8c-4d7e-a6f5-0e1d2c3b4a59.jsonl'), `${JSON.stringify({ type: 'summary', summary: 'Laptop suspend debugging', leafUuid: '8a7b6c5d-0000-4000-8000-000000000001' })}\n`);
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    expect(catalog.sessions({ under: [dir] }).map((s) => s.path)).toEqual([join(dir, 'session.jsonl')]);
    expect(catalog.count({ under: [dir] })).toBe(1);
    const hits = catalog.search(queryTerms('dark mode toggle'), { under: [dir], limit: 10, countLimit: 100 }).hits;
    expect(hits.map((h) => h.path)).toEqual([join(dir, 'prompt-history.jsonl')]);
    expect(catalog.search(queryTerms('received 10.00'), { under: [dir], limit: 10, countLimit: 100 }).hits.map((h) => h.path)).toEqual([join(dir, 'history.jsonl')]);
    catalog.close();
  });

  it('Aider: the chat is the session, titled by its first request (not its "started at" stamp, not a /command); the input history beside it is searched, never listed', async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats/aider/.aider.chat.history.md'), join(dir, '.aider.chat.history.md'));
    cpSync(join(FIXTURES, 'aider/.aider.input.history'), join(dir, '.aider.input.history'));
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const sessions = catalog.sessions({ under: [dir] });
    expect(sessions.map((s) => s.path)).toEqual([join(dir, '.aider.chat.history.md'), join(dir, '.aider.chat.history.md')]);
    expect(sessions.map((s) => s.title).sort()).toEqual(['Add a `farewell(name)` function next to `greet`. It should return "Goodbye, <name>!" and have a docstring.', 'Write a short README section for the greet module. Keep it to two sentences.'].sort());
    const typed = catalog.search(queryTerms('farewell docstring'), { under: [dir], limit: 10, countLimit: 100 }).hits.map((h) => h.path);
    expect(typed).toContain(join(dir, '.aider.input.history'));
    catalog.close();
  });

  it('a session is titled by the name its tool’s index gives it, the last one when it was renamed (an append read as one)', async () => {
    const dir = tempDir();
    const rollout = 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';
    cpSync(join(FIXTURES, 'formats/codex', rollout), join(dir, rollout));
    const id = readDocumentFile(join(dir, rollout)).doc.conversations[0].meta!.sessionId!;
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const untitled = catalog.sessions({ under: [dir] })[0].title;
    const index = join(dir, 'session_index.jsonl');
    const line = (name: string) => `${JSON.stringify({ id, thread_name: name, updated_at: '2026-11-21T09:31:02.118Z' })}\n`;
    writeFileSync(index, `${JSON.stringify({ id: 'another-session', thread_name: 'Not this one', updated_at: '2026-11-20T09:00:00Z' })}\n${line('Fix the tax rounding')}`);
    await sync.syncFolders([dir]);
    expect(catalog.sessions({ under: [dir] }).map((s) => s.title)).toEqual(['Fix the tax rounding']);
    appendFileSync(index, line('Cart: tax rounding, half-up'));
    await sync.syncFolders([dir]);
    expect(catalog.sessions({ under: [dir] }).map((s) => s.title)).toEqual(['Cart: tax rounding, half-up']);
    // A search's hits in the session are headed by the same name.
    const found = await searchCatalog(catalog, dir, 'version flag');
    expect(found.hits.length).toBeGreaterThan(0);
    for (const h of found.hits) expect(h.title).toBe('Cart: tax rounding, half-up');
    rmSync(index);
    await sync.syncFolders([dir]);
    expect(catalog.sessions({ under: [dir] }).map((s) => s.title)).toEqual([untitled]);
    catalog.close();
  });

  it('search hits are headed by the title the session list gives: none for a tool’s log of prompts, which it does not list', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.aider.input.history'), '\n# 2026-11-03 14:44:06.503685\n+y\n\n# 2026-11-03 14:46:02.414589\n+Please round the tax half-up\n');
    cpSync(join(FIXTURES, 'formats/codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl'), join(dir, 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl'));
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const listed = new Map(catalog.sessions({ under: [dir] }).map((s) => [s.path, s.title]));
    expect(listed.has(join(dir, '.aider.input.history'))).toBe(false);
    const found = await searchCatalog(catalog, dir, 'tax');
    expect(found.hits.map((h) => [h.path, h.title])).toEqual([['.aider.input.history', undefined]]);
    const titled = (await searchCatalog(catalog, dir, 'version')).hits;
    expect(titled.length).toBeGreaterThan(0);
    for (const h of titled) expect(h.title).toBe(listed.get(join(dir, h.path)));
    expect(titled[0].title).toBeTruthy();
    catalog.close();
  });

  it('a session whose messages carry no time is dated as its file says elsewhere: a legacy rollout by its header, an Aider chat by its own', async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats/codex/legacy'), join(dir, 'legacy'), { recursive: true });
    writeFileSync(join(dir, '.aider.chat.history.md'), '\n# aider chat started at 2025-12-03 10:11:12\n\n#### fix the failing test\n\nDone: the test passes now.\n');
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const rows = catalog.sessions({ under: [dir] });
    const aider = rows.find((r) => r.path.endsWith('.aider.chat.history.md'))!;
    expect(aider.lastAt).toBe(new Date(2025, 11, 3, 10, 11, 12).toISOString());
    expect(rows.filter((x) => x.format === 'codex-rollout').length).toBeGreaterThan(0);
    for (const r of rows.filter((x) => x.format === 'codex-rollout')) {
      const header = JSON.parse(readFileSync(r.path, 'utf8').split('\n')[0]) as { timestamp: string };
      expect(r.firstAt, r.path).toBe(isoOf(header.timestamp));
    }
    catalog.close();
  });

  it('a damaged catalog, or one of another version, is built again from the files', async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats/codex'), join(dir, 'codex'), { recursive: true });
    const file = join(tempDir(), 'catalog.sqlite');
    writeFileSync(file, 'this is not a database, it is a damaged cache file '.repeat(200));
    const { catalog, sync } = catalogOf(dir, file);
    expect(catalog.fresh).toBe(true);
    await sync.syncFolders([dir]);
    const sessions = catalog.sessions({ under: [dir] }).length;
    // One row per conversation of each session file that reads (the prompt histories and the index of names
    // beside the sessions are searched, not listed).
    const conversations = walkConversationTree(dir).files.reduce((n, f) => {
      try {
        const opened = readDocumentFile(f.file);
        return opened.codec.companion ? n : n + opened.doc.conversations.length;
      } catch {
        return n;
      }
    }, 0);
    expect(sessions).toBeGreaterThan(0);
    expect(sessions).toBe(conversations);
    catalog.close();
    const again = Catalog.open(file);
    expect(again.fresh).toBe(false);
    expect(again.sessions({ under: [dir] }).length).toBe(sessions);
    again.close();
  });

  it('keeps its file private (0600), its journal too', async () => {
    if (process.platform === 'win32') return;
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats/codex'), join(dir, 'codex'), { recursive: true });
    const state = join(tempDir(), 'state');
    mkdirSync(state, { mode: 0o700 });
    const { catalog, sync, file } = catalogOf(dir, join(state, 'catalog.sqlite'));
    await sync.syncFolders([dir]);
    for (const f of [file, `${file}-wal`]) expect((statSync(f).mode & 0o777).toString(8), f).toBe('600');
    catalog.close();
  });

  it('search finds exactly the messages the search rule finds (property over texts with edges)', async () => {
    const word = fc.array(fc.constantFrom('a', 'B', '7', 'é', 'ß', '\u{1D49C}', '😀', 'ı', 'İ', 'Σ', 'ς', '\u0301', '中'), { minLength: 1, maxLength: 6 }).map((cs) => cs.join(''));
    const sep = fc.constantFrom(' ', '_', '-', '.', '\t', '\r\n', ' — ', '\u2028', '/', '"');
    // Edge pieces, not random code points: SQLite's tokenizer knows letters by Unicode 6.1's tables, JavaScript by
    // Unicode 15's, so a letter added since (or a code point unassigned in either) may be read differently.
    const piece = fc.oneof(word, fc.constantFrom(...EDGE_ATOMS));
    const text = fc.array(fc.tuple(piece, sep), { maxLength: 12 }).map((ws) => ws.map(([w, s]) => w + s).join(''));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 12 }), fc.oneof(word, fc.constantFrom(...EDGE_ATOMS)), async (texts, query) => {
        const dir = tempDir();
        const file = join(dir, 'chat.json');
        writeFileSync(file, JSON.stringify({ messages: texts.map((t, i) => ({ role: i % 2 ? 'assistant' : 'user', content: t })) }));
        const { catalog, sync } = catalogOf(dir);
        await sync.syncFolders([dir]);
        const terms = queryTerms(query);
        const found = catalog.search(terms, { under: [dir], limit: 100, countLimit: 100 }).hits.map((h) => h.index).sort((a, b) => a - b);
        const opened = readDocumentFile(file);
        const facts = factsOf(file, opened);
        const expected = facts.messages.filter((m) => textMatches(m.text, terms)).map((m) => m.index);
        expect(found).toEqual(expected);
        catalog.close();
      }),
      { numRuns: 150 },
    );
  });

  it('a model is one name however its tool spells it: the model filter and usage by model agree, and "<synthetic>" names none', async () => {
    const dir = tempDir();
    const text = readFileSync(join(FIXTURES, 'formats/claude-code/session.jsonl'), 'utf8');
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'a', 'session.jsonl'), text.replaceAll('claude-sonnet-4-5-20250929', 'claude-sonnet-4.6'));
    writeFileSync(join(dir, 'b', 'session.jsonl'), text.replaceAll('claude-sonnet-4-5-20250929', 'claude-sonnet-4-6').replaceAll('claude-haiku-4-5-20251001', '<synthetic>'));
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const rows = catalog.sessions({ under: [dir] });
    expect(rows.map((r) => r.models)).toEqual(expect.arrayContaining([['claude-haiku-4-5-20251001', 'claude-sonnet-4-6'], ['claude-sonnet-4-6']]));
    for (const spelled of ['claude-sonnet-4.6', 'claude-sonnet-4-6', 'Claude Sonnet 4.6']) expect(catalog.sessions({ under: [dir], model: spelled }).length, spelled).toBe(2);
    expect(catalog.usage('model', [dir]).map((u) => u.key).sort()).toEqual(['claude-haiku-4-5-20251001', 'claude-sonnet-4-6']);
    catalog.close();
  });

  it("a Codex sub-agent's rollout is a sub-agent of the session that spawned it (thread_spawn names it by id), nested under its file; one whose session is not here stays a sub-agent", async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'sessions/codex-home'), dir, { recursive: true });
    const day = join(dir, 'sessions/2026/11/22');
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const byName = (rows: ReturnType<Catalog['sessions']>, tail: string) => rows.find((r) => r.path.endsWith(tail))!;
    const rows = catalog.sessions({ under: [dir] });
    const child = byName(rows, '000000000002.jsonl');
    expect(child).toMatchObject({ kind: 'subagent', parentSessionId: '019e1a00-1111-7aaa-8bbb-000000000001', agentId: 'Kepler', parentFile: join(day, 'rollout-2026-11-22T10-00-00-019e1a00-1111-7aaa-8bbb-000000000001.jsonl') });
    expect(byName(rows, '000000000001.jsonl').kind).toBe('session');
    // Its session's rollout gone: still a sub-agent, of a session not listed.
    rmSync(join(day, 'rollout-2026-11-22T10-00-00-019e1a00-1111-7aaa-8bbb-000000000001.jsonl'));
    await sync.syncFolders([dir]);
    const orphan = byName(catalog.sessions({ under: [dir] }), '000000000002.jsonl');
    expect(orphan.kind).toBe('subagent');
    expect(orphan.parentFile).toBeUndefined();
    catalog.close();
  });

  it("a Gemini CLI sub-agent's run is a sub-agent of its session: in a folder named by the session's id (JSONL), or beside it under the same id and a later start (JSON)", async () => {
    const dir = tempDir();
    const chats = join(dir, 'tmp', 'shop', 'chats');
    mkdirSync(chats, { recursive: true });
    const json = readFileSync(join(FIXTURES, 'formats/gemini/session-2026-11-30T10-00-3f2a1b9c.json'), 'utf8');
    writeFileSync(join(chats, 'session-2026-11-30T10-00-3f2a1b9c.json'), json);
    // The run the session started (cli_help), written beside it under the session's own id seven minutes on.
    writeFileSync(join(chats, 'session-2026-11-30T10-07-3f2a1b9c.json'), json);
    const jsonl = readFileSync(join(FIXTURES, 'formats/gemini/session-2025-12-02T09-15-8c4d2e1f.jsonl'), 'utf8');
    writeFileSync(join(chats, 'session-2025-12-02T09-15-8c4d2e1f.jsonl'), jsonl);
    mkdirSync(join(chats, '8c4d2e1f-6a7b-4c3d-9e0f-1a2b3c4d5e6f'));
    writeFileSync(join(chats, '8c4d2e1f-6a7b-4c3d-9e0f-1a2b3c4d5e6f', 'a1b2c3d4-0000-4000-8000-000000000001.jsonl'), jsonl.replace('"kind":"main"', '"kind":"subagent"').replace('8c4d2e1f-6a7b-4c3d-9e0f-1a2b3c4d5e6f', 'a1b2c3d4-0000-4000-8000-000000000001'));
    // A resumed JSON session moved into a \`.jsonl\` of the same name is that session, not a run of it.
    writeFileSync(join(chats, 'session-2026-11-30T10-00-3f2a1b9c.jsonl'), jsonl.replaceAll('8c4d2e1f-6a7b-4c3d-9e0f-1a2b3c4d5e6f', '3f2a1b9c-0000-4000-8000-000000000002'));
    // Another session's file: not nested under one of another id.
    writeFileSync(join(chats, 'session-2026-11-30T11-00-7e6d5c4b.json'), json.replaceAll('3f2a1b9c', '7e6d5c4b'));
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const rows = catalog.sessions({ under: [dir] });
    const byName = (tail: string) => rows.find((r) => r.path.endsWith(tail))!;
    expect(byName('T10-00-3f2a1b9c.json').kind).toBe('session');
    expect(byName('T10-00-3f2a1b9c.jsonl').kind).toBe('session');
    expect(byName('T10-07-3f2a1b9c.json')).toMatchObject({ kind: 'subagent', parentFile: join(chats, 'session-2026-11-30T10-00-3f2a1b9c.json') });
    expect(byName('T09-15-8c4d2e1f.jsonl').kind).toBe('session');
    expect(byName('000000000001.jsonl')).toMatchObject({ kind: 'subagent', parentSessionId: '8c4d2e1f-6a7b-4c3d-9e0f-1a2b3c4d5e6f', parentFile: join(chats, 'session-2025-12-02T09-15-8c4d2e1f.jsonl') });
    expect(byName('T11-00-7e6d5c4b.json').kind).toBe('session');
    catalog.close();
  });

  it('a term that begins many words finds what its prefix finds, and words written after a search are found by the next', async () => {
    const dir = tempDir();
    const write = (name: string, texts: string[]) => writeFileSync(join(dir, name), JSON.stringify({ messages: texts.map((t, i) => ({ role: i % 2 ? 'assistant' : 'user', content: t })) }));
    // 400 words beginning with "ab": more than the index is asked for one by one.
    const many = Array.from({ length: 400 }, (_, k) => `ab${k.toString(36)}x parser`);
    write('many.json', [...many, 'the parser', 'then a parser', 'abc', 'nothing here']);
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const expectSame = (query: string) => {
      const terms = queryTerms(query);
      const found = catalog.search(terms, { under: [dir], limit: 1000, countLimit: 1000 });
      const texts = factsOf(join(dir, 'many.json'), readDocumentFile(join(dir, 'many.json'))).messages;
      const expected = texts.filter((m) => textMatches(m.text, terms)).map((m) => m.index);
      expect(found.hits.filter((h) => h.path.endsWith('many.json')).map((h) => h.index).sort((a, b) => a - b)).toEqual(expected);
      return found.total;
    };
    expect(expectSame('ab')).toBe(401);
    expect(expectSame('ab pars')).toBe(400);
    expect(expectSame('ab1')).toBeGreaterThan(1);
    expect(expectSame('th pa')).toBe(2);
    expect(expectSame('thex')).toBe(0);
    // The same words asked again once the catalog holds a new one that begins with them.
    write('later.json', ['thexis parser', 'abzzzz']);
    await sync.syncFolders([dir]);
    expect(catalog.search(queryTerms('thex pa'), { under: [dir], limit: 10, countLimit: 10 }).hits.map((h) => h.path)).toEqual([join(dir, 'later.json')]);
    expect(catalog.search(queryTerms('abzz'), { under: [dir], limit: 10, countLimit: 10 }).total).toBe(1);
    catalog.close();
  });

  it('search pages and counts file by file exactly as the messages are, after files change, go and come, in one folder of two (property)', async () => {
    const word = fc.constantFrom('tax', 'taxes', 'rounding', 'round', 'parser', 'the', 'then', 'é', 'x');
    const text = fc.array(word, { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' '));
    const chat = fc.array(text, { minLength: 1, maxLength: 6 });
    const step = fc.record({ folder: fc.constantFrom('a', 'b'), name: fc.constantFrom('1', '2', '10', 'x y'), messages: fc.option(chat, { nil: undefined }) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), fc.constantFrom('ta', 'round', 'the pa', 'x'), fc.nat(8), fc.integer({ min: 1, max: 7 }), fc.option(fc.constantFrom('user', 'assistant'), { nil: undefined }), async (steps, query, offset, limit, role) => {
        const dir = tempDir();
        const { catalog, sync } = catalogOf(dir);
        const files = new Map<string, string[]>();
        for (const [k, st] of steps.entries()) {
          const file = join(dir, st.folder, `${st.name}.json`);
          mkdirSync(join(dir, st.folder), { recursive: true });
          if (st.messages) {
            writeFileSync(file, JSON.stringify({ messages: st.messages.map((t, i) => ({ role: i % 2 ? 'assistant' : 'user', content: t })) }));
            files.set(file, st.messages);
          } else if (files.delete(file)) rmSync(file);
          // Synced after some steps only: a file may change several times between two syncs.
          if (k % 2 === 1 || k === steps.length - 1) await sync.syncFolders([dir]);
        }
        const under = join(dir, 'a');
        const terms = queryTerms(query);
        const expected = [...files]
          .filter(([f]) => f.startsWith(`${under}/`))
          .sort(([x], [y]) => (x < y ? -1 : 1))
          .flatMap(([f, texts]) => texts.flatMap((t, index) => (textMatches(t, terms) && (!role || role === (index % 2 ? 'assistant' : 'user')) ? [{ path: f, index }] : [])));
        const found = catalog.search(terms, { under: [under], roles: role ? [role] : undefined, limit, offset, countLimit: 1000 });
        expect(found.hits.map((h) => ({ path: h.path, index: h.index }))).toEqual(expected.slice(offset, offset + limit));
        expect(found.total).toBe(expected.length);
        expect(found.files).toBe(new Set(expected.map((e) => e.path)).size);
        expect(Object.fromEntries(found.fileTotals)).toEqual(Object.fromEntries([...new Set(expected.map((e) => e.path))].map((p) => [p, expected.filter((e) => e.path === p).length])));
        expect(catalog.messageCount([under])).toBe([...files].filter(([f]) => f.startsWith(`${under}/`)).reduce((n, [, t]) => n + t.length, 0));
        catalog.close();
      }),
      { numRuns: 120 },
    );
  });

  it('adds usage up by day, model and project from the calls', async () => {
    const dir = tempDir();
    cpSync(join(EXAMPLES, 'agents'), join(dir, 'agents'), { recursive: true });
    const { catalog, sync } = catalogOf(dir);
    await sync.syncFolders([dir]);
    const sessions = catalog.sessions({ under: [dir] });
    const total = (rows: { output: number }[]) => rows.reduce((n, r) => n + r.output, 0);
    expect(total(catalog.usage('day', [dir]))).toBe(total(sessions));
    expect(total(catalog.usage('model', [dir]))).toBe(total(sessions));
    expect(total(catalog.usage('project', [dir]))).toBe(total(sessions));
    expect(total(catalog.usage('tool', [dir]))).toBe(total(sessions));
    // A day's cost is its calls' costs: the days add up to the sessions' costs.
    const cost = (rows: Array<{ costUsd?: number }>) => rows.reduce((n, r) => n + (r.costUsd ?? 0), 0);
    expect(cost(catalog.usage('day', [dir]))).toBeCloseTo(cost(sessions), 9);
    catalog.close();
  });
});
