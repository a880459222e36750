import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leadingLiteral, linearRegex } from '../../src/core/search/linear-regex.js';
import { matcherOf } from '../../src/core/search/index.js';
import { EDGE_ATOMS, edgeString } from '../support/edge-arbitraries.js';

const native = (source: string) => {
  const re = new RegExp(source, 'iu');
  return (text: string): [number, number] | undefined => {
    const m = re.exec(text);
    return m ? [m.index, m.index + m[0].length] : undefined;
  };
};

/** Pattern pieces JavaScript and RE2 both take, with the forms the translation rewrites among them. */
const PIECES = [
  'a', 'x', 'é', 'É', '😀', 'k', 'S', '1', ' ', '\\t', '\\n', '\\r', '.', '\\s', '\\S', '\\d', '\\D', '\\w', '\\W', '\\b', '\\B',
  '[^]', '[\\s\\S]', '[^\\s]', '[\\S]', '[a-z]', '[^a-z]', '[\\s,]', '[\\b]', '[[]', '[\\]]', '[😀-😎]', '\\u00e9', '\\u{1F600}', '\\uD83D\\uDE00', '\\u2028', '\\x41',
  '\\cJ', '\\0', '\\.', '\\$', '\\/', '\\-', '\\\\', '\\{', '\\p{L}', '\\p{Lu}', '\\P{L}', '\\p{Letter}', '\\p{Script=Greek}', '\\p{gc=Nd}', '[\\p{N}_]',
  '(?<=a)', '(?<!x)', '(?<w>a)', '^', '$', '(?:a|b)', '(a|ab)',
];
const QUANT = ['', '', '', '*', '+', '?', '*?', '+?', '{2}', '{0,3}', '{1,}'];

const pattern: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...QUANT)), { minLength: 1, maxLength: 5 })
  .chain((parts) => fc.tuple(fc.constant(parts), fc.boolean(), fc.nat({ max: parts.length })))
  .map(([parts, alt, at]) => {
    // A lookbehind or an anchor takes no quantifier in JavaScript's u mode.
    const body = parts.map(([p, q]) => (/^(\(\?<[=!]|\^|\$|\\b|\\B)/.test(p) ? p : p + q));
    if (alt) body.splice(at, 0, '|');
    return body.join('');
  })
  .filter((p) => {
    try {
      new RegExp(p, 'iu');
      return true;
    } catch {
      return false;
    }
  });

const text = fc.oneof(edgeString, fc.array(fc.constantFrom(...EDGE_ATOMS, 'A', 'Ab', 'xX', 'ß', 'ſ', 'K', 'Σσς', '😎', 'αβγ', '٣'), { maxLength: 12 }).map((a) => a.join('')));

describe('a regular expression in linear time (RE2), as JavaScript reads it', () => {
  // Its runs are many small RE2 compilations: 10–20 s alone, past a minute on a busy 2-core machine.
  it('finds what JavaScript finds, where JavaScript finds it (property)', { timeout: 180_000 }, () => {
    fc.assert(
      fc.property(pattern, text, (source, t) => {
        // The one difference left: to JavaScript's \b (iu), ſ and the Kelvin sign are word characters.
        if (/\\[bB]/.test(source.replace(/\[\\b\]/g, ''))) t = t.replace(/[\u017f\u212a]/g, 's');
        expect(linearRegex(source)(t), source).toEqual(native(source)(t));
      }),
      { numRuns: 500 },
    );
  });

  it('rules a text out by the literal every match begins with, and only by one every match does begin with', () => {
    expect(['zq\\w+ roll', 'tokyo\\s+and', 'import .* from', 'ab*c', 'ab{2}', 'error', 'a|b', 'ab(c|d)', 'x(?:y|z)|w', '\\bTODO', '[ab]c', 'é+'].map(leadingLiteral)).toEqual(['zq', 'tokyo', 'import ', 'a', 'a', 'error', '', 'ab', '', '', '', '']);
    // Folded as RE2 folds: the Kelvin sign is a k, ſ an s.
    expect(linearRegex('kiss')('\u212aiſs')).toEqual([0, 4]);
    expect(linearRegex('tokyo\\s+and')('TOKYO\u00a0 AND')).toEqual([0, 10]);
  });

  it('answers `(x+x+)+y` over 50,000 x’s, which backtracking cannot', () => {
    const long = 'x'.repeat(50_000);
    expect(linearRegex('(x+x+)+y')(long)).toBeUndefined();
    expect(linearRegex('(x+x+)+')(long)).toEqual([0, 50_000]);
    expect(linearRegex('(a|aa)+b')('a'.repeat(50_000))).toBeUndefined();
    expect(linearRegex('(.*a){12}z')('a'.repeat(50_000))).toBeUndefined();
  });

  it('keeps JavaScript’s meaning where RE2’s differs: ., \\s, \\u escapes, [^], \\cX, case folding, UTF-16 offsets', () => {
    expect(linearRegex('a.b')('a\rb')).toBeUndefined();
    expect(linearRegex('a.b')('a\u2028b')).toBeUndefined();
    expect(linearRegex('a.b')('a😀b')).toEqual([0, 4]);
    expect(linearRegex('a\\sb')('a\u00a0b')).toEqual([0, 3]);
    expect(linearRegex('a\\sb')('a\u000bb')).toEqual([0, 3]);
    expect(linearRegex('a\\Sb')('a\u3000b')).toBeUndefined();
    expect(linearRegex('\\u00e9')('CAFÉ')).toEqual([3, 4]);
    expect(linearRegex('\\uD83D\\uDE00+')('x😀😀')).toEqual([1, 5]);
    expect(linearRegex('[^]+')('a\nb')).toEqual([0, 3]);
    expect(linearRegex('x[]')('x')).toBeUndefined();
    expect(linearRegex('\\cJ')('a\nb')).toEqual([1, 2]);
    expect(linearRegex('[\\b]')('a\bb')).toEqual([1, 2]);
    expect(linearRegex('ſ')('S')).toEqual([0, 1]);
    expect(linearRegex('\\w+')('-ſK-')).toEqual([1, 3]);
    expect(linearRegex('\\p{ASCII}+')('éab😀')).toEqual([1, 3]);
    expect(linearRegex('\\p{Emoji_Presentation}')('a😀')).toEqual([1, 3]);
    expect(linearRegex('\\p{Lu}\\p{Script=Greek}')('xAβ')).toEqual([1, 3]);
    expect(linearRegex('(?<name>wom)bat')('a Wombat')).toEqual([2, 8]);
    expect(linearRegex('(?<=a)b')('cb ab')).toEqual([4, 5]);
  });

  it('refuses what it cannot run in linear time, saying what, and what is no regular expression at all', () => {
    expect(() => linearRegex('a(?=b)')).toThrow(/^not supported: lookahead/);
    expect(() => linearRegex('a(?!b)')).toThrow(/^not supported: lookahead/);
    expect(() => linearRegex('(a)\\1')).toThrow(/^not supported: backreferences/);
    expect(() => linearRegex('(?<n>a)\\k<n>')).toThrow(/^not supported: backreferences/);
    expect(() => linearRegex('a{1001}')).toThrow(/^not supported: invalid repeat count/);
    expect(() => linearRegex('\\p{ID_Start}')).toThrow(/^not supported:/);
    expect(() => linearRegex('a(')).toThrow(/^not a regular expression: /);
    // Through the search's own matcher, as the CLI and the app call it.
    expect(() => matcherOf('(a)\\1', true)).toThrow(SyntaxError);
  });
});
