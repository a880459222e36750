// A message inserted by hand (N, insert) is timed between its neighbours, not stamped with the time of the edit:
// the file stays in time order, as its tool would have written it.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result } from '../../app/shared/contract.js';
import { FIXTURES, SWARMS, read, tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function setup(files: Array<[string, string]>) {
  const dir = tempDir();
  for (const [from, to] of files) cpSync(from, join(dir, to));
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  const call = async <T = Record<string, unknown>>(channel: string, input: unknown): Promise<T> => {
    const r: Result<unknown> = await dispatchNow(rt.handlers, channel, input);
    if (!r.ok) throw new Error(r.error.message);
    return r.value as T;
  };
  return { dir, call };
}

type Shown = { view: { timestamp?: string }; message: Record<string, unknown> };

describe('a message inserted by hand is timed between its neighbours', () => {
  it('Claude Code: the new line between the lines around it, in their ISO form; saved so', async () => {
    const { dir, call } = setup([[join(FIXTURES, 'formats', 'claude-code', 'session.jsonl'), 'session.jsonl']]);
    await call('conversation:open', { path: 'session.jsonl', conversation: 0 });
    const at = async (index: number) => (await call<Shown>('conversation:message', { path: 'session.jsonl', conversation: 0, index })).view.timestamp!;
    const [before, after] = [await at(0), await at(1)];
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
    await call('edit:apply', { path: 'session.jsonl', conversation: 0, command: { type: 'insert', index: 1, messages: [{ role: 'user', content: 'one more thing' }] } });
    const mine = await at(1);
    expect(mine).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(mine)).toBeGreaterThan(Date.parse(before));
    expect(Date.parse(mine)).toBeLessThan(Date.parse(after));
    await call('edit:save', { path: 'session.jsonl' });
    expect(read(join(dir, 'session.jsonl'))).toContain(`"timestamp":"${mine}"`);
  });

  it('swarms: microseconds as the class writes them, and two inserted at once evenly apart; a file without times gets none', async () => {
    const { call } = setup([
      [join(SWARMS, 'conversation_demo.json'), 'demo.json'],
      [join(SWARMS, 'multi_agent_turns.json'), 'turns.json'],
    ]);
    await call('conversation:open', { path: 'demo.json', conversation: 0 });
    const record = async (path: string, index: number) => (await call<Shown>('conversation:message', { path, conversation: 0, index })).message;
    const [before, after] = [(await record('demo.json', 2)).timestamp as string, (await record('demo.json', 3)).timestamp as string];
    await call('edit:apply', { path: 'demo.json', conversation: 0, command: { type: 'insert', index: 3, messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] } });
    const mine = [(await record('demo.json', 3)).timestamp as string, (await record('demo.json', 4)).timestamp as string];
    // Local time as the class writes it (no zone); between a whole second and one with microseconds, with microseconds.
    expect([before, after]).toEqual(['2026-01-15T10:00:05', '2026-01-15T10:00:07.000005']);
    expect(mine).toEqual(['2026-01-15T10:00:05.666668', '2026-01-15T10:00:06.333337']);
    // No message of this file has a time: an inserted one gets none either.
    await call('conversation:open', { path: 'turns.json', conversation: 0 });
    await call('edit:apply', { path: 'turns.json', conversation: 0, command: { type: 'insert', index: 1, messages: [{ role: 'user', content: 'c' }] } });
    expect(await record('turns.json', 1)).not.toHaveProperty('timestamp');
  });
});
