import type { ConversationDocument, DocumentConversation } from '../codec.js';
import { positionAt } from '../errors.js';
import { firstNonWs, skipValue } from '../json-spans.js';
import { NEW_JSON_STYLE } from '../json-writer.js';
import { detectStyle } from '../json.js';
import { arrayElementSpans } from '../json-spans.js';
import { parseJsonText, valueStartAt, type JsonPath } from '../syntax/json-doc.js';
import { rewriteJsonValue } from '../syntax/json-edit.js';
import type { JsonStyle } from '../types.js';

/** What a JSON-file codec keeps to write the file back: the parsed root, where each record stood, the style. */
export interface JsonDocBaseline {
  root: unknown;
  paths: WeakMap<object, JsonPath>;
  style: JsonStyle;
}

export interface Extracted {
  conversations: DocumentConversation[];
  /** Path of each record (for its raw text and error positions). */
  paths: Array<Array<JsonPath>>;
  otherRecords?: number;
}

/** Parses a JSON file whose conversations `extract` finds in the root (it throws NotThisFormat when none). */
export function parseJsonDocument(text: string, file: string, codec: string, extract: (root: unknown, file: string, at: (path: JsonPath) => { line: number; column: number } | undefined) => Extracted): ConversationDocument {
  const root = parseJsonText(text, file);
  const at = (path: JsonPath) => {
    const start = valueStartAt(text, path);
    return start === undefined ? undefined : positionAt(text, start);
  };
  const found = extract(root, file, at);
  const paths = new WeakMap<object, JsonPath>();
  found.conversations.forEach((c, i) => c.records.forEach((r, k) => r !== null && typeof r === 'object' && paths.set(r as object, found.paths[i][k])));
  // The style of the first list of records (indent, separators, escaping) is the style new records get.
  let style = NEW_JSON_STYLE;
  const firstPath = found.paths.find((p) => p.length > 0)?.[0];
  if (firstPath) {
    const listPath = firstPath.slice(0, -1);
    const open = valueStartAt(text, listPath);
    if (open !== undefined && text.charCodeAt(open) === 0x5b) style = detectStyle(text, arrayElementSpans(text, open).elements, listPath.length + 1, open);
  }
  return { codec, conversations: found.conversations, otherRecords: found.otherRecords ?? 0, text, baseline: { root, paths, style } satisfies JsonDocBaseline };
}

/**
 * Writes the file back from the root `assemble` builds with the records: every value that did not change keeps
 * its exact text, at any depth; what changed is rewritten in the file's style.
 */
export function serializeJsonDocument(doc: ConversationDocument, assemble: (root: unknown) => unknown): string {
  const b = doc.baseline as JsonDocBaseline;
  const start = firstNonWs(doc.text);
  const end = skipValue(doc.text, start);
  return doc.text.slice(0, start) + rewriteJsonValue(doc.text, { start, end }, b.root, assemble(b.root), b.style, 0) + doc.text.slice(end);
}

/** The text a record has in the file, when it was read from it. */
export function jsonRawText(doc: ConversationDocument, record: unknown): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  const path = (doc.baseline as JsonDocBaseline).paths.get(record as object);
  if (!path) return undefined;
  const start = valueStartAt(doc.text, path);
  return start === undefined ? undefined : doc.text.slice(start, skipValue(doc.text, start));
}

/** A copy of `root` with the value at `path` replaced (the original is never changed). */
export function replaceAt(root: unknown, path: JsonPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [step, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = root.slice();
    copy[step as number] = replaceAt(root[step as number], rest, value);
    return copy;
  }
  const obj = (root ?? {}) as Record<string, unknown>;
  return { ...obj, [step]: replaceAt(obj[step as string], rest, value) };
}
