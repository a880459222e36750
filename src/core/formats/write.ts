import { ValueError } from '../errors.js';
import { deepEqual, isPlainObject, type Message } from '../message.js';
import { writeFileAtomicSync } from '../storage/atomic-write.js';
import { detectStyle, parseJsonValues, serializeJson, spliceJsonList, type JsonSplice } from './json.js';
import { parseConversationText } from './read.js';
import { lazyBaseline, LIST_KEY, MAX_NESTING_DEPTH, type Baseline, type FileFormat, type FileShape, type ParsedConversation } from './types.js';
import { nestsDeeperThan } from './validate.js';
import { parseYamlValues, serializeYaml } from './yaml.js';

export interface SerializeTarget {
  format: FileFormat;
  shape?: FileShape;
  root?: Record<string, unknown>;
  /** The file as it was read: unchanged messages keep their exact text, new ones follow its style. */
  baseline?: Baseline;
  /** See WriteOptions.immutable: messages are never changed in place. */
  immutable?: boolean;
}

/** The message was read from element k of the file and, never changed in place, is still what it says. */
function verbatim(message: Message, target: SerializeTarget): boolean {
  // Only the JSON writer copies such a message's text as it is.
  return target.immutable === true && target.format === 'json' && target.baseline?.format === 'json' && target.baseline.origin.get(message) !== undefined;
}

/** Text that would not read back as the messages it was made from: it is never written. */
export class UnsafeWriteError extends ValueError {
  constructor(reason: string) {
    super(`not written: ${reason}. This is a bug in the writer; nothing was changed on disk.`);
    this.name = 'UnsafeWriteError';
  }
}

/** Nothing changed: the same objects, in the same order, equal to what the file says. */
function unchanged(messages: readonly Message[], target: SerializeTarget): boolean {
  const b = target.baseline;
  if (!b || b.format !== target.format || b.shape !== (target.shape ?? 'list')) return false;
  for (let i = 0; i < messages.length; i++) if (b.origin.get(messages[i]) !== i) return false;
  if (target.immutable && b.format === 'json') return messages.length === b.elements.length;
  // The same objects may have been changed in place: compare with the file's own values.
  const again = (b.format === 'json' ? parseJsonValues : parseYamlValues)(b.text, b.shape);
  return again !== undefined && again.length === messages.length && again.every((m, i) => deepEqual(m, messages[i]) && Object.keys(m as object).join() === Object.keys(messages[i]).join());
}

/** The data a value stands for once written: keys holding undefined are absent, as every writer leaves them out. */
function sameData(read: unknown, written: unknown): boolean {
  if (deepEqual(read, written)) return true;
  if (isPlainObject(written) && isPlainObject(read)) {
    const keys = Object.keys(written).filter((k) => written[k] !== undefined);
    return keys.length === Object.keys(read).length && keys.every((k) => Object.prototype.hasOwnProperty.call(read, k) && sameData(read[k], written[k]));
  }
  if (Array.isArray(written) && Array.isArray(read)) return read.length === written.length && read.every((v, i) => sameData(v, written[i]));
  // JSON has no NaN or Infinity: they are written as null.
  return typeof written === 'number' && !Number.isFinite(written) && read === null;
}

let lastVerified: { text: string; parsed: ParsedConversation } | undefined;

/**
 * Reads `text` back and checks it holds exactly `messages` (and the wrapper's other keys): a writer bug can
 * then cost a refused save, never a changed byte of the user's data.
 */
function verify(text: string, messages: readonly Message[], target: SerializeTarget, shape: FileShape): void {
  let parsed: ParsedConversation;
  try {
    parsed = parseConversationText(text, '(output)', target.format);
  } catch (e) {
    throw new UnsafeWriteError(`the ${target.format} written would not parse (${(e as Error).message})`);
  }
  if (parsed.shape !== shape) throw new UnsafeWriteError(`the ${target.format} written has the shape ${parsed.shape}, not ${shape}`);
  if (parsed.messages.length !== messages.length) throw new UnsafeWriteError(`the ${target.format} written holds ${parsed.messages.length} messages, not ${messages.length}`);
  for (let i = 0; i < messages.length; i++) {
    if (verbatim(messages[i], target)) continue;
    if (!sameData(parsed.messages[i], messages[i])) throw new UnsafeWriteError(`message ${i} would read back differently`);
  }
  if (shape !== 'list' && target.root) {
    for (const key of Object.keys(target.root)) {
      if (key !== LIST_KEY[shape] && !sameData(parsed.root?.[key], target.root[key])) throw new UnsafeWriteError(`"${key}" would read back differently`);
    }
  }
  lastVerified = { text, parsed };
}

/**
 * The check of a spliced JSON list: the text around the list and between its elements is the file's own, the
 * copied elements are the file's own text of the values they stand for, so what remains to read back is the
 * elements written anew and the wrapper's other keys. The baseline of the next save comes from the splice.
 */
function verifySplice(text: string, spliced: JsonSplice, messages: readonly Message[], target: SerializeTarget, shape: FileShape): void {
  const b = target.baseline!;
  for (const i of spliced.fresh) {
    const span = spliced.elements[i];
    let value: unknown;
    try {
      value = JSON.parse(spliced.text.slice(span.start, span.end));
    } catch (e) {
      throw new UnsafeWriteError(`message ${i} as written would not parse (${(e as Error).message})`);
    }
    if (!isPlainObject(value) || typeof value.role !== 'string' || nestsDeeperThan(value, MAX_NESTING_DEPTH - 2)) throw new UnsafeWriteError(`message ${i} as written would not read as a message`);
    if (!sameData(value, messages[i])) throw new UnsafeWriteError(`message ${i} would read back differently`);
  }
  let root: Record<string, unknown> | undefined;
  if (shape !== 'list') {
    // The wrapper with its list left out is small: read back whole.
    const shell = JSON.parse(b.text.slice(0, b.elements[0].start) + b.text.slice(b.elements[b.elements.length - 1].end)) as Record<string, unknown>;
    for (const key of Object.keys(target.root ?? {})) {
      if (key !== LIST_KEY[shape] && !sameData(shell[key], target.root![key])) throw new UnsafeWriteError(`"${key}" would read back differently`);
    }
    root = target.root;
  }
  // The style a read of the new text finds (an edit can change it: a first escape, a first non-ASCII
  // character), worked out when the next save needs it.
  const body = spliced.text;
  const elements = spliced.elements;
  const listOpen = body.lastIndexOf('[', elements[0].start);
  // The depth alone, not the baseline it came from: a closure over that would keep every earlier save's text.
  const depth = b.depth;
  const baseline = lazyBaseline({ format: 'json', shape, text: body, depth, column: 0 }, messages, () => {
    const jsonStyle = detectStyle(body, elements, depth, listOpen);
    const separator = elements.length > 1 ? body.slice(elements[0].end, elements[1].start) : jsonStyle.indent === null ? jsonStyle.itemSep : ',' + jsonStyle.newline + jsonStyle.indent.repeat(depth);
    return { elements, jsonStyle, separator };
  });
  // Lengths, not contents: comparing two 100 MB strings costs what a save should not.
  if (text.length !== spliced.text.length) baseline.bom = true;
  lastVerified = { text: spliced.text, parsed: { file: '(output)', format: 'json', shape, messages: messages.slice(), root, baseline } };
}

export function serializeConversation(messages: readonly Message[], target: SerializeTarget): string {
  const shape = target.shape ?? 'list';
  const t = { shape, root: target.root, baseline: target.baseline, immutable: target.immutable };
  const bom = target.baseline?.bom && target.baseline.format === target.format ? '\ufeff' : '';
  if (unchanged(messages, target)) return bom + target.baseline!.text;
  // Records never changed in place, between the file's own text: only what was written anew is read back.
  const spliced = target.format === 'json' && target.immutable ? spliceJsonList(messages, t) : undefined;
  if (spliced) {
    const text = bom + spliced.text;
    verifySplice(text, spliced, messages, target, shape);
    return text;
  }
  const text = bom + (target.format === 'json' ? serializeJson(messages, t) : serializeYaml(messages, t));
  verify(text, messages, target, shape);
  return text;
}

export function writeConversationFile(path: string, messages: readonly Message[], target: SerializeTarget): string {
  const text = serializeConversation(messages, target);
  writeFileAtomicSync(path, text);
  return text;
}

/**
 * After `text` was written to `file`, it becomes the baseline for the next save: parsed once (the parse that
 * verified it is reused), with the live message objects (which are what was written, in order) mapped onto
 * its elements.
 */
export function baselineAfterWrite(text: string, file: string, format: FileFormat, messages: Message[]): ParsedConversation {
  const reused = lastVerified && lastVerified.text === text && lastVerified.parsed.format === format ? lastVerified.parsed : undefined;
  const parsed = reused ? { ...reused, file } : parseConversationText(text, file, format);
  lastVerified = undefined;
  parsed.baseline.origin = new WeakMap(messages.map((m, i) => [m, i]));
  return { ...parsed, messages };
}
