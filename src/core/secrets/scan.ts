import { createRequire } from 'node:module';
import { lastAtOrBefore } from '../util/sorted.js';
import { isSecretlintRule, PATH_RULES, PATTERN_RULES, PHONE_RULE, secretlintRule, type Kind } from './rules.js';

/** One text to look into, and where it is (what a finding says of its place). */
export interface ScanUnit<Where = unknown> {
  text: string;
  where: Where;
}

/** A secret or personal datum found: its rule, its place, and where in that unit's text it is. */
export interface Finding<Where = unknown> {
  rule: string;
  label: string;
  kind: Kind;
  where: Where;
  start: number;
  end: number;
  /** What was found (kept in memory only: never shown whole, never written). */
  value: string;
}

// secretlint and the phone finder take longer to load than most commands take to run (a search from the catalog
// masks the titles it reads without either): each is loaded at its first use. The phone finder is required, not
// imported, as what calls it is synchronous.
const require = createRequire(import.meta.url);
let phones: typeof import('libphonenumber-js') | undefined;
const phoneFinder = () => (phones ??= require('libphonenumber-js') as typeof import('libphonenumber-js'));
type LintSource = typeof import('@secretlint/core').lintSource;
let secretlint: Promise<{ lintSource: LintSource; config: Parameters<LintSource>[0]['options']['config'] }> | undefined;
const loadSecretlint = () =>
  (secretlint ??= Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend'), import('@secretlint/profiler')]).then(([core, preset, profiler]) => {
    // secretlint's profiler (its CLI's --profile) marks each run on the process's performance timeline and keeps
    // every mark in a list of its own, neither ever cleared: 32 marks and about 8 KB a call for as long as the
    // service lives (a million marks, and Node's warning, after 31,000 calls). Nothing here reads them.
    profiler.secretLintProfiler.mark = () => {};
    return { lintSource: core.lintSource, config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] } };
  }));

/** What a redaction left (never found again: `user:[REDACTED:…]@host` is no password). */
const REDACTED_MARK = '[REDACTED:';

// Units are looked into by secretlint together, joined by blank lines: a few calls per file, not one per text.
const JOIN = '\n\n';
const BATCH_CHARS = 4 * 1024 * 1024;

const TOKEN_CHAR = /[A-Za-z0-9+/_~-]/;
/**
 * A secret's span widened to the whole token it lies in: a rule that matches part of a key (a fixed length, a
 * prefix) must not leave the rest of it in a redacted copy. Back to the name or the `=` before it; on through
 * base64 padding after it.
 */
function wholeToken(text: string, start: number, end: number): { start: number; end: number } {
  // A URL's `://` is where a token after it begins, not part of it (a base64 key may hold `//` itself).
  const scheme = (i: number) => text[i] === '/' && ((text[i - 1] === '/' && text[i - 2] === ':') || (text[i - 1] === ':' && text[i + 1] === '/'));
  while (start > 0 && TOKEN_CHAR.test(text[start - 1]) && !scheme(start - 1)) start--;
  while (end < text.length && (TOKEN_CHAR.test(text[end]) || text[end] === '=')) end++;
  return { start, end };
}

/** secretlint's findings in these texts. */
async function secretlintFindings<W>(units: readonly ScanUnit<W>[]): Promise<Finding<W>[]> {
  const out: Finding<W>[] = [];
  if (units.length === 0) return out;
  const { lintSource, config } = await loadSecretlint();
  for (let from = 0; from < units.length; ) {
    let to = from;
    let size = 0;
    while (to < units.length && (to === from || size + units[to].text.length < BATCH_CHARS)) size += units[to++].text.length + JOIN.length;
    const starts: number[] = [];
    let at = 0;
    const parts: string[] = [];
    for (let k = from; k < to; k++) {
      starts.push(at);
      parts.push(units[k].text);
      at += units[k].text.length + JOIN.length;
    }
    const content = parts.join(JOIN);
    const result = await lintSource({ source: { filePath: 'conversation.txt', content, ext: '.txt', contentType: 'text' }, options: { config, maskSecrets: false } });
    for (const m of result.messages) {
      const [s, e] = m.range;
      // The unit it lies in: the last one starting at or before it.
      const lo = lastAtOrBefore(starts, s);
      const unit = units[from + lo];
      let start = s - starts[lo];
      let end = Math.min(e - starts[lo], unit.text.length);
      // A URL with credentials: the password is the secret, not the scheme, user and host around it.
      const url = /^[A-Za-z][\w+.-]*:\/\/[^:@/\s]*:([^@\s]+)@/.exec(unit.text.slice(start, end));
      if (url) {
        start += url[0].length - 1 - url[1].length;
        end = start + url[1].length;
      }
      // Some rules match the whole assignment (AWS_SECRET_ACCESS_KEY=…): the name stays, the value is the secret.
      const assigned = /^[A-Za-z_][\w.-]*\s*[:=](?!\/\/)\s*["']?/.exec(unit.text.slice(start, end));
      if (assigned && end - start - assigned[0].length >= 8) start += assigned[0].length;
      if (start < 0 || start >= unit.text.length) continue;
      const rule = secretlintRule(m.ruleId);
      if (unit.text.slice(start, end).includes(REDACTED_MARK)) continue;
      // A name in code shaped like a token (npm_config_cache) is no token: tokens have digits.
      if (/^[A-Za-z_]+$/.test(unit.text.slice(start, end))) continue;
      const whole = wholeToken(unit.text, start, end);
      out.push({ rule: rule.id, label: rule.label, kind: rule.kind, where: unit.where, start: whole.start, end: whole.end, value: unit.text.slice(whole.start, whole.end) });
    }
    from = to;
  }
  return out;
}

/** The findings of the rules applied here by pattern, and of the phone finder, in one text. */
export function patternFindings<W>(unit: ScanUnit<W>): Finding<W>[] {
  const out: Finding<W>[] = [];
  const text = unit.text;
  for (const rule of [...PATTERN_RULES, ...PATH_RULES]) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      if (m[0].length === 0) {
        rule.pattern.lastIndex++;
        continue;
      }
      const found = rule.group !== undefined ? m[rule.group] : m[0];
      if (found === undefined) continue;
      const start = rule.group !== undefined ? m.index + m[0].lastIndexOf(found) : m.index;
      if (rule.accept && !rule.accept(found, m)) continue;
      if (found.includes(REDACTED_MARK)) continue;
      const whole = rule.kind === 'secret' ? wholeToken(text, start, start + found.length) : { start, end: start + found.length };
      out.push({ rule: rule.id, label: rule.label, kind: rule.kind, where: unit.where, start: whole.start, end: whole.end, value: text.slice(whole.start, whole.end) });
    }
  }
  // Phone numbers: only where digits are spelt as one (a + and a country, or a national format).
  if (/\d[\d\s().-]{8,}\d/.test(text) && /\+\d|\(\d|\d[\s.-]\d/.test(text)) {
    const seen: Array<[number, number]> = [];
    const take = (startsAt: number, endsAt: number) => {
      // An opening bracket the number does not close is the text's, not the number's: "(+49 151 …".
      if ((text[startsAt] === '(' || text[startsAt] === '[') && !/[)\]]/.test(text.slice(startsAt, endsAt))) startsAt++;
      const value = text.slice(startsAt, endsAt);
      // A bare run of digits is an id, a count or a timestamp far more often than a phone number: a number
      // is taken when it is written as one (a +, or its groups set apart).
      if (!/^\+|[\s().-]/.test(value)) return;
      // Nor is one that is part of a longer token (the seconds of a timestamp, a version, a path).
      if (/[\w.:/@#-]/.test(text[startsAt - 1] ?? ' ') || /[\w/@]/.test(text[endsAt] ?? ' ')) return;
      if (seen.some(([a, b]) => a < endsAt && startsAt < b)) return;
      seen.push([startsAt, endsAt]);
      out.push({ rule: PHONE_RULE.id, label: PHONE_RULE.label, kind: PHONE_RULE.kind, where: unit.where, start: startsAt, end: endsAt, value });
    };
    const { findPhoneNumbersInText, isValidPhoneNumber } = phoneFinder();
    for (const p of findPhoneNumbersInText(text, { defaultCountry: 'US', extended: false } as never)) take(p.startsAt, p.endsAt);
    // The finder passes by an international number a bracket or a letter follows ("+49 151 …[1]"): each
    // +number is checked against its country's plan on its own too.
    for (const m of text.matchAll(/\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}/g)) {
      if (isValidPhoneNumber(m[0])) take(m.index, m.index + m[0].length);
    }
  }
  return out;
}

/**
 * Which of two findings of one place is kept: secretlint's rules (each written for its provider), then a secret
 * over personal data (the password of `user:pw@host` over the e-mail-like rest), then the longer.
 */
const GENERIC = new Set(['assigned-secret', 'assigned-password', 'basicauth']);

function outranks<W>(f: Finding<W>, g: Finding<W>): boolean {
  if (isSecretlintRule(f.rule) !== isSecretlintRule(g.rule)) return isSecretlintRule(f.rule);
  if (f.kind !== g.kind) return f.kind === 'secret';
  // A provider's own format names the secret better than "assigned to a name that says so".
  if (GENERIC.has(f.rule) !== GENERIC.has(g.rule)) return !GENERIC.has(f.rule);
  return f.end - f.start > g.end - g.start;
}

/**
 * Every finding in these texts: secretlint's recommended rules, the published patterns beside them and the
 * personal data. A place found by two rules is kept once (secretlint's, or the longer).
 */
export async function scanUnits<W>(units: readonly ScanUnit<W>[]): Promise<Finding<W>[]> {
  // Rules look at each text with its escapes (\n, \", \\ of JSON inside a string: a tool's arguments) set as
  // blanks of the same length, so a key right after an escaped newline stands as a word; what is found is
  // taken from the text itself, at the same place.
  const candidates = units.filter((u) => u.text.length >= 6).map((u) => ({ text: u.text.includes('\\') ? u.text.replace(/\\[nrt"\\]/g, '  ') : u.text, where: u }));
  const seen = [...(await secretlintFindings(candidates)), ...candidates.flatMap((u) => patternFindings(u))];
  const all = seen.map((f) => ({ ...f, where: f.where.where, value: f.where.text.slice(f.start, f.end) }));
  // Overlaps are looked for among the findings of one unit only (a file can have thousands of findings).
  const byUnit = new Map<W, Finding<W>[]>();
  for (const f of all) {
    let kept = byUnit.get(f.where);
    if (!kept) byUnit.set(f.where, (kept = []));
    const clash = kept.findIndex((g) => g.start < f.end && f.start < g.end);
    if (clash === -1) kept.push(f);
    else if (outranks(f, kept[clash])) kept[clash] = f;
  }
  return [...byUnit.values()].flat();
}
