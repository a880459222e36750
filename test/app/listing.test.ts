import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/service/dispatch.js';
import fc from 'fast-check';
import { HEAD_BYTES, headLength, summarizeHead, summarizeWhole, WHOLE_READ_LIMIT } from '../../app/service/listing/file-summary.js';
import { edgeString } from '../support/edge-arbitraries.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { DirEntry } from '../../app/shared/contract.js';
import { tempDir } from '../helpers.js';
import { DEFAULT_MODEL } from '../../src/core/defaults.js';
import { listFully } from '../support/listing.js';
import { relisted, withDetails } from '../../app/shared/dir-details.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function runtime(dir: string): Runtime {
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
  runtimes.push(rt);
  return rt;
}

const history = (n: number, text: string) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${text} ${i}` })), null, 2);

describe('listing by heads', () => {
  it('answers from stat, then fills formats and exact counts in events: small files whole, bigger ones after their head', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'small.json'), history(3, 'hi'));
    const big = history(4000, 'a message long enough to push this file well past its first sixty-four kilobytes');
    expect(big.length).toBeGreaterThan(HEAD_BYTES);
    writeFileSync(join(dir, 'big.json'), big);
    mkdirSync(join(dir, 'sessions'));
    writeFileSync(join(dir, 'sessions', 'chat.jsonl'), '{"messages":[{"role":"user","content":"hi"}]}\n');
    const rt = runtime(dir);
    const events: DirEntry[][] = [];
    rt.onEvent = (event, payload) => {
      if (event === 'dir:details') events.push((payload as { entries: DirEntry[] }).entries);
    };
    const first = await dispatch(rt.handlers, 'dir:list', {});
    if (!first.ok) throw new Error(first.error.message);
    const listed = (first.value as { entries: DirEntry[] }).entries;
    expect(listed.map((e) => e.path)).toEqual(['big.json', 'sessions/chat.jsonl', 'small.json']);
    expect(listed.every((e) => e.pending && e.format === undefined && e.messages === undefined)).toBe(true);

    const entries = await listFully(rt);
    expect(entries.find((e) => e.path === 'small.json')).toMatchObject({ format: 'swarms-json', messages: 3 });
    expect(entries.find((e) => e.path === 'sessions/chat.jsonl')).toMatchObject({ format: 'openai-chat-jsonl', conversations: 1, messages: 1 });
    expect(entries.find((e) => e.path === 'big.json')).toMatchObject({ format: 'swarms-json', messages: 4000 });
    // The big file came twice: its format from the head (still pending), then its counts.
    const bigEvents = events.flat().filter((e) => e.path === 'big.json');
    expect(bigEvents[0]).toMatchObject({ format: 'swarms-json', pending: true, estimated: true });
    expect(Math.abs(bigEvents[0].messages! - 4000)).toBeLessThan(400);
    expect(entries.every((e) => e.tokens === undefined)).toBe(true);

    // Listed again: every file from the cache, in the answer itself, and no events.
    events.length = 0;
    const again = await dispatch(rt.handlers, 'dir:list', {});
    if (!again.ok) throw new Error(again.error.message);
    expect((again.value as { entries: DirEntry[] }).entries).toEqual(entries);
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual([]);
  });

  it('a file past the whole-read limit gets its format and an estimate: counted when opened', async () => {
    const dir = tempDir();
    const line = JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(1000) }] }) + '\n';
    writeFileSync(join(dir, 'huge.jsonl'), line.repeat(Math.ceil(WHOLE_READ_LIMIT / line.length) + 10));
    const rt = runtime(dir);
    const [entry] = await listFully(rt);
    const lines = Math.ceil(WHOLE_READ_LIMIT / line.length) + 10;
    expect(entry).toMatchObject({ format: 'openai-chat-jsonl', estimated: true });
    expect(Math.abs(entry.messages! - lines)).toBeLessThan(lines / 20);
    expect(entry.pending).toBeUndefined();
    await dispatch(rt.handlers, 'conversation:open', { path: 'huge.jsonl' });
    const [opened] = await listFully(rt);
    expect(opened.conversations).toBe(Math.ceil(WHOLE_READ_LIMIT / line.length) + 10);
  });

  it('an unreadable file is listed with its error and position once its head is read', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'broken.json'), '[{"role": "user", "content": "hi"}\n');
    const [entry] = await listFully(runtime(dir));
    expect(entry).toMatchObject({ path: 'broken.json', errorLine: 2 });
    expect(entry.error).toBeTruthy();
  });

  it('a tree of 10,000 files: every entry at once, every one filled by events, a relist entirely from the cache', async () => {
    const dir = tempDir();
    for (let d = 0; d < 100; d++) {
      mkdirSync(join(dir, `agent-${d}`));
      for (let f = 0; f < 100; f++) writeFileSync(join(dir, `agent-${d}`, `run-${f}.json`), history(1 + ((d * 7 + f) % 9), `agent ${d} run ${f}`));
    }
    const rt = runtime(dir);
    const entries = await listFully(rt);
    expect(entries).toHaveLength(10_000);
    expect(entries.every((e) => e.format === 'swarms-json' && e.messages === 1 + ((Number(e.path.split('/')[0].slice(6)) * 7 + Number(e.path.split('-').at(-1)!.slice(0, -5))) % 9))).toBe(true);
    const again = await dispatch(rt.handlers, 'dir:list', {});
    if (!again.ok) throw new Error(again.error.message);
    expect((again.value as { entries: DirEntry[] }).entries.some((e) => e.pending)).toBe(false);
  }, 120_000);
});

describe('counts from a head', () => {
  it('a big JSON list or JSONL file gets an estimate (marked) from its head, then its exact count', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'big.json'), history(3000, 'a message of a long history, long enough to fill the head many times over'));
    const line = (i: number) => JSON.stringify({ messages: [{ role: 'user', content: `question ${i} `.repeat(20) }, { role: 'assistant', content: 'answer' }] }) + '\n';
    writeFileSync(join(dir, 'big.jsonl'), Array.from({ length: 2000 }, (_, i) => line(i)).join(''));
    const rt = runtime(dir);
    const heads: DirEntry[] = [];
    rt.onEvent = (event, payload) => {
      if (event === 'dir:details') for (const e of (payload as { entries: DirEntry[] }).entries) if (e.pending) heads.push(e);
    };
    const entries = await listFully(rt);
    const json = heads.find((e) => e.path === 'big.json')!;
    expect(json).toMatchObject({ estimated: true, format: 'swarms-json' });
    expect(Math.abs(json.messages! - 3000) / 3000).toBeLessThan(0.1);
    const jsonl = heads.find((e) => e.path === 'big.jsonl')!;
    expect(jsonl).toMatchObject({ estimated: true, format: 'openai-chat-jsonl' });
    // A file whose whole read follows is estimated from its first 16 KB, where these lines are shortest.
    expect(Math.abs(jsonl.messages! - 4000) / 4000).toBeLessThan(0.15);
    expect(entries.find((e) => e.path === 'big.json')).toMatchObject({ messages: 3000 });
    expect(entries.find((e) => e.path === 'big.json')!.estimated).toBeUndefined();
    expect(entries.find((e) => e.path === 'big.jsonl')).toMatchObject({ messages: 4000, conversations: 2000 });
  });
});

describe('watching starts after the first listing', () => {
  it('what changed between the listing and the watcher\'s start is reported when it starts, and later changes as they happen', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.json'), history(3, 'a'));
    writeFileSync(join(dir, 'gone.json'), history(1, 'g'));
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), watchDelayMs: 300 });
    runtimes.push(rt);
    const seen: string[] = [];
    rt.onEvent = (event, payload) => {
      if (event === 'dir:changed') seen.push(`${(payload as { kind: string }).kind} ${(payload as { path: string }).path}`);
    };
    await dispatch(rt.handlers, 'dir:list', {});
    expect(rt.watchers).toHaveLength(0);
    writeFileSync(join(dir, 'a.json'), history(4, 'a'));
    writeFileSync(join(dir, 'new.json'), history(1, 'n'));
    rmSync(join(dir, 'gone.json'));
    const until = async (what: string) => {
      const deadline = Date.now() + 10_000;
      while (!seen.includes(what)) {
        if (Date.now() > deadline) throw new Error(`no "${what}" in ${JSON.stringify(seen)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until('changed a.json');
    await until('added new.json');
    await until('removed gone.json');
    writeFileSync(join(dir, 'later.json'), history(1, 'l'));
    await until('added later.json');
    expect(seen.filter((e) => e === 'changed a.json')).toHaveLength(1);
  });
});

describe('a head read by its bytes', () => {
  it('a small JSON list or JSONL file: the count from its bytes is the count a whole read gives (edge strings, BOM, CRLF, indents)', () => {
    const dir = tempDir();
    fc.assert(
      fc.property(
        fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: edgeString }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom('json', 'wrapped', 'jsonl'),
        fc.nat({ max: 3 }),
        fc.boolean(),
        fc.boolean(),
        (list, shape, indent, bom, crlf) => {
          const file = join(dir, shape === 'jsonl' ? 'a.jsonl' : 'a.json');
          let text =
            shape === 'jsonl'
              ? list.map((m, i) => JSON.stringify({ messages: [m, { role: 'assistant', content: String(i) }] })).join('\n') + (crlf ? '\r\n' : '\n')
              : JSON.stringify(shape === 'wrapped' ? { conversation_history: list } : list, null, indent);
          if (crlf && shape !== 'jsonl') text = text.replace(/\n/g, '\r\n');
          if (bom) text = '\uFEFF' + text;
          writeFileSync(file, text);
          const bytes = Buffer.byteLength(text);
          const whole = summarizeWhole(file);
          const head = summarizeHead(file, bytes);
          expect(head.format).toBe(whole.format);
          if (bytes > headLength(bytes)) {
            // the head holds part of the file: a count scaled from it, said to be one
            if (shape !== 'jsonl' || head.messages !== whole.messages) expect(head.estimated).toBe(true);
            return;
          }
          if (shape === 'jsonl') {
            // a line per conversation: counted by lines, scaled by a sample, so exact when lines are alike
            expect(head.conversations ?? 1).toBe(whole.conversations);
            expect(head.messages).toBe(whole.messages);
          } else {
            expect(head).toMatchObject({ messages: whole.messages });
            expect(head.estimated).toBeUndefined();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('merging listings in the renderer', () => {
  const e = (path: string, bytes: number, tokens?: number): DirEntry => ({ path, name: path, bytes, modified: 1, ...(tokens !== undefined ? { tokens } : {}) });
  it('a token total counted in the app survives a relist or a late detail of the same file, not of a changed one', () => {
    expect(relisted([e('a.json', 10, 46), e('b.json', 5, 9)], [e('a.json', 10), e('b.json', 6), e('c.json', 1)])).toEqual([e('a.json', 10, 46), e('b.json', 6), e('c.json', 1)]);
    expect(withDetails([e('a.json', 10, 46)], [{ ...e('a.json', 10), format: 'swarms-json', messages: 5 }])).toEqual([{ ...e('a.json', 10, 46), format: 'swarms-json', messages: 5 }]);
  });
  it('a file replaced on disk keeps its format badge and title while it is read again; its new details then replace them', () => {
    const before: DirEntry = { ...e('s.jsonl', 10), format: 'claude-code', formatLabel: 'Claude Code session (JSONL)', title: 'fix the parser', messages: 4 };
    const fresh: DirEntry = { ...e('s.jsonl', 30), pending: true };
    const [kept] = relisted([before], [fresh]);
    expect(kept).toMatchObject({ format: 'claude-code', formatLabel: 'Claude Code session (JSONL)', title: 'fix the parser', pending: true, bytes: 30 });
    // The old count is not the new file's: it is read again.
    expect(kept.messages).toBeUndefined();
    const read: DirEntry = { ...e('s.jsonl', 30), format: 'openai-chat-jsonl', messages: 6 };
    expect(withDetails([kept], [read])).toEqual([read]);
    // A file that could not be read before has no badge to keep.
    expect(relisted([{ ...before, error: 'bad line' }], [fresh])[0].format).toBeUndefined();
  });
});

describe('the listing kept between runs', () => {
  it('a folder listed before answers with its exact counts at the next start; a file changed since is read again; a damaged file is a cold start', async () => {
    const dir = tempDir();
    const kept = join(tempDir(), 'listing.json');
    writeFileSync(join(dir, 'a.json'), history(3, 'a'));
    writeFileSync(join(dir, 'b.json'), history(5, 'b'));
    const first = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: kept, watch: false });
    // watch: false keeps nothing (a big file's own service); the main service keeps it.
    await listFully(first);
    await first.close();
    expect(existsSync(kept)).toBe(false);

    const main = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: kept, watchDelayMs: 60_000 });
    runtimes.push(main);
    await listFully(main);
    await main.close();
    expect(existsSync(kept)).toBe(true);

    writeFileSync(join(dir, 'b.json'), history(7, 'b'));
    const again = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: kept, watchDelayMs: 60_000 });
    runtimes.push(again);
    const answer = await dispatch(again.handlers, 'dir:list', {});
    if (!answer.ok) throw new Error(answer.error.message);
    const entries = (answer.value as { entries: DirEntry[] }).entries;
    expect(entries.find((e) => e.path === 'a.json')).toMatchObject({ format: 'swarms-json', messages: 3 });
    expect(entries.find((e) => e.path === 'a.json')!.pending).toBeUndefined();
    expect(entries.find((e) => e.path === 'b.json')).toMatchObject({ pending: true });
    expect((await listFully(again)).find((e) => e.path === 'b.json')).toMatchObject({ messages: 7 });
    await again.close();

    writeFileSync(kept, '{"version":1,"summaries":[["x",1,2,null]], "totals": 7');
    const cold = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: kept, watchDelayMs: 60_000 });
    runtimes.push(cold);
    const coldAnswer = await dispatch(cold.handlers, 'dir:list', {});
    if (!coldAnswer.ok) throw new Error(coldAnswer.error.message);
    expect((coldAnswer.value as { entries: DirEntry[] }).entries.every((e) => e.pending)).toBe(true);
  });
});

describe('token totals across folders opened in turn', () => {
  it('a folder opened again keeps the totals counted in it, though the next folder started before it closed and saved after it', async () => {
    const a = tempDir();
    const b = tempDir();
    const kept = join(tempDir(), 'listing.json');
    writeFileSync(join(a, 'a.json'), history(3, 'alpha'));
    writeFileSync(join(b, 'b.json'), history(4, 'beta'));
    const make = (dir: string) => {
      const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir(), listingFile: kept, watchDelayMs: 60_000 });
      runtimes.push(rt);
      return rt;
    };
    const count = async (rt: Runtime, path: string) => {
      const opened = await dispatch(rt.handlers, 'conversation:open', { path });
      if (!opened.ok) throw new Error(opened.error.message);
      const counted = await dispatch(rt.handlers, 'tokens:count', { path, conversation: 0, model: DEFAULT_MODEL });
      if (!counted.ok) throw new Error(counted.error.message);
      return (counted.value as { total: number }).total;
    };
    const first = make(a);
    await listFully(first);
    const total = await count(first, 'a.json');
    expect(total).toBeGreaterThan(0);
    // As the folder shell does it: the next folder's service starts (and reads the kept listing) before this one closes.
    const next = make(b);
    await first.close();
    await listFully(next);
    await count(next, 'b.json');
    await next.close();

    const again = make(a);
    const listed = await listFully(again);
    expect(listed.find((e) => e.path === 'a.json')?.tokens).toBe(total);
  });
});
