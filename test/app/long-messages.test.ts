// A message of many megabytes (a Claude Code line with a whole file in it) is sent cut to the detail pane,
// whole when asked for; an edit of it from the whole record loses nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { SHOW_LIMIT } from '../../app/service/documents/shown-message.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

describe('a message of many megabytes', () => {
  it('comes cut, then whole on asking; an edit of another message keeps its bytes', async () => {
    const dir = tempDir();
    const huge = Array.from({ length: 120_000 }, (_, i) => `line ${i} of a file the agent read: const x${i} = ${i};`).join('\n');
    const lines = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-11-30T10:00:00Z', message: { role: 'user', content: 'Read the file.' } },
      { type: 'user', uuid: 'u2', parentUuid: 'u1', sessionId: 's', timestamp: '2026-11-30T10:00:01Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: huge }] } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u2', sessionId: 's', timestamp: '2026-11-30T10:00:02Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } },
    ];
    writeFileSync(join(dir, 'session.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const before = readFileSync(join(dir, 'session.jsonl'), 'utf8');
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
    runtimes.push(rt);
    const call = async <T>(channel: string, input: unknown) => {
      const r = await dispatchNow(rt.handlers, channel, input);
      if (!r.ok) throw new Error(r.error.message);
      return r.value as T;
    };
    type M = { text: string; raw: string; view: { parts: Array<{ text?: string }> }; message: Record<string, unknown>; truncated?: { text: number; raw: number } };
    const cut = await call<M>('conversation:message', { path: 'session.jsonl', index: 1 });
    expect(cut.truncated).toEqual({ text: huge.length, raw: JSON.stringify(lines[1]).length });
    expect(cut.raw.length).toBe(SHOW_LIMIT);
    expect(cut.text.length).toBeLessThanOrEqual(SHOW_LIMIT);
    expect(JSON.stringify(cut).length).toBeLessThan(6 * SHOW_LIMIT);
    expect(huge.startsWith(cut.view.parts[0].text!)).toBe(true);
    const whole = await call<M>('conversation:message', { path: 'session.jsonl', index: 1, full: true });
    expect(whole.truncated).toBeUndefined();
    expect(whole.text).toBe(huge);
    expect(whole.raw).toBe(JSON.stringify(lines[1]));
    // Short messages are never cut.
    expect((await call<M>('conversation:message', { path: 'session.jsonl', index: 0 })).truncated).toBeUndefined();
    await call('edit:apply', { path: 'session.jsonl', command: { type: 'set-text', index: 2, text: 'Done, read.' } });
    await call('edit:save', { path: 'session.jsonl' });
    const after = readFileSync(join(dir, 'session.jsonl'), 'utf8').split('\n');
    expect(after[1]).toBe(before.split('\n')[1]);
  });
});
