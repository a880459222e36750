import type { Codec } from '../formats/codec.js';
import { parseDocumentBytes } from '../formats/document-file.js';
import { decodeText, readFileBytes } from '../formats/read.js';
import { candidates } from '../formats/registry.js';
import { DEFAULT_MAX_FILE_BYTES } from '../formats/types.js';
import { withDayAndCost } from './calls.js';
import { callOf, factsOf, lineStartsOf, type CallFacts } from './facts.js';
import { isoTime } from './times.js';
import { lastAtOrBefore } from '../util/sorted.js';
import type { CatalogRead } from './read-file.js';

/**
 * The lines a listing reads from the top of a file, for its meta and its first prompt: a few, and more (as far
 * as a title looks, 40 records) only when those hold no prompt that titles it.
 */
const HEADS = [{ lines: 6, bytes: 16 * 1024 }, { lines: 40, bytes: 64 * 1024 }, { lines: 120, bytes: 256 * 1024 }];
/** And from its end, when it last moved: its last line that is not a long one (a tool's whole output, say). */
const TAIL_LINES = 4;
/** How many records a title looks through (titles.ts). */
const TITLE_RECORDS = 40;
const TAIL_BYTES = 16 * 1024;
const NEWLINE = Buffer.from('\n');

/** Where each line of `bytes` starts, but for an empty one after the last line break. */
function lineStarts(bytes: Uint8Array): number[] {
  const starts = lineStartsOf(bytes);
  if (starts.length > 1 && starts[starts.length - 1] === bytes.length) starts.pop();
  return starts;
}

function linesHolding(bytes: Buffer, starts: readonly number[], mark: Buffer, into: Set<number>): void {
  for (let at = bytes.indexOf(mark); at !== -1; ) {
    const line = lastAtOrBefore(starts, at);
    into.add(line);
    const next = starts[line + 1];
    if (next === undefined) break;
    at = bytes.indexOf(mark, next);
  }
}

/** Each line that starts with one of `heads`. */
function linesHeaded(bytes: Buffer, starts: readonly number[], heads: readonly Buffer[], into: Set<number>): void {
  for (let k = 0; k < starts.length; k++) {
    const at = starts[k];
    for (const h of heads) {
      let i = 0;
      while (i < h.length && bytes[at + i] === h[i]) i++;
      if (i === h.length) {
        into.add(k);
        break;
      }
    }
  }
}

/** Line `k` of `bytes`, without its line break. */
function lineBytesOf(bytes: Buffer, starts: readonly number[], k: number): Buffer {
  let stop = k + 1 < starts.length ? starts[k + 1] : bytes.length;
  while (stop > starts[k] && (bytes[stop - 1] === 0x0a || bytes[stop - 1] === 0x0d)) stop--;
  return bytes.subarray(starts[k], stop);
}

const marksOf = new WeakMap<Codec, { marks: Buffer[]; heads: Buffer[]; records: Buffer[] }>();
function marks(codec: Codec) {
  let m = marksOf.get(codec);
  if (!m) marksOf.set(codec, (m = { marks: (codec.listingMarks ?? []).map((s) => Buffer.from(s)), heads: (codec.listingHeads ?? []).map((s) => Buffer.from(s)), records: (codec.recordMarks ?? []).map((s) => Buffer.from(s)) }));
  return m;
}

/**
 * What the session list and the usage view need of a file, read from a few of its lines: its first lines (the
 * session's meta, its first prompt), every line holding one of its format's `listingMarks` (each call's usage;
 * an assistant line without its message's text, `slimLine`), every line headed by one of its `listingHeads` (the
 * file's own title, a compaction) and its last lines. The rest (message texts for search, threads) comes with
 * the whole read after. Each call's figures are those the whole read gives: its lines are the same lines, read by
 * the same codec. The message count and the calls' rows count the lines its `recordMarks` mark besides those
 * read, and are made exact by the whole read. Undefined for a file of a format that has no marks (or too big to
 * read whole, or that does not read this way): it is listed by the whole read alone.
 */
export function quickReadForCatalog(file: string, size: number): CatalogRead | undefined {
  if (size > DEFAULT_MAX_FILE_BYTES || size === 0) return undefined;
  try {
    const bytes = readFileBytes(file);
    const codec = candidates(file, bytes.subarray(0, 64 * 1024).toString('latin1'))[0];
    if (codec?.listingLine && !codec.listingMarks && codec.syntax === 'jsonl' && codec.capabilities.conversations === 'one') return slimRead(file, codec, bytes);
    if (!codec?.listingMarks || codec.syntax !== 'jsonl' || codec.capabilities.conversations !== 'one') return undefined;
    const m = marks(codec);
    const starts = lineStarts(bytes);
    const marked = new Set<number>();
    for (const mark of m.marks) linesHolding(bytes, starts, mark, marked);
    const always = new Set<number>(marked);
    linesHeaded(bytes, starts, m.heads, always);
    for (let k = starts.length - 1; k >= Math.max(0, starts.length - TAIL_LINES); k--) {
      if ((k + 1 < starts.length ? starts[k + 1] : bytes.length) - starts[k] > TAIL_BYTES) continue;
      always.add(k);
      break;
    }
    // The lines the ones read point at (a summary's leaf): the whole read looks at them to decide a title.
    const linked = new Set<number>();
    if (codec.listingLinks) for (const k of always) for (const link of codec.listingLinks(lineBytesOf(bytes, starts, k))) linesHolding(bytes, starts, Buffer.from(link), linked);
    const recordLines = new Set<number>();
    for (const mark of m.records) linesHolding(bytes, starts, mark, recordLines);
    const lineBytes = (k: number): Buffer => lineBytesOf(bytes, starts, k);
    const usage = usageOf(file, codec, [...marked].sort((a, b) => a - b), lineBytes);
    if (!usage) return undefined;
    for (const head of HEADS) {
      const lines = new Set<number>();
      for (const k of always) if (!marked.has(k)) lines.add(k);
      // Read as records even where their usage was read (a call's line): what they link to is decided from them.
      for (const k of linked) lines.add(k);
      // The head whole, its assistant lines too: which of its records are a side chain decides which prompt titles it.
      let headEnd = 0;
      for (; headEnd < Math.min(head.lines, starts.length) && starts[headEnd] < head.bytes; headEnd++) lines.add(headEnd);
      const found = readLines(file, codec, [...lines].sort((a, b) => a - b), lineBytes, recordLines, usage, starts.length, headEnd);
      if (!found) return undefined;
      const title = found.read.facts?.sessions[0]?.title;
      // A prompt titles it (and a head all side chain is not taken for a sub-agent's), or there is no more head
      // to read: else the first prompt may be further on.
      const settled = title !== undefined && !title.startsWith('/') && (!found.headSideOnly || found.headRecords >= TITLE_RECORDS);
      if (settled || headEnd >= starts.length || head === HEADS[HEADS.length - 1]) return found.read;
    }
    return undefined;
  } catch {
    // Read whole after: what cannot be read is said from there.
    return undefined;
  }
}

/** Lines shorter than this are read as they are: only a long one has a bulk worth leaving out. */
const SLIM_ABOVE = 1024;

/**
 * A file of a format whose usage is not on lines of its own (Codex), listed from its text with the bulk the list
 * needs none of left out of each long line (`listingLine`: a tool's output): the same records in the same places,
 * parsed by the same codec, so its sessions and calls are those the whole read gives. Undefined where little would
 * be left out (read whole instead).
 */
function slimRead(file: string, codec: Codec, bytes: Buffer): CatalogRead | undefined {
  const pieces: Buffer[] = [];
  let left = 0;
  for (let at = 0; at < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, at);
    const next = nl === -1 ? bytes.length : nl + 1;
    let end = nl === -1 ? bytes.length : nl;
    if (end > at && bytes[end - 1] === 0x0d) end--;
    const slim = end - at > SLIM_ABOVE ? codec.listingLine!(bytes.subarray(at, end)) : undefined;
    if (slim) {
      pieces.push(slim, bytes.subarray(end, next));
      left += end - at - slim.length;
    } else pieces.push(bytes.subarray(at, next));
    at = next;
  }
  if (left < bytes.length / 4) return undefined;
  const opened = parseDocumentBytes(Buffer.concat(pieces), file, codec.id);
  const facts = factsOf(file, opened, undefined, { noThreads: true });
  withDayAndCost(facts.calls);
  return { facts: { ...facts, messages: [] }, bytes: 0, partial: true };
}

interface Usage {
  /** Each call by its key, first seen first, its last line's figures (as factsOf keeps them). */
  calls: Map<string, { call: CallFacts; line: number }>;
  models: Set<string>;
  firstAt?: string;
  lastAt?: string;
  /** The lines read here that are records. */
  records: number[];
  /** All lines read here. */
  read: ReadonlySet<number>;
}

/**
 * The calls of the lines that can carry one, each line parsed on its own without its message's text: the
 * bulk of a session's lines are never decoded, and none is split and kept as a document would keep it.
 */
function usageOf(file: string, codec: Codec, lines: readonly number[], lineBytes: (k: number) => Buffer): Usage | undefined {
  const out: Usage = { calls: new Map(), models: new Set(), records: [], read: new Set(lines) };
  for (const k of lines) {
    const line = lineBytes(k);
    const slim = codec.slimLine?.(line);
    let value: unknown;
    try {
      value = JSON.parse(slim ?? decodeText(line, file));
    } catch {
      // A line that does not parse: the whole read says where.
      return undefined;
    }
    if (!codec.isListedRecord?.(value)) continue;
    out.records.push(k);
    const v = codec.view(value);
    const at = isoTime(v.timestamp);
    if (at) {
      if (out.firstAt === undefined || at < out.firstAt) out.firstAt = at;
      if (out.lastAt === undefined || at > out.lastAt) out.lastAt = at;
    }
    if (v.model) out.models.add(v.model);
    if (v.usage) {
      const call = callOf(0, 0, v, v.usage);
      if (call.model) out.models.add(call.model);
      // Kept where first seen (a Map keeps its place: the order factsOf lists calls in), with its last line's figures.
      out.calls.set(call.key, { call, line: k });
    }
  }
  return out;
}

/** The facts of a file from `lines` of it (sorted), with its message count and calls' rows from `recordLines`. */
function readLines(file: string, codec: Codec, lines: readonly number[], lineBytes: (k: number) => Buffer, recordLines: ReadonlySet<number>, usage: Usage, lineCount: number, headEnd: number): { read: CatalogRead; headSideOnly: boolean; headRecords: number } | undefined {
  if (lines.length === 0) return undefined;
  const pieces: Buffer[] = [];
  for (const k of lines) {
    if (pieces.length > 0) pieces.push(NEWLINE);
    pieces.push(lineBytes(k));
  }
  const opened = parseDocumentBytes(Buffer.concat(pieces), file, codec.id);
  const facts = factsOf(file, opened, undefined, { noThreads: true });
  const session = facts.sessions[0];
  const slots = (opened.doc.baseline as { slots?: readonly number[] } | undefined)?.slots ?? [];
  // Every record is read here or there, or marked: a record's row is how many come before it.
  const isRecord = new Uint8Array(lineCount + 1);
  for (const k of recordLines) isRecord[k] = 1;
  for (const k of usage.read) isRecord[k] = 0;
  for (const k of lines) isRecord[k] = 0;
  for (const s of slots) isRecord[lines[s]] = 1;
  for (const k of usage.records) isRecord[k] = 1;
  const before = new Uint32Array(lineCount + 1);
  for (let k = 0; k < lineCount; k++) before[k + 1] = before[k] + isRecord[k];
  if (session) {
    session.messages = codec.recordMarks ? before[lineCount] : (opened.doc.conversations[0]?.records.length ?? 0) + usage.records.length + (lineCount - lines.length - usage.read.size);
    session.threads = undefined;
    session.defaultThread = undefined;
    session.models = [...new Set([...session.models, ...usage.models])].sort();
    if (usage.firstAt && (!session.firstAt || usage.firstAt < session.firstAt)) session.firstAt = usage.firstAt;
    if (usage.lastAt && (!session.lastAt || usage.lastAt > session.lastAt)) session.lastAt = usage.lastAt;
  }
  facts.calls = [...usage.calls.values()].map(({ call, line }) => ({ ...call, index: before[line] }));
  withDayAndCost(facts.calls);
  const records = opened.doc.conversations[0]?.records ?? [];
  const inHead = slots.filter((s) => lines[s] < headEnd).length;
  return { read: { facts: { ...facts, messages: [] }, bytes: 0, partial: true }, headSideOnly: records.slice(0, inHead).every((r) => opened.codec.view(r).sidechain === true), headRecords: inHead };
}
