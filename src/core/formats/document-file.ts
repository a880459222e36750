import { deepEqual, isPlainObject } from '../message.js';
import './all.js';
import type { Codec, ConversationDocument, WriteOptions } from './codec.js';
import type { MessageView, Part } from './model.js';
import { linkToolParts } from '../views.js';
import { ConversationFileError } from './errors.js';
import { readFileText } from './read.js';
import { codecById, parseWithCodecs, type ParsedFile } from './registry.js';
import { DEFAULT_MAX_FILE_BYTES } from './types.js';
import { UnsafeWriteError } from './write.js';

export interface ReadDocumentOptions {
  /** A codec id instead of detection. */
  format?: string;
  maxFileBytes?: number;
}

export interface OpenedFile extends ParsedFile {
  /** The file started with a byte order mark: it is written back with one. */
  bom: boolean;
}

/** Parses file text (a leading byte order mark is set aside and kept). */
export function parseDocumentText(text: string, file: string, format?: string): OpenedFile {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  // A search for the first non-blank character, not a trim: a trim copies a 100 MB text.
  if (!/\S/.test(body)) throw new ConversationFileError(file, 'the file is empty (expected a conversation)');
  return { ...parseWithCodecs(body, file, format), bom };
}

/** Reads and parses a conversation file of any known format. Errors name the file (and line, column). */
export function readDocumentFile(file: string, options: ReadDocumentOptions = {}): OpenedFile {
  return parseDocumentText(readFileText(file, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES), file, options.format);
}

/** Values as a file holds them: keys holding undefined are absent; `links` (top level) are the writer's to set. */
function sameRecord(read: unknown, written: unknown, links: readonly string[] = []): boolean {
  if (links.length === 0 && deepEqual(read, written)) return true;
  if (isPlainObject(read) && isPlainObject(written)) {
    const keys = Object.keys(written).filter((k) => written[k] !== undefined && !links.includes(k));
    const readKeys = Object.keys(read).filter((k) => !links.includes(k));
    return keys.length === readKeys.length && keys.every((k) => sameRecord(read[k], written[k]));
  }
  if (Array.isArray(read) && Array.isArray(written)) return read.length === written.length && read.every((v, i) => sameRecord(v, written[i]));
  return false;
}

/**
 * The file's text holding these records, in its own style, checked by reading it back with the same codec:
 * text that would not read back as the records it came from is never returned.
 */
export function serializeDocument(codec: Codec, doc: ConversationDocument, conversations: readonly (readonly unknown[])[], bom = false, options: WriteOptions = {}): string {
  return writeDocument(codec, doc, conversations, bom, options).text;
}

/** serializeDocument, with the document the text reads back as (undefined for the swarms writers, which check their own). */
export function writeDocument(codec: Codec, doc: ConversationDocument, conversations: readonly (readonly unknown[])[], bom = false, options: WriteOptions = {}): { text: string; again?: ConversationDocument } {
  const text = codec.serialize(doc, conversations, options);
  let again: ConversationDocument | undefined;
  // The swarms writers verify their own output (and reuse the parse as the next baseline).
  if (codec.id !== 'swarms-json' && codec.id !== 'swarms-yaml') {
    let parsed: ConversationDocument;
    try {
      parsed = codec.parse(text, '(output)');
    } catch (e) {
      throw new UnsafeWriteError(`the ${codec.label} written would not parse (${(e as Error).message})`);
    }
    again = parsed;
    conversations.forEach((written, c) => {
      const records = codec.order ? codec.order(written) : written;
      const read = parsed.conversations[c]?.records ?? [];
      if (read.length !== records.length) throw new UnsafeWriteError(`conversation ${c} would hold ${read.length} messages, not ${records.length}`);
      records.forEach((r, i) => {
        // A record the file already held, written as its own text, reads back as what it was read as.
        if (options.immutable && codec.rawText(doc, c, r) !== undefined) return;
        if (!sameRecord(read[i], r, codec.linkFields)) throw new UnsafeWriteError(`message ${i} of conversation ${c} would read back differently`);
      });
    });
  }
  return { text: (bom ? '\ufeff' : '') + text, again };
}

/** Converts a document into another format: every message as that format's record (see `lossesOf` first). */
export function convertDocument(from: OpenedFile, toId: string): string {
  const to = codecById(toId);
  if (!to) throw new ConversationFileError('(convert)', `unknown format "${toId}"`);
  if (to.id === from.codec.id) return (from.bom ? '\ufeff' : '') + from.doc.text;
  const conversations = from.doc.conversations.map((c) => viewsForTarget(from.codec, c.records, to).map((v) => to.fromView(v)));
  return emptyDocument(to, conversations);
}

/**
 * A conversation's messages as `to` can hold them: tool calls and results linked (ids made where the file has
 * none), and a message split where the target keeps each call or result in a record of its own.
 */
function viewsForTarget(codec: Codec, records: readonly unknown[], to: Codec): MessageView[] {
  const mode = to.capabilities.toolParts ?? 'calls';
  const out: MessageView[] = [];
  for (const v of linkToolParts(records.map((r) => codec.view(r)))) {
    const own = (p: Part) => p.kind === 'tool-result' || (mode === 'one' && p.kind === 'tool-call');
    const pieces = mode === 'any' ? 0 : v.parts.filter(own).length;
    if (pieces === 0 || (pieces === 1 && v.parts.length === 1 && v.parts[0].kind === 'tool-call')) {
      out.push(v);
      continue;
    }
    // In part order: a run of other parts is one message, each call or result that needs a record gets one;
    // the message's own id stays with the first piece.
    let run: Part[] = [];
    let first = true;
    const piece = (parts: Part[], result: boolean) => {
      out.push({ ...v, ...(result ? { role: 'tool', normalRole: 'tool' } : {}), parts, id: first ? v.id : undefined });
      first = false;
    };
    for (const p of v.parts) {
      if (!own(p)) {
        run.push(p);
        continue;
      }
      if (run.length) piece(run, false);
      run = [];
      piece([p], p.kind === 'tool-result');
    }
    if (run.length) piece(run, false);
  }
  return out;
}

/** What converting would lose, message by message (deduplicated). */
export function lossesOf(from: OpenedFile, toId: string): string[] {
  const to = codecById(toId);
  if (!to) return [];
  const lost = new Set<string>();
  if (to.capabilities.conversations === 'one' && from.doc.conversations.length > 1) lost.add(`all but the first of ${from.doc.conversations.length} conversations (${to.label} holds one)`);
  if (from.doc.otherRecords > 0 && !to.capabilities.otherRecords) lost.add(`${from.doc.otherRecords} records that are not messages (session metadata, events)`);
  for (const c of from.doc.conversations) for (const v of viewsForTarget(from.codec, c.records, to)) for (const l of to.loses(v)) lost.add(l);
  if (from.codec.id.startsWith('sharegpt') && !to.id.startsWith('sharegpt') && from.doc.conversations.some((c) => c.records.some((r) => ['chosen', 'rejected'].includes(from.codec.view(r).category ?? '')))) {
    lost.add('which answer was chosen and which rejected (the pair becomes two answers in a row)');
  }
  return [...lost];
}

/** A new file of `codec`'s format holding these records. */
export function emptyDocument(codec: Codec, conversations: readonly (readonly unknown[])[]): string {
  switch (codec.syntax) {
    case 'jsonl':
      if (codec.capabilities.conversations === 'many') {
        return conversations.map((records) => JSON.stringify(codec.id.startsWith('sharegpt') ? { conversations: records } : { messages: records })).join('\n') + '\n';
      }
      return conversations[0].map((r) => JSON.stringify(r)).join('\n') + '\n';
    case 'json': {
      const value =
        codec.id === 'claude-ai-export'
          ? conversations.map((records, i) => ({ uuid: crypto.randomUUID(), name: `conversation ${i + 1}`, chat_messages: records }))
          : codec.id === 'sharegpt'
            ? conversations.map((records) => ({ conversations: records }))
            : (conversations[0] ?? []);
      return JSON.stringify(value, null, 4) + '\n';
    }
    default: {
      // YAML and Markdown: write through the codec from an empty document of its own.
      const seed = codec.id === 'swarms-memory' ? '# Agent Memory\n\n## Interaction Log\n\n' : '[]\n';
      const doc = codec.parse(seed, '(new)');
      return codec.serialize(doc, [conversations[0] ?? []]);
    }
  }
}
