import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result } from '../../app/shared/contract.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { walkSession } from '../support/claude-code-walker.js';
import type { Loose } from '../support/loose.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

const CART = 'claude-code/cart-rewind-compact.jsonl';
const CODEX = 'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';

function setup() {
  const dir = tempDir();
  cpSync(join(FIXTURES, 'formats'), dir, { recursive: true });
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const call = async <T = Record<string, unknown>>(channel: string, input: unknown): Promise<T> => {
    const r: Result<unknown> = await dispatchNow(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code, problems: r.error.problems });
    return r.value as T;
  };
  const lines = (name: string) =>
    readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Loose);
  return { dir, call, lines, text: (name: string) => readFileSync(join(dir, name), 'utf8') };
}

/** The row (of what the conversation shows) whose preview holds `needle`. */
async function rowIndex(call: <T>(channel: string, input: unknown) => Promise<T>, path: string, needle: string): Promise<number> {
  const { rows } = await call<{ rows: Array<{ index: number; preview: string }> }>('conversation:rows', { path, start: 0, count: 2000 });
  const row = rows.find((r) => r.preview.includes(needle));
  if (!row) throw new Error(`no row of ${path} shows "${needle}"`);
  return row.index;
}


describe('edits that keep a file its own tool can use', () => {
  it('deleting a Claude Code tool exchange and saving leaves a session that resumes whole', async () => {
    const { call, text } = setup();
    await call('conversation:open', { path: CART });
    // The exchange is before the compaction: the whole session shows it.
    await call('conversation:path', { path: CART, whole: true });
    const before = walkSession(text(CART)).path;
    const call_ = await rowIndex(call, CART, 'Bash: ');
    const result = await rowIndex(call, CART, 'PASS src/cart.test.ts');
    await call('edit:apply', { path: CART, command: { type: 'delete', indexes: [call_, result] } });
    await call('edit:save', { path: CART });
    const walk = walkSession(text(CART));
    expect(walk.errors).toEqual([]);
    expect(walk.path.length).toBe(before.length);
    // A second edit on the saved file builds on the chain as written.
    await call('edit:apply', { path: CART, command: { type: 'delete', indexes: [0] } });
    await call('edit:save', { path: CART });
    expect(walkSession(text(CART)).errors).toEqual([]);
  });

  it('a save that would leave a tool result without its call says where and writes nothing until asked', async () => {
    const { call, text } = setup();
    await call('conversation:open', { path: CART });
    const before = text(CART);
    const call_ = await rowIndex(call, CART, 'Grep: ');
    await call('edit:apply', { path: CART, command: { type: 'delete', indexes: [call_] } });
    const error = await call('edit:save', { path: CART }).catch((e) => e);
    expect(error.code).toBe('INVALID');
    expect(error.problems.join('\n')).toMatch(/^line \d+: a tool result answers toolu_03Grep, a call that is not before it/m);
    expect(text(CART)).toBe(before);
    await call('edit:save', { path: CART, acceptProblems: true });
    expect(text(CART)).not.toBe(before);
  });

  it('N adds a message to a Claude Code session: a complete line, spliced into the chain after the one selected', async () => {
    const { call, lines, text } = setup();
    await call('conversation:open', { path: CART });
    const at = await rowIndex(call, CART, 'Now do the same for the tax line.');
    // Since the last compaction: the boundary, the summary, and the five after them.
    const state = await call<{ count: number }>('edit:apply', { path: CART, command: { type: 'insert', index: at + 1, messages: [{ role: 'user', content: 'And shipping?' }] } });
    expect(state.count).toBe(8);
    await call('edit:apply', { path: CART, command: { type: 'duplicate', indexes: [at] } });
    await call('edit:save', { path: CART });
    const walk = walkSession(text(CART));
    expect(walk.errors).toEqual([]);
    const added = lines(CART).find((l) => l.message?.content === 'And shipping?')!;
    expect(added).toMatchObject({ type: 'user', sessionId: '7b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8', cwd: '/home/dev/shop', version: '2.0.42' });
    expect(walk.path).toContain(added.uuid);
  });

  it('N adds a message to a Codex rollout, with the event Codex shows it by; editing a message edits that event too', async () => {
    const { call, lines } = setup();
    await call('conversation:open', { path: CODEX });
    // Before its compaction: the whole session shows it.
    await call('conversation:path', { path: CODEX, whole: true });
    await call('edit:apply', { path: CODEX, command: { type: 'insert', index: 10, messages: [{ role: 'user', content: 'Also check `cli -V`.' }] } });
    const answer = await rowIndex(call, CODEX, 'The version flag was disabled');
    await call('edit:apply', { path: CODEX, command: { type: 'set-text', index: answer, text: 'The flag was off; it is on now.' } });
    await call('edit:save', { path: CODEX });
    const after = lines(CODEX);
    expect(after.find((l) => l.type === 'response_item' && l.payload.content?.[0]?.text === 'Also check `cli -V`.')).toMatchObject({ payload: { type: 'message', role: 'user', content: [{ type: 'input_text' }] } });
    expect(after.some((l) => l.type === 'event_msg' && l.payload.type === 'user_message' && l.payload.message === 'Also check `cli -V`.')).toBe(true);
    expect(after.filter((l) => l.type === 'event_msg' && l.payload.type === 'agent_message').map((l) => l.payload.message)).toEqual(['The flag was off; it is on now.']);
    expect(after[0].type).toBe('session_meta');
  });

  it('deleting a Codex message deletes the event that repeats it', async () => {
    const { call, lines } = setup();
    await call('conversation:open', { path: CODEX });
    await call('conversation:path', { path: CODEX, whole: true });
    const ask = await rowIndex(call, CODEX, 'Why does `cli --version` print nothing?');
    await call('edit:apply', { path: CODEX, command: { type: 'delete', indexes: [ask] } });
    await call('edit:save', { path: CODEX });
    expect(lines(CODEX).some((l) => l.payload?.message === 'Why does `cli --version` print nothing?')).toBe(false);
  });

  it('a file an agent appended to while I edited: the save merges its lines in as it writes, and the chain runs through my edit to its lines', async () => {
    const { call, lines, text, dir } = setup();
    await call('conversation:open', { path: CART });
    const at = await rowIndex(call, CART, 'Now do the same for the tax line.');
    await call('edit:apply', { path: CART, command: { type: 'set-text', index: at, text: 'Now do the same for the tax and shipping lines.' } });
    // The agent goes on writing the session meanwhile.
    const last = lines(CART).at(-1)!;
    const appended = { ...last, parentUuid: last.uuid, uuid: 'a1000000-0000-4000-8000-000000000099', type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'You are welcome.' }] }, timestamp: '2026-11-24T09:12:00.000Z' };
    writeFileSync(join(dir, CART), text(CART) + JSON.stringify(appended) + '\n');
    // An append is no conflict: the save takes the agent's line in (it said CONFLICT, and Merge was needed).
    expect(await call('edit:state', { path: CART })).toMatchObject({ dirty: true, conflict: false });
    const onDisk = text(CART);
    expect(await call('edit:save', { path: CART })).toMatchObject({ merged: { added: 1, changed: 0, removed: 0 }, dirty: false, conflict: false });
    // One line changed (mine), in its place; the agent's line and every other keep their bytes and order.
    const was = onDisk.split('\n');
    const now = text(CART).split('\n');
    expect(now.length).toBe(was.length);
    expect(now.filter((l, i) => l !== was[i]).length).toBe(1);
    const after = lines(CART);
    expect(after.some((l) => l.message?.content === 'Now do the same for the tax and shipping lines.')).toBe(true);
    expect(after.at(-1)!.uuid).toBe(appended.uuid);
    expect(walkSession(text(CART)).errors).toEqual([]);
    // Only my line changed beside the agent's: the rest keep their bytes.
    await call('edit:undo', { path: CART });
    await call('edit:save', { path: CART });
    expect(lines(CART).some((l) => l.message?.content === 'Now do the same for the tax line.')).toBe(true);
    // The undo takes my edit back, never the agent's line.
    expect(lines(CART).at(-1)!.uuid).toBe(appended.uuid);
  });

  it('both changed the same message: Merge shows the changed words, and each side can be kept', async () => {
    const { call, text, dir } = setup();
    const path = 'openai/chat.json';
    await call('conversation:open', { path });
    await call('edit:apply', { path, command: { type: 'set-text', index: 0, text: 'You are a weather assistant. Always use the tools.' } });
    writeFileSync(join(dir, path), text(path).replace('You are a weather assistant. Use the tools.', 'You are a weather bot. Use the tools.'));
    const preview = await call<{ conflicts: Array<{ words: Array<{ text: string; side?: string }> }> }>('edit:merge-preview', { path });
    expect(preview.conflicts.length).toBe(1);
    const words = preview.conflicts[0].words;
    expect(words.filter((w) => w.side === 'theirs').map((w) => w.text.trim())).toContain('bot');
    expect(words.filter((w) => w.side === 'mine').map((w) => w.text.trim()).join(' ')).toContain('Always');
    await call('edit:merge', { path, choices: ['mine'] });
    await call('edit:save', { path });
    expect(text(path)).toContain('Always use the tools.');
  });

  it('a new message in an Anthropic list opens as text', async () => {
    const { call } = setup();
    const path = 'anthropic/api_conversation_history.json';
    await call('conversation:open', { path });
    await call('edit:apply', { path, command: { type: 'insert', index: 1, messages: [{ role: 'user', content: '' }] } });
    const m = await call<{ editableText: boolean }>('conversation:message', { path, index: 1 });
    expect(m.editableText).toBe(true);
  });

  it('names that are no role are listed with what they are read as, and the user can say otherwise (kept in the settings)', async () => {
    const { call, dir } = setup();
    writeFileSync(join(dir, 'ops.json'), JSON.stringify([{ role: 'ops_team', content: 'Disk at 91% on db-2.' }, { role: 'Triage-Agent', content: 'Rotating the logs.' }], null, 4));
    await call('conversation:open', { path: 'ops.json' });
    const { roleMapping } = await call<{ roleMapping: Array<{ role: string; normalRole: string; from: string }> }>('conversation:roles', { path: 'ops.json' });
    expect(roleMapping.map((d) => [d.role, d.normalRole])).toEqual([['ops_team', 'assistant'], ['Triage-Agent', 'assistant']]);
    const answer = await call<{ roleMapping: Array<{ role: string; normalRole: string; from: string }> }>('conversation:set-role', { path: 'ops.json', role: 'ops_team', normalRole: 'user' });
    expect(answer.roleMapping.find((d) => d.role === 'ops_team')).toEqual({ role: 'ops_team', normalRole: 'user', from: 'your setting' });
    const again = await call<{ normalRoles: string[]; roles: string[] }>('conversation:open', { path: 'ops.json' });
    expect(again.normalRoles[again.roles.indexOf('ops_team')]).toBe('user');
    expect((await call<{ roleOverrides: Record<string, Record<string, string>> }>('settings:get', {})).roleOverrides[join(dir, 'ops.json')]).toEqual({ ops_team: 'user' });
    // Setting it back to what the file says drops the setting.
    const reset = await call<{ roleMapping: Array<{ role: string; from: string }> }>('conversation:set-role', { path: 'ops.json', role: 'ops_team', normalRole: 'assistant' });
    expect(reset.roleMapping.find((d) => d.role === 'ops_team')?.from).not.toBe('your setting');
    const back = await call<{ normalRoles: string[]; roles: string[] }>('conversation:open', { path: 'ops.json' });
    expect(back.normalRoles[back.roles.indexOf('ops_team')]).toBe('assistant');
    expect((await call<{ roleOverrides: Record<string, unknown> }>('settings:get', {})).roleOverrides[join(dir, 'ops.json')]).toBeUndefined();
  });

  it('a save merging an append, of an edit before the compaction: the edited line stays where it was, the lines around it too', async () => {
    const { call, text, dir } = setup();
    await call('conversation:open', { path: CART });
    await call('conversation:path', { path: CART, whole: true });
    const at = await rowIndex(call, CART, 'Commit it.');
    await call('edit:apply', { path: CART, command: { type: 'set-text', index: at, text: 'Commit it, please.' } });
    const last = text(CART).split('\n').filter(Boolean).map((l) => JSON.parse(l)).at(-1);
    writeFileSync(join(dir, CART), text(CART) + JSON.stringify({ ...last, parentUuid: last.uuid, uuid: 'a1000000-0000-4000-8000-000000000098', message: { role: 'user', content: 'One more thing.' } }) + '\n');
    const was = text(CART).split('\n');
    expect(await call('edit:save', { path: CART })).toMatchObject({ merged: { added: 1, changed: 0, removed: 0 } });
    const now = text(CART).split('\n');
    expect(now.map((l, i) => (l === was[i] ? '' : i)).filter((x) => x !== '')).toEqual([was.findIndex((l) => l.includes('"content":"Commit it."'))]);
    expect(walkSession(text(CART)).errors).toEqual([]);
  });
});
