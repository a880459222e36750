import { diffLines } from 'diff';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { DirEntry, Result, Skeleton } from '../../app/shared/contract.js';
import { sparseGet } from '../../app/shared/sparse.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { buildViewSkeleton, countView } from '../../src/core/views.js';
import { getTokenizer, strategies } from '../../src/core/index.js';
import { listFully } from '../support/listing.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function setup() {
  const dir = tempDir();
  cpSync(join(FIXTURES, 'formats'), dir, { recursive: true });
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const call = async <T = Record<string, unknown>>(channel: string, input: unknown): Promise<T> => {
    const r: Result<unknown> = await dispatchNow(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  return { dir, call, rt };
}

describe('every format through the handlers', () => {
  it('the folder lists as a tree of every format, subfolders and MEMORY.md included', async () => {
    const { rt } = setup();
    const entries = await listFully(rt);
    const byPath = Object.fromEntries(entries.map((e) => [e.path, e]));
    expect(byPath['claude-code/subagents/agent-7f3a91c2.jsonl']).toMatchObject({ format: 'claude-code', messages: 3 });
    expect(byPath['memory/empty/MEMORY.md']).toMatchObject({ format: 'swarms-memory', messages: 0 });
    expect(byPath['openai/finetune.jsonl']).toMatchObject({ format: 'openai-chat-jsonl', conversations: 3 });
    expect(entries.filter((e) => e.error)).toEqual([]);
    // Every fixture file is listed, but a sub-agent's sidecar, a database's write-ahead log (read with it), Codex's
    // log database (no conversations) and the pieces of an OpenCode session.
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
    expect(entries.length).toBe(walk(join(FIXTURES, 'formats')).filter((f) => !f.endsWith('.meta.json') && !/-(wal|shm)$/.test(f) && !f.endsWith('logs_2.sqlite') && !/storage\/(message|part|project)\//.test(f)).length);
    expect(entries.some((e) => e.path.endsWith('.meta.json'))).toBe(false);
  });

  it('a Claude Code session: tool calls as parts, sub-agent and meta flags, reported usage once per call', async () => {
    const { call } = setup();
    const path = 'claude-code/session.jsonl';
    const opened = await call<Skeleton>('conversation:open', { path });
    // What the model is sent now: since the compaction, the boundary and the summary.
    expect(opened).toMatchObject({ count: 2, other: 3, format: 'claude-code', whole: false, earlier: 7 });
    // The main thread and the sub-agent's, each a conversation of its own.
    expect(opened.threads?.map((t) => [t.thread, t.messages])).toEqual([['main', 2], ['side:c0000000', 2]]);
    await call('conversation:path', { path, whole: true });
    const sk = await call<Skeleton>('conversation:open', { path });
    expect(sk).toMatchObject({ count: 9, whole: true });
    // The sub-agent's two messages are not in the main thread.
    expect(sk.flags.filter((f) => f & 32).length).toBe(0);
    const side = await call<Skeleton>('conversation:open', { path, conversation: 1 });
    expect(side.count).toBe(2);
    expect(side.flags.every((f) => (f & 32) !== 0)).toBe(true);
    // Two lines share msg_01XYZ: its usage is shown once, at its last line, whose figures are the call's final
    // ones (the sub-agent's call is in its own thread).
    expect(sk.usage.at).toEqual([2, 4]);
    expect(sparseGet(sk.toolCalls, 2)).toEqual(['toolu_01Q']);
    expect(sparseGet(sk.toolResults, 3)).toBe('toolu_01Q');
    const m = await call<{ view: { parts: Array<{ kind: string; name?: string }> }; editableText: boolean }>('conversation:message', { path, index: 2 });
    expect(m.view.parts).toEqual([{ kind: 'tool-call', id: 'toolu_01Q', name: 'Read', arguments: '{"file_path":"/home/dev/app/test/date.test.ts"}' }]);
    const counts = await call<{ tokens: number[]; toolTokens: number[]; reasoningTokens: number[] }>('tokens:count', { path, model: 'gpt-5.4' });
    expect(counts.tokens[2]).toBeGreaterThan(0);
    expect(counts.toolTokens[2]).toBe(counts.tokens[2]);
    expect(counts.reasoningTokens[1]).toBeGreaterThan(0);
    expect(counts.tokens[1]).toBe(0);
  });

  it('edits one line of a JSONL session and saves a one-line diff; other records untouched', async () => {
    const { dir, call } = setup();
    const path = 'claude-code/session.jsonl';
    const before = readFileSync(join(dir, path), 'utf8');
    await call('conversation:open', { path });
    await call('conversation:path', { path, whole: true });
    await call('edit:apply', { path, command: { type: 'set-text', index: 0, text: 'The date test fails on CI. Please fix it.' } });
    await call('edit:save', { path });
    const after = readFileSync(join(dir, path), 'utf8');
    const changed = diffLines(before, after).filter((p) => p.added || p.removed);
    expect(changed.map((p) => p.count)).toEqual([1, 1]);
    expect(changed[1].value).toContain('The date test fails on CI. Please fix it.');
    // A second edit after the save keeps the first one's line and changes only the next.
    await call('edit:apply', { path, command: { type: 'set-text', index: 8, text: 'Summary: fixed.' } });
    await call('edit:save', { path });
    expect(diffLines(after, readFileSync(join(dir, path), 'utf8')).filter((p) => p.added || p.removed).map((p) => p.count)).toEqual([1, 1]);
    // Undo across the save still works.
    await call('edit:undo', { path });
    await call('edit:save', { path });
    expect(readFileSync(join(dir, path), 'utf8')).toBe(after);
  });

  it('a dataset holds several conversations: each opens, edits and saves on its own line', async () => {
    const { dir, call } = setup();
    const path = 'openai/finetune.jsonl';
    const before = readFileSync(join(dir, path), 'utf8');
    const second = await call<{ conversation: number; conversations: number; count: number }>('conversation:open', { path, conversation: 1 });
    expect(second).toMatchObject({ conversation: 1, conversations: 3, count: 3 });
    await call('edit:apply', { path, conversation: 1, command: { type: 'set-text', index: 2, text: 'Shakespeare, obviously.' } });
    expect(await call('edit:state', { path, conversation: 0 })).toMatchObject({ dirty: true, canUndo: undefined });
    await call('edit:save', { path });
    const lines = (s: string) => s.split('\n');
    const changed = lines(readFileSync(join(dir, path), 'utf8')).map((l, i) => (l === lines(before)[i] ? '' : i)).filter((x) => x !== '');
    expect(changed).toEqual([1]);
  });

  it('a whole record can be replaced (the raw editor); bad JSON shapes are refused', async () => {
    const { dir, call } = setup();
    const path = 'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';
    await call('conversation:open', { path });
    // The session was compacted: its whole history holds the call, the default view only what followed.
    await call('conversation:path', { path, whole: true });
    const m = await call<{ message: Record<string, unknown> }>('conversation:message', { path, index: 3 });
    const payload = { ...(m.message.payload as object), arguments: '{"command":["rg","--version","."]}' };
    await call('edit:apply', { path, command: { type: 'replace', index: 3, record: { ...m.message, payload } } });
    await call('edit:save', { path });
    expect(readFileSync(join(dir, path), 'utf8')).toContain('\\"--version\\",\\".\\"');
  });

  it('a Task call’s row names the sub-agent thread it ran', async () => {
    const { call } = setup();
    const sk = await call<Skeleton>('conversation:open', { path: 'claude-code/task-subagent.jsonl' });
    expect(sk.threads?.map((t) => [t.thread === 'main' ? 'main' : 'side', t.messages, t.task])).toEqual([
      ['main', 4, undefined],
      ['side', 2, 1],
    ]);
    // Each thread's own figure; together the session's.
    const counts = await call<{ total: number; fileTotal: number; threadTotals: Record<string, number> }>('tokens:count', { path: 'claude-code/task-subagent.jsonl', model: 'gpt-4o' });
    const side = sk.threads!.find((t) => t.thread !== 'main')!.conversation;
    expect(counts.threadTotals[sk.conversation]).toBe(counts.total);
    expect(counts.threadTotals[side]).toBeGreaterThan(0);
    expect(counts.threadTotals[side] + counts.total).toBe(counts.fileTotal);
  });

  it('a session whose sub-agents have files of their own (Claude Code 2.1): each linked to the Task call that ran it, and back', async () => {
    const { call } = setup();
    const SID = 'b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13';
    const path = `claude-code/${SID}.jsonl`;
    await call('conversation:open', { path });
    const links = await call<{ subagents: Array<{ path: string; agentId: string; task?: number; title?: string; agentType?: string }> }>('conversation:links', { path });
    expect(links.subagents).toEqual([expect.objectContaining({ path: `claude-code/${SID}/subagents/agent-a3f9e1d2b7c40815.jsonl`, agentId: 'a3f9e1d2b7c40815', title: 'Find tax computations', agentType: 'Explore', task: 1 })]);
    const agent = links.subagents[0].path;
    await call('conversation:open', { path: agent });
    const back = await call<{ parent?: { path: string; sessionId: string }; subagents: unknown[] }>('conversation:links', { path: agent });
    expect(back.parent).toEqual({ path, sessionId: SID, thread: 'a3f9e1d2b7c40815', kind: 'sub-agent' });
    // A sub-agent file whose session file is not there is a file alone.
    expect((await call<{ parent?: unknown }>('conversation:links', { path: 'claude-code/subagents/agent-7f3a91c2.jsonl' })).parent).toBeUndefined();
    // The files of other tools, and flat sessions, have none.
    expect(await call('conversation:links', { path: 'claude-code/session.jsonl' })).toEqual({ subagents: [] });
    // A message hanging from the tool's own line (a local command's) is not a continuation.
    expect(await call('conversation:links', { path: 'claude-code/cart-rewind-compact.jsonl' })).toEqual({ subagents: [] });
    expect(await call('conversation:links', { path: 'openai/chat.json' })).toEqual({ subagents: [] });
  });

  it('a session resumed in a new file names the file it goes on from', async () => {
    const { call, dir } = setup();
    const old = readFileSync(join(dir, 'claude-code/cart-rewind-compact.jsonl'), 'utf8').trim().split('\n');
    const leaf = JSON.parse(old[old.length - 1]) as { uuid: string; sessionId: string };
    const line = { parentUuid: leaf.uuid, isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: 'c0ffee00-0000-4000-8000-000000000001', version: '2.1.14', type: 'user', message: { role: 'user', content: 'And the shipping line?' }, uuid: 'c0ffee00-0000-4000-8000-0000000000aa', timestamp: '2026-11-25T09:00:00.000Z' };
    writeFileSync(join(dir, 'claude-code/resumed.jsonl'), JSON.stringify(line) + '\n');
    await call('conversation:open', { path: 'claude-code/resumed.jsonl' });
    const links = await call<{ continues?: { uuid: string; path?: string } }>('conversation:links', { path: 'claude-code/resumed.jsonl' });
    expect(links.continues).toEqual({ uuid: leaf.uuid, path: 'claude-code/cart-rewind-compact.jsonl' });
  });

  it('what the model sees is the request in the agent’s own API shape, with the panel’s figure', async () => {
    const { call } = setup();
    const path = 'claude-code/session.jsonl';
    await call('conversation:open', { path });
    await call('conversation:path', { path, whole: true });
    const r = await call<{ text: string; tokens: number; shape: string }>('window:preview', { path, model: 'gpt-4o', strategy: 'null', params: {} });
    expect(r.shape).toBe('anthropic-messages');
    const body = JSON.parse(r.text);
    expect(body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content.map((b: { type: string }) => b.type) : []))).toEqual(expect.arrayContaining(['tool_use', 'tool_result']));
    const counts = await call<{ total: number }>('tokens:count', { path, model: 'gpt-4o' });
    expect(r.tokens).toBe(counts.total);
    const codex = await call<{ text: string; shape: string }>('window:preview', { path: 'openai/chat.json', model: 'gpt-4o', strategy: 'null', params: {} });
    expect(codex.shape).toBe('openai-chat');
    expect(Array.isArray(JSON.parse(codex.text).messages)).toBe(true);
  });

  it('a rewind’s fork, ‹ then ›: back on the branch the session went on with, past its compaction', async () => {
    const { call } = setup();
    const path = 'claude-code/cart-rewind-compact.jsonl';
    const opened = await call<Skeleton>('conversation:open', { path });
    const whole = await call<{ delta: { file: Skeleton } }>('conversation:path', { path, whole: true });
    const length = whole.delta.file.count;
    const fork = whole.delta.file.forks![0];
    const other = await call<{ delta: { file: Skeleton } }>('conversation:path', { path, at: fork.at, option: fork.chosen === 0 ? 1 : 0 });
    expect(other.delta.file.count).toBeLessThan(length);
    const back = await call<{ delta: { file: Skeleton } }>('conversation:path', { path, at: fork.at, option: fork.chosen });
    expect(back.delta.file.count).toBe(length);
    expect(back.delta.file.forks![0].chosen).toBe(fork.chosen);
    const since = await call<{ delta: { file: Skeleton } }>('conversation:path', { path, whole: false });
    expect(since.delta.file.count).toBe(opened.count);
  });

  it('the tree view: every branch as runs of messages; a click on one shows it, past its compaction when it is before one', async () => {
    const { call } = setup();
    const path = 'claude-code/cart-rewind-compact.jsonl';
    const opened = await call<Skeleton>('conversation:open', { path });
    const outline = await call<{ segments: Array<{ first: number; depth: number; shown: boolean; leaf: number; firstText: string; compacted: boolean }> }>('conversation:outline', { path });
    const abandoned = outline.segments.find((s) => !s.shown)!;
    expect(abandoned.firstText).toContain('Use a decimal library instead.');
    const moved = await call<{ delta: { file: Skeleton } }>('conversation:path', { path, leaf: abandoned.first });
    // The rewound-away branch never reached the compaction: it is its own path from the first message.
    expect(moved.delta.file.earlier).toBe(0);
    expect(moved.delta.file.count).toBeLessThan(opened.count + (opened.earlier ?? 0));
    const after = await call<{ segments: Array<{ first: number; shown: boolean }> }>('conversation:outline', { path });
    expect(after.segments.find((s) => s.first === abandoned.first)!.shown).toBe(true);
    // The first run, before the fork and the compaction, shows the latest branch with the history it is in.
    const first = outline.segments[0];
    const back = await call<{ delta: { file: Skeleton } }>('conversation:path', { path, leaf: first.first });
    expect(back.delta.file.whole).toBe(true);
    // A flat file has no tree; a record of another thread is refused plainly.
    expect((await call<{ segments: unknown[] }>('conversation:outline', { path: 'openai/chat.json' })).segments).toEqual([]);
    await expect(call('conversation:path', { path, leaf: 100000 })).rejects.toThrow(/not in the thread shown/);
  });

  it("the tree view names an OASST reply by the file's rank, as the fork arrows and the rank column do", async () => {
    const { call } = setup();
    const path = 'oasst/2023-04-12_oasst_ready.trees.jsonl';
    await call<Skeleton>('conversation:open', { path });
    const outline = await call<{ segments: Array<{ depth: number; label?: string; shown: boolean }> }>('conversation:outline', { path });
    const ranked = outline.segments.filter((s) => s.depth > 0 && s.label);
    expect(ranked.length).toBeGreaterThan(1);
    for (const s of ranked) expect(s.label).toMatch(/^rank \d+$/);
    // The path shown follows the best-ranked replies.
    expect(ranked.filter((s) => s.shown).every((s) => s.label === 'rank 0')).toBe(true);
  });

  it('what the model sees of a compacted Claude Code session: no boundary line, one message per API call and role', async () => {
    const { call } = setup();
    const path = 'claude-code/cart-rewind-compact.jsonl';
    await call('conversation:open', { path });
    const r = await call<{ text: string; messages: number; system: boolean }>('window:preview', { path, model: 'gpt-4o', strategy: 'null', params: {} });
    const body = JSON.parse(r.text) as { system?: string; messages: Array<{ role: string; content: unknown }> };
    expect(body.system).toBeUndefined();
    expect(r.system).toBe(false);
    expect(r.messages).toBe(body.messages.length);
    // The API takes turns: never two of one role in a row, never an empty one (the boundary line is not sent).
    body.messages.forEach((m, k) => {
      expect(Array.isArray(m.content) ? m.content.length : String(m.content).length).toBeGreaterThan(0);
      if (k > 0) expect(m.role).not.toBe(body.messages[k - 1].role);
    });
    expect(JSON.stringify(body.messages[0])).toContain('This session is being continued');
  });

  it('what the model sees after auto-compact is the summary and what it keeps, not the history the file keeps before its boundary', async () => {
    const { call } = setup();
    const path = 'claude-code/cart-rewind-compact.jsonl';
    await call('conversation:open', { path });
    await call('conversation:path', { path, whole: true });
    const r = await call<{ text: string; messages: number; summaries: number }>('window:preview', { path, model: 'gpt-4o', strategy: 'auto-compact', params: { contextWindowTokens: 200, compactAt: '0.92', keepRecentMessages: 0 } });
    expect(r.summaries).toBe(1);
    const body = JSON.parse(r.text) as { messages: Array<{ role: string; content: unknown }> };
    // One summary, nothing of what it replaced.
    expect(body.messages.length).toBe(1);
    expect(JSON.stringify(body.messages[0])).toContain('[summary of');
    expect(r.text).not.toContain('Use a decimal library instead.');
    // The whole path runs through the session's compaction: said, since no request held all of it.
    const whole = await call<{ compactions?: number }>('window:preview', { path, model: 'gpt-4o', strategy: 'null', params: {} });
    expect(whole.compactions).toBe(1);
    await call('conversation:path', { path, whole: false });
    expect((await call<{ compactions?: number }>('window:preview', { path, model: 'gpt-4o', strategy: 'null', params: {} })).compactions).toBeUndefined();
  });

  it('what the model sees of a Codex rollout is the Responses API input: its own items, encrypted reasoning kept', async () => {
    const { call } = setup();
    const path = 'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';
    await call('conversation:open', { path });
    const r = await call<{ text: string; shape: string; messages: number }>('window:preview', { path, model: 'gpt-4o', strategy: 'null', params: {} });
    expect(r.shape).toBe('openai-responses');
    const body = JSON.parse(r.text) as { input: Array<{ type: string }> };
    expect(r.messages).toBe(body.input.length);
    expect(body.input.every((i) => typeof i.type === 'string')).toBe(true);
  });

  it('exports a conversation into another format', async () => {
    const { call } = setup();
    const r = await call<{ filename: string; text: string }>('edit:export', { path: 'anthropic/api_conversation_history.json', format: 'openai-chat' });
    expect(r.filename).toBe('api_conversation_history.json');
    const list = JSON.parse(r.text);
    expect(list[1].tool_calls[0].function.name).toBe('read_file');
  });
});

describe('tool results the file does not link by id', () => {
  it('a swarms tool message without tool_call_id answers the call before it: linked both ways, no orphan', async () => {
    const { dir, call } = setup();
    writeFileSync(
      join(dir, 'fin.json'),
      JSON.stringify([
        { role: 'User', content: 'Margins?', timestamp: '2025-10-01T10:00:01', token_count: 2 },
        { role: 'Financial-Analysis-Agent', content: 'Tool Usage: calling fetch_financials', timestamp: '2025-10-01T10:00:03', token_count: 6, metadata: { tool_calls: [{ id: 'call_fin1', type: 'function', function: { name: 'fetch_financials', arguments: '{}' } }] } },
        { role: 'tool', content: { NVDA: 0.729 }, timestamp: '2025-10-01T10:00:04', token_count: 9 },
      ]),
    );
    const sk = await call<Skeleton>('conversation:open', { path: 'fin.json' });
    expect(sparseGet(sk.toolCalls, 1)).toEqual(['call_fin1']);
    expect(sparseGet(sk.toolResults, 2)).toBe('call_fin1');
    const m = await call<{ view: { parts: Array<{ kind: string; callId?: string }> } }>('conversation:message', { path: 'fin.json', index: 2 });
    expect(m.view.parts).toEqual([expect.objectContaining({ kind: 'tool-result', callId: 'call_fin1' })]);
  });

  it('ShareGPT turns (no ids at all): the observation answers the function_call, and a plan that keeps only it warns', async () => {
    const { dir, call } = setup();
    writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ conversations: [{ from: 'human', value: 'Rate?' }, { from: 'function_call', value: '{"name":"rate","arguments":{}}' }, { from: 'observation', value: '4.31' }, { from: 'gpt', value: '4.31 PLN.' }] }]));
    const sk = await call<Skeleton>('conversation:open', { path: 'tools.json' });
    expect(sparseGet(sk.toolResults, 2)).toBe(sparseGet(sk.toolCalls, 1)![0]);
    // The planners (the renderer's, the CLI's) see the same link.
    const opened = readDocumentFile(join(dir, 'tools.json'));
    const skeleton = buildViewSkeleton(opened.doc.conversations[0].records.map((r) => opened.codec.view(r)), getTokenizer('gpt-5.4'));
    expect(strategies.plan('last-n', skeleton, { limit: 2 }).warnings).toContainEqual(expect.objectContaining({ code: 'orphaned-tool-result', index: 2 }));
  });
});

describe('a dataset in the sidebar', () => {
  it('lists each conversation’s first line and messages; once counted, each one’s tokens come in an event and after a relist', async () => {
    const { rt, call } = setup();
    const details: DirEntry[] = [];
    rt.onEvent = (event, payload) => {
      if (event === 'dir:details') details.push(...(payload as { entries: DirEntry[] }).entries);
    };
    const entries = await listFully(rt);
    const ft = entries.find((e) => e.path === 'openai/finetune.jsonl')!;
    expect(ft.conversationMessages).toEqual(ft.titles!.map((_, i) => readDocumentFile(join(rt.context.roots.root(), 'openai/finetune.jsonl')).doc.conversations[i].records.length));
    expect(ft.titles!.every((t) => !/^conversation \d+$/.test(t))).toBe(true);
    await call('conversation:open', { path: 'openai/finetune.jsonl', conversation: 0 });
    await call('tokens:count', { path: 'openai/finetune.jsonl', conversation: 0, model: 'gpt-4o' });
    for (let i = 0; i < 100 && !details.some((d) => d.path === 'openai/finetune.jsonl' && d.conversationTokens); i++) await new Promise((r) => setTimeout(r, 20));
    const counted = details.find((d) => d.path === 'openai/finetune.jsonl' && d.conversationTokens)!;
    const doc = readDocumentFile(join(rt.context.roots.root(), 'openai/finetune.jsonl'));
    const tk = getTokenizer('gpt-4o');
    expect(counted.conversationTokens).toEqual(doc.doc.conversations.map((c) => c.records.reduce<number>((n, r) => n + countView(doc.codec.view(r), tk).tokens, 0)));
    expect(counted.tokens).toBe(counted.conversationTokens!.reduce((a, b) => a + b, 0));
    await call('settings:set', { model: 'gpt-4o' });
    const again = (await call<{ entries: DirEntry[] }>('dir:list', {})).entries.find((e) => e.path === 'openai/finetune.jsonl')!;
    expect(again.conversationTokens).toEqual(counted.conversationTokens);
  });
});

describe('files read through a container', () => {
  it('another app’s store opens read-only: the skeleton says why, edits are refused, conversion still offered', async () => {
    const { call } = setup();
    const sk = await call<Skeleton>('conversation:open', { path: 'cursor/globalStorage/state.vscdb', conversation: 1 });
    expect(sk).toMatchObject({ format: 'cursor-chats', readOnly: { reason: expect.stringMatching(/Cursor’s own database/), edits: false } });
    await expect(call('edit:apply', { path: 'cursor/globalStorage/state.vscdb', conversation: 1, command: { type: 'delete', indexes: [0] } })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call('edit:save-as', { path: 'cursor/globalStorage/state.vscdb', target: 'cursor/copy.json' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const m = await call<{ view: { parts: Array<{ kind: string }> } }>('conversation:message', { path: 'cursor/globalStorage/state.vscdb', conversation: 1, index: 1 });
    expect(m.view.parts.map((p) => p.kind)).toEqual(['reasoning', 'tool-call', 'tool-result']);
  });

  it('a compressed rollout takes edits, is never saved over, and Save As writes the uncompressed rollout Codex reads', async () => {
    const { call, dir } = setup();
    const path = 'compressed/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl.zst';
    const before = readFileSync(join(dir, path));
    const sk = await call<Skeleton>('conversation:open', { path, conversation: 0 });
    expect(sk).toMatchObject({ format: 'codex-rollout', readOnly: { edits: true } });
    await call('edit:apply', { path, conversation: 0, command: { type: 'delete', indexes: [sk.count - 1] } });
    await expect(call('edit:save', { path })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(readFileSync(join(dir, path)).equals(before)).toBe(true);
    await call('edit:save-as', { path, target: 'compressed/rollout.copy.jsonl' });
    const copy = readDocumentFile(join(dir, 'compressed/rollout.copy.jsonl'));
    expect(copy.codec.id).toBe('codex-rollout');
    expect(copy.readOnly).toBeUndefined();
  });
});
