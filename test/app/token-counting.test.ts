import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CachedTokenService } from '../../app/service/tokens/cached-token-service.js';
import { CountCache } from '../../src/core/tokenizer/count-cache.js';
import type { TokenJob, TokenJobResult } from '../../app/service/tokens/token-job.js';
import { TokenPool } from '../../app/service/tokens/token-pool.js';
import { InlineTokenService, type Progress, type TokenService } from '../../app/service/tokens/token-service.js';
import { edgeString } from '../support/edge-arbitraries.js';
import { dispatch } from '../../app/service/dispatch.js';
import { dispatchNow } from '../support/current-version.js';
import { createRuntime } from '../../app/service/runtime.js';

const ROOT = join(import.meta.dirname, '..', '..');
const WORKER = new URL(`file://${join(ROOT, 'dist', 'token-worker.mjs')}`);
const tempDir = () => mkdtempSync(join(tmpdir(), 'ci-count-'));

/** Counts like the inline service and records every text it was asked to count. */
class Recording implements TokenService {
  readonly asked: string[] = [];
  private readonly inline = new InlineTokenService();
  count(job: TokenJob, onProgress: Progress): Promise<TokenJobResult> {
    for (const texts of job.parts) this.asked.push(...texts);
    for (const b of job.blocks) if (b) this.asked.push(b);
    return this.inline.count(job, onProgress);
  }
  close(): Promise<void> {
    return this.inline.close();
  }
}

const jobOf = (messages: string[][], blocks: string[]): TokenJob => ({ model: 'gpt-5.4', parts: messages, tools: messages.map((m) => m.slice(0, 1)), reasoning: messages.map((m) => m.slice(1, 2)), blocks });

describe('CachedTokenService', () => {
  it('gives exactly the counts of counting everything, for edge-case texts, whitespace parts and blocks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.oneof(edgeString, fc.constantFrom('', ' ', '\n\t', 'same text')), { maxLength: 4 }), { maxLength: 30 }), async (messages) => {
        const blocks = messages.map((m) => m.join('\n'));
        const job = jobOf(messages, blocks);
        const expected = await new InlineTokenService().count(job, () => {});
        const cached = new CachedTokenService(new InlineTokenService(), new CountCache(undefined));
        expect(await cached.count(job, () => {})).toEqual(expected);
        // Again, now from the cache.
        expect(await cached.count(job, () => {})).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('counts each distinct text once, and nothing at all the second time, also after a restart', async () => {
    const dir = tempDir();
    const messages = Array.from({ length: 300 }, (_, i) => [`message ${i % 100} of a history with repeats`, i % 7 === 0 ? '{"tool":"grep"}' : '']);
    const job = jobOf(messages, messages.map((m) => m[0]));
    const first = new Recording();
    const a = new CachedTokenService(first, new CountCache(dir));
    const expected = await a.count(job, () => {});
    expect(new Set(first.asked).size).toBe(first.asked.filter((t) => t).length);
    expect(first.asked.filter((t) => t).length).toBe(101);

    const second = new Recording();
    const progress: number[] = [];
    const b = new CachedTokenService(second, new CountCache(dir));
    expect(await b.count(job, (done) => progress.push(done))).toEqual(expected);
    expect(second.asked).toEqual([]);
    expect(progress.at(-1)).toBe(300);
  });
});

describe('CountCache', () => {
  it('keeps its file private and ignores a torn last record', () => {
    const dir = join(tempDir(), 'token-cache');
    const cache = new CountCache(dir);
    cache.set('o200k_base', 'hello', 1);
    cache.set('o200k_base', 'hello world', 2);
    cache.flush();
    const file = join(dir, 'o200k_base.counts');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A write cut short by a crash, then garbage: what came before still reads.
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('partial record')]));
    const again = new CountCache(dir);
    expect(again.get('o200k_base', 'hello')).toBe(1);
    expect(again.get('o200k_base', 'hello world')).toBe(2);
    expect(again.get('o200k_base', 'partial')).toBeUndefined();
    expect(again.get('cl100k_base', 'hello')).toBeUndefined();
    // What is added after the damage is not lost behind it: the file is rewritten whole.
    again.set('o200k_base', 'after', 3);
    again.flush();
    expect(statSync(file).size).toBe(3 * 24);
    expect(new CountCache(dir).get('o200k_base', 'after')).toBe(3);
  });

  it('stays within its bound: past it, the older half is dropped', () => {
    const dir = tempDir();
    const cache = new CountCache(dir, 100);
    for (let i = 0; i < 250; i++) {
      cache.set('o200k_base', `text ${i}`, i);
      if (i % 10 === 9) cache.flush();
    }
    const reread = new CountCache(dir, 100);
    expect(reread.get('o200k_base', 'text 249')).toBe(249);
    expect(reread.get('o200k_base', 'text 0')).toBeUndefined();
    expect(statSync(join(dir, 'o200k_base.counts')).size).toBeLessThanOrEqual(110 * 24);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('never gives a wrong count: random sets, flushes and reopenings, within and past its bound', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ op: fc.constant('set' as const), text: fc.string({ maxLength: 6 }), n: fc.nat({ max: 1e6 }) }), fc.constant({ op: 'flush' as const }), fc.constant({ op: 'reopen' as const })), { maxLength: 120 }),
        fc.integer({ min: 8, max: 10_000 }),
        (ops, bound) => {
          const dir = tempDir();
          let cache = new CountCache(dir, bound);
          const last = new Map<string, number>();
          let flushed = new Map<string, number>();
          for (const o of ops) {
            if (o.op === 'set') {
              cache.set('o200k_base', o.text, o.n);
              last.set(o.text, o.n);
            } else if (o.op === 'flush') {
              cache.flush();
              flushed = new Map(last);
            } else {
              cache = new CountCache(dir, bound);
              // What was not flushed is gone with the process; what was, is back (unless compacted away).
              for (const k of [...last.keys()]) if (!flushed.has(k)) last.delete(k);
              for (const [k, v] of flushed) last.set(k, v);
            }
            for (const [text, n] of last) {
              const got = cache.get('o200k_base', text);
              if (got !== undefined) expect(got).toBe(n);
              else expect(ops.length, 'only a compaction forgets').toBeGreaterThan(bound / 2);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('TokenPool', () => {
  it('splits a long job over its workers and gives the counts of one thread, in order, with progress', async () => {
    const pool = new TokenPool(WORKER, 2);
    const texts = Array.from({ length: 5000 }, (_, i) => `message ${i}: ${'word '.repeat(i % 40)}`);
    const job: TokenJob = { model: 'gpt-5.4', parts: texts.map((t) => [t]), tools: texts.map(() => []), reasoning: texts.map((t, i) => (i % 3 ? [] : [t])), blocks: texts };
    const progress: number[] = [];
    const pooled = await pool.count(job, (done) => progress.push(done));
    await pool.close();
    expect(pooled).toEqual(await new InlineTokenService().count(job, () => {}));
    expect(progress.at(-1)).toBe(5000);
    expect(progress.length).toBeGreaterThan(2);
  });
});

describe('a counter readied by an open', () => {
  it('an open asks the counter to get ready for the model in the settings, once per open, before the file is read', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.json'), JSON.stringify([{ role: 'user', content: 'hi' }]));
    const asked: string[] = [];
    const order: string[] = [];
    const inline = new InlineTokenService();
    const counter: TokenService = {
      prepare: (model) => {
        asked.push(model);
        order.push('prepare');
      },
      count: (job, progress) => {
        order.push('count');
        return inline.count(job, progress);
      },
      close: () => inline.close(),
    };
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: counter, watch: false, settingsFile: join(dir, 'settings.json') });
    await dispatch(rt.handlers, 'settings:set', { model: 'gpt-4o' });
    const opened = await dispatch(rt.handlers, 'conversation:open', { path: 'a.json' });
    expect(opened.ok).toBe(true);
    await dispatch(rt.handlers, 'tokens:count', { path: 'a.json', model: 'gpt-4o' });
    expect(asked).toEqual(['gpt-4o']);
    expect(order).toEqual(['prepare', 'count']);
    await rt.close();
  });

  it('a readied pool counts as one that was not: the warm-up is no part of any answer', async () => {
    const pool = new TokenPool(WORKER, 2);
    pool.prepare('gpt-5.4');
    pool.prepare('gpt-4o');
    const texts = ['warm up', 'hello there', ''];
    const job: TokenJob = { model: 'gpt-5.4', parts: texts.map((t) => [t]), tools: texts.map(() => []), reasoning: texts.map(() => []), blocks: texts };
    const pooled = await pool.count(job, () => {});
    await pool.close();
    expect(pooled).toEqual(await new InlineTokenService().count(job, () => {}));
  });
});

describe('tokens:count after an edit', () => {
  it('counts only the message that changed, and gives the counts a fresh count gives', async () => {
    const dir = tempDir();
    const messages = Array.from({ length: 50 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message number ${i} of a long history`, timestamp: `2026-11-20T10:00:${String(i).padStart(2, '0')}` }));
    writeFileSync(join(dir, 'h.json'), JSON.stringify(messages, null, 2));
    const recording = new Recording();
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: recording, historyDir: tempDir() });
    const count = async (r = rt) => {
      const a = await dispatch(r.handlers, 'tokens:count', { path: 'h.json', model: 'gpt-5.4' });
      if (!a.ok) throw new Error(a.error.message);
      return a.value as { tokens: number[]; renderedTokens: number[]; total: number };
    };
    await count();
    expect(recording.asked.length).toBeGreaterThanOrEqual(100);
    recording.asked.length = 0;
    const edited = await dispatchNow(rt.handlers, 'edit:apply', { path: 'h.json', command: { type: 'set-text', index: 7, text: 'a much longer message in place of message seven, edited by hand' } });
    expect(edited.ok).toBe(true);
    const after = await count();
    expect(recording.asked.every((t) => t.includes('edited by hand'))).toBe(true);
    expect(recording.asked.length).toBeGreaterThan(0);
    // The same as counting the edited conversation from nothing.
    const fresh = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
    await dispatchNow(fresh.handlers, 'edit:apply', { path: 'h.json', command: { type: 'set-text', index: 7, text: 'a much longer message in place of message seven, edited by hand' } });
    expect(after).toEqual(await count(fresh));
    await rt.close();
    await fresh.close();
  });
});

describe('tokens:count of a long conversation', () => {
  it('sends the first screen’s counts first, equal to the final ones', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'long.json'), JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}: ${'a word '.repeat(i % 30)}`, timestamp: '2026-11-20T10:00:00' }))));
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir: tempDir() });
    const partial: Array<{ start: number; tokens: number[] }> = [];
    let finished = false;
    let partialBeforeEnd = false;
    rt.onEvent = (event, payload) => {
      if (event === 'tokens:partial') {
        partial.push(payload as { start: number; tokens: number[] });
        partialBeforeEnd = !finished;
      }
    };
    const answer = await dispatch(rt.handlers, 'tokens:count', { path: 'long.json', model: 'gpt-5.4' });
    finished = true;
    if (!answer.ok) throw new Error(answer.error.message);
    const all = (answer.value as { tokens: number[] }).tokens;
    expect(partial).toHaveLength(1);
    expect(partialBeforeEnd).toBe(true);
    expect(partial[0].start).toBe(0);
    expect(partial[0].tokens).toEqual(all.slice(0, 500));
    // Counted again (nothing changed): no partial, everything known.
    partial.length = 0;
    await dispatch(rt.handlers, 'tokens:count', { path: 'long.json', model: 'gpt-5.4' });
    expect(partial).toEqual([]);
    await rt.close();
  });
});
