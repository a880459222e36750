import type { Kind } from './rules.js';
import { placeholderOf } from './redact.js';

/** What was found, by the rule that found it: enough to replace it anywhere else it stands. */
export interface KnownValue {
  value: string;
  rule: string;
  label: string;
  kind: Kind;
}

/** Values shorter than this are not looked for everywhere (a short value is part of too many words). */
const MIN_LENGTH = 6;
/** A user name is looked for from this length, where a path or an address holds it; */
const MIN_NAME_LENGTH = 3;
/** from this length, as a word anywhere ("dev" stays a word in "npm run dev"; "dumitruvulpe" owns a file in `ls -l`). */
const WORD_NAME_LENGTH = 5;

/** Where `ls -l` prints a file's owner and group: after the mode and the link count. */
const LS_OWNER = '(?<=^[-bcdlps][-rwxsStT]{9}[@+.]?\\s+\\d+\\s+(?:\\S+\\s+)?)';

/** From this length a value is replaced even inside a longer token. */
const ANYWHERE_LENGTH = 16;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ALNUM = /[A-Za-z0-9]/;

/**
 * Values a rule found somewhere (a key in a tool's metadata, a home folder in a session's `cwd`), replaced
 * wherever else they stand: in prose, in tool results, in titles, in another thread or another file. A rule
 * finds a value by what is around it (`aws_secret_access_key = …`); the same value without it is the same
 * secret. A short value is matched whole (not inside a longer run of letters and digits); a user name as a word.
 */
export class KnownValues {
  private readonly byValue = new Map<string, KnownValue>();
  private pattern: RegExp | undefined;
  private names: RegExp | undefined;

  get size(): number {
    return this.byValue.size;
  }

  add(found: KnownValue): void {
    const v = found.value;
    if (this.byValue.has(v) || v.includes('[REDACTED:') || v.includes('<user>')) return;
    if (v.length < (found.kind === 'path' ? MIN_NAME_LENGTH : MIN_LENGTH)) return;
    this.byValue.set(v, found);
    this.pattern = this.names = undefined;
  }

  private patterns(): { values?: RegExp; names?: RegExp } {
    if (!this.pattern && !this.names) {
      const all = [...this.byValue.values()].sort((a, b) => b.value.length - a.value.length);
      // A long value is the secret wherever it stands, glued to other text or to itself; a short one (an address,
      // a phone number) only whole, not inside a longer run of letters and digits.
      const whole = (v: string) => (v.length >= ANYWHERE_LENGTH ? escape(v) : `${ALNUM.test(v[0]) ? '(?<![A-Za-z0-9])' : ''}${escape(v)}${ALNUM.test(v[v.length - 1]) ? '(?![A-Za-z0-9])' : ''}`);
      const values = all.filter((k) => k.kind !== 'path').map((k) => whole(k.value));
      // A user name as a word (an `ls -l` listing's owner, a prompt's `name@host`); a short one only after a path's
      // separator, in Claude Code's `-home-<name>-` folder names, after `~` or `=`, or before `@`.
      const names = all
        .filter((k) => k.kind === 'path')
        .map((k) => (k.value.length >= WORD_NAME_LENGTH ? `(?<![A-Za-z0-9_])${escape(k.value)}(?![A-Za-z0-9_])` : `(?:(?<=[/\\\\~=-])${escape(k.value)}(?![A-Za-z0-9_.])|(?<![A-Za-z0-9_.])${escape(k.value)}(?=@)|${LS_OWNER}${escape(k.value)}(?=\\s))`));
      this.pattern = values.length ? new RegExp(values.join('|'), 'g') : /(?!)/g;
      this.names = names.length ? new RegExp(names.join('|'), 'gm') : /(?!)/g;
    }
    return { values: this.pattern, names: this.names };
  }

  /** The text with every known value replaced by its placeholder, and what was replaced (in order). */
  redact(text: string, placeholder: (rule: string) => string = placeholderOf): { text: string; replaced: KnownValue[] } {
    if (this.byValue.size === 0 || text === '') return { text, replaced: [] };
    const replaced: KnownValue[] = [];
    const { values, names } = this.patterns();
    const swap = (m: string) => {
      const k = this.byValue.get(m)!;
      replaced.push(k);
      return placeholder(k.rule);
    };
    const out = text.replace(values!, swap).replace(names!, swap);
    return { text: out, replaced };
  }

  /**
   * A rendered page or document with the known values replaced as it spells them: as they are, and HTML-escaped
   * (the last safety net after the views were redacted: a value a renderer put together from pieces).
   */
  redactRendered(text: string, html: boolean): { text: string; replaced: KnownValue[] } {
    if (!html) return this.redact(text);
    // A user name is looked for in the views only: on a page, `</span>` is a path's separator and a name.
    const values = new KnownValues();
    for (const k of this.byValue.values()) if (k.kind !== 'path') values.add(k);
    return values.redactEscaped(text);
  }

  private redactEscaped(text: string): { text: string; replaced: KnownValue[] } {
    // As the page escapes text (transcript.ts), placeholders too.
    const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const first = this.redact(text, (rule) => esc(placeholderOf(rule)));
    const escaped = new KnownValues();
    for (const k of this.byValue.values()) {
      const e = esc(k.value);
      if (e !== k.value) escaped.add({ ...k, value: e });
    }
    const second = escaped.redact(first.text, (rule) => esc(placeholderOf(rule)));
    return { text: second.text, replaced: [...first.replaced, ...second.replaced] };
  }
}
