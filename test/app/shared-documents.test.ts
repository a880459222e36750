// Two windows on one document, as browser mode serves them: two clients of the real WebSocket server racing.
// Every edit, undo, reload and save names the state of the document's edits it was made on; one made on a
// state another window has changed since is refused (STALE), and the other window is told of each change.
import { appendFileSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime } from '../../app/service/runtime.js';
import { startServer } from '../../app/server/server.js';
import type { EditState, Skeleton, SkeletonDelta } from '../../app/shared/contract.js';
import { tempDir } from '../helpers.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

type Answer<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** A window: requests answered by id, and the events it was sent, in order. */
interface Window {
  ask<T = EditState>(channel: string, input: unknown): Promise<Answer<T>>;
  events: Array<{ event: string; payload: { path?: string; version?: number; step?: string; at?: number } }>;
}

const messages = (n: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` }));

async function served(files: Record<string, string>): Promise<{ dir: string; open(): Promise<Window> }> {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const staticDir = tempDir();
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>x</title>');
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), watch: false });
  const server = await startServer({ handlers: rt.handlers, staticDir });
  rt.onEvent = (event, payload) => server.broadcast(event, payload);
  cleanup.push(() => rt.close(), () => server.close());
  const open = async (): Promise<Window> => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    cleanup.push(() => ws.close());
    const waiting = new Map<number, (r: Answer<unknown>) => void>();
    const events: Window['events'] = [];
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (typeof msg.event === 'string') events.push({ event: msg.event, payload: msg.payload });
      else waiting.get(msg.id)?.(msg.result);
    });
    let id = 0;
    return {
      events,
      ask: <T>(channel: string, input: unknown) =>
        new Promise<Answer<T>>((resolve) => {
          const mine = ++id;
          waiting.set(mine, resolve as (r: Answer<unknown>) => void);
          ws.send(JSON.stringify({ id: mine, channel, input }));
        }),
    };
  };
  return { dir, open };
}

/** Waits until the window has been sent the event (each window has its own socket: no order between them). */
async function heard(w: Window, event: string, payload: Record<string, unknown>): Promise<void> {
  const same = (e: Window['events'][number]) => e.event === event && JSON.stringify(e.payload) === JSON.stringify(payload);
  while (!w.events.some(same)) await new Promise((r) => setTimeout(r, 5));
}

function value<T>(a: Answer<T>): T {
  if (!a.ok) throw new Error(`${a.error.code}: ${a.error.message}`);
  return a.value;
}

const onDisk = (dir: string, name: string) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as Array<{ content: string }>).map((m) => m.content);

describe('one document in two windows', () => {
  it("B's Reload while A has unsaved edits is refused; A's edit stays, and A's Save writes it", async () => {
    const { dir, open } = await served({ 'c.json': JSON.stringify(messages(4), null, 2) });
    const [a, b] = [await open(), await open()];
    const shownA = value(await a.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    const shownB = value(await b.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    expect(shownA.editVersion).toBe(shownB.editVersion);
    const edited = value(await a.ask('edit:apply', { path: 'c.json', version: shownA.editVersion, command: { type: 'set-text', index: 1, text: 'A was here' } }));
    expect(edited.version).not.toBe(shownA.editVersion);
    // B is told, with the state it would have to show to act.
    await heard(b, 'conversation:changed', { path: 'c.json', version: edited.version });

    const reload = await b.ask('edit:revert', { path: 'c.json', version: shownB.editVersion });
    expect(reload).toMatchObject({ ok: false, error: { code: 'STALE' } });
    expect(!reload.ok && reload.error.message).toMatch(/c\.json changed since this window showed it .*Reload was not done/);
    expect(value(await a.ask('edit:state', { path: 'c.json' }))).toMatchObject({ dirty: true, version: edited.version });

    const saved = value(await a.ask('edit:save', { path: 'c.json', version: edited.version }));
    expect(saved.dirty).toBe(false);
    expect(onDisk(dir, 'c.json')).toEqual(['message 0', 'A was here', 'message 2', 'message 3']);
  });

  it("B cannot save A's edits it has not shown, nor undo them; once shown them, it can", async () => {
    const { dir, open } = await served({ 'c.json': JSON.stringify(messages(4), null, 2) });
    const [a, b] = [await open(), await open()];
    const shownA = value(await a.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    const shownB = value(await b.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    const edited = value(await a.ask('edit:apply', { path: 'c.json', version: shownA.editVersion, command: { type: 'delete', indexes: [3] } }));

    expect(await b.ask('edit:undo', { path: 'c.json', version: shownB.editVersion })).toMatchObject({ ok: false, error: { code: 'STALE' } });
    expect(await b.ask('edit:save', { path: 'c.json', version: shownB.editVersion })).toMatchObject({ ok: false, error: { code: 'STALE' } });
    expect(value(await a.ask('edit:state', { path: 'c.json' }))).toMatchObject({ dirty: true, count: 3, canUndo: expect.any(String) });
    expect(onDisk(dir, 'c.json')).toHaveLength(4);

    // B shows the change (what it does when told), and the undo it now asks for is of what it shows.
    const update = value(await b.ask<{ delta: SkeletonDelta }>('conversation:update', { path: 'c.json', since: shownB.version }));
    expect(update.delta.file.editVersion).toBe(edited.version);
    const undone = value(await b.ask('edit:undo', { path: 'c.json', version: update.delta.file.editVersion }));
    expect(undone).toMatchObject({ dirty: false, count: 4 });
    await heard(a, 'conversation:changed', { path: 'c.json', version: undone.version });
  });

  it("after A deletes row 2, B's edit of row 5 made before it is refused; B is sent the change as a delta, and its row 5 is row 4 now", async () => {
    const { dir, open } = await served({ 'c.json': JSON.stringify(messages(8), null, 2) });
    const [a, b] = [await open(), await open()];
    const shownA = value(await a.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    const shownB = value(await b.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    const deleted = value(await a.ask('edit:apply', { path: 'c.json', version: shownA.editVersion, command: { type: 'delete', indexes: [2] } }));

    const late = await b.ask('edit:apply', { path: 'c.json', version: shownB.editVersion, command: { type: 'set-text', index: 5, text: 'B edits message 5' } });
    expect(late).toMatchObject({ ok: false, error: { code: 'STALE' } });
    const rows = async (w: Window) => value(await w.ask<{ rows: Array<{ preview: string }> }>('conversation:rows', { path: 'c.json', start: 0, count: 10 })).rows.map((r) => r.preview);
    expect(await rows(a)).toEqual(['message 0', 'message 1', 'message 3', 'message 4', 'message 5', 'message 6', 'message 7']);

    // The change, from the skeleton B shows: one row gone at 2 (what moves B's row 5 to 4), no whole reload.
    const update = value(await b.ask<{ delta?: SkeletonDelta; skeleton?: Skeleton }>('conversation:update', { path: 'c.json', since: shownB.version }));
    expect(update.skeleton).toBeUndefined();
    expect(update.delta).toMatchObject({ from: shownB.version, start: 2, deleteCount: 1, rows: [], file: { count: 7, editVersion: deleted.version } });
    const again = value(await b.ask('edit:apply', { path: 'c.json', version: update.delta!.file.editVersion, command: { type: 'set-text', index: 4, text: 'B edits message 5' } }));
    expect(again.delta?.from).toBe(update.delta!.file.version);
    value(await a.ask('edit:save', { path: 'c.json', version: again.version }));
    expect(onDisk(dir, 'c.json')).toEqual(['message 0', 'message 1', 'message 3', 'message 4', 'B edits message 5', 'message 6', 'message 7']);
  });

  it('an edit asked for while the document is being saved is refused, so that nothing is marked saved that the file lacks', async () => {
    // About 30 MB: its save takes several steps, each answered on a turn of its own.
    const { dir, open } = await served({ 'big.json': JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}: ${'a longer line of text '.repeat(20)}` })), null, 4) });
    const [a, b] = [await open(), await open()];
    const shown = value(await a.ask<Skeleton>('conversation:open', { path: 'big.json' }));
    const edited = value(await a.ask('edit:apply', { path: 'big.json', version: shown.editVersion, command: { type: 'set-text', index: 0, text: 'saved by A' } }));
    const saving = a.ask('edit:save', { path: 'big.json', version: edited.version });
    while (!b.events.some((e) => e.event === 'save:progress')) await new Promise((r) => setTimeout(r, 1));
    const during = await b.ask('edit:apply', { path: 'big.json', version: edited.version, command: { type: 'set-text', index: 1, text: 'B, during the save' } });
    expect(during).toMatchObject({ ok: false, error: { code: 'STALE' } });
    expect(!during.ok && during.error.message).toMatch(/big\.json is being saved: the edit was not done/);
    expect(value(await saving).dirty).toBe(false);
    const written = JSON.parse(readFileSync(join(dir, 'big.json'), 'utf8')) as Array<{ content: string }>;
    expect(written[0].content).toBe('saved by A');
    expect(written[1].content).toBe('message 1: ' + 'a longer line of text '.repeat(20));
    expect(value(await b.ask('edit:state', { path: 'big.json' })).dirty).toBe(false);
  }, 60_000);

  it('edits of a file swapped for a link out of the folder stay reachable: Save As writes them inside it, nothing is written through the link', async () => {
    const { dir, open } = await served({ 'c.json': JSON.stringify(messages(3), null, 2) });
    const outside = tempDir();
    const theirs = JSON.stringify([{ role: 'user', content: 'a file outside the folder' }]);
    writeFileSync(join(outside, 'elsewhere.json'), theirs);
    const a = await open();
    const shown = value(await a.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    const edited = value(await a.ask('edit:apply', { path: 'c.json', version: shown.editVersion, command: { type: 'set-text', index: 2, text: 'kept' } }));
    // The file is swapped for a link out of the folder, as a rename over it does.
    mkdirSync(join(dir, 'tmp'));
    symlinkSync(join(outside, 'elsewhere.json'), join(dir, 'tmp', 'link'));
    renameSync(join(dir, 'tmp', 'link'), join(dir, 'c.json'));

    expect(await a.ask('edit:save', { path: 'c.json', version: edited.version })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await a.ask('conversation:open', { path: 'c.json' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await a.ask('edit:save-as', { path: 'c.json', target: '../escape.json', version: edited.version })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(value(await a.ask<{ target: string }>('edit:save-as', { path: 'c.json', target: 'c.kept.json', version: edited.version }))).toEqual({ target: 'c.kept.json' });
    expect(onDisk(dir, 'c.kept.json')).toEqual(['message 0', 'message 1', 'kept']);
    expect(readFileSync(join(outside, 'elsewhere.json'), 'utf8')).toBe(theirs);
  });

  it("an agent's lines read between a window's look and its edit do not refuse the edit (its rows are the same messages); another window's edit does", async () => {
    const line = (k: number) => JSON.stringify({ type: k % 2 ? 'assistant' : 'user', uuid: `u${k}`, parentUuid: k ? `u${k - 1}` : null, sessionId: 's', timestamp: `2026-01-01T00:00:${String(k).padStart(2, '0')}Z`, message: { role: k % 2 ? 'assistant' : 'user', content: k % 2 ? [{ type: 'text', text: `answer ${k}` }] : `question ${k}` } }) + '\n';
    const { dir, open } = await served({ 's.jsonl': [0, 1, 2, 3].map(line).join('') });
    const [a, b] = [await open(), await open()];
    const shownA = value(await a.ask<Skeleton>('conversation:open', { path: 's.jsonl' }));
    const shownB = value(await b.ask<Skeleton>('conversation:open', { path: 's.jsonl' }));
    appendFileSync(join(dir, 's.jsonl'), line(4) + line(5));
    // B reads the new lines first (its look at the file): A still names the state before them.
    expect(value(await b.ask('edit:state', { path: 's.jsonl' })).count).toBe(6);
    const edited = value(await a.ask('edit:apply', { path: 's.jsonl', version: shownA.editVersion, command: { type: 'set-text', index: 1, text: 'A rewrote answer 1' } }));
    expect(edited).toMatchObject({ dirty: true, count: 6 });
    // A's edit is a change B has not shown: B's edit on the state it knew is refused.
    expect(await b.ask('edit:apply', { path: 's.jsonl', version: shownB.editVersion, command: { type: 'set-text', index: 3, text: 'B' } })).toMatchObject({ ok: false, error: { code: 'STALE' } });
    value(await a.ask('edit:save', { path: 's.jsonl', version: edited.version }));
    const texts = readFileSync(join(dir, 's.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.stringify(JSON.parse(l).message.content));
    expect(texts).toHaveLength(6);
    expect(texts[1]).toContain('A rewrote answer 1');
    expect(texts[5]).toContain('answer 5');
  });

  it("B's Undo never takes back A's edit, even once B shows it: refused with why; A's own Undo does", async () => {
    const { dir, open } = await served({ 'c.json': JSON.stringify(messages(4), null, 2) });
    const [a, b] = [await open(), await open()];
    const shownA = value(await a.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    value(await b.ask<Skeleton>('conversation:open', { path: 'c.json' }));
    const edited = value(await a.ask('edit:apply', { path: 'c.json', version: shownA.editVersion, window: 'A', command: { type: 'set-text', index: 1, text: 'A was here' } }));
    // B has shown A's edit (the version is current): its Undo is still not B's to make.
    const undoB = await b.ask('edit:undo', { path: 'c.json', version: edited.version, window: 'B' });
    expect(undoB).toMatchObject({ ok: false, error: { code: 'STALE' } });
    expect(!undoB.ok && undoB.error.message).toMatch(/made in another window/);
    expect(value(await a.ask('edit:state', { path: 'c.json' }))).toMatchObject({ dirty: true, version: edited.version });
    // B's own edit is B's to undo; then A's is A's.
    const mine = value(await b.ask('edit:apply', { path: 'c.json', version: edited.version, window: 'B', command: { type: 'set-text', index: 3, text: 'B was here' } }));
    const undoneB = value(await b.ask('edit:undo', { path: 'c.json', version: mine.version, window: 'B' }));
    const undoneA = value(await a.ask('edit:undo', { path: 'c.json', version: undoneB.version, window: 'A' }));
    expect(undoneA).toMatchObject({ dirty: false });
    expect(onDisk(dir, 'c.json')).toEqual(['message 0', 'message 1', 'message 2', 'message 3']);
  });
});
