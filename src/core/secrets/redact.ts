import { isPlainObject, markDerived } from '../message.js';
import type { ConversationDocument } from '../formats/codec.js';
import { masked, type DocumentFinding, type JsonPath } from './document-scan.js';

/** Rules of paths and user names: what stands for the name is `<user>`, so that a path still reads as one. */
const USER_RULES = new Set(['home-path', 'user-name']);

/** What stands where a secret was: it says what was there (the rule), never any of it; a user name is `<user>`. */
export const placeholderOf = (rule: string) => (USER_RULES.has(rule) ? '<user>' : `[REDACTED:${rule}]`);

interface Span {
  path: JsonPath;
  start: number;
  end: number;
  rule: string;
}

/** What stands for a redacted value in a file's name: no brackets (Windows refuses `<` and `>` in names). */
export const fileSafePlaceholder = (rule: string) => placeholderOf(rule).replace(/^<(\w+)>$/, '$1').replace(/^\[REDACTED:([\w-]+)\]$/, 'REDACTED-$1');

/** A string with these spans (of it) replaced by their placeholders; overlapping spans are merged. */
export function redactString(text: string, spans: ReadonlyArray<Pick<Span, 'start' | 'end' | 'rule'>>): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.end <= at) continue;
    out += text.slice(at, Math.max(at, s.start)) + placeholderOf(s.rule);
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * A copy of a value with the findings' spans replaced in the strings they are in (at their paths); every
 * other value, key and the structure as they were. The copy is marked as derived from the value, so a save
 * rewrites only the strings that changed.
 */
export function redactValue<T>(value: T, spans: readonly Span[]): T {
  if (spans.length === 0) return value;
  const byPath = new Map<string, Span[]>();
  for (const s of spans) {
    const key = JSON.stringify(s.path);
    let list = byPath.get(key);
    if (!list) byPath.set(key, (list = []));
    list.push(s);
  }
  const walk = (v: unknown, path: JsonPath): unknown => {
    if (typeof v === 'string') {
      const here = byPath.get(JSON.stringify(path));
      return here ? redactString(v, here) : v;
    }
    // Only the branches a span is in are copied.
    const prefix = JSON.stringify(path).slice(0, -1);
    if (![...byPath.keys()].some((k) => k.startsWith(prefix))) return v;
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
    return v;
  };
  const out = walk(value, []) as T;
  if (out !== null && typeof out === 'object' && value !== null && typeof value === 'object' && out !== value) markDerived(out as object, value as object);
  return out;
}

/** Each conversation's records with the findings in its messages redacted (the others as they were). */
export function redactedRecords(doc: ConversationDocument, findings: readonly DocumentFinding[]): unknown[][] {
  return doc.conversations.map((c, ci) =>
    c.records.map((r, i) => {
      const spans = findings.flatMap((f) => ('conversation' in f.where && f.where.conversation === ci && f.where.index === i ? [{ path: f.where.path, start: f.start, end: f.end, rule: f.rule }] : []));
      return redactValue(r, spans);
    }),
  );
}

/** Where a finding is, in words. */
export function placeText(f: DocumentFinding, conversations: number): string {
  const w = f.where;
  const field = w.path.length > 0 ? ` (${w.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '')})` : '';
  if ('other' in w) return `a record that is not a message${w.line !== undefined ? `, line ${w.line}` : ''}${field}`;
  return `${conversations > 1 ? `conversation ${w.conversation}, ` : ''}message ${w.index}${field}`;
}

/** The report of a redaction (or a scan): a line per finding, its place, rule and a masked excerpt. */
export function findingsReport(source: string, findings: readonly DocumentFinding[], conversations: number, redacted: boolean): string {
  const head = `${source}: ${findings.length} finding${findings.length === 1 ? '' : 's'}${redacted ? ', each replaced by [REDACTED:<rule>]' : ''}`;
  return [head, ...findings.map((f) => `  ${placeText(f, conversations)}: ${f.label} ${masked(f.value)}`)].join('\n') + '\n';
}
