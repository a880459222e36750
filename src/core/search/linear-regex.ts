import { createRequire } from 'node:module';
import type { RE2JS as Engine } from 're2js';

/** re2js, loaded at the first regular expression: every other command (show, tokens, ls) starts without it. */
let engine: typeof Engine | undefined;
const re2 = () => (engine ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof Engine }).RE2JS);

/**
 * A user's regular expression, written as JavaScript writes it (case-insensitive, as with the `iu` flags), run by
 * RE2 (re2js): in time linear in the text, whatever the pattern. A backtracking engine takes 2^n steps on
 * `(x+x+)+y` over n x's, which held the search for minutes; RE2 answers in milliseconds.
 *
 * What differs from JavaScript, said in the error a query gets: lookahead (`(?=`, `(?!`), backreferences (`\1`,
 * `\k<name>`), capture groups inside a lookbehind, repeat counts past 1000, a few Unicode properties RE2 lacks
 * (`\p{ID_Start}`; categories, scripts, `\p{Emoji}`, `\p{Alphabetic}`, `\p{ASCII}` work), and `\b` beside ſ or
 * the Kelvin sign (word characters to JavaScript's `\w` with `iu`, not to RE2's `\b`). Everything else means what
 * it means in JavaScript: `.` stops at every line break (CR, U+2028 too), `\s` is JavaScript's white space (NBSP,
 * U+3000, BOM...), `\w` holds ſ and K, `\uXXXX`, `\u{...}`, `\cX`, `[^]`, a case-insensitive match folds as
 * `iu` does. Indexes are UTF-16 offsets, as a JavaScript match's.
 */
export function linearRegex(query: string): (text: string) => [number, number] | undefined {
  // JavaScript's syntax is the reference: a query it refuses is refused with its reason (compiling runs nothing).
  try {
    new RegExp(query, 'iu');
  } catch (e) {
    throw new SyntaxError(`not a regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
  const RE2JS = re2();
  let re: Engine;
  try {
    re = RE2JS.compile(toRe2(query), RE2JS.CASE_INSENSITIVE | RE2JS.LOOKBEHINDS);
  } catch (e) {
    if (e instanceof UnsupportedRegex) throw new SyntaxError(`not supported: ${e.message} (the search runs every pattern in linear time, which these need more than)`);
    throw new SyntaxError(`not supported: ${(e as Error).message.replace(/^error parsing regexp: /, '')} (the search uses RE2's syntax where JavaScript's has no linear-time form)`);
  }
  // Most messages hold no match: a plain search for the literal every match begins with (linear, native) rules
  // them out at native speed, 20 to 100 times RE2's in JavaScript.
  const prefix = leadingLiteral(query);
  const first = prefix.length >= 2 ? new RegExp(prefix, 'iu') : undefined;
  return (text) => {
    if (first && !first.test(text)) return undefined;
    // The DFA answers whether there is a match at all, fast; only a text with one is searched again for where.
    if (!re.test(text)) return undefined;
    // re2js types exec's answer as a plain array; it is RegExpExecArray-shaped (index: a UTF-16 offset).
    const m = re.exec(text) as RegExpExecArray | null;
    return m ? [m.index, m.index + m[0].length] : undefined;
  };
}

class UnsupportedRegex extends Error {}

/**
 * The plain characters every match of `src` begins with (none when the pattern has a `|` outside any group, or
 * starts with anything else). Letters, digits, space and punctuation that is no syntax: as a pattern of its own
 * it is a literal, which a backtracking engine finds in linear time, folding case as RE2 does (iu).
 */
export function leadingLiteral(src: string): string {
  let depth = 0;
  for (let i = 0, inClass = false; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return '';
  }
  const plain = /^[A-Za-z0-9 _\-:,;'"=<>@#%&~!/]*/.exec(src)![0];
  // A quantifier after the last of them makes that one optional or repeated: it is not part of every match.
  return /^[*+?{]/.test(src.slice(plain.length)) ? plain.slice(0, -1) : plain;
}

/** JavaScript's white space (`\s` with the u flag), as code point ranges. */
const SPACE: ReadonlyArray<[number, number]> = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
const LINE_BREAKS: ReadonlyArray<[number, number]> = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];
const MAX = 0x10ffff;

const hex = (cp: number) => `\\x{${cp.toString(16)}}`;
const ranges = (rs: ReadonlyArray<[number, number]>) => rs.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');
/** The code points not in `rs` (sorted, apart). */
function complement(rs: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = 0;
  for (const [a, b] of rs) {
    if (a > from) out.push([from, a - 1]);
    from = b + 1;
  }
  if (from <= MAX) out.push([from, MAX]);
  return out;
}
const ASCII: ReadonlyArray<[number, number]> = [[0, 0x7f]];
/** `\w` with the iu flags: ASCII's word characters and the two that fold to one of them (ſ to s, the Kelvin sign to k). */
const WORD: ReadonlyArray<[number, number]> = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a], [0x17f, 0x17f], [0x212a, 0x212a]];
const WORD_IN = ranges(WORD);
const NON_WORD_IN = ranges(complement(WORD));
const SPACE_IN = ranges(SPACE);
const NON_SPACE_IN = ranges(complement(SPACE));
/**
 * A class that holds every case of its letters already, outside a class of the user's: marked so (`(?-i:`), RE2
 * does not fold it again, which for `.` took 50 ms a query.
 */
const uncased = (members: string) => `(?-i:[${members}])`;
const NOT_A_BREAK = uncased(ranges(complement(LINE_BREAKS)));

/** Unicode's long names of general categories (JavaScript takes both; RE2, the short ones). */
const CATEGORIES: Record<string, string> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe', Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};

/** `\p{...}` as RE2 spells it: a category's short name, a script's bare name. */
function property(body: string, negated: boolean, inClass: boolean): string {
  const eq = body.indexOf('=');
  const key = eq < 0 ? undefined : body.slice(0, eq);
  let name = eq < 0 ? body : body.slice(eq + 1);
  if (key === 'General_Category' || key === 'gc' || key === undefined) name = CATEGORIES[name] ?? name;
  else if (key !== 'Script' && key !== 'sc') throw new UnsupportedRegex(`the Unicode property \\p{${body}}`);
  if (name === 'ASCII') {
    const set = negated ? complement(ASCII) : ASCII;
    return inClass ? ranges(set) : uncased(ranges(set));
  }
  // Cased letters are three categories: a class of them (RE2 has no LC).
  if (name === 'LC') {
    const three = '\\p{Lu}\\p{Ll}\\p{Lt}';
    if (!negated) return inClass ? three : `[${three}]`;
    if (inClass) throw new UnsupportedRegex(`\\P{${body}} inside a class`);
    return `[^${three}]`;
  }
  return `\\${negated ? 'P' : 'p'}{${name}}`;
}

const isHex = (s: string) => /^[0-9a-fA-F]+$/.test(s);

/**
 * The pattern in RE2's syntax. Only the forms whose meaning differs are rewritten; the pattern is valid
 * JavaScript (checked before), so the walk need not check what JavaScript would refuse.
 */
export function toRe2(src: string): string {
  let out = '';
  let inClass = false;
  /** Where the class being read starts in `out`, and whether it holds every letter (so every case of each). */
  let classAt = 0;
  let allLetters = false;
  let i = 0;
  /** A `\uXXXX` (a surrogate pair of two as one code point) or `\u{...}` at `src[i]` (the backslash): its code point. */
  const unicodeEscape = (): number | undefined => {
    if (src[i + 1] !== 'u') return undefined;
    if (src[i + 2] === '{') {
      const end = src.indexOf('}', i + 3);
      const digits = src.slice(i + 3, end);
      if (end < 0 || !isHex(digits)) return undefined;
      i = end + 1;
      return Number.parseInt(digits, 16);
    }
    const four = src.slice(i + 2, i + 6);
    if (four.length !== 4 || !isHex(four)) return undefined;
    const cp = Number.parseInt(four, 16);
    i += 6;
    const low = src.slice(i, i + 6);
    if (cp >= 0xd800 && cp <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(low)) {
      i += 6;
      return 0x10000 + ((cp - 0xd800) << 10) + (Number.parseInt(low.slice(2), 16) - 0xdc00);
    }
    return cp;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      const cp = unicodeEscape();
      if (cp !== undefined) {
        out += hex(cp);
        continue;
      }
      const n = src[i + 1];
      if (n === 'c' && /[a-zA-Z]/.test(src[i + 2] ?? '')) {
        out += hex(src.charCodeAt(i + 2) % 32);
        i += 3;
        continue;
      }
      if (n === 's' || n === 'S' || n === 'w' || n === 'W') {
        const members = n === 's' ? SPACE_IN : n === 'S' ? NON_SPACE_IN : n === 'w' ? WORD_IN : NON_WORD_IN;
        if (inClass && n === 'S') allLetters = true;
        out += inClass ? members : uncased(members);
        i += 2;
        continue;
      }
      if (n === 'p' || n === 'P') {
        const end = src.indexOf('}', i + 3);
        out += property(src.slice(i + 3, end), n === 'P', inClass);
        i = end + 1;
        continue;
      }
      if (n === '0') {
        out += hex(0);
        i += 2;
        continue;
      }
      if (n === 'b' && inClass) {
        out += hex(8);
        i += 2;
        continue;
      }
      if (/[1-9]/.test(n) || n === 'k') throw new UnsupportedRegex('backreferences (\\1, \\k<name>)');
      out += c + n;
      i += 2;
      continue;
    }
    if (inClass) {
      // A `[` in a class is a literal in JavaScript; in RE2 it may open `[:alpha:]`.
      out += c === '[' ? '\\[' : c;
      i++;
      if (c === ']') {
        inClass = false;
        // `[\s\S]` folded again by RE2 took 100 ms a query; it needs no folding.
        if (allLetters) out = out.slice(0, classAt) + `(?-i:${out.slice(classAt)})`;
      }
      continue;
    }
    if (c === '[') {
      // `[^]` is any character and `[]` none, in JavaScript; RE2 has no empty class.
      if (src.startsWith('[^]', i)) {
        out += uncased(`${hex(0)}-${hex(MAX)}`);
        i += 3;
      } else if (src.startsWith('[]', i)) {
        out += `[^${hex(0)}-${hex(MAX)}]`;
        i += 2;
      } else {
        inClass = true;
        classAt = out.length;
        allLetters = false;
        out += src[i + 1] === '^' ? '[^' : '[';
        i += src[i + 1] === '^' ? 2 : 1;
      }
      continue;
    }
    if (c === '.') {
      out += NOT_A_BREAK;
      i++;
      continue;
    }
    if (c === '(' && src[i + 1] === '?') {
      if (src[i + 2] === '=' || src[i + 2] === '!') throw new UnsupportedRegex('lookahead ((?= and (?!)');
      // A group's name is for backreferences, which are not taken: the group is a group.
      if (src[i + 2] === '<' && src[i + 3] !== '=' && src[i + 3] !== '!') {
        out += '(';
        i = src.indexOf('>', i) + 1;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}
