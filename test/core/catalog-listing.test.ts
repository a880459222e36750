import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog, CatalogSync, inlineReaders, quickReadForCatalog, readForCatalog, type Readers } from '../../src/core/catalog/index.js';
import { queryTerms } from '../../src/core/search/index.js';
import { tempDir } from '../helpers.js';

// Claude Code sessions in the shape its files have (studied on ../shared/realfiles): a call streamed over a line
// per content block sharing message.id (usage on each, the last line's final), parallel tool calls answered by a
// user line each, tool results that hold the very words the listing looks for, summary and snapshot lines that
// are no message, compactions, sub-agent lines, CRLF and a blank line now and then.
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5-20251001', '<synthetic>', 'a-model-with-no-price'];
const EDGES = [' tabs\tand\r\nCRLF ', 'ΟΔΟΣ 𝔘 done\u2028', '"usage": {"input_tokens": 999999}', '{"type":"summary","summary":"not the title"}', 'a\\"usage\\"', '', 'the tax rounding question'];

const turn = fc.record({
  prompt: fc.constantFrom(...EDGES),
  blocks: fc.integer({ min: 1, max: 4 }),
  parallel: fc.integer({ min: 0, max: 3 }),
  model: fc.constantFrom(...MODELS),
  input: fc.oneof(fc.nat(5000), fc.constant(undefined)),
  output: fc.nat(3000),
  cacheRead: fc.nat(90000),
  cacheWrite: fc.nat(4000),
  oneHour: fc.nat(2000),
  result: fc.constantFrom(...EDGES),
  snapshot: fc.boolean(),
  // Claude Code titles a session as it goes (ai-title), and /rename names it (custom-title): the last of each counts.
  named: fc.constantFrom(undefined, undefined, undefined, { type: 'ai-title', aiTitle: 'Explore the tax rounding' }, { type: 'ai-title', aiTitle: 'Later 𝔘 title' }, { type: 'custom-title', customTitle: 'my rename' }),
  sidechain: fc.boolean(),
  minutes: fc.nat(600),
});
const session = fc.record({
  turns: fc.oneof(fc.array(turn, { minLength: 1, maxLength: 12 }), fc.array(turn, { minLength: 40, maxLength: 70 })),
  summary: fc.option(fc.constantFrom('Fix the tax rounding', 'ΟΔΟΣ 𝔘', '  spaced  ')),
  // Which message the summary's leaf is (null: one of another session's, as Claude Code 1.x heads a resumed file).
  leaf: fc.option(fc.nat(500)),
  // A summary of another session before it.
  foreign: fc.boolean(),
  compactAt: fc.option(fc.nat(20)),
  // A compaction's keys in Claude Code's order (its null parent, then the chain it ends), or in another writer's.
  boundaryKeys: fc.constantFrom('claude-code', 'other'),
  crlf: fc.boolean(),
  blank: fc.boolean(),
  cwd: fc.constantFrom('/home/dev/tally', '/home/dev/ü b'),
});
type Session = typeof session extends fc.Arbitrary<infer T> ? T : never;

function linesOf(s: Session, sessionId: string): string[] {
  const out: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const base = (at: number, side = false) => {
    const uuid = `${sessionId}-${n++}`;
    const b = { parentUuid: parent, isSidechain: side, userType: 'external', cwd: s.cwd, sessionId, version: '2.0.14', gitBranch: 'main', uuid, timestamp: new Date(Date.parse('2026-03-01T08:00:00Z') + at * 60_000).toISOString() };
    parent = uuid;
    return b;
  };
  s.turns.forEach((t, k) => {
    if (s.compactAt === k) {
      const { parentUuid, ...b } = base(t.minutes);
      const boundary = { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info', compactMetadata: { trigger: 'auto', preTokens: 150000 } };
      out.push(JSON.stringify(s.boundaryKeys === 'claude-code' ? { parentUuid: null, logicalParentUuid: parentUuid, ...b, ...boundary } : { ...b, parentUuid: null, logicalParentUuid: parentUuid, ...boundary }));
    }
    out.push(JSON.stringify({ ...base(t.minutes, t.sidechain), type: 'user', message: { role: 'user', content: t.prompt || 'hello' } }));
    const id = `msg_${sessionId}_${k}`;
    const usageAt = (b: number) => ({ ...(t.input === undefined ? {} : { input_tokens: t.input }), cache_read_input_tokens: t.cacheRead, cache_creation_input_tokens: t.cacheWrite, cache_creation: { ephemeral_5m_input_tokens: t.cacheWrite, ephemeral_1h_input_tokens: b === t.blocks - 1 ? t.oneHour : 0 }, output_tokens: b === t.blocks - 1 ? t.output : 1 });
    const calls = Array.from({ length: t.parallel }, (_, c) => `toolu_${sessionId}_${k}_${c}`);
    for (let b = 0; b < t.blocks; b++) {
      const content = b < t.blocks - 1 || calls.length === 0 ? [{ type: 'text', text: `part ${b} ${t.result}` }] : calls.map((c) => ({ type: 'tool_use', id: c, name: 'Bash', input: { command: `echo "${t.result}"` } }));
      out.push(JSON.stringify({ ...base(t.minutes, t.sidechain), type: 'assistant', requestId: `req_${sessionId}_${k}`, message: { id, type: 'message', role: 'assistant', model: t.model, content, stop_reason: null, usage: usageAt(b) } }));
    }
    for (const c of calls) out.push(JSON.stringify({ ...base(t.minutes, t.sidechain), type: 'user', message: { role: 'user', content: [{ tool_use_id: c, type: 'tool_result', content: t.result }] }, toolUseResult: { stdout: t.result } }));
    if (t.named) out.push(JSON.stringify({ ...t.named, sessionId }));
    if (t.snapshot) out.push(JSON.stringify({ type: 'file-history-snapshot', messageId: `${sessionId}-${n}`, snapshot: { trackedFileBackups: {}, timestamp: '2026-03-01T08:00:00Z' }, isSnapshotUpdate: false }));
    if (s.blank && k === 0) out.push('');
  });
  if (s.summary) out.unshift(JSON.stringify({ type: 'summary', summary: s.summary, leafUuid: s.leaf === null ? 'aaaa-elsewhere' : `${sessionId}-${s.leaf % n}` }));
  if (s.foreign) out.unshift(JSON.stringify({ type: 'summary', summary: 'Another session', leafUuid: 'bbbb-elsewhere' }));
  return out;
}

const textOf = (s: Session, sessionId: string) => linesOf(s, sessionId).join(s.crlf ? '\r\n' : '\n') + (s.crlf ? '\r\n' : '\n');


describe('the session list from a few lines of each file (before the whole read)', () => {
  it('gives each call the figures, model, day, price and row the whole read gives, and the session its id, title, project, models and count (property)', () => {
    fc.assert(
      fc.property(session, fc.boolean(), (s, sub) => {
        const dir = tempDir();
        const folder = sub ? join(dir, '-home-dev-tally', '0000000a-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'subagents') : join(dir, '-home-dev-tally');
        mkdirSync(folder, { recursive: true });
        const file = join(folder, sub ? 'agent-a1b2c3.jsonl' : '0000000b-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl');
        writeFileSync(file, textOf(s, 'sess-1'));
        const size = Buffer.byteLength(textOf(s, 'sess-1'));
        const whole = readForCatalog(file, size).facts!;
        const quick = quickReadForCatalog(file, size);
        expect(quick?.partial).toBe(true);
        const listed = quick!.facts!;
        expect(listed.messages).toEqual([]);
        expect(listed.calls).toEqual(whole.calls);
        const pick = (f: typeof whole) => f.sessions.map(({ sessionId, kind, parentFile, agentId, title, project, models, messages }) => ({ sessionId, kind, parentFile, agentId, title, project, models, messages }));
        expect(pick(listed)).toEqual(pick(whole));
      }),
      { numRuns: Number(process.env.RUNS ?? 150) },
    );
  });

  it('is not tried on a format with no listing marks, nor on an empty file', () => {
    const dir = tempDir();
    const chat = join(dir, 'chat.json');
    writeFileSync(chat, JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(quickReadForCatalog(chat, 50)).toBeUndefined();
    const empty = join(dir, '0000000c-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl');
    writeFileSync(empty, '');
    expect(quickReadForCatalog(empty, 0)).toBeUndefined();
  });

  it('a store built listing first holds exactly what one built by whole reads alone holds; listed only, its usage is already the same', async () => {
    const store = fc.sample(fc.array(session, { minLength: 3, maxLength: 6 }), { numRuns: 1, seed: 42 })[0];
    const dir = tempDir();
    store.forEach((s, i) => {
      const folder = join(dir, i % 2 ? '-home-dev-a' : '-home-dev-b');
      mkdirSync(join(folder, `0000000${i}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`, 'subagents'), { recursive: true });
      writeFileSync(join(folder, `0000000${i}-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl`), textOf(s, `s${i}`));
      writeFileSync(join(folder, `0000000${i}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`, 'subagents', `agent-${i}.jsonl`), textOf(s, `s${i}`));
      // Claude Code's description of a sub-agent's task beside it (a broken one on the odd ones: the prompt titles those).
      writeFileSync(join(folder, `0000000${i}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`, 'subagents', `agent-${i}.meta.json`), i % 2 ? '{"description": ' : JSON.stringify({ agentType: 'Explore', description: ` Find the tax rounding ${i} ` }));
    });
    writeFileSync(join(dir, 'chat.json'), JSON.stringify({ messages: [{ role: 'user', content: 'the tax rounding question' }] }));
    const wholeOnly: Readers = { ...inlineReaders, quick: async () => undefined };
    const reference = Catalog.open(join(tempDir(), 'reference.sqlite'));
    await new CatalogSync(reference, wholeOnly).syncFolders([dir]);

    const catalog = Catalog.open(join(tempDir(), 'catalog.sqlite'));
    const seen: boolean[] = [];
    const listed = await new CatalogSync(catalog).syncFolders([dir], { upTo: 'listed', onProgress: (p) => seen.push(!!p.listed) });
    expect(listed.listed).toBe(true);
    expect(listed.skimmed).toBe(store.length * 2);
    // Listed only: every session there, its usage exact; the JSON chat (no marks) read whole to be listed.
    const keys = (c: Catalog) => c.sessions({ under: [dir], limit: 100 }).map((r) => `${r.path}#${r.conversation} ${r.kind} ${r.title} ${r.costUsd?.toFixed(9)} ${r.output}`).sort();
    expect(keys(catalog)).toEqual(keys(reference));
    // A sub-agent is called what its session's thread menu calls it, where Claude Code described its task.
    const agents = reference.sessions({ under: [dir], limit: 100 }).filter((r) => r.kind === 'subagent');
    expect(agents).toHaveLength(store.length);
    for (const a of agents) {
      const i = Number(/agent-(\d+)\.jsonl$/.exec(a.path)![1]);
      if (i % 2 === 0) expect(a.title).toBe(`Find the tax rounding ${i}`);
      else expect(a.title).not.toMatch(/Find the tax rounding/);
    }
    for (const by of ['day', 'model', 'project', 'tool'] as const) expect(catalog.usage(by, [dir])).toEqual(reference.usage(by, [dir]));
    expect(catalog.search(queryTerms('rounding'), { under: [dir], limit: 100, countLimit: 1000 }).hits.map((h) => h.path)).toEqual([join(dir, 'chat.json')]);

    // The next sync reads what was listed whole: the same catalog as the whole reads', search included.
    const done = await new CatalogSync(catalog).syncFolders([dir]);
    expect(done.read).toBe(store.length * 2);
    const rows = (c: Catalog) => c.sessions({ under: [dir], limit: 100 }).map(({ id: _id, ...r }) => r).sort((a, b) => `${a.path}#${a.conversation}`.localeCompare(`${b.path}#${b.conversation}`));
    expect(rows(catalog)).toEqual(rows(reference));
    for (const by of ['day', 'model', 'project', 'tool'] as const) expect(catalog.usage(by, [dir])).toEqual(reference.usage(by, [dir]));
    expect(catalog.expensiveCalls(20, [dir])).toEqual(reference.expensiveCalls(20, [dir]));
    const found = (c: Catalog) => c.search(queryTerms('rounding'), { under: [dir], limit: 1000, countLimit: 10000 }).hits.map((h) => `${h.path} ${h.index}`).sort();
    expect(found(catalog)).toEqual(found(reference));
    // And once whole, nothing is read again.
    expect((await new CatalogSync(catalog).syncFolders([dir])).read).toBe(0);
    // Built in one sync, it says every session is listed when every one is, with its usage, before the whole reads.
    const third = Catalog.open(join(tempDir(), 'third.sqlite'));
    let atListed: string[] | undefined;
    let usageAtListed: unknown;
    await new CatalogSync(third).syncFolders([dir], {
      onProgress: (p) => {
        if (!p.listed || atListed) return;
        atListed = keys(third);
        usageAtListed = third.usage('model', [dir]);
      },
    });
    expect(atListed).toEqual(keys(reference));
    expect(usageAtListed).toEqual(reference.usage('model', [dir]));
    third.close();
    catalog.close();
    reference.close();
  });
});

/**
 * A Codex rollout as Codex writes it: its meta, turns of a prompt, reasoning, calls and their outputs (long ones,
 * what the listing leaves out), an answer, and the `token_count` event after each call (again with the same totals
 * now and then, as Codex writes it; older ones with totals alone).
 */
const codexTurn = fc.record({
  model: fc.constantFrom('gpt-5-codex', 'gpt-5.1-codex-max', 'a-model-with-no-price'),
  prompt: fc.string({ minLength: 1, maxLength: 40 }),
  calls: fc.array(fc.record({ output: fc.string({ maxLength: 3000 }), long: fc.nat(6000), custom: fc.boolean(), parallel: fc.boolean() }), { maxLength: 4 }),
  reasoning: fc.nat(3000),
  answer: fc.string({ maxLength: 200 }),
  usage: fc.array(fc.record({ input: fc.nat(90_000), cached: fc.nat(50_000), output: fc.nat(4000), reasoning: fc.nat(900) }), { minLength: 1, maxLength: 3 }),
  repeat: fc.boolean(),
  totalsOnly: fc.boolean(),
});
const codexRollout = fc.record({ turns: fc.array(codexTurn, { minLength: 1, maxLength: 4 }), crlf: fc.boolean() });
type CodexTurn = typeof codexTurn extends fc.Arbitrary<infer T> ? T : never;

function codexText(r: { turns: CodexTurn[]; crlf: boolean }): string {
  let t = Date.parse('2026-11-21T09:30:00Z');
  const at = () => new Date((t += 1500)).toISOString();
  const line = (type: string, payload: object) => JSON.stringify({ timestamp: at(), type, payload });
  const out = [line('session_meta', { id: '0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b', timestamp: at(), cwd: '/home/dev/tally', originator: 'codex_cli_rs', cli_version: '0.98.0', instructions: null })];
  const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  let k = 0;
  for (const turn of r.turns) {
    out.push(line('turn_context', { cwd: '/home/dev/tally', approval_policy: 'on-request', model: turn.model, summary: 'auto' }));
    out.push(line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.prompt }] }));
    const count = (u: CodexTurn['usage'][number]) => {
      const last = { input_tokens: u.input + u.cached, cached_input_tokens: u.cached, output_tokens: u.output, reasoning_output_tokens: u.reasoning, total_tokens: u.input + u.cached + u.output };
      for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += last[key];
      const info = turn.totalsOnly ? { total_token_usage: { ...total } } : { total_token_usage: { ...total }, last_token_usage: last, model_context_window: 272000 };
      out.push(line('event_msg', { type: 'token_count', info }));
      if (turn.repeat) out.push(line('event_msg', { type: 'token_count', info }));
    };
    out.push(line('response_item', { type: 'reasoning', id: `rs_${k}`, summary: [{ type: 'summary_text', text: 'Looking into it' }], content: null, encrypted_content: 'gAAAA'.padEnd(turn.reasoning + 5, 'x') }));
    turn.calls.forEach((c, i) => {
      const id = `call_${k}_${i}`;
      out.push(line('response_item', c.custom ? { type: 'custom_tool_call', status: 'completed', call_id: id, name: 'apply_patch', input: '*** Begin Patch' } : { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'ls'] }), call_id: id }));
      if (!c.parallel) count(turn.usage[0]);
      const text = c.output + 'é🙂 '.repeat(c.long);
      out.push(line('response_item', c.custom ? { type: 'custom_tool_call_output', call_id: id, output: JSON.stringify({ output: text, metadata: { exit_code: 0 } }) } : { type: 'function_call_output', call_id: id, output: text }));
    });
    out.push(line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.answer }] }));
    for (const u of turn.usage) count(u);
    k++;
  }
  const eol = r.crlf ? '\r\n' : '\n';
  return out.join(eol) + eol;
}

describe('a Codex rollout listed from its text without its tools’ outputs (before the whole read)', () => {
  it('gives each call the figures, model, day, price and row the whole read gives, and the session its id, title, times, models and count (property)', () => {
    let slimmed = 0;
    const runs = Number(process.env.RUNS ?? 60);
    fc.assert(
      fc.property(codexRollout, (r) => {
        const dir = join(tempDir(), 'sessions', '2026', '11', '21');
        mkdirSync(dir, { recursive: true });
        const file = join(dir, 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');
        const text = codexText(r);
        writeFileSync(file, text);
        const size = Buffer.byteLength(text);
        const whole = readForCatalog(file, size).facts!;
        expect(whole.format).toBe('codex-rollout');
        const quick = quickReadForCatalog(file, size);
        // Read whole to be listed where its long lines are too few to leave out much.
        if (!quick) return;
        slimmed++;
        expect(quick.partial).toBe(true);
        const listed = quick.facts!;
        expect(listed.messages).toEqual([]);
        expect(listed.calls).toEqual(whole.calls);
        const pick = (f: typeof whole) => f.sessions.map(({ sessionId, kind, title, project, models, messages, prompts, firstAt, lastAt }) => ({ sessionId, kind, title, project, models, messages, prompts, firstAt, lastAt }));
        expect(pick(listed)).toEqual(pick(whole));
        expect(listed.otherRecords).toBe(whole.otherRecords);
      }),
      { numRuns: runs },
    );
    // Most rollouts drawn have long outputs: the listing's own read is what was compared.
    expect(slimmed).toBeGreaterThan(runs / 3);
  });

  it('is listed so where its tools’ outputs are most of it, and read whole where they are not', () => {
    const dir = tempDir();
    const turn = { model: 'gpt-5-codex' as const, prompt: 'fix the tax rounding', reasoning: 2000, answer: 'done', usage: [{ input: 1000, cached: 500, output: 200, reasoning: 50 }], repeat: false, totalsOnly: false };
    const big = join(dir, 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');
    writeFileSync(big, codexText({ turns: [{ ...turn, calls: [{ output: 'x', long: 5000, custom: false, parallel: false }] }], crlf: false }));
    expect(quickReadForCatalog(big, Buffer.byteLength(codexText({ turns: [{ ...turn, calls: [{ output: 'x', long: 5000, custom: false, parallel: false }] }], crlf: false })))?.partial).toBe(true);
    const small = join(dir, 'rollout-2026-11-21T09-31-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5c.jsonl');
    const smallText = codexText({ turns: [{ ...turn, reasoning: 10, calls: [{ output: 'ok', long: 0, custom: false, parallel: false }] }], crlf: false });
    writeFileSync(small, smallText);
    expect(quickReadForCatalog(small, Buffer.byteLength(smallText))).toBeUndefined();
  });
});
