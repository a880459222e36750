// An agent writing its session while the user saves it, as child processes: through a handle it keeps open, or
// opening, appending and closing for each line; a line every 20 ms or every second. No line of the agent's is
// ever lost, the session's chain stays whole, and every save the user was told went through holds its edit.
// (bench/saves.ts runs the same trials 50 times each and prints the figures.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { followedCount } from '../../app/service/editing/carry-over.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result } from '../../app/shared/contract.js';
import { chainErrors, missingLines, sessionText, startWriter, lastUuid, writerTrial, type TrialOptions } from '../support/agent-writer.js';
import { tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function setup(options: { lookForWriters?: boolean; saveWaitMs?: number } = {}) {
  const dir = tempDir();
  const path = 'session.jsonl';
  const file = join(dir, path);
  writeFileSync(file, sessionText(300));
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, searchIndexFile: false, saveWaitMs: options.saveWaitMs ?? 4000, lookForWriters: options.lookForWriters });
  runtimes.push(rt);
  const events: Array<{ event: string; payload: { step?: string; writers?: string } }> = [];
  rt.onEvent = (event, payload) => events.push({ event, payload: payload as { step?: string } });
  const call = (channel: string, input: unknown): Promise<Result<unknown>> => dispatchNow(rt.handlers, channel, input);
  const read = () => readFileSync(file, 'utf8');
  const trial = (tag: string, o: TrialOptions) => writerTrial(call, file, path, tag, o, () => followedCount(file) === 0, read);
  return { dir, file, path, call, read, trial, events };
}

const linux = process.platform === 'linux';

/** The session with the text of its message `n` replaced (another program's edit). */
function withText(text: string, n: number, to: string): string {
  const id = `"uuid":"${n.toString(16).padStart(8, '0')}-`;
  return text
    .split('\n')
    .map((l) => {
      if (!l.includes(id)) return l;
      const v = JSON.parse(l) as { message: { role: string } };
      return JSON.stringify({ ...v, message: { ...v.message, content: [{ type: 'text', text: to }] } });
    })
    .join('\n');
}

describe('an agent writing its session while the user saves', () => {
  it('opening, appending and closing for each line, every 20 ms and every second: each save goes through, merged as it writes; no line lost', async () => {
    const { trial } = setup();
    for (const [everyMs, lines, saves, trials] of [[20, 60, 3, 4], [1000, 4, 2, 2]] as const) {
      for (let t = 0; t < trials; t++) {
        const r = await trial(`r${everyMs}x${t}`, { mode: 'reopen', everyMs, lines, edit: 'rewrite', saves });
        expect(r.lost, `${everyMs} ms, trial ${t}: the agent's lines lost`).toEqual([]);
        expect(r.chain, `${everyMs} ms, trial ${t}`).toEqual([]);
        expect(r.editsLost, `${everyMs} ms, trial ${t}`).toEqual([]);
        // A fast writer made every save a CONFLICT (each merge stale before it landed).
        expect(r.answers, `${everyMs} ms, trial ${t}`).toEqual(Array(saves).fill('ok'));
      }
    }
  }, 180_000);

  (linux ? it : it.skip)('through a handle it keeps: a message added at the end is appended in place (the file not replaced while it writes); no line lost', async () => {
    const { trial } = setup();
    for (const [everyMs, lines, trials] of [[20, 60, 4], [1000, 4, 2]] as const) {
      for (let t = 0; t < trials; t++) {
        const r = await trial(`ha${everyMs}x${t}`, { mode: 'held', everyMs, lines, edit: 'add', saves: 2 });
        expect(r.lost, `${everyMs} ms, trial ${t}: the agent's lines lost`).toEqual([]);
        expect(r.chain, `${everyMs} ms, trial ${t}`).toEqual([]);
        expect(r.editsLost, `${everyMs} ms, trial ${t}`).toEqual([]);
        // The first add is at the file's end and is appended. An agent line can land right after it within the
        // same append and hang from the line before it (the agent did not know of mine): the chain forks there, the
        // next add follows my line mid-file, and that save rewrites the file, once the writer has let go.
        expect(r.answers[0], `${everyMs} ms, trial ${t}`).toBe('appended');
        expect(['appended', 'ok'], `${everyMs} ms, trial ${t}`).toContain(r.answers[1]);
      }
    }
  }, 180_000);

  (linux ? it : it.skip)('through a handle it keeps: a rewrite waits for it to let go, says so, and answers BUSY (Save As offered) if it does not; then saves', async () => {
    const { call, path, file, read, events } = setup({ saveWaitMs: 1200 });
    await call('conversation:open', { path });
    await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 3, text: 'my rewrite of message 3' } });
    const writer = startWriter(file, { mode: 'held', everyMs: 1000, lines: 4, parent: lastUuid(read()), tag: 'busy' });
    await writer.started;
    const busy = await call('edit:save', { path });
    expect(busy).toMatchObject({ ok: false, error: { code: 'BUSY' } });
    if (!busy.ok) {
      expect(busy.error.message).toContain(`pid ${writer.child.pid}`);
      expect(busy.error.message).toContain('Save As');
    }
    // It said what it was waiting for while it waited.
    expect(events.some((e) => e.event === 'save:progress' && e.payload.step === 'waiting for the writer' && e.payload.writers?.includes(`pid ${writer.child.pid}`))).toBe(true);
    // The edits are kept; the writer still writes into the file.
    expect(await call('edit:state', { path, conversation: 0 })).toMatchObject({ ok: true, value: { dirty: true, conflict: false } });
    const uuids = await writer.done;
    expect(missingLines(read(), uuids)).toEqual([]);
    // Once it let go, the save goes through with its lines merged in.
    const saved = await call('edit:save', { path });
    expect(saved).toMatchObject({ ok: true, value: { dirty: false, merged: { added: 4, changed: 0, removed: 0 } } });
    const text = read();
    expect(text).toContain('my rewrite of message 3');
    expect(missingLines(text, uuids)).toEqual([]);
    expect(chainErrors(text)).toEqual([]);
  }, 60_000);

  (linux ? it : it.skip)('through a handle it keeps, a rewrite while it writes fast: the save waits until it closes the file, then goes through', async () => {
    const { trial } = setup({ saveWaitMs: 8000 });
    for (let t = 0; t < 3; t++) {
      const r = await trial(`hw${t}`, { mode: 'held', everyMs: 20, lines: 50, edit: 'rewrite', saves: 1 });
      expect(r.lost, `trial ${t}`).toEqual([]);
      expect(r.chain, `trial ${t}`).toEqual([]);
      expect(r.answers, `trial ${t}`).toEqual(['ok']);
      expect(r.editsLost, `trial ${t}`).toEqual([]);
    }
  }, 120_000);

  it('a writer the save could not see (no lookup, as where the system does not tell): what reaches the old file after the rename is carried into the new one', async () => {
    const { trial } = setup({ lookForWriters: false });
    for (const [everyMs, lines, trials] of [[20, 60, 4], [1000, 4, 2]] as const) {
      for (let t = 0; t < trials; t++) {
        const r = await trial(`c${everyMs}x${t}`, { mode: 'held', everyMs, lines, edit: 'rewrite', saves: 2 });
        // Each save replaced the file (it could not know better), the writer going on in the old one.
        expect(r.answers, `${everyMs} ms, trial ${t}`).toEqual(['ok', 'ok']);
        expect(r.lost, `${everyMs} ms, trial ${t}: the agent's lines lost`).toEqual([]);
        expect(r.chain, `${everyMs} ms, trial ${t}`).toEqual([]);
        expect(r.editsLost, `${everyMs} ms, trial ${t}`).toEqual([]);
      }
    }
  }, 180_000);

  it('Keep mine with a fast writer: my side where both changed a message, every line of the agent kept, the chain whole', async () => {
    const { call, path, file, read } = setup();
    for (let t = 0; t < 3; t++) {
      await call('edit:revert', { path });
      await call('edit:apply', { path, conversation: 0, command: { type: 'set-text', index: 5, text: `mine ${t}` } });
      // Another program changed the same message: a conflict, for the user to settle.
      writeFileSync(file, withText(read(), 5, `theirs ${t}`));
      const writer = startWriter(file, { mode: 'reopen', everyMs: 20, lines: 80, parent: lastUuid(read()), tag: `k${t}` });
      await writer.started;
      expect(await call('edit:save', { path })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
      const kept = await call('edit:save', { path, force: true });
      expect(kept, `trial ${t}`).toMatchObject({ ok: true, value: { dirty: false, conflict: false } });
      const uuids = await writer.done;
      for (const until = performance.now() + 30_000; missingLines(read(), uuids).length > 0 && followedCount(file) > 0 && performance.now() < until; ) await new Promise((r) => setTimeout(r, 20));
      const text = read();
      expect(missingLines(text, uuids), `trial ${t}: the agent's lines lost`).toEqual([]);
      expect(chainErrors(text), `trial ${t}`).toEqual([]);
      expect(text).toContain(`mine ${t}`);
      expect(text).not.toContain(`theirs ${t}`);
    }
  }, 120_000);
});
