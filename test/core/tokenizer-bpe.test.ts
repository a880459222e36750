import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { getTokenizer } from '../../src/core/index.js';
import { edgeString } from '../support/edge-arbitraries.js';

// js-tiktoken is the reference: the tokens must be exactly its tokens, only found faster.
const require = createRequire(import.meta.url);
const encodings = ['o200k_base', 'cl100k_base'] as const;
const reference = Object.fromEntries(encodings.map((e) => [e, new Tiktoken(require(`js-tiktoken/ranks/${e}`))])) as Record<(typeof encodings)[number], Tiktoken>;

/** Runs that are one pre-tokenizer piece: no spaces, the shapes that made merging quadratic. */
const longRun = fc.oneof(
  fc.tuple(fc.constantFrom('x', 'a', '0', '=', 'ab', 'Zz', 'é', '中', '😀'), fc.integer({ min: 100, max: 1200 })).map(([c, n]) => c.repeat(n)),
  fc.base64String({ minLength: 200, maxLength: 1500 }),
  fc.stringMatching(/^[0-9a-f]{200,1200}$/),
  fc.array(fc.constantFrom('function', 'return', '(a,b)', '{', '}', ';', 'var', '=>', '0x1f'), { minLength: 60, maxLength: 300 }).map((p) => p.join('')),
);

describe.each(encodings)('%s: exactly js-tiktoken’s tokens', (encoding) => {
  const ours = getTokenizer(encoding);
  const ref = reference[encoding];

  it('on short and edge-biased text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(edgeString.filter((s) => s.length < 400), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 100 }), fc.lorem({ maxCount: 60 })), (text) => {
        expect(ours.encode(text)).toEqual(ref.encode(text, [], []));
        expect(ours.count(text)).toBe(ref.encode(text, [], []).length);
      }),
      { numRuns: 1000, seed: 9 },
    );
  });

  it('on long runs without spaces, against the slow reference (property)', () => {
    fc.assert(
      fc.property(longRun, (text) => {
        expect(ours.encode(text)).toEqual(ref.encode(text, [], []));
      }),
      { numRuns: 40, seed: 10 },
    );
  }, 120_000);

  it('special tokens are plain text', () => {
    expect(ours.encode('<|endoftext|> and <|im_start|>')).toEqual(ref.encode('<|endoftext|> and <|im_start|>', [], []));
  });
});

describe('long pieces no longer take minutes', () => {
  it('counts 200,000 characters without a space (exact, checked by its structure)', () => {
    const t = getTokenizer('o200k_base');
    // 'x' × 8 is one token in o200k_base; a run of 8k x's is k of them (verified against js-tiktoken on 1,000).
    expect(t.count('x'.repeat(1000))).toBe(reference.o200k_base.encode('x'.repeat(1000), [], []).length);
    const per = t.count('x'.repeat(1000)) / 1000;
    expect(t.count('x'.repeat(200_000))).toBe(per * 200_000);
    expect(t.count('A'.repeat(50_000) + ' end')).toBeGreaterThan(0);
  });
});
