import { isPlainObject } from '../../message.js';
import { NotThisFormat, type Codec, type ConversationMeta, type DocumentConversation } from '../codec.js';
import { ConversationFileError } from '../errors.js';
import type { MessageView } from '../model.js';
import { jsonRawText, parseJsonDocument } from './json-document.js';
import { parseJsonl, type JsonlBaseline } from '../syntax/jsonl.js';
import type { JsonPath } from '../syntax/json-doc.js';

/**
 * A tool's log of what the user typed, or its index of sessions, kept beside the sessions themselves (Claude
 * Code's `history.jsonl`, OpenCode's `prompt-history.jsonl`, Gemini CLI's `logs.json`, Codex's
 * `session_index.jsonl`): entries, one a line or one an element of a top-level list, grouped into conversations
 * by a key of theirs (a project, a session). Read and searched, never edited: the tool appends to it, and the
 * sessions are their own files.
 */
export interface LogSpec<E> {
  id: string;
  label: string;
  tool: string;
  readOnly: string;
  syntax: 'jsonl' | 'json';
  sniffNeeds: readonly string[];
  sniff(head: string, name: string): number;
  isEntry(value: unknown): value is E;
  /** What the file should hold, said when it does not ("one {…} a line"). */
  expected: string;
  /** The conversation an entry belongs to ('' for one of the whole file), and what it says of where it ran. */
  groupOf(entry: E): string;
  metaOf?(group: string, first: E): ConversationMeta | undefined;
  titleOf?(group: string, entries: readonly E[]): string | undefined;
  view(entry: E): MessageView;
  /** The name an entry gives a session (an index of names). */
  sessionName?(entry: E): { sessionId: string; name: string } | undefined;
  /** The entry a view becomes (a conversion into this format). */
  fromView(view: MessageView): E;
}

/** The first words typed, on one line: a conversation's title. */
export function firstWords(text: string | undefined): string | undefined {
  const line = text?.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A time as ISO text, from milliseconds, seconds or ISO text; undefined when it is none of them. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    const ms = value < 1e11 ? value * 1000 : value;
    return ms < 8.64e15 ? new Date(ms).toISOString() : undefined;
  }
  if (typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value))) return value;
  return undefined;
}

function grouped<E>(spec: LogSpec<E>, entries: ReadonlyArray<{ entry: E; path: JsonPath }>): { conversations: DocumentConversation[]; paths: JsonPath[][] } {
  const groups = new Map<string, { records: E[]; paths: JsonPath[] }>();
  for (const { entry, path } of entries) {
    const key = spec.groupOf(entry);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { records: [], paths: [] }));
    g.records.push(entry);
    g.paths.push(path);
  }
  const conversations: DocumentConversation[] = [];
  const paths: JsonPath[][] = [];
  for (const [key, g] of groups) {
    const meta = spec.metaOf?.(key, g.records[0]);
    conversations.push({ records: g.records, title: spec.titleOf?.(key, g.records), ...(meta ? { meta } : {}) });
    paths.push(g.paths);
  }
  return { conversations, paths };
}

export function logCodec<E>(spec: LogSpec<E>): Codec {
  const notOne = (what: string) => `${what} is not an entry of ${spec.label}: expected ${spec.expected}`;
  const view = (record: unknown): MessageView => (spec.isEntry(record) ? spec.view(record) : { role: 'user', normalRole: 'user', parts: [] });
  return {
    id: spec.id,
    label: spec.label,
    tool: spec.tool,
    syntax: spec.syntax,
    extensions: [spec.syntax === 'jsonl' ? '.jsonl' : '.json'],
    readOnly: spec.readOnly,
    companion: true,
    ...(spec.sessionName ? { sessionName: (r: unknown) => (spec.isEntry(r) ? spec.sessionName!(r) : undefined) } : {}),
    capabilities: { conversations: 'many', toolCalls: false, reasoning: false, otherRecords: false, timestamps: true },
    sniffNeeds: spec.sniffNeeds,
    sniff: spec.sniff,
    parse(text, file) {
      if (spec.syntax === 'json') {
        return parseJsonDocument(text, file, spec.id, (root, f, at) => {
          if (!Array.isArray(root) || root.length === 0 || !spec.isEntry(root[0])) throw new NotThisFormat(`expected ${spec.expected}`);
          root.forEach((e, i) => {
            if (!spec.isEntry(e)) throw new ConversationFileError(f, notOne(`element ${i}`), at([i]));
          });
          return grouped(spec, root.map((entry: E, i) => ({ entry, path: [i] })));
        });
      }
      const lines: JsonlBaseline = parseJsonl(text, file);
      const entries: Array<{ entry: E; path: JsonPath }> = [];
      lines.lines.forEach((l, i) => {
        if (l.value === undefined) return;
        if (!spec.isEntry(l.value)) {
          if (entries.length === 0) throw new NotThisFormat(`expected ${spec.expected}`, { line: i + 1, column: 1 });
          throw new ConversationFileError(file, notOne('this line'), { line: i + 1, column: 1 });
        }
        entries.push({ entry: l.value, path: [] });
      });
      if (entries.length === 0) throw new NotThisFormat(`expected ${spec.expected}; the file has none`);
      const { conversations } = grouped(spec, entries);
      return { codec: spec.id, conversations, otherRecords: 0, text, baseline: lines };
    },
    serialize: (doc) => doc.text,
    view,
    fromView: (v) => spec.fromView(v),
    loses: () => [`everything: ${spec.label} is read-only here`],
    withText: () => undefined,
    rawText(doc, _c, record) {
      if (spec.syntax === 'json') return jsonRawText(doc, record);
      const b = doc.baseline as JsonlBaseline;
      const i = isPlainObject(record) ? b.origin.get(record) : undefined;
      const line = i === undefined ? undefined : b.lines[i];
      return line ? doc.text.slice(line.start, line.end) : undefined;
    },
  };
}
