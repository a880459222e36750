// A session log too big to read whole is read a part at a time: every line in exactly one part, each part a
// document of its own (read-only in place), the first rows from the file's head, the last part without the middle.
import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import type { DirEntry, Skeleton } from '../../app/shared/contract.js';
import { filePartsOf, readPart, splitPartPath, partPath } from '../../src/core/storage/file-parts.js';
import { tempDir } from '../helpers.js';
import { edgeString } from '../support/edge-arbitraries.js';
import { listFully } from '../support/listing.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

/** A Claude Code session of `n` turns; turn 40 carries a line far longer than a part. */
function session(n: number, from = 0): string {
  const lines: string[] = [];
  for (let i = from; i < from + n; i++) {
    const text = i === 40 ? `A long tool output ${'x'.repeat(150_000)}` : `Turn ${i}: checked the deploy log, "quoted" {braces} ünïcödé 🎉 and moved on.`;
    lines.push(JSON.stringify({ type: i % 2 ? 'assistant' : 'user', uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, sessionId: 's1', timestamp: `2026-12-01T10:00:${String(i % 60).padStart(2, '0')}Z`, message: i % 2 ? { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text }] } : { role: 'user', content: text } }));
  }
  return lines.join('\n') + '\n';
}

function runtime(dir: string): { rt: Runtime; call: <T>(channel: string, input: unknown) => Promise<T> } {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: false, watch: false, wholeReadBytes: 200_000, partBytes: 64_000 });
  runtimes.push(rt);
  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const r = await dispatchNow(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  return { rt, call };
}

describe('the parts of a file', () => {
  it('cover it byte for byte, each ending after a line break, whatever the lines', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 300 }).map((s) => s.replace(/\n/g, ' ')), { maxLength: 60 }), fc.integer({ min: 1, max: 500 }), fc.boolean(), (lines, partBytes, lastNewline) => {
        const dir = tempDir();
        const file = join(dir, 's.jsonl');
        const text = lines.join('\n') + (lastNewline ? '\n' : '');
        writeFileSync(file, text);
        const bytes = readFileSync(file);
        const parts = filePartsOf(file, bytes.length, partBytes);
        expect(Buffer.concat(parts.map((p) => readPart(file, p)))).toEqual(bytes);
        parts.forEach((p, k) => {
          expect(p.number).toBe(k + 1);
          if (k < parts.length - 1) expect(bytes[p.end - 1]).toBe(0x0a);
        });
      }),
      { numRuns: 200 },
    );
  });
  it('of a JSONL file of edge-biased records (CRLF or LF, blank lines, BOM): every line lands whole in one part, and JSON.parse reads the same records from the parts as from the file', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: edgeString }), { minLength: 1, maxLength: 40 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 300 }), (records, eol, blank, bom, partBytes) => {
        const file = join(tempDir(), 's.jsonl');
        const lines = records.map((r) => JSON.stringify(r));
        writeFileSync(file, (bom ? '\uFEFF' : '') + lines.join(blank ? eol + eol : eol) + eol);
        const bytes = readFileSync(file);
        const parts = filePartsOf(file, bytes.length, partBytes);
        expect(Buffer.concat(parts.map((p) => readPart(file, p)))).toEqual(bytes);
        const read = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
        expect(parts.flatMap((p) => read(readPart(file, p).toString('utf8')))).toEqual(records);
      }),
      { numRuns: 150 },
    );
  });
  it('are named as paths of their own, and only those names are parts', () => {
    expect(splitPartPath(partPath('/a/b.jsonl', 3))).toEqual({ file: '/a/b.jsonl', number: 3 });
    for (const p of ['/a/b.jsonl', '/a/b.jsonl#part-0', '/a/b.jsonl#part-x', '/a/b.jsonl#part-', '/a/b.jsonl#part-01']) expect(splitPartPath(p)).toBeUndefined();
  });
});

describe('a session too big to read whole', () => {
  it('is listed with its parts; each opens as a read-only document of whole lines; together they hold every message once', async () => {
    const dir = tempDir();
    const text = session(1400);
    writeFileSync(join(dir, 'big.jsonl'), text);
    const { rt, call } = runtime(dir);
    const [entry] = (await listFully(rt)).filter((e) => e.path === 'big.jsonl') as DirEntry[];
    expect(entry.format).toBe('claude-code');
    expect(entry.parts!.length).toBeGreaterThan(3);
    expect(entry.parts![0]).toEqual({ path: 'big.jsonl#part-1', title: expect.stringMatching(/^part 1 of \d+ · 0 MiB–0 MiB$/) });
    // The file itself is not read whole: said, with the names of its parts.
    await expect(call('conversation:open', { path: 'big.jsonl' })).rejects.toThrow(/read a part at a time, big\.jsonl#part-1 to big\.jsonl#part-\d+/);
    const seen: string[] = [];
    for (const part of entry.parts!) {
      const skeleton = await call<Skeleton>('conversation:open', { path: part.path, conversation: 0 });
      expect(skeleton.readOnly?.reason).toMatch(/read a part at a time/);
      const { rows } = await call<{ rows: Array<{ preview: string }> }>('conversation:rows', { path: part.path, conversation: 0, start: 0, count: skeleton.count });
      for (const r of rows) seen.push(r.preview.match(/^(Turn \d+|A long tool output)/)?.[0] ?? r.preview.slice(0, 20));
    }
    expect(seen).toEqual(Array.from({ length: 1400 }, (_, i) => (i === 40 ? 'A long tool output' : `Turn ${i}`)));
    // A part is not written in place (its file is the whole file).
    await call('edit:apply', { path: entry.parts![1].path, conversation: 0, command: { type: 'delete', indexes: [0] } }).catch(() => undefined);
    await expect(call('edit:save', { path: entry.parts![1].path })).rejects.toThrow();
    expect(readFileSync(join(dir, 'big.jsonl'), 'utf8')).toBe(text);
  });

  it("the first part's rows come from the file's head; the last part opens without reading the middle; an append reaches the last part", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'big.jsonl'), session(1400));
    const { rt, call } = runtime(dir);
    const [entry] = (await listFully(rt)).filter((e) => e.path === 'big.jsonl');
    const peek = await call<{ rows: Array<{ preview: string }>; estimated?: number }>('conversation:peek', { path: entry.parts![0].path, conversation: 0 });
    expect(peek.rows[0].preview).toMatch(/^Turn 0:/);
    expect(peek.estimated).toBeUndefined();
    // Any part's first rows come from its own head, before it is read.
    const second = entry.parts![1].path;
    const secondPeek = await call<{ rows: Array<{ preview: string }>; size: number }>('conversation:peek', { path: second, conversation: 0 });
    expect(secondPeek.rows.length).toBeGreaterThan(0);
    const secondOpen = await call<Skeleton>('conversation:open', { path: second, conversation: 0 });
    const secondRows = await call<{ rows: Array<{ preview: string }> }>('conversation:rows', { path: second, conversation: 0, start: 0, count: secondPeek.rows.length });
    expect(secondPeek.rows.map((r) => r.preview)).toEqual(secondRows.rows.map((r) => r.preview));
    expect(secondOpen.count).toBeGreaterThanOrEqual(secondPeek.rows.length);
    const last = entry.parts![entry.parts!.length - 1].path;
    const before = await call<Skeleton>('conversation:open', { path: last, conversation: 0 });
    appendFileSync(join(dir, 'big.jsonl'), session(3, 1400));
    const after = await call<Skeleton>('conversation:open', { path: last, conversation: 0 });
    expect(after.count).toBe(before.count + 3);
    // Another part, listed again, keeps its bounds: the same lines.
    const again = (await listFully(rt)).find((e) => e.path === 'big.jsonl')!;
    expect(again.parts!.slice(0, -1)).toEqual(entry.parts!.slice(0, -1));
  });

  it('search across conversations finds words in every part; a hit names its part, gives its line, and opens there', async () => {
    const dir = tempDir();
    const text = session(1400).replace('Turn 1300: checked', 'Turn 1300: quixotic walrus checked').replace('Turn 7: checked', 'Turn 7: quixotic gazelle checked');
    writeFileSync(join(dir, 'big.jsonl'), text);
    writeFileSync(join(dir, 'small.jsonl'), session(5).replace('Turn 2: checked', 'Turn 2: quixotic heron checked'));
    const { rt, call } = runtime(dir);
    const [entry] = (await listFully(rt)).filter((e) => e.path === 'big.jsonl');
    type Answer = { hits: Array<{ path: string; conversation: number; index: number; snippet?: string }>; total: number; status: { pending: number; building: boolean } };
    let answer: Answer;
    // The index is built between requests: asked again (a timer apart, so that it gets its turns) until it is.
    do {
      answer = await call<Answer>('search:query', { query: 'quixotic' });
      await new Promise((r) => setTimeout(r, 20));
    } while (answer.status.pending > 0 || answer.status.building);
    expect(answer.total).toBe(3);
    // Two files, however many parts the big one has.
    expect((answer.status as unknown as { files: number }).files).toBe(2);
    const paths = answer.hits.map((h) => h.path).sort();
    expect(paths[0]).toMatch(/^big\.jsonl#part-\d+$/);
    expect(paths[1]).toMatch(/^big\.jsonl#part-\d+$/);
    expect(paths[2]).toBe('small.jsonl');
    for (const h of answer.hits) {
      expect(entry.parts!.map((p) => p.path).concat('small.jsonl')).toContain(h.path);
      expect(h.snippet).toMatch(/quixotic (walrus|gazelle|heron)/);
      // The hit opens at its message: the part, and the message's place in it.
      await call('conversation:open', { path: h.path, conversation: h.conversation });
      const message = await call<{ text: string }>('conversation:message', { path: h.path, conversation: h.conversation, index: h.index });
      expect(message.text).toContain('quixotic');
    }
    // Turn 1300 is far past the head: its hit is in a later part than turn 7's.
    const partOf = (word: string) => answer.hits.find((h) => h.snippet?.includes(word))!.path;
    expect(partOf('walrus')).not.toBe(partOf('gazelle'));
    expect(partOf('gazelle')).toBe(entry.parts![0].path);
  });

  it('"go to #N" asked from the first part finds message N in a later part (numbered across the parts), says how many there are past the end, and refuses a file read whole', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'big.jsonl'), session(1400));
    writeFileSync(join(dir, 'small.jsonl'), session(5));
    const { rt, call } = runtime(dir);
    const [entry] = (await listFully(rt)).filter((e) => e.path === 'big.jsonl');
    const parts = entry.parts!.map((p) => p.path);
    expect(parts.length).toBeGreaterThan(3);
    // What each part shows, as the renderer opens it: the session's numbers are these counts added up.
    const counts: number[] = [];
    for (const p of parts) counts.push((await call<Skeleton>('conversation:open', { path: p, conversation: 0 })).count);
    const firstOf = (k: number) => counts.slice(0, k).reduce((a, b) => a + b, 0);
    // A fresh service, the first part alone open: message N of the third part is asked for from there.
    const fresh = runtime(dir);
    await listFully(fresh.rt);
    await fresh.call<Skeleton>('conversation:open', { path: parts[0], conversation: 0 });
    type Place = { found: true; path: string; part: number; parts: number; index: number; first: number } | { found: false; count: number; parts: number };
    const n = firstOf(2) + 7;
    const place = await fresh.call<Place>('conversation:locate', { path: parts[0], index: n });
    expect(place).toEqual({ found: true, path: parts[2], part: 3, parts: parts.length, index: 7, first: firstOf(2) });
    // The message there is the session's message N: "Turn N" (every line of this session is one message).
    const message = await fresh.call<{ text: string }>('conversation:message', { path: parts[2], conversation: 0, index: 7 });
    expect(message.text).toContain(`Turn ${n}:`);
    // The first and the last message of the session, and one past it, from any part.
    expect(await fresh.call<Place>('conversation:locate', { path: parts[1], index: 0 })).toMatchObject({ found: true, path: parts[0], index: 0 });
    expect(await fresh.call<Place>('conversation:locate', { path: parts[2], index: 1399 })).toMatchObject({ found: true, path: parts[parts.length - 1], index: counts[counts.length - 1] - 1, part: parts.length });
    expect(await fresh.call<Place>('conversation:locate', { path: parts[0], index: 1400 })).toEqual({ found: false, count: 1400, parts: parts.length });
    // Named by the file itself, too; a file read whole has no parts to look in; a negative number is refused.
    expect(await fresh.call<Place>('conversation:locate', { path: 'big.jsonl', index: n })).toMatchObject({ found: true, path: parts[2], index: 7 });
    await expect(fresh.call('conversation:locate', { path: 'small.jsonl', index: 2 })).rejects.toThrow(/small\.jsonl is read whole, not a part at a time/);
    await expect(fresh.call('conversation:locate', { path: parts[0], index: -1 })).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('a part is confined as its file is: a link named like a session that leads out of the folder reads nothing', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.jsonl'), session(1400));
    const dir = tempDir();
    symlinkSync(join(outside, 'secret.jsonl'), join(dir, 'link.jsonl'));
    const { call } = runtime(dir);
    for (const channel of ['conversation:open', 'conversation:peek', 'conversation:locate']) {
      const r = await call(channel, { path: 'link.jsonl#part-1', conversation: 0, index: 0 }).then(() => undefined, (e: { code: string }) => e.code);
      expect(r, channel).toBe('FORBIDDEN');
    }
    await expect(call('conversation:open', { path: '../' + outside.split('/').pop() + '/secret.jsonl#part-1' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

