// The session catalog behind the app: catalog:sessions and catalog:usage through dispatch, on the bundled
// examples, against what the CLI's own readers say of the same files.
import { cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { dispatch } from '../../app/service/dispatch.js';
import { InlineTokenService } from '../../app/service/token-service.js';
import type { SessionEntry } from '../../app/shared/contract.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { costOf, reportedUsage } from '../../src/core/usage.js';
import { ROOT, tempDir } from '../helpers.js';

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
    const { settled } = served(dir);
    const all = await settled();
    expect(all.sessions.some((s) => s.path === 'leak.json')).toBe(false);
    const codex = await settled({ tool: 'Codex' });
    expect(codex.sessions.length).toBeGreaterThan(0);
    expect(codex.sessions.every((s) => s.tool === 'Codex')).toBe(true);
    const model = all.models[0];
    const byModel = await settled({ model });
    expect(byModel.sessions.every((s) => s.models.includes(model))).toBe(true);
    const rt = runtimes.at(-1)!;
    const bad = (await dispatch(rt.handlers, 'catalog:sessions', { from: 'yesterday' })) as Answer<unknown>;
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });
});
