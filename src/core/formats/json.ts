import type { ParseError } from 'jsonc-parser';
import { lazyModule } from '../util/lazy-module.js';

// Only a file that does not parse needs it (for the error's position).
const jsonc = lazyModule<typeof import('jsonc-parser')>('jsonc-parser');
import type { Message } from '../message.js';
import { ConversationFileError, positionAt } from './errors.js';
import { arrayElementSpans, firstNonWs, objectMemberSpans, type Span } from './json-spans.js';
import { NEW_JSON_STYLE, stringifyJson } from './json-writer.js';
import { rewriteJsonValue } from './syntax/json-edit.js';
import { lazyBaseline, LIST_KEY, originIndex, type Baseline, type FileShape, type JsonStyle, type ParsedConversation } from './types.js';
import { detectShape, validateMessages } from './validate.js';

const ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':'",
  CommaExpected: "expected ',' or a closing bracket",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unexpected end of number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

/** A parser error code in words ("UnexpectedEndOfString" → "unterminated string"). */
export function jsonErrorText(code: string): string {
  return ERROR_TEXT[code] ?? code;
}

/** JSON.parse does not say where it failed on every Node version; a tolerant parser finds the first error. */
export function syntaxError(text: string, file: string, fallback: string): ConversationFileError {
  const errors: ParseError[] = [];
  jsonc().parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return new ConversationFileError(file, `invalid JSON: ${fallback}`, positionAt(text, text.length));
  const code = jsonc().printParseErrorCode(first.error);
  const atEnd = first.offset >= text.trimEnd().length;
  const reason = atEnd ? 'unexpected end of file (the JSON is incomplete)' : (ERROR_TEXT[code] ?? code);
  return new ConversationFileError(file, `invalid JSON: ${reason}`, positionAt(text, first.offset));
}

export function detectStyle(text: string, elements: Span[], depth: number, listOpen: number): JsonStyle {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const escapeNonAscii = !/[\u0080-\uffff]/.test(text) && /\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])[0-9a-fA-F]{2}/.test(text);
  // The first line break after the list's '[' tells the indent of its elements.
  const probe = elements.length > 0 ? elements[0].start : firstNonWs(text, listOpen + 1);
  const between = text.slice(listOpen + 1, probe);
  const nl = between.lastIndexOf('\n');
  let indent: string | null = null;
  if (nl !== -1) {
    const lead = between.slice(nl + 1);
    indent = lead.length > 0 && depth > 0 ? lead.slice(0, Math.max(1, Math.floor(lead.length / depth))) : NEW_JSON_STYLE.indent;
  } else if (elements.length === 0) {
    indent = NEW_JSON_STYLE.indent;
  }
  let keySep = ': ';
  let itemSep = ', ';
  if (elements.length > 0 && text.charCodeAt(elements[0].start) === 0x7b) {
    const members = objectMemberSpans(text, elements[0].start);
    if (members.length > 0) keySep = text.slice(members[0].keySpan.end, members[0].value.start);
    if (members.length > 1) itemSep = text.slice(members[0].value.end, members[1].keySpan.start);
  }
  if (indent !== null) itemSep = ', ';
  return { indent, newline, keySep, itemSep, escapeNonAscii };
}

/** `parsed`: the text's value when the caller parsed it already (a 100 MB file is parsed once). */
export function parseJson(text: string, file: string, parsed?: { value: unknown }): ParsedConversation {
  let root: unknown;
  if (parsed) root = parsed.value;
  else {
    try {
      root = JSON.parse(text);
    } catch (e) {
      throw syntaxError(text, file, (e as Error).message);
    }
  }
  const rootStart = firstNonWs(text);
  const shape = detectShape(root, file, text, rootStart);
  let listOpen = rootStart;
  let list: unknown[];
  if (shape === 'list') {
    list = root as unknown[];
  } else {
    const key = LIST_KEY[shape];
    list = (root as Record<string, unknown>)[key] as unknown[];
    // Duplicate keys: JSON.parse keeps the last, so take the last member of that name too.
    const members = objectMemberSpans(text, rootStart).filter((m) => m.key === key);
    listOpen = members[members.length - 1].value.start;
  }
  // Element spans and style are needed to save, to show raw text or to point at a bad message, not to
  // open: they are computed on first use, which keeps opening a big file close to a bare JSON.parse.
  let spans: Span[] | undefined;
  const elementSpans = () => (spans ??= arrayElementSpans(text, listOpen).elements);
  const messages = validateMessages(list, file, text, () => elementSpans().map((e) => e.start));
  const depth = shape === 'list' ? 1 : 2;
  const baseline = lazyBaseline({ format: 'json', shape, text, depth, column: 0 }, messages.slice(), () => {
    const elements = elementSpans();
    const jsonStyle = detectStyle(text, elements, depth, listOpen);
    const separator =
      elements.length > 1
        ? text.slice(elements[0].end, elements[1].start)
        : jsonStyle.indent === null
          ? jsonStyle.itemSep
          : ',' + jsonStyle.newline + jsonStyle.indent.repeat(depth);
    return { elements, jsonStyle, separator };
  });
  return { file, format: 'json', shape, messages, root: shape === 'list' ? undefined : (root as Record<string, unknown>), baseline };
}

/** The text of one message at its place in the file: original where unchanged, minimal rewrite otherwise. */
function elementText(message: Message, baseline: Baseline | undefined, style: JsonStyle, depth: number, immutable: boolean): string {
  // A message never changed in place, read from element k, is that element's text.
  const own = immutable && baseline ? baseline.origin.get(message) : undefined;
  if (baseline && own !== undefined && baseline.elements[own]) return baseline.text.slice(baseline.elements[own].start, baseline.elements[own].end);
  const k = baseline ? originIndex(baseline, message) : undefined;
  if (baseline && k !== undefined && baseline.elements[k]) {
    const span = baseline.elements[k];
    const original = JSON.parse(baseline.text.slice(span.start, span.end)) as unknown;
    return rewriteJsonValue(baseline.text, span, original, message, style, depth);
  }
  return stringifyJson(message, style, depth);
}


export interface JsonWriteTarget {
  shape: FileShape;
  root?: Record<string, unknown>;
  baseline?: Baseline;
  immutable?: boolean;
}

/** Serializes messages as JSON; with a baseline of the same shape, the file's own text and style are kept. */
/** A file's list written into its own text: where each element now is, and which were written anew. */
export interface JsonSplice {
  text: string;
  elements: Span[];
  /** Elements not copied verbatim from the file's text (written or rewritten). */
  fresh: number[];
}

/** The messages in place of the baseline's elements, between its own text before and after them; undefined when it has none to keep. */
export function spliceJsonList(messages: readonly Message[], target: JsonWriteTarget): JsonSplice | undefined {
  const { shape, baseline } = target;
  if (!baseline || baseline.format !== 'json' || baseline.shape !== shape || baseline.elements.length === 0 || messages.length === 0) return undefined;
  const { text, elements, separator, jsonStyle } = baseline;
  const depth = shape === 'list' ? 1 : 2;
  const head = text.slice(0, elements[0].start);
  const parts: string[] = [head];
  const spans: Span[] = [];
  const fresh: number[] = [];
  let at = head.length;
  messages.forEach((m, i) => {
    if (i > 0) {
      parts.push(separator);
      at += separator.length;
    }
    const own = target.immutable ? baseline.origin.get(m) : undefined;
    const piece = own !== undefined && elements[own] ? text.slice(elements[own].start, elements[own].end) : elementText(m, baseline, jsonStyle, depth, false);
    if (own === undefined || !elements[own]) fresh.push(i);
    parts.push(piece);
    spans.push({ start: at, end: at + piece.length });
    at += piece.length;
  });
  parts.push(text.slice(elements[elements.length - 1].end));
  return { text: parts.join(''), elements: spans, fresh };
}

export function serializeJson(messages: readonly Message[], target: JsonWriteTarget): string {
  const { shape, baseline } = target;
  const usable = baseline && baseline.format === 'json' && baseline.shape === shape ? baseline : undefined;
  const style = usable?.jsonStyle ?? (baseline?.format === 'json' ? { ...baseline.jsonStyle } : NEW_JSON_STYLE);
  const spliced = spliceJsonList(messages, target);
  if (spliced) return spliced.text;
  const trailing = usable ? (/\r?\n$/.exec(usable.text)?.[0] ?? '') : style.newline;
  if (shape === 'list') return stringifyJson(messages, style, 0) + trailing;
  const key = LIST_KEY[shape];
  const root: Record<string, unknown> = { ...(target.root ?? { metadata: {} }) };
  root[key] = messages;
  return stringifyJson(root, style, 0) + trailing;
}

/** The list of a JSON file's text as plain values (for checking that nothing changed). */
export function parseJsonValues(text: string, shape: FileShape): unknown[] | undefined {
  try {
    const root = JSON.parse(text) as unknown;
    const list = shape === 'list' ? root : (root as Record<string, unknown>)[LIST_KEY[shape]];
    return Array.isArray(list) ? list : undefined;
  } catch {
    return undefined;
  }
}
