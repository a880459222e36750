import { lineage, type Message } from '../message.js';
import type { Span } from './json-spans.js';

export type FileFormat = 'json' | 'yaml';
/** `list`: a bare list; `wrapper`: `{metadata, conversation_history}`; `history`: the older `{metadata, history}`. */
export type FileShape = 'list' | 'wrapper' | 'history';

export const LIST_KEY: Record<Exclude<FileShape, 'list'>, string> = {
  wrapper: 'conversation_history',
  history: 'history',
};

export interface JsonStyle {
  /** Indent unit, or null for single-line files. */
  indent: string | null;
  newline: '\n' | '\r\n';
  keySep: string;
  itemSep: string;
  escapeNonAscii: boolean;
}

/**
 * What a style-preserving save needs of the file as it was read: its text, where each message stood in it,
 * and which message objects came from which element.
 */
export interface Baseline {
  format: FileFormat;
  shape: FileShape;
  text: string;
  elements: Span[];
  /** The text between two elements (", newline and indent" in JSON, "newline and dash" in YAML). */
  separator: string;
  /** Nesting depth of the elements (1 in a bare list, 2 in a wrapper). */
  depth: number;
  jsonStyle: JsonStyle;
  /** Column of the first character of an element (YAML). */
  column: number;
  /** YAML: the width a PyYAML-dumped file folds its long values at (undefined: values on one line). */
  width?: number;
  /** The file started with a UTF-8 byte order mark (kept on save). */
  bom?: boolean;
  origin: WeakMap<object, number>;
}

export interface ParsedConversation {
  file: string;
  format: FileFormat;
  shape: FileShape;
  messages: Message[];
  /** The wrapper's root object (with the list in place), for writing a wrapper back; undefined for a bare list. */
  root?: Record<string, unknown>;
  baseline: Baseline;
}

export interface ReadOptions {
  /** Refuse files larger than this (default 256 MiB). */
  maxFileBytes?: number;
  /** Force a format instead of choosing by extension. */
  format?: FileFormat;
}

export { DEFAULT_MAX_FILE_BYTES } from '../limits.js';
export const YAML_MAX_ALIAS_COUNT = 100;
/**
 * Deeper nesting is refused when a file is read, with its position. Real conversations nest a few dozen
 * levels; the YAML composer overflows the stack near 800 (and near 2000 the process can die outright), and
 * JSON.stringify, structuredClone and every recursive walk have their own limits. PyYAML refuses flow
 * collections past about 500 levels, so no file it wrote is refused for being this deep.
 */
export const MAX_NESTING_DEPTH = 256;

/**
 * A Baseline whose costly parts (element spans, style, separator) are computed on first read, once.
 */
export function lazyBaseline(
  eager: Omit<Baseline, 'elements' | 'jsonStyle' | 'separator' | 'origin'>,
  originals: readonly object[],
  compute: () => Pick<Baseline, 'elements' | 'jsonStyle' | 'separator'>,
): Baseline {
  let done: Pick<Baseline, 'elements' | 'jsonStyle' | 'separator'> | undefined;
  let origin: WeakMap<object, number> | undefined;
  const get = () => (done ??= compute());
  const baseline = { ...eager } as Baseline;
  for (const key of ['elements', 'jsonStyle', 'separator'] as const) {
    Object.defineProperty(baseline, key, { enumerable: true, get: () => get()[key] });
  }
  // Which live object came from which element: built from a copy of the parsed list, so it stays right even
  // after the caller replaced entries in its own array.
  Object.defineProperty(baseline, 'origin', {
    enumerable: true,
    get: () => {
      if (!origin) {
        origin = new WeakMap();
        originals.forEach((m, i) => origin!.set(m, i));
      }
      return origin;
    },
    set: (value: WeakMap<object, number>) => (origin = value),
  });
  return baseline;
}

/** The element of the file a message (or what it was edited from) was read from, if any. */
export function originIndex(baseline: Baseline, message: object): number | undefined {
  for (const m of lineage(message)) {
    const k = baseline.origin.get(m);
    if (k !== undefined) return k;
  }
  return undefined;
}
