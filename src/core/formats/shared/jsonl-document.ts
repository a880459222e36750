import type { ConversationDocument, ConversationMeta, DocumentConversation } from '../codec.js';
import { appendJsonl, keptLines, parseJsonl, rewriteJsonl, type JsonlBaseline } from '../syntax/jsonl.js';
import { rewriteJsonValue } from '../syntax/json-edit.js';
import { valueStartAt, type JsonPath } from '../syntax/json-doc.js';
import { skipValue } from '../json-spans.js';
import type { Utf8Text } from '../syntax/utf8-text.js';

/** A JSONL head's first line (a sniffer's look at one record, without splitting the whole head). */
export function firstLine(head: string): string {
  const nl = head.indexOf('\n');
  return nl === -1 ? head : head.slice(0, nl);
}

/** A JSONL file where each line is a record, some of them messages (session logs). */
export interface JsonlRecordsBaseline {
  kind: 'records';
  lines: JsonlBaseline;
  /** The line of each message record, in file order. */
  slots: number[];
}

/** A JSONL file where each line is a whole conversation (datasets). */
export interface JsonlConversationsBaseline {
  kind: 'conversations';
  lines: JsonlBaseline;
  /** The line each conversation came from. */
  lineOf: number[];
  /** Where each record stands inside its line. */
  paths: WeakMap<object, { line: number; path: JsonPath }>;
}

/** Parses a session log: `isMessage` picks the lines that are messages; the others are kept as they are. */
export function parseJsonlRecords(text: string | Utf8Text, file: string, codec: string, isMessage: (value: unknown) => boolean, title?: (values: unknown[]) => string | undefined, meta?: (values: unknown[]) => ConversationMeta | undefined): ConversationDocument {
  const doc = recordsDocument(typeof text === 'string' ? text : '', parseJsonl(text, file), codec, isMessage, title, meta);
  if (typeof text !== 'string') withTextOnDemand(doc, text);
  return doc;
}

/** The document's text, decoded from its bytes when first asked for (reading a log for its records needs none). */
function withTextOnDemand(doc: ConversationDocument, source: Utf8Text): void {
  Object.defineProperty(doc, 'text', {
    get: () => source.text(),
    set(value: string) {
      Object.defineProperty(doc, 'text', { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: true,
    configurable: true,
  });
}

function recordsDocument(text: string, lines: JsonlBaseline, codec: string, isMessage: (value: unknown) => boolean, title?: (values: unknown[]) => string | undefined, meta?: (values: unknown[]) => ConversationMeta | undefined, before?: { doc: ConversationDocument; keep: number }): ConversationDocument {
  let slots: number[] = [];
  let records: unknown[] = [];
  let other = 0;
  let first = 0;
  if (before) {
    // The lines kept from before are the same lines with the same values: their records are the same objects
    // (copied whole: an agent's append to a session of 150,000 lines copies them at every line it writes).
    const b = before.doc.baseline as JsonlRecordsBaseline;
    let kept = b.slots.length;
    while (kept > 0 && b.slots[kept - 1] >= before.keep) kept--;
    slots = b.slots.slice(0, kept);
    records = before.doc.conversations[0].records.slice(0, kept);
    other = before.doc.otherRecords - b.lines.lines.slice(before.keep).filter((l) => l.value !== undefined && !isMessage(l.value)).length;
    first = before.keep;
  }
  for (let i = first; i < lines.lines.length; i++) {
    const l = lines.lines[i];
    if (l.value === undefined) continue;
    if (isMessage(l.value)) {
      slots.push(i);
      records.push(l.value);
    } else other++;
  }
  const values = title || meta ? lines.lines.map((l) => l.value) : [];
  const m = meta?.(values);
  const conversation: DocumentConversation = { records, title: title?.(values), ...(m ? { meta: m } : {}) };
  return { codec, conversations: [conversation], otherRecords: other, text, baseline: { kind: 'records', lines, slots } satisfies JsonlRecordsBaseline };
}

/**
 * A session log that grew by `added`. Only the added lines are read; every record of the lines before stays the
 * same object (so counts, views and rows made of them stay).
 */
export function appendJsonlRecords(doc: ConversationDocument, added: string, file: string, isMessage: (value: unknown) => boolean, title?: (values: unknown[]) => string | undefined, meta?: (values: unknown[]) => ConversationMeta | undefined): ConversationDocument {
  const b = doc.baseline as JsonlRecordsBaseline;
  const lines = appendJsonl(b.lines, doc.text, added, file);
  return recordsDocument(doc.text + added, lines, doc.codec, isMessage, title, meta, { doc, keep: keptLines(b.lines) });
}

export function serializeJsonlRecords(doc: ConversationDocument, conversations: readonly (readonly unknown[])[]): string {
  const b = doc.baseline as JsonlRecordsBaseline;
  return rewriteJsonl(doc.text, b.lines, b.slots, conversations[0] ?? []);
}

/** Parses a dataset: each non-blank line is one conversation whose records `recordsOf` finds. */
export function parseJsonlConversations(text: string, file: string, codec: string, recordsOf: (line: unknown, n: number) => { records: unknown[]; title?: string; paths: JsonPath[]; meta?: ConversationMeta }): ConversationDocument {
  const lines = parseJsonl(text, file);
  const conversations: DocumentConversation[] = [];
  const lineOf: number[] = [];
  const paths = new WeakMap<object, { line: number; path: JsonPath }>();
  lines.lines.forEach((l, i) => {
    if (l.value === undefined) return;
    const found = recordsOf(l.value, i + 1);
    found.records.forEach((r, k) => r !== null && typeof r === 'object' && paths.set(r as object, { line: i, path: found.paths[k] }));
    conversations.push({ records: found.records, title: found.title, ...(found.meta ? { meta: found.meta } : {}) });
    lineOf.push(i);
  });
  return { codec, conversations, otherRecords: 0, text, baseline: { kind: 'conversations', lines, lineOf, paths } satisfies JsonlConversationsBaseline };
}

/** Writes a dataset back: each conversation's line is rebuilt by `assemble`; unchanged lines keep their bytes. */
export function serializeJsonlConversations(doc: ConversationDocument, conversations: readonly (readonly unknown[])[], assemble: (line: unknown, records: readonly unknown[]) => unknown): string {
  const b = doc.baseline as JsonlConversationsBaseline;
  let out = '';
  let last = 0;
  b.lineOf.forEach((lineIndex, c) => {
    const line = b.lines.lines[lineIndex];
    const next = assemble(line.value, conversations[c] ?? []);
    const lead = doc.text.slice(line.start, line.end).search(/\S/);
    const start = line.start + Math.max(0, lead);
    const end = start + doc.text.slice(start, line.end).trimEnd().length;
    out += doc.text.slice(last, start) + rewriteJsonValue(doc.text, { start, end }, line.value, next, b.lines.style, 0);
    last = end;
  });
  return out + doc.text.slice(last);
}

/** A record's own text in the file: its line in a session log, its place inside its line in a dataset. */
export function jsonlLineText(doc: ConversationDocument, record: unknown): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  const b = doc.baseline as JsonlRecordsBaseline | JsonlConversationsBaseline;
  if (b.kind === 'conversations') {
    const at = b.paths.get(record as object);
    if (!at) return undefined;
    const line = b.lines.lines[at.line];
    const lineText = doc.text.slice(line.start, line.end);
    const start = valueStartAt(lineText, at.path);
    return start === undefined ? undefined : lineText.slice(start, skipValue(lineText, start));
  }
  const k = b.lines.origin.get(record as object);
  if (k === undefined) return undefined;
  const line = b.lines.lines[k];
  return doc.text.slice(line.start, line.end);
}
