import { isPlainObject } from '../message.js';
import type { Codec, ConversationDocument } from '../formats/codec.js';
import { scanUnits, type Finding, type ScanUnit } from './scan.js';
import { scannedLeaves, stringLeaves, type JsonPath } from './leaves.js';
import { codecById } from '../formats/registry.js';
import { findingKey, findingsOfRecords } from './record-findings.js';

export type { JsonPath };

/**
 * Where a finding is: in a message (the file's conversation, the record's index among its records, and the
 * string inside the record), or in a record that is not a message (its line, or its place in the file's JSON).
 */
export type Place = { conversation: number; index: number; path: JsonPath } | { other: true; line?: number; path: JsonPath };

export type DocumentFinding = Finding<Place> & { key: string };

function recordUnits(record: unknown, place: (path: JsonPath) => Place): ScanUnit<Place>[] {
  return scannedLeaves(record).map((l) => ({ text: l.text, where: place(l.path) }));
}

/** The values of a file that are not message records: JSONL lines, or the rest of a JSON file's root. */
function otherValues(doc: ConversationDocument): Array<{ value: unknown; line?: number; path: JsonPath }> {
  const b = doc.baseline as { kind?: string; lines?: { lines: Array<{ value: unknown; start: number; end: number }> }; root?: unknown; parsed?: { root?: unknown }; json?: unknown } | null;
  const messages = new Set<unknown>(doc.conversations.flatMap((c) => c.records));
  if (b && (b.kind === 'records' || b.kind === 'conversations') && b.lines) {
    const text = doc.text;
    // A dataset's lines are its conversations: what they hold beside the messages is looked into too. A last
    // line cut off (or still being written) is not read, but it is in the file: its text is looked into.
    return b.lines.lines.flatMap((l, i) => {
      if (l.value === undefined) {
        const raw = typeof text === 'string' ? text.slice(l.start, l.end) : '';
        return /\S/.test(raw) ? [{ value: unescapedJsonText(raw), line: i + 1, path: [] }] : [];
      }
      return messages.has(l.value) ? [] : [{ value: b.kind === 'conversations' ? withoutMessages(l.value, messages) : l.value, line: i + 1, path: [] }];
    });
  }
  const root = b && typeof b === 'object' ? (b.root ?? b.parsed?.root) : undefined;
  if (root !== undefined) return [{ value: withoutMessages(root, messages), path: [] }];
  return rawOtherValues(doc);
}

/**
 * The file's JSON read again, for a reader that keeps no parsed root to tell the messages in it by: every
 * string the messages do not hold themselves is looked into (a JSONL file's lines, a JSON file's root).
 */
function rawOtherValues(doc: ConversationDocument): Array<{ value: unknown; line?: number; path: JsonPath }> {
  const syntax = codecById(doc.codec)?.syntax;
  if (syntax !== 'json' && syntax !== 'jsonl') return [];
  const held = new Set<string>();
  for (const c of doc.conversations) for (const r of c.records) for (const l of stringLeaves(r)) held.add(l.text);
  const text = doc.text.replace(/^\uFEFF/, '');
  const parsed: Array<{ value: unknown; line?: number }> = [];
  if (syntax === 'json') {
    try {
      parsed.push({ value: JSON.parse(text) });
    } catch {
      return [];
    }
  } else
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        parsed.push({ value: JSON.parse(line), line: i + 1 });
      } catch {
        // A line the reader skipped (cut off, still being written): its text is in the file all the same.
        parsed.push({ value: unescapedJsonText(line), line: i + 1 });
      }
    });
  return parsed.map((p) => ({ value: withoutStrings(p.value, held), ...(p.line !== undefined ? { line: p.line } : {}), path: [] }));
}

/**
 * The text of JSON that does not parse (a cut-off line) with its string escapes read, so what is found in it
 * is what a JSON string holds: the same value a redaction looks for, escaped again, in the file's text.
 */
export function unescapedJsonText(raw: string): string {
  return raw.replace(/\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g, (_, e: string) => {
    if (e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e];
  });
}

/** A JSON value with the strings the messages hold left out. */
function withoutStrings(value: unknown, held: ReadonlySet<string>, depth = 0): unknown {
  if (typeof value === 'string') return held.has(value) ? undefined : value;
  if (depth > 64) return undefined;
  if (Array.isArray(value)) return value.map((v) => withoutStrings(v, held, depth + 1));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutStrings(v, held, depth + 1)]));
  return value;
}

/** A JSON value with the message records inside it left out (they are looked into as messages). */
function withoutMessages(value: unknown, messages: ReadonlySet<unknown>, depth = 0): unknown {
  if (messages.has(value) || depth > 64) return undefined;
  if (Array.isArray(value)) return value.map((v) => withoutMessages(v, messages, depth + 1));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutMessages(v, messages, depth + 1)]));
  return value;
}

/** The findings in a file's records that are not messages (looked into once per parsed file). */
const othersFound = new WeakMap<object, DocumentFinding[]>();
export async function scanOtherRecords(doc: ConversationDocument): Promise<DocumentFinding[]> {
  const hit = othersFound.get(doc);
  if (hit) return hit;
  const units: ScanUnit<Place>[] = [];
  for (const o of otherValues(doc)) for (const u of recordUnits(o.value, (path) => ({ other: true, ...(o.line !== undefined ? { line: o.line } : {}), path: [...o.path, ...path] }))) units.push(u);
  const found = (await scanUnits(units)).map((f) => ({ ...f, key: findingKey(f.rule, f.value) }));
  othersFound.set(doc, found);
  return found;
}

/**
 * Every secret and personal datum in a parsed file: in each message record (text, tool arguments and results,
 * reasoning, metadata: every string the record holds but its structural ids) and in the records that are not
 * messages.
 */
export async function scanDocument(doc: ConversationDocument): Promise<DocumentFinding[]> {
  const out: DocumentFinding[] = [];
  for (let conversation = 0; conversation < doc.conversations.length; conversation++) {
    const per = await findingsOfRecords(doc.conversations[conversation].records);
    per.forEach((list, index) => list.forEach((f) => out.push({ ...f, where: { conversation, index, path: f.where } })));
  }
  for (const f of await scanOtherRecords(doc)) out.push(f);
  return out;
}

/** A finding as the user is shown it: its rule and a masked excerpt (the first and last characters only). */
export { masked } from './mask-line.js';

export type { Codec };
