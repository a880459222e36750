import { deepEqual, isPlainObject, lineage } from '../../message.js';
import { longestIncreasing } from '../../util/longest-increasing.js';
import { NotThisFormat, type Codec, type ConversationDocument } from '../codec.js';
import { skipValue } from '../json-spans.js';
import { firstLine } from '../shared/jsonl-document.js';
import { replaceAt } from '../shared/json-document.js';
import { valueStartAt, type JsonPath } from '../syntax/json-doc.js';
import { parseJsonl, renderJsonl, type JsonlBaseline, type JsonlOutLine } from '../syntax/jsonl.js';
import { geminiCliSession, geminiSessionView } from './codec.js';
import { geminiAside, isProjectHash, sessionFolder } from './project.js';

/**
 * A Gemini CLI session in its newer form (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`), an
 * append-only log read the way Gemini CLI's own loader reads it (`loadConversationRecord` in
 * packages/core/src/services/chatRecordingService.ts, google-gemini/gemini-cli):
 *
 * - a header line `{sessionId, projectHash, startTime, lastUpdated, kind, directories}`;
 * - a line for every message record (the records of a `.json` session: `{id, timestamp, type, content,
 *   thoughts, toolCalls, tokens, model}`), appended again in full whenever the CLI updates it (its tokens
 *   arrive, its tool calls get their results): lines are keyed by `id` in a `Map`, so the last line of an id
 *   is what the message says and the first puts it in its place;
 * - `{"$set": {...}}` lines that update header fields (`lastUpdated`, `summary`, `directories`,
 *   `memoryScratchpad`); one that sets `messages` (the CLI writes it when its history was rewritten: tool
 *   output masked, turns added) replaces the messages outright, and the loader then reads those, not the lines;
 * - `{"$rewindTo": id}` lines (`/rewind`): that message and every one after it are gone, unless appended again.
 *
 * Superseded lines, rewound messages and header lines are kept byte for byte and counted as other records
 * (superseded versions of a message shown are not counted: they are that message's history).
 */

const TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/** A message shown, as its lines say: the line that put it in its place, the one that wins, and every line of it since. */
interface Shown {
  entry: number;
  win: number;
  lines: number[];
}

type GeminiJsonlBaseline =
  | { mode: 'lines'; lines: JsonlBaseline; shown: Shown[] }
  /** The messages a `$set` (or the header) holds, at `path` of line `line`. */
  | { mode: 'batch'; lines: JsonlBaseline; line: number; path: JsonPath; paths: WeakMap<object, JsonPath> };

function parse(text: string, file: string): ConversationDocument {
  const lines = parseJsonl(text, file);
  const map = new Map<string, Shown>();
  let meta: Record<string, unknown> = {};
  let batch: { line: number; path: JsonPath } | undefined;
  let messageLines = 0;
  let strange = 0;
  lines.lines.forEach((l, i) => {
    const v = l.value;
    if (v === undefined) return;
    if (!isPlainObject(v)) throw new NotThisFormat(`line ${i + 1} is not an object (a Gemini CLI session line is a header, a message, {"$set"} or {"$rewindTo"})`, { line: i + 1, column: 1 });
    // In the order the loader tries them.
    if (typeof v.$rewindTo === 'string') {
      const ids = [...map.keys()];
      const at = ids.indexOf(v.$rewindTo);
      if (at === -1) map.clear();
      else for (const id of ids.slice(at)) map.delete(id);
    } else if (typeof v.id === 'string') {
      messageLines++;
      if (!(typeof v.type === 'string' && TYPES.has(v.type) && 'content' in v)) strange++;
      const known = map.get(v.id);
      if (known) {
        known.win = i;
        known.lines.push(i);
      } else map.set(v.id, { entry: i, win: i, lines: [i] });
    } else if (isPlainObject(v.$set)) {
      meta = { ...meta, ...v.$set };
      if ('messages' in v.$set) batch = { line: i, path: ['$set', 'messages'] };
    } else if (typeof v.sessionId === 'string' && typeof v.projectHash === 'string') {
      meta = { ...meta, ...v };
      if ('messages' in v) batch = { line: i, path: ['messages'] };
    } else strange++;
  });
  const header = typeof meta.sessionId === 'string' && typeof meta.projectHash === 'string';
  // Without a header (a file this tool wrote from other messages) every line must be a Gemini message.
  if (!header && (messageLines === 0 || strange > 0)) throw new NotThisFormat('expected a Gemini CLI session: a {"sessionId", "projectHash"} header line, then message records {id, type, content}');
  const title = typeof meta.summary === 'string' && meta.summary.trim() !== '' ? meta.summary : undefined;
  const nonBlank = lines.lines.filter((l) => l.value !== undefined).length;
  const batched = batch && Array.isArray(meta.messages) && meta.messages.length > 0 ? (meta.messages as unknown[]) : undefined;
  const shown = batched ? [] : [...map.values()];
  const cwd = sessionFolder(meta.projectHash, meta.directories, batched ?? shown.map((s) => lines.lines[s.win].value));
  const projectHash = typeof meta.projectHash === 'string' && isProjectHash(meta.projectHash) ? meta.projectHash : undefined;
  const conversationMeta = typeof meta.sessionId === 'string' || cwd || projectHash ? { meta: { ...(typeof meta.sessionId === 'string' ? { sessionId: meta.sessionId } : {}), ...(cwd ? { cwd } : {}), ...(projectHash ? { projectHash } : {}) } } : {};
  if (batch && batched) {
    const records = batched;
    const paths = new WeakMap<object, JsonPath>();
    records.forEach((r, k) => isPlainObject(r) && paths.set(r, [...batch!.path, k]));
    const baseline: GeminiJsonlBaseline = { mode: 'batch', lines, line: batch.line, path: batch.path, paths };
    return { codec: 'gemini-cli-jsonl', conversations: [{ records, title, ...conversationMeta }], otherRecords: nonBlank - 1, text, baseline };
  }
  const records = shown.map((s) => lines.lines[s.win].value);
  const own = shown.reduce((n, s) => n + s.lines.filter((k) => k >= s.entry).length, 0);
  const baseline: GeminiJsonlBaseline = { mode: 'lines', lines, shown };
  return { codec: 'gemini-cli-jsonl', conversations: [{ records, title, ...conversationMeta }], otherRecords: nonBlank - own, text, baseline };
}

/**
 * Writes the log back. A message edited is its winning line rewritten in place: the line the loader reads for
 * it, so the edit is a one-line diff, and the lines it superseded stay as they were (they are its history;
 * appending a new version instead would grow the file on every save, and rewriting every version would
 * change lines that are not what the CLI shows). A message deleted loses every line of it since it took its
 * place (else an older version would come back). A new message is a line placed just before the first line
 * of the message that follows it, or at the end: where the loader puts it in the same order, and where no
 * `$rewindTo` that spares its neighbours removes it. Messages moved out of order are placed the same way.
 */
function serialize(doc: ConversationDocument, conversations: readonly (readonly unknown[])[]): string {
  const b = doc.baseline as GeminiJsonlBaseline;
  const records = conversations[0] ?? [];
  const lines = b.lines.lines;
  if (b.mode === 'batch') {
    const before = doc.conversations[0]?.records ?? [];
    const same = records.length === before.length && records.every((r, k) => r === before[k]);
    const out: JsonlOutLine[] = lines.map((l, i) => (i === b.line && !same ? { line: i, value: replaceAt(l.value, b.path, records.slice()), record: true, eol: l.eol } : { line: i, value: l.value, record: false, eol: l.eol }));
    return renderJsonl(doc.text, b.lines, out);
  }
  const originals = doc.conversations[0]?.records ?? [];
  const byWin = new Map(b.shown.map((s, k) => [s.win, k]));
  const claimed = new Set<number>();
  let cursor = 0;
  const match = (r: unknown): number | undefined => {
    if (r !== null && typeof r === 'object') {
      for (const m of lineage(r)) {
        const line = b.lines.origin.get(m);
        const k = line === undefined ? undefined : byWin.get(line);
        if (k !== undefined && !claimed.has(k)) return k;
      }
    }
    // A record read again (after a save) has no identity here: it is the unclaimed one it equals, nearby.
    for (let k = cursor; k < Math.min(originals.length, cursor + 64); k++) if (!claimed.has(k) && deepEqual(originals[k], r)) return k;
    return undefined;
  };
  const matched = records.map((r) => {
    const k = match(r);
    if (k !== undefined) {
      claimed.add(k);
      cursor = Math.max(cursor, k + 1);
    }
    return k;
  });
  const known = matched.flatMap((k, i) => (k === undefined ? [] : [i]));
  const keepAt = longestIncreasing(known.map((i) => matched[i]!));
  const staying = new Set(known.filter((_, j) => keepAt.has(j)));
  const stayingIndex = new Set([...staying].map((i) => matched[i]!));
  const removed = new Set<number>();
  b.shown.forEach((s, k) => {
    if (!stayingIndex.has(k)) for (const line of s.lines) if (line >= s.entry) removed.add(line);
  });
  const valueAt = new Map<number, unknown>();
  const insertBefore = new Map<number, JsonlOutLine[]>();
  let pending: JsonlOutLine[] = [];
  records.forEach((r, i) => {
    const k = matched[i];
    if (staying.has(i)) {
      const s = b.shown[k!];
      valueAt.set(s.win, r);
      if (pending.length) insertBefore.set(s.entry, pending);
      pending = [];
    } else pending.push({ line: k === undefined ? undefined : b.shown[k].win, value: r, record: true, eol: undefined });
  });
  // New messages at the end go before a last line still being written.
  const tail = b.lines.partialTail !== undefined ? lines.length - 1 : lines.length;
  const out: JsonlOutLine[] = [];
  const add = (list: readonly JsonlOutLine[]) => {
    for (const x of list) out.push(x);
  };
  lines.forEach((l, i) => {
    if (i === tail) add(pending);
    add(insertBefore.get(i) ?? []);
    if (removed.has(i)) return;
    if (valueAt.has(i)) {
      const value = valueAt.get(i);
      out.push({ line: i, value, record: value !== l.value, eol: l.eol });
    } else out.push({ line: i, value: l.value, record: false, eol: l.eol });
  });
  if (tail === lines.length) add(pending);
  return renderJsonl(doc.text, b.lines, out);
}

function rawText(doc: ConversationDocument, record: unknown): string | undefined {
  if (!isPlainObject(record)) return undefined;
  const b = doc.baseline as GeminiJsonlBaseline;
  if (b.mode === 'batch') {
    const path = b.paths.get(record);
    if (!path) return undefined;
    const line = b.lines.lines[b.line];
    const lineText = doc.text.slice(line.start, line.end);
    const start = valueStartAt(lineText, path);
    return start === undefined ? undefined : lineText.slice(start, skipValue(lineText, start));
  }
  const k = b.lines.origin.get(record);
  if (k === undefined) return undefined;
  const line = b.lines.lines[k];
  return doc.text.slice(line.start, line.end);
}

export const geminiCliJsonl: Codec = {
  id: 'gemini-cli-jsonl',
  label: 'Gemini CLI session (JSONL)',
  tool: 'Gemini CLI',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: true, timestamps: true, toolParts: 'turn' },
  sniffNeeds: ['sessionId', 'id'],
  sniff(head) {
    const line = firstLine(head);
    if (/"sessionId"\s*:/.test(line) && /"projectHash"\s*:/.test(line)) return 50;
    // A file of message records alone (what a conversion writes): not a line of another tool's log.
    if (/^\s*\{/.test(line) && /"id"\s*:\s*"/.test(line) && /"type"\s*:\s*"(user|gemini|info|error|warning)"/.test(line) && /"content"\s*:/.test(line) && !/"(uuid|parentUuid|sessionId|payload|data|message)"\s*:/.test(line)) return 15;
    return 0;
  },
  parse,
  serialize,
  aside: (file, _doc, _c, read) => geminiAside(file, read),
  view: geminiSessionView,
  fromView: (v, near) => geminiCliSession.fromView(v, near),
  loses: (v) => geminiCliSession.loses(v),
  withText: (record, text) => geminiCliSession.withText(record, text),
  // Lines are keyed by id: a copy with the same id would be read as a new version of the message it copies.
  freshIds: (record) => (isPlainObject(record) ? { ...record, id: crypto.randomUUID() } : record),
  rawText: (doc, _c, record) => rawText(doc, record),
};
