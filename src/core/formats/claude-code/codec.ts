import { basename } from 'node:path';
import { isPlainObject } from '../../message.js';
import { contentToParts } from '../content-parts.js';
import type { Codec, ConversationMeta } from '../codec.js';
import { normalizeRole, sentText, type MessageView } from '../model.js';
import { appendJsonlRecords, jsonlLineText, parseJsonlRecords, type JsonlRecordsBaseline } from '../shared/jsonl-document.js';
import { planJsonl, renderJsonl } from '../syntax/jsonl.js';
import { isCompactBoundary, relinkChain } from './chain.js';
import { claudeCodeProblems } from './validity.js';
import { claudeCodeTree } from './tree.js';
import { slimAssistantLine } from './listing-line.js';
import { anthropicBlocks, blocksWithText } from '../anthropic/codec.js';

const MESSAGE_TYPES = new Set(['user', 'assistant']);

/** The summary Claude Code starts a compacted conversation with, before its own words. */
export const COMPACT_SUMMARY_PREFIX = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n';

/** The lines a conversation is made of: its messages, and the compact boundaries between its parts. */
const isRecord = (v: unknown) => isPlainObject(v) && ((typeof v.type === 'string' && MESSAGE_TYPES.has(v.type) && isPlainObject(v.message)) || isCompactBoundary(v));

function boundaryView(r: Record<string, unknown>): MessageView {
  const m = isPlainObject(r.compactMetadata) ? r.compactMetadata : {};
  return {
    role: 'system',
    normalRole: 'other',
    parts: [],
    timestamp: typeof r.timestamp === 'string' ? r.timestamp : undefined,
    id: typeof r.uuid === 'string' ? r.uuid : undefined,
    meta: true,
    compaction: {
      trigger: typeof m.trigger === 'string' ? m.trigger : undefined,
      preTokens: typeof m.preTokens === 'number' ? m.preTokens : undefined,
      ...(typeof m.postTokens === 'number' ? { postTokens: m.postTokens } : {}),
      ...(typeof m.durationMs === 'number' ? { durationMs: m.durationMs } : {}),
    },
  };
}

/**
 * A Claude Code session line of type user or assistant: `message` is an Anthropic message (content blocks,
 * `usage` on assistant lines, one line per content block sharing `message.id`).
 */
function view(record: unknown): MessageView {
  const r = isPlainObject(record) ? record : {};
  if (isCompactBoundary(r)) return boundaryView(r);
  const message = isPlainObject(r.message) ? r.message : {};
  const role = typeof message.role === 'string' ? message.role : typeof r.type === 'string' ? r.type : '?';
  const u = isPlainObject(message.usage) ? message.usage : undefined;
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const text = typeof message.content === 'string' ? message.content : undefined;
  return {
    role,
    normalRole: normalizeRole(role),
    parts: contentToParts(message.content),
    timestamp: typeof r.timestamp === 'string' ? r.timestamp : undefined,
    id: typeof r.uuid === 'string' ? r.uuid : undefined,
    sidechain: r.isSidechain === true || undefined,
    // Tool-written lines: meta notices, and the local command wrappers Claude Code records as user input.
    meta: r.isMeta === true || (text !== undefined && /^<(command-name|local-command-stdout|command-message)>/.test(text)) || undefined,
    summary: r.isCompactSummary === true || undefined,
    model: typeof message.model === 'string' ? message.model : undefined,
    // Anthropic reports cache reads and writes apart from input_tokens: the prompt was all three.
    // Of the cache writes, those for an hour are charged more (cache_creation splits them by lifetime).
    usage: u ? { input: (n(u.input_tokens) ?? 0) + (n(u.cache_read_input_tokens) ?? 0) + (n(u.cache_creation_input_tokens) ?? 0), output: n(u.output_tokens), cacheRead: n(u.cache_read_input_tokens), cacheWrite: n(u.cache_creation_input_tokens), ...(isPlainObject(u.cache_creation) && n(u.cache_creation.ephemeral_1h_input_tokens) ? { cacheWrite1h: n(u.cache_creation.ephemeral_1h_input_tokens) } : {}), key: typeof message.id === 'string' ? message.id : typeof r.requestId === 'string' ? r.requestId : undefined } : undefined,
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The session the file is: its id, folder, and the version of Claude Code that wrote it (from its first line that says). */
function sessionMeta(values: unknown[]): ConversationMeta | undefined {
  const line = values.find((v) => isPlainObject(v) && typeof v.sessionId === 'string') as Record<string, unknown> | undefined;
  return line ? { sessionId: str(line.sessionId), cwd: str(line.cwd), version: str(line.version), gitBranch: str(line.gitBranch) } : undefined;
}

const freshIds = (record: unknown) => (isPlainObject(record) ? { ...record, uuid: crypto.randomUUID() } : record);

const sessionFields = ['isSidechain', 'userType', 'cwd', 'sessionId', 'version', 'gitBranch', 'agentId'] as const;

/** Claude Code's session transcript (`~/.claude/projects/<project>/<session>.jsonl`, sub-agents included). */
/** The last string `key` of the lines of type `type`. */
function lastOf(values: unknown[], type: string, key: string): string | undefined {
  for (let k = values.length - 1; k >= 0; k--) {
    const v = values[k];
    if (isPlainObject(v) && v.type === type && typeof v[key] === 'string' && v[key] !== '') return v[key] as string;
  }
  return undefined;
}

/**
 * The session's title as `claude --resume` lists it: the last name it was given (`/rename` writes a
 * `custom-title` line), else the last title Claude Code wrote for it (`ai-title`), else the last `summary` line
 * whose `leafUuid` is one of its own messages. A summary of another session (Claude Code 1.x heads a resumed
 * session's file with the summaries of those before it, each pointing into its own file) titles that one, not this.
 */
function sessionTitle(values: unknown[]): string | undefined {
  const own = lastOf(values, 'custom-title', 'customTitle') ?? lastOf(values, 'ai-title', 'aiTitle');
  if (own !== undefined) return own;
  let uuids: Set<unknown> | undefined;
  for (let k = values.length - 1; k >= 0; k--) {
    const v = values[k];
    if (!isPlainObject(v) || v.type !== 'summary' || typeof v.summary !== 'string') continue;
    uuids ??= new Set(values.map((r) => (isPlainObject(r) ? r.uuid : undefined)).filter((u) => typeof u === 'string'));
    if (uuids.has(v.leafUuid)) return v.summary;
  }
  return undefined;
}

export const claudeCode: Codec = {
  id: 'claude-code',
  label: 'Claude Code session (JSONL)',
  tool: 'Claude Code',
  syntax: 'jsonl',
  extensions: ['.jsonl'],
  capabilities: { conversations: 'one', toolCalls: true, reasoning: true, otherRecords: true, timestamps: true, toolParts: 'any' },
  sniffNeeds: ['sessionId', 'leafUuid', 'message'],
  // A call's usage is on its assistant lines alone (each line's own, record by record); a title is a line of its
  // own that starts with its type, and a compaction's line with the chain it ends (as Claude Code writes them);
  // JSON strings escape their quotes, so a message's raw `"type":"user"` is its own.
  listingMarks: ['"usage"'],
  slimLine: slimAssistantLine,
  isListedRecord: isRecord,
  listingHeads: ['{"type":"summary"', '{"type":"ai-title"', '{"type":"custom-title"', '{"parentUuid":null,"logicalParentUuid"'],
  // (An assistant line is a record the listing reads: its usage marks it.)
  // A compaction's line is a record too, counted whatever the order of its keys.
  recordMarks: ['"type":"user"', '"subtype":"compact_boundary"'],
  // A summary titles the session its leaf is in: the leaf's line is read too, to tell this session's from another's.
  listingLinks(line) {
    if (!line.subarray(0, 20).toString('latin1').startsWith('{"type":"summary"')) return [];
    try {
      const v: unknown = JSON.parse(line.toString('utf8'));
      return isPlainObject(v) && typeof v.leafUuid === 'string' ? [`"uuid":${JSON.stringify(v.leafUuid)}`] : [];
    } catch {
      return [];
    }
  },
  sniff(head, name) {
    const sessionish = head.includes('"sessionId"') && /"sessionId"\s*:/.test(head) && /"(parentUuid|isSidechain|leafUuid)"\s*:/.test(head);
    if (sessionish) return 40;
    if (/"type"\s*:\s*"summary"/.test(head) && /"leafUuid"\s*:/.test(head)) return 40;
    return /^agent-[0-9a-f]+\.jsonl$/.test(basename(name)) && /"message"\s*:/.test(head) ? 20 : 0;
  },
  parse: (text, file) => parseJsonlRecords(text, file, 'claude-code', isRecord, sessionTitle, sessionMeta),
  parseBytes: (text, file) => parseJsonlRecords(text, file, 'claude-code', isRecord, sessionTitle, sessionMeta),
  // Claude Code appends a line per message, tool result and event as the session goes on.
  append: (doc, added, file) => appendJsonlRecords(doc, added, file, isRecord, sessionTitle, sessionMeta),
  // The chain is made whole as the lines are laid out: deleted lines' children relinked, new lines spliced in.
  serialize(doc, conversations) {
    const b = doc.baseline as JsonlRecordsBaseline;
    const out = planJsonl(b.lines, b.slots, conversations[0] ?? []);
    relinkChain(
      b.lines.lines.map((l) => l.value),
      out,
    );
    return renderJsonl(doc.text, b.lines, out);
  },
  linkFields: ['parentUuid', 'uuid', 'logicalParentUuid'],
  validate: claudeCodeProblems,
  tree: (doc, _c, records) => claudeCodeTree(doc, records),
  // As Claude Code compacts: the history stays in the file; a boundary starts a new chain with the summary,
  // then copies of what stays (new uuids: the originals keep their place in the history).
  compact(records, after, summaries, info) {
    const near = (records.findLast((r) => isPlainObject(r) && typeof r.sessionId === 'string') ?? {}) as Record<string, unknown>;
    const session: Record<string, unknown> = {};
    for (const k of sessionFields) if (near[k] !== undefined) session[k] = near[k];
    const last = records.findLast((r) => isPlainObject(r) && typeof r.uuid === 'string') as { uuid: string } | undefined;
    const now = new Date().toISOString();
    const boundary = { parentUuid: null, ...(last ? { logicalParentUuid: last.uuid } : {}), ...session, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, timestamp: now, uuid: crypto.randomUUID(), level: 'info', compactMetadata: { trigger: 'manual', preTokens: info.tokensBefore } };
    const rest = after.map((r) => {
      if (!summaries.has(r)) return freshIds(structuredClone(r));
      const text = sentText(view(r));
      return { parentUuid: null, ...session, type: 'user', message: { role: 'user', content: COMPACT_SUMMARY_PREFIX + text }, isVisibleInTranscriptOnly: true, isCompactSummary: true, uuid: crypto.randomUUID(), timestamp: now };
    });
    return [...records, boundary, ...rest];
  },
  freshIds,
  view,
  fromView(v, near) {
    const n = isPlainObject(near) ? near : {};
    const role = v.normalRole === 'assistant' ? 'assistant' : 'user';
    const blocks = anthropicBlocks(v.parts);
    const content = role === 'user' && blocks.length === 1 && (blocks[0] as { type: string }).type === 'text' ? (blocks[0] as { text: string }).text : blocks;
    const out: Record<string, unknown> = { parentUuid: typeof n.uuid === 'string' ? n.uuid : null };
    for (const k of sessionFields) if (n[k] !== undefined) out[k] = n[k];
    return { ...out, type: role, message: { role, content }, uuid: crypto.randomUUID(), timestamp: v.timestamp ?? new Date().toISOString() };
  },
  loses: (v) => [
    ...(v.normalRole === 'system' ? ['the system role (a session has user and assistant lines; it becomes a user line)'] : []),
    ...(v.parts.some((p) => p.kind === 'image' || p.kind === 'file') ? ['images and files (a line holds them as the file itself, which a conversion does not have)'] : []),
  ],
  withText(record, text) {
    if (!isPlainObject(record) || !isPlainObject(record.message)) return undefined;
    const message = blocksWithText(record.message, text);
    return message === undefined ? undefined : { ...record, message };
  },
  rawText: (doc, _c, record) => jsonlLineText(doc, record),
};
