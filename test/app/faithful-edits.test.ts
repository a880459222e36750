import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/main/dispatch.js';
import { InlineTokenService } from '../../app/main/token-service.js';
import { createRuntime, type Runtime } from '../../app/server/runtime.js';
import type { Result } from '../../app/shared/contract.js';
import { FIXTURES, tempDir } from '../helpers.js';
import { walkSession } from '../support/claude-code-walker.js';

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
    const r: Result<unknown> = await dispatch(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code, problems: r.error.problems });
    return r.value as T;
  };
  const lines = (name: string) =>
    readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
  return { dir, call, lines, text: (name: string) => readFileSync(join(dir, name), 'utf8') };
}

/** The index among the file's message records of the first one whose line holds `needle`. */
function recordIndex(lines: Record<string, any>[], needle: string): number {
  const messages = lines.filter((l) => l.type === 'user' || l.type === 'assistant' || l.type === 'response_item' || l.subtype === 'compact_boundary');
  return messages.findIndex((l) => JSON.stringify(l).includes(needle));
}

describe('edits that keep a file its own tool can use', () => {
  it('deleting a Claude Code tool exchange and saving leaves a session that resumes whole', async () => {
    const { call, lines, text } = setup();
    await call('conversation:open', { path: CART });
    const before = walkSession(text(CART)).path;
    const call_ = recordIndex(lines(CART), '"name":"Bash"');
    const result = recordIndex(lines(CART), '"tool_use_id":"toolu_02Bash"');
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
    const { call, lines, text } = setup();
    await call('conversation:open', { path: CART });
    const before = text(CART);
    const call_ = recordIndex(lines(CART), '"name":"Grep"');
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
    const at = recordIndex(lines(CART), 'Now do the same for the tax line.');
    const state = await call<{ count: number }>('edit:apply', { path: CART, command: { type: 'insert', index: at + 1, messages: [{ role: 'user', content: 'And shipping?' }] } });
    expect(state.count).toBe(21);
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
    await call('edit:apply', { path: CODEX, command: { type: 'insert', index: 9, messages: [{ role: 'user', content: 'Also check `cli -V`.' }] } });
    const answer = recordIndex(lines(CODEX), 'The version flag was disabled');
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
    const ask = recordIndex(lines(CODEX), 'Why does `cli --version` print nothing?');
    await call('edit:apply', { path: CODEX, command: { type: 'delete', indexes: [ask] } });
    await call('edit:save', { path: CODEX });
    expect(lines(CODEX).some((l) => l.payload?.message === 'Why does `cli --version` print nothing?')).toBe(false);
  });
});
