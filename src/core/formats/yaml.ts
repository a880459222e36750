import YAML, { isMap, isScalar, isSeq, type Node, type YAMLSeq } from 'yaml';
import { deepEqual, isPlainObject, type Message } from '../message.js';
import { ConversationFileError, positionAt } from './errors.js';
import type { Span } from './json-spans.js';
import { NEW_JSON_STYLE } from './json-writer.js';
import { LIST_KEY, YAML_MAX_ALIAS_COUNT, type Baseline, type FileShape, type ParsedConversation } from './types.js';
import { describe, validateMessages } from './validate.js';

const PY_INDENT = 4;

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

function findList(root: Node | null, file: string, text: string): { shape: FileShape; seq: YAMLSeq } {
  if (isSeq(root)) return { shape: 'list', seq: root };
  const at = positionAt(text, root?.range?.[0] ?? 0);
  if (isMap(root)) {
    for (const shape of ['wrapper', 'history'] as const) {
      const pair = root.items.find((p) => isScalar(p.key) && p.key.value === LIST_KEY[shape]);
      if (pair && isSeq(pair.value)) return { shape, seq: pair.value };
    }
    // Described from the keys alone: expanding the values first is exactly what an alias bomb wants.
    const keys = root.items.slice(0, 5).map((p) => (isScalar(p.key) ? String(p.key.value) : '?')).join(', ');
    throw new ConversationFileError(
      file,
      `expected a list of messages or a mapping with a "conversation_history" list; found a mapping with keys: ${keys}`,
      at,
    );
  }
  const value = isScalar(root) ? root.value : root;
  throw new ConversationFileError(file, `expected a list of messages; found ${describe(value)}`, at);
}

function trimmedSpan(text: string, start: number, end: number): Span {
  let e = end;
  while (e > start && /\s/.test(text[e - 1])) e--;
  return { start, end: e };
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

export function parseYaml(text: string, file: string): ParsedConversation {
  const doc = YAML.parseDocument(text, { version: '1.2', schema: 'core', prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const pos = error.linePos?.[0];
    const reason = error.code === 'MULTIPLE_DOCS' ? 'the file holds several YAML documents (separated by ---); expected one list of messages' : firstLine(error.message);
    throw new ConversationFileError(file, `invalid YAML: ${reason}`, pos ? { line: pos.line, column: pos.col } : undefined);
  }
  const { shape, seq } = findList(doc.contents, file, text);
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT });
  } catch (e) {
    const reason = /alias/i.test((e as Error).message)
      ? `YAML aliases expand too far (limit ${YAML_MAX_ALIAS_COUNT}); refusing a possible alias bomb`
      : `invalid YAML: ${firstLine((e as Error).message)}`;
    throw new ConversationFileError(file, reason);
  }
  const list = shape === 'list' ? (root as unknown[]) : ((root as Record<string, unknown>)[LIST_KEY[shape]] as unknown[]);
  const starts = seq.items.map((item) => (item as Node).range?.[0] ?? 0);
  const messages = validateMessages(list, file, text, starts);
  const elements = seq.flow ? [] : seq.items.map((item) => trimmedSpan(text, (item as Node).range![0], (item as Node).range![1]));
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
  };
  return { file, format: 'yaml', shape, messages, root: shape === 'list' ? undefined : (root as Record<string, unknown>), baseline };
}

function escapeNonAsciiYaml(s: string): string {
  return s.replace(/[\u{80}-\u{10ffff}]/gu, (c) => {
    const cp = c.codePointAt(0)!;
    if (cp <= 0xff) return '\\x' + cp.toString(16).toUpperCase().padStart(2, '0');
    if (cp <= 0xffff) return '\\u' + cp.toString(16).toUpperCase().padStart(4, '0');
    return '\\U' + cp.toString(16).toUpperCase().padStart(8, '0');
  });
}

/** Plain scalars that the YAML 1.2 core schema (which this tool reads with) resolves to something else. */
const CORE_NON_STRING = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/**
 * YAML text of a value, laid out like PyYAML (4-space indent) and read back by PyYAML as the same types:
 * it is written with the YAML 1.1 schema, so strings like timestamps, yes/no and on/off are quoted.
 */
export function stringifyYaml(value: unknown, escapeNonAscii = false): string {
  const doc = new YAML.Document(value, { version: '1.1' });
  // The 1.1 schema quotes what PyYAML would misread; strings that 1.2 would misread (0o17) are quoted too.
  YAML.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      // With escaping on, every string holding non-ASCII goes double-quoted so its characters can be escaped.
      if (escapeNonAscii && /[\u0080-\uffff]/.test(node.value)) node.type = 'QUOTE_DOUBLE';
      else if (CORE_NON_STRING.test(node.value)) node.type = 'QUOTE_SINGLE';
    },
  });
  const out = doc.toString({ indent: PY_INDENT, singleQuote: true, lineWidth: 80 });
  return escapeNonAscii ? escapeNonAsciiYaml(out) : out;
}

/** One list item's text (without its dash), with continuation lines indented to `column`. */
function itemText(message: Message, column: number, escape: boolean): string {
  const body = stringifyYaml(message, escape).replace(/\n$/, '');
  return body
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : ' '.repeat(column) + line))
    .join('\n');
}

/** An item's own text parsed alone; an item that uses an anchor defined elsewhere does not, and is rewritten. */
function parseItem(itemText: string, column: number): unknown {
  const pad = ' '.repeat(column);
  const alone = itemText
    .split('\n')
    .map((line, i) => (i > 0 && line.startsWith(pad) ? line.slice(column) : line))
    .join('\n');
  try {
    return YAML.parse(alone, { version: '1.2', schema: 'core', maxAliasCount: YAML_MAX_ALIAS_COUNT }) as unknown;
  } catch {
    return undefined;
  }
}

export interface YamlWriteTarget {
  shape: FileShape;
  root?: Record<string, unknown>;
  baseline?: Baseline;
}

function freshList(messages: readonly Message[], escape: boolean): string {
  if (messages.length === 0) return '[]\n';
  return messages.map((m) => '-   ' + itemText(m, PY_INDENT, escape)).join('\n') + '\n';
}

export function serializeYaml(messages: readonly Message[], target: YamlWriteTarget): string {
  const { shape, baseline } = target;
  const usable = baseline && baseline.format === 'yaml' && baseline.shape === shape ? baseline : undefined;
  const escape = usable?.jsonStyle.escapeNonAscii ?? false;
  if (usable && usable.elements.length > 0 && messages.length > 0) {
    const { text, elements, separator, column } = usable;
    const body = messages
      .map((m) => {
        const k = usable.origin.get(m);
        if (k !== undefined && elements[k]) {
          const originalText = text.slice(elements[k].start, elements[k].end);
          const original = parseItem(originalText, column);
          if (isPlainObject(original) && deepEqual(original, m) && Object.keys(original).join() === Object.keys(m).join()) {
            return originalText;
          }
        }
        return itemText(m, column, escape);
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
  try {
    const root = YAML.parse(text, { version: '1.2', schema: 'core', maxAliasCount: YAML_MAX_ALIAS_COUNT }) as unknown;
    const list = shape === 'list' ? root : (root as Record<string, unknown>)[LIST_KEY[shape]];
    return Array.isArray(list) ? list : undefined;
  } catch {
    return undefined;
  }
}
