/**
 * YAML 1.1 has three line breaks YAML 1.2 does not: NEL (U+0085), LS (U+2028) and PS (U+2029). PyYAML writes
 * them raw inside single-quoted scalars when dumping with `allow_unicode=True`, and reads them as breaks. The
 * `yaml` package reads YAML 1.2 here, so a file holding them is parsed with each replaced by "\n" (the same
 * length, so every offset still points into the original text) and the value of each scalar that held one
 * is then computed from its original source by the rules of PyYAML's scanner (scan_flow_scalar, scan_plain).
 */

export const YAML11_BREAKS = /[\x85\u2028\u2029]/;
const BREAKS = /[\x85\u2028\u2029]/g;

export function withPlainBreaks(text: string): string {
  return text.replace(BREAKS, '\n');
}

const isBreak = (ch: string | undefined) => ch === '\r' || ch === '\n' || ch === '\x85' || ch === '\u2028' || ch === '\u2029';
const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t';

const ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\x08', t: '\t', '\t': '\t', n: '\n', v: '\x0b', f: '\x0c', r: '\r', e: '\x1b', ' ': ' ',
  '"': '"', '\\': '\\', '/': '/', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
const CODE_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

class Cursor {
  constructor(
    readonly s: string,
    public i = 0,
  ) {}
  peek(k = 0): string | undefined {
    return this.s[this.i + k];
  }
  /** PyYAML's scan_line_break: CR LF, CR, LF and NEL read as "\n"; LS and PS as themselves. */
  lineBreak(): string {
    const ch = this.peek();
    if (ch === '\r' && this.peek(1) === '\n') {
      this.i += 2;
      return '\n';
    }
    this.i++;
    return ch === '\u2028' || ch === '\u2029' ? ch : '\n';
  }
}

function flowBreaks(c: Cursor): string[] {
  const out: string[] = [];
  for (;;) {
    while (isBlank(c.peek())) c.i++;
    if (!isBreak(c.peek())) return out;
    out.push(c.lineBreak());
  }
}

/** The value of a quoted scalar's source (quotes included), as PyYAML's scanner computes it. */
export function pyyamlQuotedValue(source: string): string {
  const double = source[0] === '"';
  const c = new Cursor(source, 1);
  const end = source.length - 1;
  let out = '';
  while (c.i < end) {
    const ch = c.peek()!;
    if (!double && ch === "'" && c.peek(1) === "'") {
      out += "'";
      c.i += 2;
    } else if (double && ch === '\\') {
      const e = c.peek(1)!;
      c.i += 2;
      if (e in ESCAPES) out += ESCAPES[e];
      else if (e in CODE_LENGTH) {
        const n = CODE_LENGTH[e];
        out += String.fromCodePoint(Number.parseInt(source.slice(c.i, c.i + n), 16));
        c.i += n;
      } else if (isBreak(e)) {
        c.i--;
        c.lineBreak();
        out += flowBreaks(c).join('');
      } else out += e;
    } else if (isBlank(ch) || isBreak(ch)) {
      let j = c.i;
      while (isBlank(source[j])) j++;
      if (isBreak(source[j]) && j < end) {
        c.i = j;
        const lineBreak = c.lineBreak();
        const breaks = flowBreaks(c);
        if (lineBreak !== '\n') out += lineBreak;
        else if (breaks.length === 0) out += ' ';
        out += breaks.join('');
      } else {
        out += source.slice(c.i, j);
        c.i = j;
      }
    } else {
      out += ch;
      c.i++;
    }
  }
  return out;
}

/** The value of a plain scalar's source (its range, comments excluded), as PyYAML's scanner folds it. */
export function pyyamlPlainValue(source: string): string {
  const c = new Cursor(source);
  let out = '';
  while (c.i < source.length) {
    const ch = c.peek()!;
    if (ch === ' ' || isBreak(ch)) {
      let j = c.i;
      while (source[j] === ' ') j++;
      if (isBreak(source[j])) {
        c.i = j;
        const lineBreak = c.lineBreak();
        const breaks: string[] = [];
        while (c.peek() === ' ' || isBreak(c.peek())) {
          if (c.peek() === ' ') c.i++;
          else breaks.push(c.lineBreak());
        }
        if (lineBreak !== '\n') out += lineBreak;
        else if (breaks.length === 0) out += ' ';
        out += breaks.join('');
      } else {
        out += source.slice(c.i, j);
        c.i = j;
      }
    } else {
      out += ch;
      c.i++;
    }
  }
  return out;
}
