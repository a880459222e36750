import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { chatTokenEstimate, codePointBoundaries, getTokenizer, resolveEncoding, Tokenizer } from '../../src/core/index.js';
import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers.js';

const require = createRequire(import.meta.url);
const reference = new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
const refCount = (text: string) => reference.encode(text, [], []).length;

describe('resolveEncoding', () => {
  it.each([
    ['gpt-5.4', 'o200k_base', false],
    ['gpt-5', 'o200k_base', false],
    ['gpt-4o', 'o200k_base', false],
    ['gpt-4o-2099-01-01', 'o200k_base', false],
    ['gpt-4.1-mini-2099', 'o200k_base', false],
    ['o1-preview', 'o200k_base', false],
    ['o3-pro', 'o200k_base', false],
    ['o4-mini-high', 'o200k_base', false],
    ['chatgpt-4o-latest-2', 'o200k_base', false],
    ['gpt-oss-120b', 'o200k_base', false],
    ['gpt-4', 'cl100k_base', false],
    ['gpt-4-0613-custom', 'cl100k_base', false],
    ['gpt-3.5-turbo-9999', 'cl100k_base', false],
    ['text-embedding-3-huge', 'cl100k_base', false],
    ['text-embedding-ada-002', 'cl100k_base', false],
    ['davinci-002', 'p50k_base', false],
    ['claude-sonnet-4-5', 'o200k_base', true],
    ['gemini-2.5-pro', 'o200k_base', true],
    ['llama-3.1-70b', 'o200k_base', true],
    ['cl100k_base', 'cl100k_base', false],
    ['o200k_base', 'o200k_base', false],
    ['p50k_base', 'p50k_base', false],
  ])('%s -> %s (approximate: %s)', (model, encoding, approximate) => {
    expect(resolveEncoding(model)).toEqual({ model, encoding, approximate });
  });
});

describe('Tokenizer', () => {
  const t = getTokenizer('gpt-5.4');

  it('builds its encoder only when first needed', () => {
    const fresh = new Tokenizer('r50k_base');
    expect((fresh as unknown as { encoder?: unknown }).encoder).toBeUndefined();
    expect(fresh.count('hello world')).toBe(2);
    expect((fresh as unknown as { encoder?: unknown }).encoder).toBeDefined();
  });

  it('shares one tokenizer per encoding', () => {
    expect(getTokenizer('gpt-4o')).toBe(getTokenizer('o200k_base'));
    expect(getTokenizer('gpt-4')).not.toBe(getTokenizer('gpt-4o'));
  });

  it('counts special tokens as plain text instead of throwing', () => {
    const text = 'before <|endoftext|> after <|im_start|>';
    expect(t.count(text)).toBe(refCount(text));
    expect(t.count('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('counts content only, 0 for empty or white space, compact JSON for structures', () => {
    expect(t.countContent('')).toBe(0);
    expect(t.countContent('  \n\t ')).toBe(0);
    expect(t.countContent(undefined)).toBe(0);
    expect(t.countContent({ a: [1, 'x'] })).toBe(refCount('{"a":[1,"x"]}'));
    expect(t.countContent('The capital of France is Paris.')).toBe(7);
  });

  it('cl100k_base reproduces the reference class counts for plain strings', () => {
    expect(getTokenizer('cl100k_base').count('You are a helpful assistant.')).toBe(6);
  });

  it('piece sums equal a whole encode for any text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.lorem({ maxCount: 40 })), (text) => {
        expect(t.count(text)).toBe(refCount(text));
      }),
      { numRuns: 400 },
    );
  });

  it('pieces concatenate back to the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(t.pieces(text).join('')).toBe(text);
      }),
    );
  });

  it('fitSuffixStart returns the longest fitting suffix on a code point boundary (property)', () => {
    const texts = fc.oneof(fc.lorem({ maxCount: 80, mode: 'sentences' }), fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 200 }));
    fc.assert(
      fc.property(texts, fc.integer({ min: 0, max: 120 }), (text, limit) => {
        const start = t.fitSuffixStart(text, limit);
        const bounds = codePointBoundaries(text);
        expect(bounds).toContain(start);
        expect(refCount(text.slice(start))).toBeLessThanOrEqual(limit);
        if (start > 0) {
          const previous = bounds[bounds.indexOf(start) - 1];
          expect(refCount(text.slice(previous))).toBeGreaterThan(limit);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fitPrefixEnd returns the longest fitting prefix (property)', () => {
    fc.assert(
      fc.property(fc.lorem({ maxCount: 40, mode: 'sentences' }), fc.integer({ min: 0, max: 60 }), (text, limit) => {
        const end = t.fitPrefixEnd(text, limit);
        expect(refCount(text.slice(0, end))).toBeLessThanOrEqual(limit);
        const bounds = codePointBoundaries(text);
        const next = bounds[bounds.indexOf(end) + 1];
        if (next !== undefined) expect(refCount(text.slice(0, next))).toBeGreaterThan(limit);
      }),
      { numRuns: 200 },
    );
  });

  it('chatTokenEstimate adds the documented overhead', () => {
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', name: 'bot' },
    ];
    const expected = 3 + (3 + t.count('user') + t.count('hi')) + (3 + t.count('assistant') + t.count('hello') + 1 + t.count('bot'));
    expect(chatTokenEstimate(messages, t)).toBe(expected);
  });

  it('works inside a worker thread', async () => {
    // The tokenizer module bundled as the app ships it, run in a real worker thread.
    // Written inside the project so the bundle resolves js-tiktoken from node_modules, as the app does.
    const out = join(ROOT, 'node_modules', '.cache', 'ci-tests', `tokenizer-worker-${process.pid}.mjs`);
    await build({
      stdin: {
        contents: `import { parentPort } from 'node:worker_threads';
          import { getTokenizer } from ${JSON.stringify(join(ROOT, 'src/core/tokenizer/index.ts'))};
          parentPort.postMessage(getTokenizer('gpt-5.4').count('The capital of France is Paris.'));`,
        resolveDir: ROOT,
        loader: 'ts',
      },
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });
    const worker = new Worker(pathToFileURL(out));
    const result = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(result).toBe(7);
  });
});
