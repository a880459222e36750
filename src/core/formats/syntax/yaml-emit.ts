/**
 * A YAML writer for JSON-shaped values, laid out the way PyYAML writes swarms files (`yaml.dump(...,
 * indent=4, sort_keys=False)`: `-   key: value` items, indentless lists under a key) and read back as the
 * same value by YAML 1.1 readers (PyYAML, what swarms users load with) and YAML 1.2 readers alike.
 *
 * A scalar is written plain only when no reader of either version could take it for anything but that string;
 * otherwise quoted. Multi-line text is a literal block where that is unambiguous, else double-quoted with
 * escapes. Characters that are line breaks in YAML 1.1 (NEL, LS, PS), control characters, lone surrogates
 * and non-characters are always escaped, never written raw.
 */

export interface YamlEmitStyle {
  /** Spaces per nesting level (PyYAML's `indent`). */
  indent: number;
  /** Write every non-ASCII character as an escape (`\xE9`, `\u2615`), as files dumped without allow_unicode do. */
  escapeNonAscii: boolean;
  /**
   * PyYAML's `width` for a file dumped with it (80 by default): long values folded at spaces, multi-line text
   * single-quoted with its breaks as blank lines, as `yaml.dump` lays them out. Undefined: one line per value.
   */
  width?: number;
}

export const PYYAML_STYLE: YamlEmitStyle = { indent: 4, escapeNonAscii: false };

/** Longer keys use the explicit `? key` form: an implicit key is limited to 1024 characters. */
const MAX_IMPLICIT_KEY = 1000;

// Characters a YAML stream may hold raw (YAML 1.1 and 1.2 agree), minus the 1.1 line breaks NEL, LS and PS.
// Tab is allowed only where a context says so.
const NOT_PRINTABLE = /[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]/u;
const NON_ASCII = /[\u0080-\uffff]/;

/** Words some YAML reader (1.1 or 1.2) resolves to a boolean or null, or that carry a special meaning. */
const RESERVED = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO',
  'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF',
  'null', 'Null', 'NULL', '~', '<<', '=',
]);

/**
 * A string that can be written plain in block context and read back as exactly that string everywhere.
 * Conservative on purpose: anything that starts like a number, a date, a sign or an indicator is quoted.
 */
export function isPlainSafe(s: string): boolean {
  if (s === '' || RESERVED.has(s)) return false;
  if (NOT_PRINTABLE.test(s) || s.includes('\t')) return false;
  // Numbers, dates, times, signs, .inf/.nan, and every indicator a plain scalar must not start with.
  if (/^[-+.0-9~?:,[\]{}#&*!|>'"%@`\s]/.test(s)) return false;
  if (/\s$/.test(s)) return false;
  // ": " starts a value, " #" a comment; a trailing ":" reads as a key.
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return false;
  // Anything that would end the document or start a new one.
  if (s.startsWith('---') || s.startsWith('...')) return false;
  return true;
}

function hex(cp: number, width: number): string {
  return cp.toString(16).toUpperCase().padStart(width, '0');
}

const SHORT_ESCAPES: Record<number, string> = {
  0x00: '\\0', 0x07: '\\a', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x1b: '\\e',
  0x22: '\\"', 0x5c: '\\\\', 0x85: '\\N', 0x2028: '\\L', 0x2029: '\\P',
};

/** A double-quoted scalar on one line: every character that is not plainly printable is escaped. */
export function doubleQuoted(s: string, escapeNonAscii: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A surrogate pair is one code point; a lone surrogate has no UTF-8 form and is kept as its escape.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        out += escapeNonAscii ? '\\U' + hex(cp, 8) : s.slice(i, i + 2);
        i++;
        continue;
      }
    }
    const short = SHORT_ESCAPES[c];
    if (short) out += short;
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) out += '\\x' + hex(c, 2);
    else if ((c >= 0xd800 && c <= 0xdfff) || c === 0xfeff || c === 0xfffe || c === 0xffff) out += '\\u' + hex(c, 4);
    else if (escapeNonAscii && c > 0x7f) out += c <= 0xff ? '\\x' + hex(c, 2) : '\\u' + hex(c, 4);
    else out += s[i];
  }
  return out + '"';
}

function singleQuoted(s: string): string {
  return "'" + s.replace(/'/g, "''") + "'";
}

/**
 * PyYAML's `write_single_quoted` / `write_plain`: a single space past `width` becomes a line break and the
 * indentation (which a reader folds back into that space); a line break in the text is written as two (a blank
 * line), the next line indented. `start` is the column the scalar begins at.
 */
/** PyYAML counts columns in code points: an astral character is one. */
function codePoints(s: string, from: number, to: number): number {
  let n = to - from;
  for (let i = from; i < to; i++) if ((s.charCodeAt(i) & 0xfc00) === 0xd800) n--;
  return n;
}

function foldedScalar(s: string, quote: "'" | '', start: number, column: number, width: number): string {
  const pad = ' '.repeat(column);
  let out = quote;
  let col = start + quote.length;
  let spaces = false;
  let breaks = false;
  let st = 0;
  const n = s.length;
  for (let end = 0; end <= n; end++) {
    const ch = end < n ? s[end] : undefined;
    if (spaces) {
      if (ch !== ' ') {
        if (st + 1 === end && col > width && st !== 0 && end !== n) {
          out += '\n' + pad;
          col = column;
        } else {
          out += s.slice(st, end);
          col += codePoints(s, st, end);
        }
        st = end;
      }
    } else if (breaks) {
      if (ch !== '\n') {
        out += '\n' + '\n'.repeat(end - st) + pad;
        col = column;
        st = end;
      }
    } else if (ch === undefined || ch === ' ' || ch === '\n' || (quote && ch === "'")) {
      if (st < end) {
        out += s.slice(st, end);
        col += codePoints(s, st, end);
        st = end;
      }
    }
    if (quote && ch === "'") {
      out += "''";
      col += 2;
      st = end + 1;
    }
    if (ch !== undefined) {
      spaces = ch === ' ';
      breaks = ch === '\n';
    }
  }
  return out + quote;
}

/** Whether PyYAML would single-quote multi-line text (its `analyze_scalar`): no space next to a break, nothing special. */
function singleQuotable(s: string, escapeNonAscii: boolean): boolean {
  if (NOT_PRINTABLE.test(s.replace(/\n/g, ' ')) || s.includes('\t') || s.includes('\r')) return false;
  if (escapeNonAscii && NON_ASCII.test(s)) return false;
  return !/ \n|\n /.test(s);
}

/** Can `s` be a literal block (`|`) at any indentation, reading back exactly? */
function literalSafe(s: string, escapeNonAscii: boolean): boolean {
  if (!s.includes('\n')) return false;
  if (NOT_PRINTABLE.test(s.replace(/[\n\t]/g, ' ')) || s.includes('\r')) return false;
  if (escapeNonAscii && NON_ASCII.test(s)) return false;
  // The first line sets the block's indentation: it must not start with white space (or be empty).
  if (/^[\s]/.test(s)) return false;
  // Trailing white space on a line is invisible and often stripped by editors: quote such text instead.
  if (/[ \t]\n|[ \t]$/.test(s)) return false;
  // A tab right after the indentation would be taken for indentation by some readers.
  if (/\n\t/.test(s)) return false;
  return true;
}

function literalBlock(s: string, column: number): string {
  const trailing = /\n*$/.exec(s)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = trailing === 0 ? s : s.slice(0, s.length - trailing);
  const pad = ' '.repeat(column);
  const lines = body.split('\n').map((line) => (line === '' ? '' : pad + line));
  // With keep chomping, the trailing newlines are the empty lines after the last content line.
  const tail = trailing > 1 ? '\n'.repeat(trailing - 1) : '';
  return `|${chomp}\n` + lines.join('\n') + tail;
}

/** A scalar string as it follows `key: ` or `- ` at `column` (its continuation lines indented to `column`). */
export function stringScalar(s: string, column: number, style: YamlEmitStyle, start?: number): string {
  if (style.escapeNonAscii && NON_ASCII.test(s)) return doubleQuoted(s, true);
  const fold = style.width !== undefined && start !== undefined ? style.width : undefined;
  if (isPlainSafe(s)) return fold !== undefined ? foldedScalar(s, '', start!, column, fold) : s;
  if (fold !== undefined && singleQuotable(s, style.escapeNonAscii)) return foldedScalar(s, "'", start!, column, fold);
  if (literalSafe(s, style.escapeNonAscii)) return literalBlock(s, column);
  if (!s.includes('\n') && !s.includes('\t') && !NOT_PRINTABLE.test(s)) return singleQuoted(s);
  return doubleQuoted(s, style.escapeNonAscii);
}

/** A number as both PyYAML (whose floats need a '.' and a signed exponent) and YAML 1.2 read it. */
export function numberScalar(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  const text = String(n);
  if (!/e/i.test(text)) return text;
  const [mantissa, exponent] = text.split(/e/i);
  const m = mantissa.includes('.') ? mantissa : mantissa + '.0';
  const e = /^[-+]/.test(exponent) ? exponent : '+' + exponent;
  return `${m}e${e}`;
}

function keyText(key: string, style: YamlEmitStyle): string {
  if (style.escapeNonAscii && NON_ASCII.test(key)) return doubleQuoted(key, true);
  if (isPlainSafe(key)) return key;
  if (!key.includes('\n') && !key.includes('\t') && !NOT_PRINTABLE.test(key)) return singleQuoted(key);
  return doubleQuoted(key, style.escapeNonAscii);
}

type Json = unknown;

function isCollection(v: Json): v is Record<string, Json> | Json[] {
  return typeof v === 'object' && v !== null;
}

function isEmptyCollection(v: Record<string, Json> | Json[]): boolean {
  return Array.isArray(v) ? v.length === 0 : !Object.keys(v).some((k) => v[k] !== undefined);
}

/** A value that fits on the indicator's line: a scalar, or an empty collection in flow style. */
function scalarText(v: Json, column: number, style: YamlEmitStyle, start?: number): string {
  if (v === null || v === undefined) return 'null';
  if (isCollection(v)) return Array.isArray(v) ? '[]' : '{}';
  if (typeof v === 'string') return stringScalar(v, column, style, start);
  if (typeof v === 'number') return numberScalar(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return String(v);
  return stringScalar(String(v), column, style);
}

/**
 * The text of `value` placed right after an indicator (`- `, `key: ` or the start of a document) whose
 * content sits at `column`: the first line has no indentation of its own, later lines are indented.
 * Nested collections recurse; file readers refuse nesting beyond MAX_NESTING_DEPTH, so the depth is bounded.
 */
function nodeText(value: Json, column: number, style: YamlEmitStyle): string {
  if (!isCollection(value)) return scalarText(value, column, style);
  if (isEmptyCollection(value)) return Array.isArray(value) ? '[]' : '{}';
  const pad = ' '.repeat(column);
  const step = style.indent;
  if (Array.isArray(value)) {
    return value
      .map((item, i) => {
        const lead = i === 0 ? '' : pad;
        if (isCollection(item) && !isEmptyCollection(item)) {
          // `-` then spaces up to the next level, where the nested collection's content starts.
          return lead + '-' + ' '.repeat(step - 1) + nodeText(item, column + step, style);
        }
        return lead + '- ' + scalarText(item, column + step, style, column + 2);
      })
      .join('\n');
  }
  const lines: string[] = [];
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue;
    const lead = lines.length === 0 ? '' : pad;
    const long = key.length > MAX_IMPLICIT_KEY || key.includes('\n');
    const k = long ? doubleQuoted(key, style.escapeNonAscii) : keyText(key, style);
    const head = long ? `? ${k}\n${pad}:` : `${k}:`;
    if (isCollection(v) && !isEmptyCollection(v)) {
      // A list under a key is indentless (PyYAML's layout); a mapping goes one level in.
      const inner = Array.isArray(v) ? column : column + step;
      const innerPad = ' '.repeat(inner);
      lines.push(lead + head + '\n' + innerPad + nodeText(v, inner, style));
    } else {
      lines.push(lead + head + ' ' + scalarText(v, column + step, style, column + head.length + 1));
    }
  }
  return lines.join('\n');
}

/** A whole YAML document holding `value`, ending with a newline. */
export function emitYaml(value: unknown, style: YamlEmitStyle = PYYAML_STYLE): string {
  return nodeText(value, 0, style) + '\n';
}

/** One list item's text after its `-` indicator and padding, with continuation lines indented to `column`. */
export function emitYamlItem(value: unknown, column: number, style: YamlEmitStyle = PYYAML_STYLE): string {
  return nodeText(value, column, style);
}
