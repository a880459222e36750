import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';
import { lastLineUsage, lines, REALFILES } from '../support/realfiles.js';
import type { Loose } from '../support/loose.js';

/**
 * A session's threads that are files of their own — Claude Code's `<session>/subagents/agent-*.jsonl` (a Task's
 * sub-agent, the compaction helper) and Codex rollouts whose session_meta names the session as parent (spawned,
 * review, guardian) — through the CLI as it ships: listed with the session, shown by --thread, counted in its
 * usage, exported with it, and each saying whose it is.
 */
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const STATE = tempDir();

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: tempDir(), env: { ...process.env, XDG_STATE_HOME: STATE } });
  expect(r.status, r.stderr).toBe(0);
  return r;
}
const json = (...args: string[]) => JSON.parse(run(...args, '--json').stdout);

interface Thread {
  thread: string;
  file?: string;
  kind?: string;
  name?: string;
  call?: string;
  callRow?: number;
  messages?: number;
}

const SID = 'b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13';
const AGENT = 'a3f9e1d2b7c40815';

/** The Claude Code fixture session and its sub-agent, with a compaction helper's transcript beside it (written here). */
function claudeSession(): { dir: string; session: string; agent: string; helper: string } {
  const dir = tempDir();
  cpSync(join(FIXTURES, 'formats/claude-code', `${SID}.jsonl`), join(dir, `${SID}.jsonl`));
  cpSync(join(FIXTURES, 'formats/claude-code', SID), join(dir, SID), { recursive: true });
  const helper = join(dir, SID, 'subagents', 'agent-acompact-9c41e7.jsonl');
  const base = { isSidechain: true, userType: 'external', cwd: '/home/dev/shop', sessionId: SID, version: '2.1.14', agentId: 'acompact-9c41e7' };
  writeFileSync(
    helper,
    [
      { ...base, parentUuid: null, type: 'user', uuid: 'c0000001-0000-4000-8000-000000000001', timestamp: '2026-11-20T10:30:00.000Z', message: { role: 'user', content: 'Summarise the conversation so far: the rounding bug and where tax is computed.' } },
      { ...base, parentUuid: 'c0000001-0000-4000-8000-000000000001', type: 'assistant', uuid: 'c0000002-0000-4000-8000-000000000002', timestamp: '2026-11-20T10:30:09.000Z', requestId: 'req_compact_1', message: { model: 'claude-sonnet-4-6', id: 'msg_compact_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Summary: tax is rounded per line in computeTax; the fix is to round the total once.' }], stop_reason: 'end_turn', usage: { input_tokens: 12, cache_creation_input_tokens: 900, cache_read_input_tokens: 4000, output_tokens: 61 } } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n',
  );
  return { dir, session: join(dir, `${SID}.jsonl`), agent: join(dir, SID, 'subagents', `agent-${AGENT}.jsonl`), helper };
}

/** Each call once, from its last line, over the files of a session (what an independent reader adds up). */
function independentUsage(files: readonly string[]) {
  const values = files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Loose),
  );
  return lastLineUsage(values);
}

describe('Claude Code: the sub-agent files of a session are its threads', () => {
  it('show --json lists each (the Task call that ran it and its row; the compaction helper as one), --thread ID shows one, --thread all adds them', () => {
    const { session, agent, helper } = claudeSession();
    const shown = json('show', session);
    const threads = shown.threads as Thread[];
    expect(threads.map((t) => t.thread)).toEqual(['main', AGENT, 'acompact-9c41e7']);
    expect(threads[1]).toMatchObject({ file: agent, kind: 'sub-agent', name: 'Find tax computations', call: 'toolu_01Agent', callRow: 1, messages: 4 });
    expect(threads[2]).toMatchObject({ file: helper, kind: 'compaction', messages: 2 });
    // The row the call is at is the call's.
    expect(shown.messages[threads[1].callRow!].calls[0].id).toBe('toolu_01Agent');

    const one = json('show', session, '--thread', AGENT.slice(0, 6));
    expect(one.file).toBe(agent);
    expect(one.messages).toHaveLength(4);
    expect(one.session).toMatchObject({ id: SID, file: session, thread: AGENT, kind: 'sub-agent', call: 'toolu_01Agent' });

    const all = json('show', session, '--thread', 'all');
    const of = (t: string | undefined) => all.messages.filter((m: { thread?: string }) => m.thread === t);
    expect(of(undefined)).toHaveLength(shown.messages.length);
    expect(of(AGENT)).toHaveLength(4);
    expect(of('acompact-9c41e7')).toHaveLength(2);
    expect(all.messages.map((m: { index: number }) => m.index)).toEqual(all.messages.map((_: unknown, i: number) => i));
    expect(of(AGENT)[0]).toMatchObject({ file: agent, record: 0 });
  });

  it('a sub-agent file opened alone says whose it is; one whose session file is gone says the session by its id', () => {
    const { agent, session } = claudeSession();
    expect(json('show', agent).session).toMatchObject({ id: SID, file: session, thread: AGENT, call: 'toolu_01Agent' });
    const r = run('show', agent);
    expect(r.stderr).toContain(`sub-agent ${AGENT} of session ${SID}`);
    // Its lines name the session; its folder is not the session's: no file is made up for it.
    const alone = join(FIXTURES, 'formats/claude-code/subagents/agent-7f3a91c2.jsonl');
    expect(json('show', alone).session).toEqual({ id: '5e55a0b1-aaaa-4bbb-8ccc-000000000001', thread: '7f3a91c2', kind: 'sub-agent' });
    expect(run('show', alone).stderr).toContain('whose file is not beside it');
  });

  it("tokens counts the sub-agents' calls in the session's total and per thread, as an independent sum over the files", () => {
    const { session, agent, helper } = claudeSession();
    const out = json('tokens', session);
    const expected = independentUsage([session, agent, helper]);
    expect({ calls: out.session.calls, input: out.session.input, output: out.session.output }).toEqual(expected);
    const per = out.session.threads as Array<{ thread: string; calls: number; output: number; file?: string }>;
    expect(per.map((t) => t.thread)).toEqual(['main', AGENT, 'acompact-9c41e7']);
    expect(per.map((t) => t.calls).reduce((a, b) => a + b, 0)).toBe(out.session.calls);
    expect(per[1]).toMatchObject({ file: agent, ...{ calls: independentUsage([agent]).calls, output: independentUsage([agent]).output } });
    expect(per[2]).toMatchObject({ file: helper, calls: 1, output: 61 });
    // The session file's own calls, as before.
    expect(per[0].calls).toBe(independentUsage([session]).calls);
    const text = run('tokens', session).stdout;
    expect(text).toMatch(/The session in all \(every thread, its 2 thread files[^)]*\): /);
    // What the session cost in all, and each thread's part of it (the main thread's is what the list of sessions shows).
    const total = Number(/The session in all .*; \$([\d.]+) at list prices/.exec(text)?.[1]);
    const parts = [...text.matchAll(/^ {2}(?:main thread|sub-agent|compaction).*; \$([\d.e-]+)$/gim)].map((m) => Number(m[1]));
    expect(parts).toHaveLength(3);
    expect(total).toBeGreaterThan(0);
    expect(Math.abs(parts.reduce((a, b) => a + b, 0) - total)).toBeLessThan(0.01 + total * 0.05);
  });

  it('export --thread all writes each sub-agent under its name; --thread ID the one', () => {
    const { session } = claudeSession();
    const md = run('export', session, '--to', 'md', '--thread', 'all', '--no-redact').stdout;
    expect(md).toContain('## Main thread');
    expect(md).toContain(`## Sub-agent ${AGENT} (Find tax computations)`);
    expect(md).toContain('## Compaction helper acompact-9c41e7');
    expect(md).toContain('round the total once');
    const one = run('export', session, '--to', 'md', '--thread', AGENT, '--no-redact').stdout;
    // Of the session as the session list titles it.
    const { dir: listedDir } = claudeSession();
    const listed = (json('sessions', listedDir) as { sessions: Array<{ path: string; kind: string; title?: string }> }).sessions.find((s) => s.kind === 'session' && s.path.endsWith(`${SID}.jsonl`));
    expect(listed?.title).toBeTruthy();
    expect(one).toContain(`# Sub-agent ${AGENT} (Find tax computations) of ${listed!.title}\n`);
    expect(one).not.toContain('round the total once');
    // A folder exported with every thread: the sub-agents are in their session's transcript, not written again.
    const { dir } = claudeSession();
    const out = tempDir();
    run('export', dir, '--to', 'md', '--thread', 'all', '--no-redact', '-o', out);
    expect(readdirSync(out).sort()).toEqual([`${SID}.md`, 'index.md']);
  });

  it('a search hit in a sub-agent file names the session and the thread', () => {
    const { dir } = claudeSession();
    const found = json('search', dir, 'summarise the conversation');
    expect(found.hits).toHaveLength(1);
    expect(found.hits[0]).toMatchObject({ path: `${SID}/subagents/agent-acompact-9c41e7.jsonl`, session: { id: SID, path: `${SID}.jsonl`, thread: 'acompact-9c41e7', kind: 'compaction' } });
    expect(run('search', dir, 'summarise the conversation').stdout).toContain(`(compaction acompact-9c41e7 of session ${SID}.jsonl)`);
    // A hit in the session's own file names none.
    expect(json('search', dir, 'checkout round').hits.every((h: { session?: unknown }) => h.session === undefined)).toBe(true);
  });
});

const HOME = join(FIXTURES, 'sessions/codex-home');
const DAY = join(HOME, 'sessions/2026/11/22');
const PARENT = '019e1a00-1111-7aaa-8bbb-000000000001';
const CHILD = '019e1a02-2222-7ccc-8ddd-000000000002';
const REVIEW = '019e1a05-3333-7eee-8fff-000000000003';
const GUARDIAN = '019e1a06-4444-7abc-8def-000000000004';
const rollout = (name: string) => join(DAY, name);
const parentFile = rollout(`rollout-2026-11-22T10-00-00-${PARENT}.jsonl`);
const childFile = rollout(`rollout-2026-11-22T10-00-03-${CHILD}.jsonl`);
const reviewFile = rollout(`rollout-2026-11-22T10-05-00-${REVIEW}.jsonl`);
const guardianFile = join(HOME, 'archived_sessions', `rollout-2026-11-22T10-06-00-${GUARDIAN}.jsonl`);

/** A rollout's usage as its last token_count's running total says (an independent reading). */
function lastTotal(file: string) {
  const counts = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Loose)
    .filter((v) => v.type === 'event_msg' && v.payload?.type === 'token_count');
  const t = counts.at(-1)!.payload.info.total_token_usage;
  return { input: t.input_tokens, output: t.output_tokens, calls: counts.length };
}

describe('Codex: rollouts spawned by a session, its reviews and guardians are its threads, both ways', () => {
  it('show --json of the parent lists them (the spawn_agent call that started the child and its row), not an unrelated session', () => {
    const shown = json('show', parentFile);
    const threads = shown.threads as Thread[];
    expect(threads.map((t) => [t.thread, t.kind])).toEqual([
      ['main', undefined],
      [CHILD, 'spawned'],
      [REVIEW, 'review'],
      [GUARDIAN, 'guardian'],
    ]);
    expect(threads[1]).toMatchObject({ file: childFile, name: 'Kepler', call: 'call_spawn_01', callRow: 1 });
    expect(threads[3].file).toBe(guardianFile);
    expect(shown.messages[1].calls[0]).toMatchObject({ id: 'call_spawn_01', name: 'spawn_agent' });
    expect(json('show', parentFile, '--thread', 'Kepler').file).toBe(childFile);
  });

  it('each child names its parent, and the call that spawned it', () => {
    expect(json('show', childFile).session).toEqual({ id: PARENT, file: parentFile, thread: CHILD, kind: 'spawned', name: 'Kepler', call: 'call_spawn_01' });
    expect(json('show', reviewFile).session).toMatchObject({ id: PARENT, file: parentFile, kind: 'review' });
    expect(json('show', guardianFile).session).toMatchObject({ id: PARENT, file: parentFile, kind: 'guardian' });
    // A session of its own names no parent.
    expect(json('show', rollout('rollout-2026-11-22T10-09-00-019e1a09-5555-7123-8456-000000000005.jsonl')).session).toBeUndefined();
  });

  it("tokens: the children's calls in the session's total and per thread", () => {
    const out = json('tokens', parentFile);
    const files = [parentFile, childFile, reviewFile, guardianFile];
    const each = files.map(lastTotal);
    expect({ calls: out.session.calls, input: out.session.input, output: out.session.output }).toEqual({ calls: each.reduce((n, e) => n + e.calls, 0), input: each.reduce((n, e) => n + e.input, 0), output: each.reduce((n, e) => n + e.output, 0) });
    expect(out.session.threads.map((t: { thread: string; output: number }) => [t.thread, t.output])).toEqual([
      ['main', each[0].output],
      [CHILD, each[1].output],
      [REVIEW, each[2].output],
      [GUARDIAN, each[3].output],
    ]);
    // What is shown is still the parent's own thread.
    expect(out.reported.output).toBe(each[0].output);
  });

  it('a search hit in a child rollout names the session and the thread', () => {
    const found = json('search', HOME, 'rounding drift');
    const inChild = found.hits.filter((h: { path: string }) => h.path.includes(CHILD));
    expect(inChild.length).toBeGreaterThan(0);
    for (const h of inChild) expect(h.session).toEqual({ id: PARENT, path: `sessions/2026/11/22/rollout-2026-11-22T10-00-00-${PARENT}.jsonl`, thread: CHILD, kind: 'spawned' });
  });
});

const real = (p: string) => (REALFILES ? join(REALFILES, p) : '');
const JTK = 'claude-code/jtk-2.1.150/-Users-dumitruvulpe-uw-telecom-mobile';
if (!REALFILES) console.log('real sub-agent files skipped: no shared realfiles folder beside the checkout (set REALFILES to one)');

describe.skipIf(!REALFILES)('real sessions with sub-agent files', () => {
  it("801ea086: its two subagents/ transcripts are threads with the Task call that ran each; tokens adds their calls as an independent last-line sum over the three files does", () => {
    const session = real(`${JTK}/801ea086-c461-45be-aac3-f4b46d4a1c1a.jsonl`);
    const folder = real(`${JTK}/801ea086-c461-45be-aac3-f4b46d4a1c1a/subagents`);
    const agents = readdirSync(folder).filter((n) => n.endsWith('.jsonl')).sort();
    const threads = json('show', session).threads as Thread[];
    expect(threads.slice(1).map((t) => `agent-${t.thread}.jsonl`)).toEqual(agents);
    for (const t of threads.slice(1)) expect(t.call).toMatch(/^toolu_/);
    const out = json('tokens', session);
    const expected = lastLineUsage([session, ...agents.map((a) => join(folder, a))].flatMap((f) => lines(f.slice(REALFILES!.length + 1))));
    expect({ calls: out.session.calls, input: out.session.input, output: out.session.output }).toEqual(expected);
    // Without them (the session file alone) it is fewer: they were left out before.
    expect(out.session.threads[0].calls).toBe(lastLineUsage(lines(`${JTK}/801ea086-c461-45be-aac3-f4b46d4a1c1a.jsonl`)).calls);
    expect(out.session.calls).toBeGreaterThan(out.session.threads[0].calls);
  }, 120_000);

  it('a sub-agent file alone says whose it is; a side file whose session is not there names the session by id', () => {
    const agent = real(`${JTK}/801ea086-c461-45be-aac3-f4b46d4a1c1a/subagents/agent-ad34c691aafe3ca3f.jsonl`);
    expect(json('show', agent).session).toMatchObject({ id: '801ea086-c461-45be-aac3-f4b46d4a1c1a', thread: 'ad34c691aafe3ca3f', kind: 'sub-agent', call: expect.stringMatching(/^toolu_/) });
    const suggestion = 'claude-code/awesumsawz-2.1.25/-Users-jbiggs-code-buy-hh-buy-honehealth-com-themes-HoneLandingPages/61173429-154f-4db2-93b8-7b3f50ab674c/subagents/agent-aprompt_suggestion-554933.jsonl';
    if (existsSync(real(suggestion))) expect(json('show', real(suggestion)).session).toEqual({ id: '61173429-154f-4db2-93b8-7b3f50ab674c', thread: expect.any(String), kind: 'prompt suggestion' });
  }, 60_000);

  it('the Codex sub-agent rollouts name the parent thread their session_meta names (its rollout is not among them)', () => {
    const day = real('codex/kv248-0.115-vscode-subagents/sessions/2026/03/17');
    for (const name of readdirSync(day)) {
      const s = json('show', join(day, name)).session;
      expect(s).toMatchObject({ id: '019cf2c8-212d-7da0-a0db-31c7df70e3a5', kind: 'spawned', name: expect.any(String) });
      expect(s.file).toBeUndefined();
    }
  }, 60_000);
});
