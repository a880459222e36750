import { compactionText, displayText, ENCRYPTED_REASONING, onlyEncryptedReasoning, onlyUnsavedReasoning, readableText, reasoningText, sentText, toolLinksOf, UNSAVED_REASONING, type MessageView } from '../../../src/core/formats/model.js';
import { withoutLineNumbers } from '../../../src/core/util/numbered-lines.js';
import { shownSessionModel } from '../../../src/core/models.js';
import { isPlainObject, type Message } from '../../../src/core/message.js';
import { staticPrefixLength } from '../../../src/core/window/skeleton.js';
import { staticViewPrefix } from '../../../src/core/views.js';
import { FLAGS, type Row, type Skeleton, type SkeletonRow } from '../../shared/contract.js';
import { emptySparse } from '../../shared/sparse.js';
import type { Codec, ConversationDocument } from '../../../src/core/formats/codec.js';
import { oneLine } from '../../../src/core/util/one-line.js';
import { hasUnreadPart } from '../../../src/core/formats/unread.js';
import { viewOf, type OpenDocument } from './documents.js';
import { treeFields, type ViewedConversation } from './conversation-views.js';
import { callsOf, reportedTotalsOf, withReportedTotals } from '../../../src/core/usage.js';
import { withoutTerminalCodes } from '../../../src/core/util/terminal-codes.js';
import { plainSummary } from '../../../src/core/util/reasoning-summary.js';
import { inlineThinking, titleWithoutThinking } from '../../../src/core/util/inline-thinking.js';
import { localCommandText } from '../../../src/core/formats/claude-code/local-commands.js';

/** What a skeleton is built from: an open document, or the head of one (a first screen). */
export type SkeletonSource = Pick<OpenDocument, 'codec' | 'size'> & { file: { doc: ConversationDocument; readOnly?: string; partBytes?: number }; conversations: readonly unknown[] };

/** Why the file is not saved in place, whether it takes edits, and the extension a Save As takes. */
/** The number of a JSONL file's last line that does not parse yet (an agent writing it, or a write cut off). */
function cutLineOf(doc: { baseline: unknown }): { cutLine?: number } {
  const b = doc.baseline as { lines?: { partialTail?: number } } | null;
  const n = b && typeof b === 'object' ? b.lines?.partialTail : undefined;
  return n !== undefined ? { cutLine: n } : {};
}

export function readOnlyOf(doc: SkeletonSource): Pick<Skeleton, 'readOnly'> {
  if (!doc.file.readOnly) return {};
  return { readOnly: { reason: doc.file.readOnly, edits: !doc.codec.readOnly, ...(doc.codec.readOnly ? {} : { saveAs: doc.codec.extensions[0] }) } };
}

export function swarmsCodec(doc: { codec: Codec }): boolean {
  return doc.codec.id === 'swarms-json' || doc.codec.id === 'swarms-yaml';
}

function dictionary(values: Array<string | undefined>): { names: string[]; of: number[] } {
  const names: string[] = [];
  const index = new Map<string, number>();
  const of = values.map((v) => {
    if (v === undefined) return -1;
    let k = index.get(v);
    if (k === undefined) {
      k = names.length;
      names.push(v);
      index.set(v, k);
    }
    return k;
  });
  return { names, of };
}

/** `structured`: content a planner must not cut (the swarms rule: content that is not a string; else parts that are not all text). */
function flagsOf(v: MessageView, isStatic: boolean, structured: boolean): number {
  const links = toolLinksOf(v);
  let f = 0;
  if (links.callIds.length || v.parts.some((p) => p.kind === 'tool-call')) f |= FLAGS.toolCall;
  if (links.toolLike) f |= FLAGS.toolResult;
  if (v.normalRole === 'system') f |= FLAGS.system;
  if (structured) f |= FLAGS.structured;
  if (isStatic) f |= FLAGS.static;
  if (v.sidechain) f |= FLAGS.sidechain;
  if (v.meta) f |= FLAGS.meta;
  if (v.summary) f |= FLAGS.summary;
  if (v.compaction) f |= FLAGS.compaction;
  if (v.parts.some((p) => p.kind === 'reasoning')) f |= FLAGS.reasoning;
  if (hasUnreadPart(v)) f |= FLAGS.unread;
  if (v.parts.some((p) => p.kind === 'tool-result' && p.isError)) f |= FLAGS.toolError;
  return f;
}

/** A row's one-line text: the message's text, or its calls (name and arguments), or its result. */
function rowPreview(v: MessageView): string {
  // A Claude Code boundary says what happened; a Codex compaction is its summary, after the mark.
  if (v.compaction) return v.parts.length > 0 ? `${compactionText(v.compaction)} · ${oneLine(displayText(v), 160)}` : compactionText(v.compaction);
  const flat = (s: string) => oneLine(withoutTerminalCodes(s), 200);
  // What it says; else its calls and results as they read (Bash: git status, not their JSON); else its reasoning.
  const read = v.parts.some((p) => p.kind === 'text') ? displayText(v) : readableText({ parts: v.parts.filter((p) => p.kind !== 'reasoning') });
  // A file a tool read out with its lines numbered reads as the file, not as "1 package models 2 3 import".
  const written = v.parts.some((p) => p.kind === 'tool-result') ? (withoutLineNumbers(read) ?? read) : read;
  // An answer that opens with its reasoning in <think> tags reads as its answer (its reasoning where it has none).
  const thought = v.normalRole === 'assistant' ? inlineThinking(written) : undefined;
  // Its reasoning alone before a tool call it made (Crush): the call is what it did.
  const calls = thought && !thought.answer && v.parts.some((p) => p.kind === 'tool-call') ? readableText({ parts: v.parts.filter((p) => p.kind === 'tool-call') }) : '';
  const said = thought ? thought.answer || calls || plainSummary(thought.reasoning) : written;
  // A command typed at Claude Code's prompt reads as typed ("/model", "! ls"), not as the tags it is kept in.
  const text = flat(localCommandText(said) ?? said);
  if (text !== '') return text;
  const reasoning = flat(plainSummary(reasoningText(v)));
  if (reasoning === '' && onlyUnsavedReasoning(v)) return UNSAVED_REASONING;
  if (reasoning === '' && onlyEncryptedReasoning(v)) return ENCRYPTED_REASONING;
  return reasoning;
}

export { UNSAVED_REASONING };

export function tableRow(v: MessageView, index: number): Row {
  return { index, role: v.role, preview: rowPreview(v), timestamp: v.timestamp, category: v.category, messageId: v.id };
}

/**
 * What the API reported, once per reported call, at the call's last line: Claude Code writes one line per
 * content block of one call, and only the last carries what the call produced.
 */
function usageByIndex(views: readonly MessageView[]): Skeleton['usage'] {
  const out: Skeleton['usage'] = emptySparse();
  for (const { at, usage } of callsOf(views).sort((a, b) => a.at - b.at)) {
    const { key: _k, branch: _b, ...u } = usage;
    out.at.push(at);
    out.values.push(u);
  }
  return out;
}

/**
 * The calls the session's figures add up where its file reports totals beside its messages (a Copilot CLI run's,
 * which the messages record only the output of): the calls with the totals in, as the session list adds them up.
 * Undefined where there are none (the rows' own usage is the session's); never on the rows, whose calls they are not.
 */
function sessionUsageField(doc: SkeletonSource, conversation: number, count: number, views: readonly MessageView[]): Pick<Skeleton, 'sessionUsage'> {
  if (doc.file.partBytes !== undefined) return {};
  const totals = reportedTotalsOf(doc.codec, doc.file.doc, conversation, count);
  if (totals.length === 0) return {};
  return { sessionUsage: withReportedTotals(callsOf(views), totals).map(({ usage: { key: _k, branch: _b, ...u } }) => u) };
}

/** A sent text's length, once per view object (views of unchanged records are the same objects after an edit). */
const sentLengths = new WeakMap<MessageView, number>();
function sentLength(v: MessageView): number {
  let n = sentLengths.get(v);
  if (n === undefined) sentLengths.set(v, (n = sentText(v).length));
  return n;
}

/** The conversation's static prefix (what planners keep), by the app's rule for the document's format. */
export function staticEndOf(doc: SkeletonSource, records: readonly Message[], view: (r: Message) => MessageView): number {
  if (swarmsCodec(doc)) return staticPrefixLength(records as Message[]);
  let n = 0;
  while (n < records.length && staticViewPrefix([view(records[n])]) === 1) n++;
  return n;
}

/** Whether linking would change the view: a call without an id, or a result without the call it answers. */
export function needsLinking(v: MessageView): boolean {
  return v.parts.some((p) => (p.kind === 'tool-call' && !p.id) || (p.kind === 'tool-result' && !p.callId));
}

/**
 * One message's skeleton row, as buildSkeleton codes it (for a view that linking leaves as it is, and a usage
 * without a dedup key).
 */
export function skeletonRowOf(doc: SkeletonSource, record: Message, v: MessageView, isStatic: boolean): SkeletonRow {
  const swarms = swarmsCodec(doc);
  const row: SkeletonRow = {
    role: v.role,
    normalRole: v.normalRole,
    flags: flagsOf(v, isStatic, swarms ? typeof record.content !== 'string' : !v.parts.every((p) => p.kind === 'text')),
    stored: isPlainObject(record) && typeof record.token_count === 'number' ? record.token_count : -1,
    length: sentLength(v),
  };
  if (v.category !== undefined) row.category = v.category;
  const links = toolLinksOf(v);
  if (links.callIds.length) row.calls = links.callIds;
  if (links.resultId !== undefined) row.result = links.resultId;
  if (v.usage) {
    const { key: _k, ...u } = v.usage;
    row.usage = v.model && !u.model ? { ...u, model: v.model } : u;
  }
  return row;
}

/** The compact per-message skeleton of one conversation (`views` linked: tool results know their calls). */
/** Whether any message has a time, and any an id (the first that has one ends the look). */
export function columnsOf(count: number, viewAt: (i: number) => MessageView): { time: boolean; id: boolean } {
  let time = false;
  let id = false;
  for (let i = 0; i < count && !(time && id); i++) {
    const v = viewAt(i);
    if (!time && v.timestamp !== undefined && v.timestamp !== '') time = true;
    if (!id && v.id !== undefined && v.id !== '') id = true;
  }
  return { time, id };
}

/** The model the conversation ran on, where its file names one (a part since a compaction with no call yet: the file's). */
export function modelField(doc: SkeletonSource, views: readonly MessageView[]): Pick<Skeleton, 'model'> {
  const model = shownSessionModel(views, () => doc.file.doc.conversations.flatMap((c) => c.records.map((r) => viewOf(doc.codec, r))));
  return model ? { model } : {};
}

export function buildSkeleton(displayPath: string, doc: SkeletonSource, conversation: number, records: readonly Message[], views: readonly MessageView[], version: number): Skeleton {
  const swarms = swarmsCodec(doc);
  // The swarms rule (system/developer roles, the MEMORY.md preamble) keeps the app and the library in step.
  const staticEnd = swarms ? staticPrefixLength(records as Message[]) : staticViewPrefix(views);
  const roles = dictionary(views.map((v) => v.role));
  const normalRoles = roles.names.map((_, k) => views[roles.of.indexOf(k)].normalRole);
  const categories = dictionary(views.map((v) => v.category));
  // A title a model wrote with its reasoning first (Crush's) is the words after it, as the session list has it.
  const ownTitle = doc.file.doc.conversations[conversation]?.title;
  const toolCalls: Skeleton['toolCalls'] = emptySparse();
  const toolResults: Skeleton['toolResults'] = emptySparse();
  views.forEach((v, i) => {
    const links = toolLinksOf(v);
    if (links.callIds.length) {
      toolCalls.at.push(i);
      toolCalls.values.push(links.callIds);
    }
    if (links.resultId !== undefined) {
      toolResults.at.push(i);
      toolResults.values.push(links.resultId);
    }
  });
  return {
    path: displayPath,
    conversation,
    conversations: doc.conversations.length,
    title: ownTitle === undefined ? undefined : titleWithoutThinking(ownTitle),
    ...modelField(doc, views),
    format: doc.codec.id,
    formatLabel: doc.codec.label,
    swarms,
    count: records.length,
    // A part's own bytes: the file's size would read as the part's.
    bytes: doc.file.partBytes ?? doc.size,
    other: doc.file.doc.otherRecords,
    ...cutLineOf(doc.file.doc),
    roles: roles.names,
    normalRoles,
    roleOf: roles.of,
    categories: categories.names,
    categoryOf: categories.of,
    has: columnsOf(views.length, (i) => views[i]),
    flags: views.map((v, i) => flagsOf(v, i < staticEnd, swarms ? typeof records[i].content !== 'string' : !v.parts.every((p) => p.kind === 'text'))),
    storedTokens: records.map((m) => (isPlainObject(m) && typeof m.token_count === 'number' ? m.token_count : -1)),
    lengths: views.map(sentLength),
    toolCalls,
    toolResults,
    usage: usageByIndex(views),
    ...sessionUsageField(doc, conversation, records.length, views),
    ...treeFields(doc.conversations as ViewedConversation[], conversation, (r) => viewOf(doc.codec, r)),
    ...readOnlyOf(doc),
    version,
  };
}
