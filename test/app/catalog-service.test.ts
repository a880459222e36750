// The session catalog behind the app: catalog:sessions and catalog:usage through dispatch, on the bundled
// examples, against what the CLI's own readers say of the same files.
import { readFileSync, cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { dispatch } from '../../app/service/dispatch.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import type { SessionEntry } from '../../app/shared/contract.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { costOf, reportedUsage } from '../../src/core/usage.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';
import { comparePaths, searchTree } from '../../src/core/search/index.js';
import { writeAgentStore } from '../support/agent-store.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

type Answer<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
interface Sessions {
  sessions: SessionEntry[];
  total: number;
  tools: string[];
  models: string[];
  status: { building: boolean; files: number; sessions: number };
}

function served(dir: string) {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, searchIndexFile: false, watch: false });
  runtimes.push(rt);
  const events: Array<{ event: string; payload: unknown }> = [];
  rt.onEvent = (event, payload) => events.push({ event, payload });
  const ask = async <T>(channel: string, input: unknown): Promise<T> => {
    const r = (await dispatch(rt.handlers, channel, input)) as Answer<T>;
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value;
  };
  /** Asks until the catalog has read every file (it answers with what it holds meanwhile). */
  const settled = async (input: Record<string, unknown> = {}): Promise<Sessions> => {
    for (;;) {
      const s = await ask<Sessions>('catalog:sessions', input);
      if (!s.status.building) return s;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { ask, settled, events };
}

describe('the session catalog in the service', () => {
  it('lists every session of the examples with its title and figures, sub-agents under their session, each cost as the usage module prices it', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    const { settled, events } = served(dir);
    const { sessions, total, tools } = await settled();
    expect(total).toBe(sessions.length);
    expect(tools).toEqual(expect.arrayContaining(['Claude Code', 'Codex']));
    expect(events.some((e) => e.event === 'catalog:progress')).toBe(true);

    // Every file that reads is there, named as the renderer names files, each of its conversations once.
    const session = sessions.find((s) => s.path === 'agents/claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13.jsonl');
    expect(session).toMatchObject({ kind: 'session', tool: 'Claude Code' });
    expect(session!.title).toBeTruthy();
    const agent = sessions.find((s) => s.path.endsWith('agent-a3f9e1d2b7c40815.jsonl'));
    expect(agent).toMatchObject({ kind: 'subagent', parentPath: session!.path });

    for (const s of sessions.filter((x) => x.calls > 0)) {
      const opened = readDocumentFile(join(dir, s.path));
      const report = reportedUsage(opened.doc.conversations[s.conversation].records.map((r) => opened.codec.view(r)));
      // Copilot CLI's messages record their output alone; the catalog reads the run's totals from its shutdown
      // event (all the example's messages are in its one run), read here from the file's own lines.
      const shutdowns = readFileSync(join(dir, s.path), 'utf8').split('\n').filter((l) => l.includes('"session.shutdown"')).map((l) => JSON.parse(l) as { data: { modelMetrics: Record<string, { usage: { outputTokens: number } }> } });
      if (shutdowns.length > 0) {
        expect(s.output, s.path).toBe(shutdowns.reduce((a, e) => a + Object.values(e.data.modelMetrics).reduce((b, m) => b + m.usage.outputTokens, 0), 0));
        continue;
      }
      expect(s.output, s.path).toBe(report?.output ?? 0);
      if (s.costUsd !== undefined && report) expect(s.costUsd, s.path).toBeCloseTo(costOf(report).usd, 9);
    }
  });

  it('usage by day, model, project and tool adds up to the sessions’ cost; the costliest sessions come first', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'agents'), dir, { recursive: true });
    const { ask, settled } = served(dir);
    const { sessions } = await settled();
    const cost = sessions.reduce((n, s) => n + (s.costUsd ?? 0), 0);
    expect(cost).toBeGreaterThan(0);
    for (const by of ['day', 'model', 'project', 'tool']) {
      const u = await ask<{ rows: Array<{ key: string; costUsd: number; calls: number; unpricedCalls: number }>; sessions: SessionEntry[]; calls: Array<{ costUsd: number }> }>('catalog:usage', { by });
      // A price is a model's: by model, a row is priced whole or not at all (and then said so, never $0.00).
      if (by === 'model') for (const r of u.rows) expect([0, r.calls], r.key).toContain(r.unpricedCalls);
      if (by === 'model') expect(u.rows.some((r) => r.unpricedCalls === r.calls && r.costUsd === 0)).toBe(true);
      expect(u.rows.reduce((n, r) => n + r.costUsd, 0), by).toBeCloseTo(cost, 6);
      expect(u.sessions.map((s) => s.costUsd)).toEqual([...u.sessions.map((s) => s.costUsd)].sort((a, b) => b! - a!));
      expect(u.calls.map((c) => c.costUsd)).toEqual([...u.calls.map((c) => c.costUsd)].sort((a, b) => b - a));
    }
    const bySort = await ask<Sessions>('catalog:sessions', { sort: 'cost' });
    expect(bySort.sessions[0].costUsd).toBe(Math.max(...sessions.map((s) => s.costUsd ?? 0)));
  });

  it('filters by tool and model; a link out of the folder is not read, and a bad filter is BAD_INPUT', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'agents'), join(dir, 'agents'), { recursive: true });
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.json'), JSON.stringify([{ role: 'user', content: 'the outside file’s words' }]));
    symlinkSync(join(outside, 'secret.json'), join(dir, 'leak.json'));
    const session = join(dir, 'agents', 'claude-code', 'deploy-db-timeout.jsonl');
    const last = JSON.parse(readFileSync(session, 'utf8').trimEnd().split('\n').pop()!) as { uuid: string; message: Record<string, unknown> };
    const synthetic = { ...last, parentUuid: last.uuid, uuid: 'c0000009-0000-4000-8000-000000000009', message: { ...last.message, id: 'msg_synthetic', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: overloaded' }], usage: { input_tokens: 0, output_tokens: 0 } } };
    writeFileSync(session, `${readFileSync(session, 'utf8').trimEnd()}\n${JSON.stringify(synthetic)}\n`);
    const { settled } = served(dir);
    const all = await settled();
    expect(all.sessions.some((s) => s.path === 'leak.json')).toBe(false);
    const codex = await settled({ tool: 'Codex' });
    expect(codex.sessions.length).toBeGreaterThan(0);
    expect(codex.sessions.every((s) => s.tool === 'Codex')).toBe(true);
    // A reply the tool wrote itself (Claude Code's "<synthetic>", an API error) names no model to filter by.
    expect(all.models).not.toContain('<synthetic>');
    expect(all.models.length).toBeGreaterThan(0);
    const model = all.models[0];
    const byModel = await settled({ model });
    expect(byModel.sessions.every((s) => s.models.includes(model))).toBe(true);
    const rt = runtimes.at(-1)!;
    const bad = (await dispatch(rt.handlers, 'catalog:sessions', { from: 'yesterday' })) as Answer<unknown>;
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });
});

describe('the session list’s filters and search-all, from the catalog', () => {
  it('filter by dates and by secrets found (once the files are looked into); the total counts what the filters leave', async () => {
    const dir = tempDir();
    const now = Date.now();
    const store = writeAgentStore(dir, now);
    const { settled, ask } = served(dir);
    const all = await settled();
    expect(all.total).toBe(all.sessions.length);
    // Looked into for secrets after the sessions are listed: asked until none is left.
    let leaky: Sessions;
    for (;;) {
      leaky = await ask<Sessions>('catalog:sessions', { secrets: true });
      if ((leaky.status as { secretsPending?: number }).secretsPending === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const planted = store.filter((s) => s.secret).map((s) => s.path);
    expect(leaky.sessions.map((s) => s.path)).toEqual(planted);
    expect(leaky.total).toBe(planted.length);
    expect(leaky.sessions[0].secrets).toBeGreaterThan(0);
    // Every other session was looked into and holds none (not "unknown").
    expect((await ask<Sessions>('catalog:sessions', {})).sessions.filter((s) => !planted.includes(s.path)).every((s) => s.secrets === 0)).toBe(true);
    // A day range: sessions active on or after `from` and begun on or before `to`, counted as listed.
    const day = (hoursAgo: number) => {
      const d = new Date(now - hoursAgo * 3_600_000);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    const old = await ask<Sessions>('catalog:sessions', { to: day(24 * 20) });
    expect(old.sessions.map((s) => s.title)).toEqual(expect.arrayContaining(['Why is the admin login slow on Mondays']));
    expect(old.sessions.every((s) => s.project === '/home/dev/code/shop-admin')).toBe(true);
    expect(old.total).toBe(old.sessions.length);
    const recent = await ask<Sessions>('catalog:sessions', { from: day(24 * 20), tool: 'Claude Code' });
    expect(recent.total).toBe(recent.sessions.length);
    expect(recent.total).toBe(all.sessions.filter((s) => s.tool === 'Claude Code' && s.project === '/home/dev/code/shop').length);
  });

  it('search-all is answered from the catalog as soon as it has read the folder, as the CLI finds, each hit at the row it opens at', async () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats'), join(dir, 'formats'), { recursive: true });
    writeAgentStore(join(dir, 'store'), Date.now());
    const { settled, ask } = served(dir);
    const { sessions } = await settled({ limit: 5000 });
    // Each file's last activity, as the session list shows it: the search lists the newest first.
    const lastOf = new Map<string, string>();
    for (const x of sessions as unknown as Array<{ path: string; lastAt?: string }>) if ((x.lastAt ?? '') > (lastOf.get(x.path) ?? '')) lastOf.set(x.path, x.lastAt ?? '');
    const newestFirst = (a: string, b: string) => ((lastOf.get(a) ?? '') > (lastOf.get(b) ?? '') ? -1 : (lastOf.get(a) ?? '') < (lastOf.get(b) ?? '') ? 1 : comparePaths(a, b));
    type Hit = { path: string; conversation: number; index: number; snippet?: string; shown?: { conversation: number; index: number } | null };
    for (const query of ['read', 'walrus', 'the weather', 'zzqqxx']) {
      // The first question after the catalog is read: no other index to wait for.
      const answer = await ask<{ hits: Hit[]; total: number; status: { building: boolean; pending: number } }>('search:query', { query, limit: 2000 });
      // The lines the answer had no time for come from search:snippets, as the dialog asks for them.
      const missing = answer.hits.filter((h) => h.snippet === undefined).map(({ path, conversation, index }) => ({ path, conversation, index }));
      for (let k = 0; k < missing.length; k += 500) {
        const { hits } = await ask<{ hits: Hit[] }>('search:snippets', { query, hits: missing.slice(k, k + 500) });
        for (const h of hits) Object.assign(answer.hits.find((a) => a.path === h.path && a.conversation === h.conversation && a.index === h.index)!, { snippet: h.snippet });
      }
      const scan = searchTree(dir, query);
      // What the CLI's scan finds, the files whose sessions went on last first (a file's hits in its order).
      const inOrder = [...scan.hits].sort((a, b) => (a.path === b.path ? 0 : newestFirst(a.path, b.path)));
      expect(answer.hits.map((h) => `${h.path}#${h.conversation}#${h.index}`), query).toEqual(inOrder.map((h) => `${h.path}#${h.conversation}#${h.index}`));
      expect(answer.total).toBe(scan.hits.length);
      expect(answer.hits.map((h) => h.snippet)).toEqual(inOrder.map((h) => h.snippet));
      expect(answer.status).toMatchObject({ building: false, pending: 0 });
    }
    // A regular expression scans the files the catalog lists, as the CLI's scan does (no other index to wait for).
    for (const query of ['walr\\w+ case', 'Step [23] checked']) {
      const answer = await ask<{ hits: Hit[]; total: number }>('search:query', { query, regex: true, limit: 2000 });
      const scan = searchTree(dir, query, { regex: true });
      expect(answer.hits.map((h) => `${h.path}#${h.conversation}#${h.index}`), query).toEqual(scan.hits.map((h) => `${h.path}#${h.conversation}#${h.index}`));
      expect(answer.total).toBeGreaterThan(0);
    }
    // A hit opens at its message.
    const [walrus] = (await ask<{ hits: Hit[] }>('search:query', { query: 'walrus' })).hits;
    const where = await ask<{ conversation: number; index: number }>('conversation:reveal', { path: walrus.path, conversation: walrus.conversation, index: walrus.index });
    await ask('conversation:open', { path: walrus.path, conversation: where.conversation });
    expect((await ask<{ text: string }>('conversation:message', { path: walrus.path, conversation: where.conversation, index: where.index })).text).toContain('walrus');
    expect(walrus.shown).toEqual({ conversation: where.conversation, index: where.index });
  });
});
