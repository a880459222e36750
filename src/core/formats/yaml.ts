import type { Node, YAMLSeq } from 'yaml';
import { lazyModule } from '../util/lazy-module.js';

const yaml = lazyModule<typeof import('yaml')>('yaml');
import { deepEqual, isPlainObject, type Message } from '../message.js';
import { ConversationFileError, positionAt } from './errors.js';
import type { Span } from './json-spans.js';
import { NEW_JSON_STYLE } from './json-writer.js';
import { LIST_KEY, originIndex, YAML_MAX_ALIAS_COUNT, type Baseline, type FileShape, type ParsedConversation } from './types.js';
import { describe, validateMessages } from './validate.js';
import { emitYaml, emitYamlItem, PYYAML_STYLE, type YamlEmitStyle } from './syntax/yaml-emit.js';
import { loadYamlValue, parseYamlText, PYYAML_TO_JS } from './syntax/yaml-read.js';

const PY_INDENT = 4;

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

function findList(root: Node | null, file: string, text: string): { shape: FileShape; seq: YAMLSeq } {
  if (yaml().isSeq(root)) return { shape: 'list', seq: root };
  const at = positionAt(text, root?.range?.[0] ?? 0);
  if (yaml().isMap(root)) {
    for (const shape of ['wrapper', 'history'] as const) {
      const pair = root.items.find((p) => yaml().isScalar(p.key) && p.key.value === LIST_KEY[shape]);
      if (pair && yaml().isSeq(pair.value)) return { shape, seq: pair.value };
    }
    // Described from the keys alone: expanding the values first is exactly what an alias bomb wants.
    const keys = root.items.slice(0, 5).map((p) => (yaml().isScalar(p.key) ? String(p.key.value) : '?')).join(', ');
    throw new ConversationFileError(
      file,
      `expected a list of messages or a mapping with a "conversation_history" list; found a mapping with keys: ${keys}`,
      at,
    );
  }
  const value = yaml().isScalar(root) ? root.value : root;
  throw new ConversationFileError(file, `expected a list of messages; found ${describe(value)}`, at);
}

function trimmedSpan(text: string, start: number, end: number): Span {
  let e = end;
  while (e > start && /\s/.test(text[e - 1])) e--;
  return { start, end: e };
}

/**
 * An item's span: up to its last non-blank character, and the blank lines after it but the last line break
 * (which the separator, or the file's end, supplies). A block scalar with keep chomping (`|+`) owns those
 * lines; elsewhere they stay with the item before them, so that nothing between unchanged items moves.
 */
function itemSpan(text: string, start: number, end: number): Span {
  const trimmed = trimmedSpan(text, start, end).end;
  let e = blankLinesEnd(text, trimmed);
  if (e > trimmed && text[e - 1] === '\n') e--;
  if (e > trimmed && text[e - 1] === '\r') e--;
  return { start, end: e };
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

export function parseYaml(text: string, file: string): ParsedConversation {
  const doc = parseYamlText(text, file);
  const { shape, seq } = findList(doc.contents, file, text);
  let root: unknown;
  try {
    root = doc.toJS(PYYAML_TO_JS);
  } catch (e) {
    const reason = /alias/i.test((e as Error).message)
      ? `YAML aliases expand too far (limit ${YAML_MAX_ALIAS_COUNT}); refusing a possible alias bomb`
      : `invalid YAML: ${firstLine((e as Error).message)}`;
    throw new ConversationFileError(file, reason);
  }
  const list = shape === 'list' ? (root as unknown[]) : ((root as Record<string, unknown>)[LIST_KEY[shape]] as unknown[]);
  const starts = seq.items.map((item) => (item as Node).range?.[0] ?? 0);
  const messages = validateMessages(list, file, text, starts);
  const elements = seq.flow ? [] : seq.items.map((item) => itemSpan(text, (item as Node).range![0], (item as Node).range![1]));
  const column = elements.length > 0 ? columnOf(text, elements[0].start) : PY_INDENT;
  let separator = '';
  for (let i = 0; i + 1 < elements.length && !separator; i++) {
    const between = text.slice(elements[i].end, elements[i + 1].start);
    if (/^\s*-\s*$/.test(between)) separator = between;
  }
  if (!separator && elements.length > 0) {
    const dash = text.lastIndexOf('-', elements[0].start);
    const dashCol = dash >= 0 ? columnOf(text, dash) : 0;
    separator = '\n' + ' '.repeat(dashCol) + '-' + ' '.repeat(Math.max(1, column - dashCol - 1));
  }
  const escape = !/[\u0080-\uffff]/.test(text) && /\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/.test(text);
  const origin = new WeakMap<object, number>();
  messages.forEach((m, i) => origin.set(m, i));
  // A quoted value that goes on past its line is how yaml.dump (width 80) lays out long text: edits do too.
  const folds = /^[ \t]*(?:-[ \t]+)?[^\s'"#-][^\n]*?:[ \t]+(?:'(?:[^'\n]|'')*|"(?:[^"\\\n]|\\.)*)$/m.test(text);
  const baseline: Baseline = {
    format: 'yaml',
    shape,
    text,
    elements,
    separator,
    depth: shape === 'list' ? 1 : 2,
    jsonStyle: { ...NEW_JSON_STYLE, escapeNonAscii: escape },
    column,
    origin,
    ...(folds ? { width: 80 } : {}),
  };
  return { file, format: 'yaml', shape, messages, root: shape === 'list' ? undefined : (root as Record<string, unknown>), baseline };
}

/** YAML text of a value in PyYAML's layout, read back as the same value by YAML 1.1 and 1.2 readers. */
export function stringifyYaml(value: unknown, escapeNonAscii = false): string {
  return emitYaml(value, { ...PYYAML_STYLE, escapeNonAscii });
}

/** The nesting step a file uses: the distance from an item's dash to its content (4 in PyYAML's layout). */
function stepOf(baseline: Baseline): number {
  const line = baseline.separator.slice(baseline.separator.lastIndexOf('\n') + 1);
  const dash = line.indexOf('-');
  const step = dash === -1 ? PY_INDENT : line.length - dash;
  return Math.min(8, Math.max(2, step));
}

/** One list item's text (without its dash), with continuation lines indented to `column`. */
function itemText(message: Message, column: number, style: YamlEmitStyle): string {
  return emitYamlItem(message, column, style);
}

/** An item's own text parsed alone; an item that uses an anchor defined elsewhere does not, and is rewritten. */
function parseItem(itemText: string, column: number): unknown {
  const pad = ' '.repeat(column);
  const alone = itemText
    .split('\n')
    .map((line, i) => (i > 0 && line.startsWith(pad) ? line.slice(column) : line))
    .join('\n');
  return loadYamlValue(alone);
}

/**
 * An edited message that keeps the exact text of every key whose value did not change (its quoting, escapes
 * and layout); only the changed keys are written anew. Undefined when the original cannot be split by key.
 */
function editedItemText(originalText: string, original: Record<string, unknown>, next: Message, column: number, style: YamlEmitStyle): string | undefined {
  const pad = ' '.repeat(column);
  let doc;
  try {
    doc = parseYamlText(pad + originalText, '');
  } catch {
    return undefined;
  }
  if (!yaml().isMap(doc.contents)) return undefined;
  const pairText = new Map<string, string>();
  for (const pair of doc.contents.items) {
    const key = pair.key as Node | null;
    if (!yaml().isScalar(key) || !key.range) return undefined;
    const last = (pair.value as Node | null)?.range ?? key.range;
    const span = trimmedSpan(pad + originalText, key.range[0], last[1]);
    pairText.set(String(key.value), (pad + originalText).slice(span.start, span.end));
  }
  const parts: string[] = [];
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (value === undefined) continue;
    const kept = pairText.get(key);
    const same = kept !== undefined && Object.prototype.hasOwnProperty.call(original, key) && deepEqual(original[key], value);
    parts.push(same ? kept : emitYamlItem({ [key]: value }, column, style));
  }
  if (parts.length === 0) return '{}';
  const out = parts.join('\n' + pad);
  // Kept text may lean on an anchor that went with a changed key: use it only if it reads back as `next`.
  return deepEqual(parseItem(out, column), next) ? out : undefined;
}

export interface YamlWriteTarget {
  shape: FileShape;
  root?: Record<string, unknown>;
  baseline?: Baseline;
}

function freshList(messages: readonly Message[], escape: boolean): string {
  if (messages.length === 0) return '[]\n';
  return emitYaml(messages, { ...PYYAML_STYLE, escapeNonAscii: escape });
}

/** Where the blank lines (white space only) that follow `from` end. */
function blankLinesEnd(text: string, from: number): number {
  const blank = /[ \t]*\r?\n/y;
  let end = from;
  blank.lastIndex = from;
  while (blank.exec(text) !== null) end = blank.lastIndex;
  return end;
}

export function serializeYaml(messages: readonly Message[], target: YamlWriteTarget): string {
  const { shape, baseline } = target;
  const usable = baseline && baseline.format === 'yaml' && baseline.shape === shape ? baseline : undefined;
  const escape = usable?.jsonStyle.escapeNonAscii ?? false;
  if (usable && usable.elements.length > 0 && messages.length > 0) {
    const { text, elements, separator, column } = usable;
    const style: YamlEmitStyle = { indent: stepOf(usable), escapeNonAscii: escape, ...(usable.width !== undefined ? { width: usable.width } : {}) };
    const body = messages
      .map((m) => {
        const k = originIndex(usable, m);
        if (k !== undefined && elements[k]) {
          const originalText = text.slice(elements[k].start, elements[k].end);
          // Read as the file has it: followed by the line break the separator (or the file's end) supplies.
          const original = parseItem(originalText + '\n', column);
          if (isPlainObject(original) && deepEqual(original, m) && Object.keys(original).join() === Object.keys(m).join()) {
            return originalText;
          }
          const edited = isPlainObject(original) ? editedItemText(originalText, original, m, column, style) : undefined;
          if (edited !== undefined) return edited;
        }
        return itemText(m, column, style);
      })
      .join(separator);
    const out = text.slice(0, elements[0].start) + body + text.slice(elements[elements.length - 1].end);
    // New items are written with \n; a CRLF file gets CRLF throughout.
    return text.includes('\r\n') ? out.replace(/\r?\n/g, '\r\n') : out;
  }
  if (shape === 'list') return freshList(messages, escape);
  const root: Record<string, unknown> = { ...(target.root ?? { metadata: {} }) };
  root[LIST_KEY[shape]] = messages;
  return stringifyYaml(root, escape);
}

/** The list of a YAML file's text as plain values (for checking that nothing changed). */
export function parseYamlValues(text: string, shape: FileShape): unknown[] | undefined {
  const root = loadYamlValue(text);
  const list = shape === 'list' ? root : isPlainObject(root) ? root[LIST_KEY[shape]] : undefined;
  return Array.isArray(list) ? list : undefined;
}
