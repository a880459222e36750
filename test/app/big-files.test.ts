// Big files: the first messages from the head while the whole file is read, app:info never waiting behind a
// parse, and clean documents forgotten past a memory budget.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceWorkerUrl, startBackend, type Backend } from '../../app/service/backend/backend.js';
import { dispatch } from '../../app/service/dispatch.js';
import { DocumentStore } from '../../app/service/documents/documents.js';
import { closedHead, PEEK_BYTES } from '../../app/service/listing/head-peek.js';
import { finish, lastListElements, lastListElementsOfFile } from '../../src/core/formats/syntax/list-scan.js';
import { MemorySecretStore } from '../../app/service/state/key-store.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { UNREAD_ROLE, type Row, type Skeleton } from '../../app/shared/contract.js';
import { ROOT, tempDir } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';

const runtimes: Runtime[] = [];
const backends: Backend[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
  while (backends.length) await backends.pop()!.close();
});

function setup(files: Record<string, string>, wholeReadBytes?: number) {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), wholeReadBytes });
  runtimes.push(rt);
  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const r = await dispatch(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  return { dir, rt, call };
}

const text = (i: number) => `Message ${i}: "quoted" [brackets] {braces} \\ back\\slash, ünïcödé 🎉 and a tab\there. `.repeat(1 + (i % 7));
const messages = (n: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: text(i), timestamp: `2026-11-30T10:${String(i % 60).padStart(2, '0')}:00` }));

type Peek = { skeleton?: Skeleton; rows: Row[]; size: number; read: number; estimated?: number; from?: number; head?: number };

describe('both ends of a big file, while it is read', () => {
  const many = messages(9000).map((m, i) => (i % 5 === 3 ? { ...m, role: 'tool', tool_call_id: `c${i}`, content: `result ${i} ]}"` } : m));
  const cases: Record<string, string> = {
    'list.json': JSON.stringify(many, null, 2),
    'tight.json': JSON.stringify(many),
    'wrapped.json': JSON.stringify({ metadata: { name: 'agent', tags: { a: '[' } }, conversation_history: many }, null, 4),
  };

  it('places every message: the first and last as the whole read gives them, those between unread, the count exact', async () => {
    const { call } = setup(cases);
    for (const path of Object.keys(cases)) {
      const both = await call<Peek>('conversation:peek', { path, conversation: 0, ends: true });
      expect(both.skeleton, path).toBeDefined();
      const ends = both.skeleton!;
      const head = both.head!;
      const from = both.from!;
      expect(head, path).toBeGreaterThan(100);
      expect(from, path).toBeGreaterThan(head);
      expect(ends.version).toBe(-1);
      const full = await call<Skeleton>('conversation:open', { path, conversation: 0 });
      expect(ends.count, path).toBe(full.count);
      const roles = (s: Skeleton) => s.roleOf.map((k) => s.roles[k]);
      expect(roles(ends).slice(0, head), path).toEqual(roles(full).slice(0, head));
      expect(roles(ends).slice(from), path).toEqual(roles(full).slice(from));
      expect(roles(ends).slice(head, from).every((r) => r === UNREAD_ROLE), path).toBe(true);
      for (const key of ['lengths', 'storedTokens'] as const) {
        expect(ends[key].slice(0, head), `${path} ${key}`).toEqual(full[key].slice(0, head));
        expect(ends[key].slice(from), `${path} ${key}`).toEqual(full[key].slice(from));
      }
      // The tail's rows are the rows the whole read gives there.
      const rows = (await call<{ rows: Row[] }>('conversation:rows', { path, conversation: 0, start: from, count: full.count - from })).rows;
      expect(both.rows, path).toEqual(rows);
      // Once read, nothing to peek at.
      expect((await call<Peek>('conversation:peek', { path, conversation: 0, ends: true })).skeleton).toBeUndefined();
    }
  });

  it('lets other requests in while it reads and scans the file', async () => {
    const { call } = setup(cases);
    const order: string[] = [];
    const both = call<Peek>('conversation:peek', { path: 'list.json', conversation: 0, ends: true }).then((p) => order.push(`ends ${p.skeleton?.count}`));
    await call('settings:get', {});
    order.push('settings');
    await both;
    expect(order).toEqual(['settings', `ends ${many.length}`]);
  });

  it('tells nothing where the ends cannot tell the whole: a tree, a dataset, a list not closed, records that are not its elements', async () => {
    const { call } = setup({
      'session.jsonl': messages(6000)
        .map((m, i) => JSON.stringify({ type: m.role, uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, sessionId: 's', timestamp: '2026-11-30T10:00:00Z', message: { role: m.role, content: m.content } }))
        .join('\n'),
      'chat.jsonl': messages(6000)
        .map((m) => JSON.stringify({ messages: [{ role: 'user', content: m.content }, { role: 'assistant', content: 'ok' }] }))
        .join('\n'),
      'unclosed.json': JSON.stringify(many, null, 2).slice(0, -40),
      // Anthropic's system blocks come first: the first list of the file is not its messages.
      'anthropic.json': JSON.stringify({ model: 'claude', system: [{ type: 'text', text: 'Be brief.' }], messages: many.map((m, i) => ({ role: i % 2 ? 'assistant' : 'user', content: m.content })) }, null, 2),
    });
    for (const path of ['session.jsonl', 'chat.jsonl', 'unclosed.json', 'anthropic.json']) {
      const both = await call<Peek>('conversation:peek', { path, conversation: 0, ends: true });
      expect(both.skeleton, path).toBeUndefined();
    }
    // Nor a file too big to read whole: its ends are not read whole either.
    const tooBig = setup({ 'list.json': cases['list.json'] }, 1_000_000);
    expect((await tooBig.call<Peek>('conversation:peek', { path: 'list.json', conversation: 0, ends: true })).skeleton).toBeUndefined();
    expect((await setup({ 'list.json': cases['list.json'] }).call<Peek>('conversation:peek', { path: 'list.json', conversation: 0, ends: true })).skeleton).toBeDefined();
  });

  it('lastListElements: the last elements of any list, found without parsing, are what JSON.parse reads there', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: edgeString }), { minLength: 1, maxLength: 14 }), fc.boolean(), fc.nat({ max: 4 }), fc.integer({ min: 1, max: 6 }), (list, wrapped, indent, keep) => {
        const text = JSON.stringify(wrapped ? { meta: { a: [1, { b: '[' }] }, history: list } : list, null, indent);
        const seen = finish(lastListElements(Buffer.from(text), keep, 7))!;
        expect(seen.closed).toBe(true);
        expect(seen.count).toBe(list.length);
        const bytes = Buffer.from(text);
        const got = seen.last.map((r) => JSON.parse(bytes.subarray(r.start, r.end).toString('utf8')) as unknown);
        expect(got).toEqual(list.slice(-keep));
        expect(bytes.toString('utf8', seen.open, seen.open + 1)).toBe('[');
      }),
      { numRuns: 400 },
    );
  });

  it('lastListElementsOfFile: read a few bytes at a time (strings cut anywhere, longer than the buffer), the same as the whole read', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: edgeString }), { maxLength: 14 }), fc.boolean(), fc.nat({ max: 4 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 40 }), fc.nat({ max: 30 }), async (list, wrapped, indent, keep, chunk, cut) => {
        const whole = Buffer.from(JSON.stringify(wrapped ? { meta: { a: [1, { b: '[' }] }, history: list } : list, null, indent));
        // Cut short too: a list that does not close (a file being written), a string that runs past the end.
        const bytes = whole.subarray(0, Math.max(0, whole.length - cut));
        const read = async (into: Buffer, length: number, position: number) => bytes.copy(into, 0, position, Math.min(bytes.length, position + length));
        expect(await lastListElementsOfFile(read, bytes.length, keep, chunk)).toEqual(finish(lastListElements(bytes, keep)));
      }),
      { numRuns: 400 },
    );
  });
});

describe('the head of a big file', () => {
  const bigList = JSON.stringify(messages(6000), null, 4);
  const cases: Record<string, string> = {
    'list.json': bigList,
    'wrapped.json': JSON.stringify({ metadata: { name: 'agent' }, conversation_history: messages(6000) }, null, 2),
    'chat.jsonl': messages(6000)
      .map((m) => JSON.stringify({ messages: [{ role: 'user', content: m.content }, { role: 'assistant', content: 'ok' }] }))
      .join('\n'),
    'session.jsonl': messages(6000)
      .map((m, i) => JSON.stringify({ type: m.role, uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, sessionId: 's', timestamp: '2026-11-30T10:00:00Z', message: { role: m.role, content: m.content } }))
      .join('\n'),
  };

  it('gives the first messages exactly as the whole read does, for a JSON list, a wrapper and JSONL files', async () => {
    const { call } = setup(cases);
    for (const path of Object.keys(cases)) {
      const peek = await call<Peek>('conversation:peek', { path });
      expect(peek.skeleton, path).toBeDefined();
      expect(peek.read).toBeLessThanOrEqual(PEEK_BYTES);
      const full = await call<Skeleton>('conversation:open', { path });
      // A dataset's first conversation is whole in the head; a long conversation shows its first hundreds.
      expect(peek.rows.length, path).toBe(full.conversations > 1 ? full.count : Math.min(2000, peek.skeleton!.count));
      if (full.conversations === 1) expect(peek.rows.length, path).toBeGreaterThan(100);
      const rows = (await call<{ rows: Row[] }>('conversation:rows', { path, start: 0, count: peek.rows.length })).rows;
      expect(peek.rows, path).toEqual(rows);
      const n = peek.skeleton!.count;
      for (const key of ['flags', 'lengths', 'storedTokens'] as const) expect(peek.skeleton![key], `${path} ${key}`).toEqual(full[key].slice(0, n));
      expect(peek.skeleton!.roleOf.map((k) => peek.skeleton!.roles[k])).toEqual(full.roleOf.slice(0, n).map((k) => full.roles[k]));
      if (peek.estimated !== undefined) expect(peek.estimated / full.count, path).toBeGreaterThan(0.5);
      // Once the file is read, there is nothing to peek at.
      expect((await call<Peek>('conversation:peek', { path })).skeleton).toBeUndefined();
    }
  });

  it('tells nothing for YAML, and says plainly when the file is gone', async () => {
    const { call } = setup({ 'h.yaml': '- role: user\n  content: hi\n' });
    expect((await call<Peek>('conversation:peek', { path: 'h.yaml' })).skeleton).toBeUndefined();
    await expect(call('conversation:peek', { path: 'missing.json' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(call('conversation:peek', { path: '../outside.json' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('closedHead: a JSON list cut anywhere reads as its first complete elements (strings full of brackets and quotes)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: edgeString }), { minLength: 1, maxLength: 12 }), fc.boolean(), fc.nat(), fc.nat({ max: 4 }), (list, wrapped, at, indent) => {
        const whole = JSON.stringify(wrapped ? { meta: { a: [1, { b: '[' }] }, history: list } : list, null, indent);
        const cut = whole.slice(0, at % (whole.length + 1));
        const head = closedHead(Buffer.from(cut));
        if (head === undefined) return;
        const value = JSON.parse(head) as unknown;
        const got = (wrapped ? (value as { history: unknown[] }).history : value) as unknown[];
        expect(got.length).toBeGreaterThan(0);
        expect(got).toEqual(list.slice(0, got.length));
      }),
      { numRuns: 400 },
    );
  });
});

describe('the rows on screen first', () => {
  it('rows asked for with a model come with the counts a whole count gives, before it', async () => {
    const { call } = setup({ 'list.json': JSON.stringify(messages(3000), null, 2) });
    const page = await call<{ rows: Row[] }>('conversation:rows', { path: 'list.json', start: 2400, count: 200, model: 'gpt-4o' });
    const all = await call<{ tokens: number[]; toolTokens: number[]; reasoningTokens: number[] }>('tokens:count', { path: 'list.json', model: 'gpt-4o' });
    expect(page.rows.map((r) => r.tokens)).toEqual(all.tokens.slice(2400, 2600));
    expect(page.rows.map((r) => r.toolTokens)).toEqual(all.toolTokens.slice(2400, 2600));
    expect(page.rows.map((r) => r.reasoningTokens)).toEqual(all.reasoningTokens.slice(2400, 2600));
    // Without a model, rows are rows.
    const plain = await call<{ rows: Row[] }>('conversation:rows', { path: 'list.json', start: 0, count: 2 });
    expect(plain.rows[0].tokens).toBeUndefined();
  });
});

describe('documents kept in memory', () => {
  it('clean documents past the budget are forgotten, least recently used first; edited ones are kept', () => {
    const dir = tempDir();
    const file = (name: string) => {
      writeFileSync(join(dir, name), JSON.stringify(messages(200)));
      return join(dir, name);
    };
    const [a, b, c] = [file('a.json'), file('b.json'), file('c.json')];
    const one = new DocumentStore(undefined, 1).get(a).size;
    const store = new DocumentStore(undefined, one * 2);
    const docA = store.get(a);
    const docB = store.get(b);
    docB.conversations[0].records = docB.conversations[0].records.slice(1);
    store.get(a);
    store.get(c);
    // b has unsaved edits: kept; a and c fit in the budget once b is not counted.
    expect(store.get(b)).toBe(docB);
    expect(store.peek(a)).toBe(docA);
    store.get(file('d.json'));
    // Now a (the least recently used clean one) goes.
    expect(store.peek(a)).toBeUndefined();
    expect(store.peek(b)).toBe(docB);
  });
});

const url = serviceWorkerUrl(pathToFileURL(join(ROOT, 'dist', 'cli.mjs')).href);
const built = existsSync(join(ROOT, 'dist', 'service-worker.mjs'));
(built ? it : it.skip)('app:info is answered while the document service reads a big file (the built service)', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'big.json'), JSON.stringify(messages(60_000), null, 4));
  const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: tempDir() }, new MemorySecretStore(), url);
  backends.push(backend);
  const order: string[] = [];
  const opening = backend.request('conversation:open', { path: 'big.json' }).then((r) => order.push(r.ok ? 'open' : 'open failed'));
  const info = backend.request('app:info', {}).then((r) => order.push(r.ok ? 'info' : 'info failed'));
  await Promise.all([opening, info]);
  expect(order).toEqual(['info', 'open']);
}, 60_000);
if (!built) console.log('app:info during a parse: skipped, dist/ is not built (npm run build; npm test does it first)');
