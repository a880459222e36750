import type { ParseError } from 'jsonc-parser';
import { lazyModule } from '../../util/lazy-module.js';

// Only a line that does not parse needs it (for the error's position).
const jsonc = lazyModule<typeof import('jsonc-parser')>('jsonc-parser');
import { deepEqual, lineage } from '../../message.js';
import { ConversationFileError, TooBigError } from '../errors.js';
import { MAX_RECORD_BYTES, sizeText } from '../../limits.js';
import { jsonErrorText } from '../json.js';
import { NEW_JSON_STYLE, stringifyJson } from '../json-writer.js';
import { MAX_NESTING_DEPTH, type JsonStyle } from '../types.js';
import { nestsDeeperThan } from '../validate.js';
import { rewriteJsonValue } from './json-edit.js';
import { objectMemberSpans } from '../json-spans.js';
import { hasUnicodeEscape, isAscii, lineString, type Utf8Text } from './utf8-text.js';

/** One line of a JSONL file: where its text is, and its value (undefined for a blank line). */
export interface JsonlLine {
  start: number;
  end: number;
  /** The line's own terminator ('' for a last line without one): mixed files keep theirs. */
  eol: string;
  value: unknown;
}

export interface JsonlBaseline {
  lines: JsonlLine[];
  newline: '\n' | '\r\n';
  /** Which object came from which line. */
  origin: WeakMap<object, number>;
  style: JsonStyle;
  /** The line number of a last line still being written (no newline yet, not JSON yet), kept as text. */
  partialTail?: number;
}

const COMPACT: JsonStyle = { ...NEW_JSON_STYLE, indent: null, keySep: ':', itemSep: ',' };

/** The separators the file's lines use (Python's json.dumps writes ", " and ": "; others none), from its first object of several keys. */
function lineStyle(line: string | undefined, escapes: () => boolean): JsonStyle {
  if (line === undefined) return COMPACT;
  const members = objectMemberSpans(line, line.search(/\S/));
  if (members.length < 2) return COMPACT;
  return {
    ...COMPACT,
    keySep: line.slice(members[0].keySpan.end, members[0].value.start),
    itemSep: line.slice(members[0].value.end, members[1].keySpan.start),
    escapeNonAscii: escapes(),
  };
}

/** A line as read: its text without its terminator, where it is in the text, and its terminator. */
interface RawLine {
  body: string;
  start: number;
  end: number;
  eol: string;
  /** Its length in bytes, where known without measuring. */
  bytes?: number;
}

/** The lines of a text from `shift` on. */
function textLines(text: string, shift: number): () => RawLine | undefined {
  let at = 0;
  return () => {
    if (at >= text.length) return undefined;
    let nl = text.indexOf('\n', at);
    if (nl === -1) nl = text.length;
    const end = nl > at && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
    const line = { body: text.slice(at, end), start: at + shift, end: end + shift, eol: text.slice(end, Math.min(nl + 1, text.length)) };
    at = nl + 1;
    return line;
  };
}

/** The same lines read from the text's bytes, each decoded alone: positions are the whole text's, in UTF-16 units. */
function byteLines(bytes: Buffer): () => RawLine | undefined {
  let at = 0;
  let chars = 0;
  return () => {
    if (at >= bytes.length) return undefined;
    let nl = bytes.indexOf(0x0a, at);
    if (nl === -1) nl = bytes.length;
    // A byte of a multi-byte character is never a CR or LF: the lines split where the text's do.
    const end = nl > at && bytes[nl - 1] === 0x0d ? nl - 1 : nl;
    const body = lineString(bytes, at, end);
    const eol = bytes.toString('latin1', end, Math.min(nl + 1, bytes.length));
    const line = { body, start: chars, end: chars + body.length, eol, bytes: end - at };
    chars += body.length + eol.length;
    at = nl + 1;
    return line;
  };
}

/**
 * Splits and parses JSON Lines; a bad line throws with its line and column. Blank lines are kept as such.
 * `after`: `text` is what follows the first `keep` lines of `before` (an append), at offset `shift` of the
 * whole text: its lines are numbered and placed after them, their objects noted in `before`'s origin map.
 * Given as bytes (a whole file), each line is decoded alone and the same baseline comes out.
 */
export function parseJsonl(text: string | Utf8Text, file: string, after?: { shift: number; before: JsonlBaseline; keep: number }): JsonlBaseline {
  const lines: JsonlLine[] = after ? after.before.lines.slice(0, after.keep) : [];
  const whole = typeof text === 'string' ? text : undefined;
  const bytes = typeof text === 'string' ? undefined : text.bytes;
  const newline = after ? after.before.newline : (whole !== undefined ? whole.includes('\r\n') : bytes!.includes('\r\n')) ? '\r\n' : '\n';
  const origin = after ? after.before.origin : new WeakMap<object, number>();
  const next = whole !== undefined ? textLines(whole, after?.shift ?? 0) : byteLines(bytes!);
  let n = after ? after.keep : 0;
  let partialTail: number | undefined;
  let styleLine: string | undefined;
  for (let line = next(); line; line = next()) {
    const { body, start, end, eol } = line;
    n++;
    // A character is one to three bytes: only a line this long can be past the cap, and is measured.
    if (end - start > MAX_RECORD_BYTES / 3) {
      const size = line.bytes ?? Buffer.byteLength(body);
      if (size > MAX_RECORD_BYTES) throw new TooBigError(file, `line ${n} is ${sizeText(size)} long, more than the ${sizeText(MAX_RECORD_BYTES)} a record is read to here (one this long costs gigabytes to show, count and search): the file is not read`, MAX_RECORD_BYTES, { line: n, column: 1 });
    }
    let value: unknown;
    if (/\S/.test(body)) {
      try {
        value = JSON.parse(body);
      } catch (e) {
        // A last line without its newline is one an agent is still writing: kept as it is (a save writes it
        // back untouched), not read, not an error.
        if (!eol.endsWith('\n')) {
          partialTail = n;
          lines.push({ start, end, eol: '', value: undefined });
          break;
        }
        const errors: ParseError[] = [];
        jsonc().parse(body, errors, { disallowComments: true, allowTrailingComma: false });
        const first = errors[0];
        const column = (first?.offset ?? 0) + 1;
        const atEnd = first !== undefined && first.offset >= body.trimEnd().length;
        const reason = first ? (atEnd ? 'the line ends before its JSON does' : jsonErrorText(jsonc().printParseErrorCode(first.error))) : (e as Error).message;
        throw new ConversationFileError(file, `invalid JSON on line ${n}: ${reason}`, { line: n, column });
      }
      if (nestsDeeperThan(value, MAX_NESTING_DEPTH)) throw new ConversationFileError(file, `line ${n} is nested more than ${MAX_NESTING_DEPTH} levels deep; refusing to read it`, { line: n, column: 1 });
      if (value !== null && typeof value === 'object') {
        origin.set(value as object, lines.length);
        if (styleLine === undefined && !Array.isArray(value) && Object.keys(value).length > 1) styleLine = body;
      }
    }
    lines.push({ start, end, eol, value });
  }
  const style = after
    ? after.before.style
    : lineStyle(styleLine, () => (whole !== undefined ? !/[\u0080-\uffff]/.test(whole) && /\\u[0-9a-fA-F]{4}/.test(whole) : isAscii(bytes!) && hasUnicodeEscape(bytes!)),
      );
  return { lines, newline, origin, style, ...(partialTail !== undefined ? { partialTail } : {}) };
}

/** How many of a baseline's lines an append keeps: all but a last line without its terminator, which is read again. */
export function keptLines(before: JsonlBaseline): number {
  const n = before.lines.length;
  return n > 0 && before.lines[n - 1].eol === '' ? n - 1 : n;
}

/**
 * The baseline of the text once `added` follows `oldText`: only the added lines are read (and the last line
 * before them again when it had no line break yet: an agent may still have been writing it). The whole text is
 * never searched, so an append to a long file costs what it added.
 */
export function appendJsonl(before: JsonlBaseline, oldText: string, added: string, file: string): JsonlBaseline {
  const keep = keptLines(before);
  const shift = keep < before.lines.length ? before.lines[keep].start : oldText.length;
  return parseJsonl(oldText.slice(shift) + added, file, { shift, before, keep });
}

function originLine(baseline: JsonlBaseline, record: unknown): number | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  for (const m of lineage(record)) {
    const k = baseline.origin.get(m);
    if (k !== undefined) return k;
  }
  return undefined;
}

/** A line's text for a record: the original line when unchanged, a minimal rewrite when edited, compact JSON when new. */
function lineText(text: string, baseline: JsonlBaseline, record: unknown, at?: number): string {
  const k = at ?? originLine(baseline, record);
  if (k === undefined) return stringifyJson(record, baseline.style, 0);
  const line = baseline.lines[k];
  const lead = text.slice(line.start, line.end).search(/\S/);
  const start = line.start + Math.max(0, lead);
  const body = text.slice(start, line.end).trimEnd();
  return text.slice(line.start, start) + rewriteJsonValue(text, { start, end: start + body.length }, line.value, record, baseline.style, 0);
}

/** One line of the file a rewrite writes: where it came from (a line of the baseline, or new) and its value. */
export interface JsonlOutLine {
  /** The baseline line it was read from; undefined for a record that is new. */
  line?: number;
  value: unknown;
  /** Whether it holds a record the caller manages (a message), not a line kept as it was. */
  record: boolean;
  /** Its own terminator (undefined for a new line: it gets the file's). */
  eol: string | undefined;
}

/**
 * The lines of the file once its record lines are replaced. `slots` says which lines hold the records a caller
 * manages (message records); every other line is kept. Records that came from a line stay on their line (an
 * edit is a one-line diff, a delete removes its line); a new record goes after the line of the record before
 * it. When surviving records were reordered, the managed lines are refilled in the new order.
 */
export function planJsonl(baseline: JsonlBaseline, slots: readonly number[], records: readonly unknown[]): JsonlOutLine[] {
  const slotSet = new Set(slots);
  const recordAt = new Map<number, unknown>();
  const after = new Map<number, unknown[]>();
  const before: unknown[] = [];
  let previous = -1;
  let reordered = false;
  // Records without an identity (read again after a save, say) are matched to an unclaimed line that holds
  // exactly their value, nearby and in order: then they keep that line's bytes.
  const slotOrder = slots.slice().sort((a, b) => a - b);
  let cursor = 0;
  const byValue = (r: unknown): number | undefined => {
    for (let x = cursor; x < Math.min(slotOrder.length, cursor + 64); x++) {
      const line = slotOrder[x];
      if (!recordAt.has(line) && deepEqual(baseline.lines[line].value, r)) return line;
    }
    return undefined;
  };
  const lineOfRecord = new Map<unknown, number>();
  for (const r of records) {
    const k = originLine(baseline, r) ?? byValue(r);
    if (k !== undefined && slotSet.has(k) && !recordAt.has(k)) {
      cursor = Math.max(cursor, slotOrder.indexOf(k) + 1);
      if (k < previous) reordered = true;
      recordAt.set(k, r);
      lineOfRecord.set(r, k);
      previous = k;
      continue;
    }
    if (previous === -1) before.push(r);
    else {
      const list = after.get(previous);
      if (list) list.push(r);
      else after.set(previous, [r]);
    }
  }
  const out: JsonlOutLine[] = [];
  const other = (line: JsonlLine, i: number) => out.push({ line: i, value: line.value, record: false, eol: line.eol });
  const fresh = (r: unknown) => out.push({ value: r, record: true, eol: undefined });
  if (reordered) {
    // Refill the managed lines in the records' order; lines that are not records stay where they were. A
    // record keeps the identity of the line it came from (its bytes are rewritten minimally where it lands).
    let next = 0;
    baseline.lines.forEach((line, i) => {
      if (!slotSet.has(i)) other(line, i);
      else if (next < records.length) {
        const r = records[next++];
        out.push({ line: lineOfRecord.get(r), value: r, record: true, eol: line.eol });
      }
    });
    while (next < records.length) fresh(records[next++]);
  } else {
    const firstSlot = slots.length > 0 ? slots[0] : baseline.lines.length;
    baseline.lines.forEach((line, i) => {
      if (i === firstSlot) for (const r of before) fresh(r);
      if (!slotSet.has(i)) other(line, i);
      else if (recordAt.has(i)) out.push({ line: i, value: recordAt.get(i), record: true, eol: line.eol });
      for (const r of after.get(i) ?? []) fresh(r);
    });
    if (firstSlot >= baseline.lines.length) for (const r of before) fresh(r);
  }
  return out;
}

/**
 * The text of planned lines: a line whose value is the one read keeps its bytes, a changed one is rewritten
 * minimally from its own text, a new one is compact JSON in the file's style. Every line keeps its own
 * terminator (a new one gets the file's); the last line ends as the file did.
 */
export function renderJsonl(text: string, baseline: JsonlBaseline, out: readonly JsonlOutLine[]): string {
  const fileEnd = baseline.lines.length > 0 ? baseline.lines[baseline.lines.length - 1].eol : baseline.newline;
  let result = '';
  out.forEach((entry, i) => {
    const last = i === out.length - 1;
    let body: string;
    if (entry.line === undefined) body = stringifyJson(entry.value, baseline.style, 0);
    else {
      const line = baseline.lines[entry.line];
      body = entry.value === line.value && !entry.record ? text.slice(line.start, line.end) : lineText(text, baseline, entry.value, entry.line);
    }
    result += body + (last ? fileEnd : entry.eol === undefined || entry.eol === '' ? baseline.newline : entry.eol);
  });
  return result;
}

/** The file with its record lines replaced (see planJsonl); every other line is kept byte for byte. */
export function rewriteJsonl(text: string, baseline: JsonlBaseline, slots: readonly number[], records: readonly unknown[]): string {
  return renderJsonl(text, baseline, planJsonl(baseline, slots, records));
}
