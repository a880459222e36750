import { lineage } from '../../message.js';
import { ConversationFileError, positionAt } from '../errors.js';
import { detectStyle, syntaxError } from '../json.js';
import { arrayElementSpans, firstNonWs, objectMemberSpans, type Span } from '../json-spans.js';
import { NEW_JSON_STYLE, stringifyJson } from '../json-writer.js';
import { MAX_NESTING_DEPTH, type JsonStyle } from '../types.js';
import { nestsDeeperThan } from '../validate.js';
import { rewriteJsonValue } from './json-edit.js';

export type JsonPath = ReadonlyArray<string | number>;

/** Parses JSON text, or throws with the file, line and column; refuses nesting past MAX_NESTING_DEPTH. */
export function parseJsonText(text: string, file: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw syntaxError(text, file, (e as Error).message);
  }
  if (nestsDeeperThan(value, MAX_NESTING_DEPTH)) throw new ConversationFileError(file, `nested more than ${MAX_NESTING_DEPTH} levels deep; refusing to read it`);
  return value;
}

/** Where the value at `path` starts in JSON text that JSON.parse accepted (the last of duplicate keys). */
export function valueStartAt(text: string, path: JsonPath): number | undefined {
  let start = firstNonWs(text);
  for (const step of path) {
    const c = text.charCodeAt(start);
    if (typeof step === 'number') {
      if (c !== 0x5b) return undefined;
      const el = arrayElementSpans(text, start).elements[step];
      if (!el) return undefined;
      start = el.start;
    } else {
      if (c !== 0x7b) return undefined;
      const members = objectMemberSpans(text, start).filter((m) => m.key === step);
      if (members.length === 0) return undefined;
      start = members[members.length - 1].value.start;
    }
  }
  return start;
}

/** The value at `path` of a parsed value. */
export function valueAt(root: unknown, path: JsonPath): unknown {
  let v = root;
  for (const step of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

/** One array of records in a JSON file: where it is, what it held, and which object came from which element. */
export interface JsonContainer {
  path: JsonPath;
  /** Offset of its '['. */
  open: number;
  elements: Span[];
  close: number;
  origin: WeakMap<object, number>;
}

export interface JsonBaseline {
  containers: JsonContainer[];
  style: JsonStyle;
  /** The text ends with a newline (and which). */
  trailing: string;
}

/** Finds each array at `paths` in `text`, with its element spans and the objects parsed from them. */
export function jsonContainers(text: string, root: unknown, paths: readonly JsonPath[]): JsonBaseline {
  const containers: JsonContainer[] = [];
  for (const path of paths) {
    const at = valueStartAt(text, path);
    const list = valueAt(root, path);
    if (at === undefined || !Array.isArray(list) || text.charCodeAt(at) !== 0x5b) continue;
    const { elements, close } = arrayElementSpans(text, at);
    const origin = new WeakMap<object, number>();
    list.forEach((r, i) => {
      if (r !== null && typeof r === 'object') origin.set(r as object, i);
    });
    containers.push({ path, open: at, elements, close, origin });
  }
  const first = containers.find((c) => c.elements.length > 0) ?? containers[0];
  const style = first ? detectStyle(text, first.elements, first.path.length + 1, first.open) : NEW_JSON_STYLE;
  return { containers, style, trailing: /\r?\n$/.exec(text)?.[0] ?? '' };
}

/** The element a record (or what it was edited from) was read from. */
function originOf(container: JsonContainer, record: unknown): number | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  for (const m of lineage(record)) {
    const k = container.origin.get(m);
    if (k !== undefined) return k;
  }
  return undefined;
}

/** The text of an array container holding `records`, in the file's style; unchanged elements keep their bytes. */
function containerText(text: string, container: JsonContainer, records: readonly unknown[], style: JsonStyle): string {
  const depth = container.path.length + 1;
  const { elements } = container;
  const body = records.map((r) => {
    const k = originOf(container, r);
    if (k === undefined || !elements[k]) return stringifyJson(r, style, depth);
    const span = elements[k];
    const original = JSON.parse(text.slice(span.start, span.end)) as unknown;
    return rewriteJsonValue(text, span, original, r, style, depth);
  });
  if (body.length === 0) return '[]';
  if (elements.length > 0) {
    const lead = text.slice(container.open + 1, elements[0].start);
    const sep = elements.length > 1 ? text.slice(elements[0].end, elements[1].start) : style.indent === null ? style.itemSep : ',' + lead;
    const tail = text.slice(elements[elements.length - 1].end, container.close - 1);
    return '[' + lead + body.join(sep) + tail + ']';
  }
  // The array was empty in the file: lay the new elements out in the file's style.
  if (style.indent === null) return '[' + body.join(style.itemSep) + ']';
  const pad = style.newline + style.indent.repeat(depth);
  return '[' + pad + body.join(',' + pad) + style.newline + style.indent.repeat(depth - 1) + ']';
}

/**
 * `text` with each container's records replaced; unchanged elements keep their exact bytes, an edited one keeps
 * the text of what it did not change, new ones follow the file's style. Text outside the containers is kept.
 */
export function rewriteJsonContainers(text: string, baseline: JsonBaseline, records: readonly (readonly unknown[])[]): string {
  const edits = baseline.containers
    .map((c, i) => ({ c, text: containerText(text, c, records[i] ?? [], baseline.style) }))
    .sort((a, b) => b.c.open - a.c.open);
  let out = text;
  for (const e of edits) out = out.slice(0, e.c.open) + e.text + out.slice(e.c.close);
  return out;
}

/** Where the element at `index` of a container is, for error messages. */
export function elementPosition(text: string, baseline: JsonBaseline, container: number, index: number): { line: number; column: number } | undefined {
  const span = baseline.containers[container]?.elements[index];
  return span ? positionAt(text, span.start) : undefined;
}
