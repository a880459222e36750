import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Codec, ConversationDocument, ReportedTotal } from '../formats/codec.js';
import { oneLine } from '../util/one-line.js';
import { maskedLine } from '../secrets/mask-line.js';
import type { OpenedFile } from '../formats/document-file.js';
import type { MessageView, ReportedUsage } from '../formats/model.js';
import { reasoningText, sentText } from '../formats/model.js';
import { parentSessionOf, agentIdOfFile } from '../formats/claude-code/session-files.js';
import { geminiParentOf } from '../formats/gemini/session-files.js';
import { runTotal } from '../usage.js';
import { isPlainObject } from '../message.js';
import type { JsonlRecordsBaseline } from '../formats/shared/jsonl-document.js';
import { threadRows } from '../tree/thread-rows.js';
import { conversationTitles } from './titles.js';
import { projectOf } from './project.js';
import { isoTime, timeInName } from './times.js';
import { readAside } from './aside.js';

/**
 * What the catalog knows of one conversation of a file without opening it: what the session list, the usage
 * view and search-all show. Computed from a whole read of the file (or of what an agent appended to it), by
 * the service and the CLI alike, so both show the same figures.
 */
export interface SessionFacts {
  conversation: number;
  /** The tool's own id of the session (Claude Code's sessionId, Codex's session_meta id). */
  sessionId?: string;
  /** For a sub-agent's own file: the file of the session that started it, when the layout says (Claude Code). */
  parentFile?: string;
  /** For a sub-agent: the id of the session that started it, when the file says (Codex thread_spawn). */
  parentSessionId?: string;
  /** A sub-agent's id (Claude Code's agentId). */
  agentId?: string;
  /** A log or index the tool keeps beside its sessions (a prompt history): searched, never listed as a session. */
  kind: 'session' | 'subagent' | 'log';
  title?: string;
  /** Where the session ran (a path), else the folder the file is in. */
  project?: string;
  /** The hash a tool names the session's folder by (Gemini CLI): a session whose folder is proven (`projectProven`) proves it for every other session of the hash. */
  projectHash?: string;
  projectProven?: boolean;
  firstAt?: string;
  lastAt?: string;
  models: string[];
  messages: number;
  /** Messages the file says the user typed (not tool results, not the tool's own notices). */
  prompts: number;
  /** Figures of appended records only (firstAt, models and prompts add to what is known). */
  appended?: boolean;
  /** The thread shown by default, for a file whose records make threads (`main`, or a sub-agent file's own). */
  defaultThread?: string;
  /** Its threads in the order the app shows them (each as a conversation of its own), for a file that has them. */
  threads?: string[];
}

/** One model call as the file reports it: its usage once (a call written over several lines counts once). */
export interface CallFacts {
  conversation: number;
  /** The call's key in the file (message id, request id), or its row where it has none. */
  key: string;
  /** The row of the message that carries the call's final figures. */
  index: number;
  at?: string;
  model?: string;
  input?: number;
  output?: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of cacheWrite, what went to Anthropic's 1-hour cache (priced apart). */
  cacheWrite1h: number;
  reasoning: number;
  /** How many calls these figures add up (a Codex total that spans calls which wrote no item). */
  n: number;
  /** Its local day and list price, where the reader worked them out already (null: none); else the writer does. */
  day?: string | null;
  costUsd?: number | null;
}

/** One message as search-all sees it. */
export interface MessageFacts {
  conversation: number;
  index: number;
  role: string;
  text: string;
  /** The bytes of its line, for a file of one record per line: a hit's line is read from there, not the file. */
  bytes?: [number, number];
  /** Where the app and `show` list it by default (its thread and row), null on no thread shown by default. */
  shown?: { thread: string; index: number } | null;
  /** Why, where `shown` is null: before a compaction of its thread, or on a branch its thread left. */
  offPath?: 'earlier' | 'branch';
  /** Its role as the file spells it, where that is not `role` (an Aider notice: tool). */
  spelled?: string;
}

export interface FileFacts {
  format: string;
  formatLabel: string;
  tool?: string;
  sessions: SessionFacts[];
  calls: CallFacts[];
  messages: MessageFacts[];
  otherRecords: number;
  /** Names the file gives sessions of its tool (an index of names beside them), in the file's order. */
  names?: Array<{ sessionId: string; name: string }>;
}

const firstString = (values: readonly (string | undefined)[]): string | undefined => values.find((v) => v !== undefined);

/** The sub-agent a file is by where it lies and what its records say (Claude Code's `subagents/agent-*.jsonl`, Codex's thread_spawn). */
function agentOf(file: string, codec: Codec, records: readonly unknown[]): Pick<SessionFacts, 'kind' | 'parentFile' | 'parentSessionId' | 'agentId'> {
  if (codec.companion) return { kind: 'log' };
  if (codec.id === 'claude-code') {
    const first = records.find(isPlainObject);
    // 2.0.x kept a session's sub-agents beside it as `agent-<id>.jsonl`, every line a sidechain one: its session
    // is the file its lines name, beside it (listed under it where that file is listed).
    const named = first && typeof first.sessionId === 'string' && /^[\w-]+$/.test(first.sessionId) ? join(dirname(file), `${first.sessionId}.jsonl`) : undefined;
    const agentId = agentIdOfFile(file);
    const parentFile = parentSessionOf(file) ?? (agentId && named !== file ? named : undefined);
    if (parentFile || agentId) return { kind: 'subagent', parentFile, agentId };
    if (first && first.isSidechain === true && typeof first.agentId === 'string') return { kind: 'subagent', agentId: first.agentId, ...(named ? { parentFile: named } : {}) };
  }
  if (codec.id === 'gemini-cli' || codec.id === 'gemini-cli-jsonl') {
    const parent = geminiParentOf(file);
    if (parent) return { kind: 'subagent', ...parent };
  }
  return { kind: 'session' };
}

/**
 * The description Claude Code gave a sub-agent's task (`agent-<id>.meta.json` beside its file, thread-files.ts),
 * read only where that is a file of its own there, not a link.
 */
function agentDescription(file: string): string | undefined {
  const meta = file.replace(/\.jsonl$/, '.meta.json');
  if (meta === file) return undefined;
  try {
    if (!lstatSync(meta).isFile()) return undefined;
    const o = JSON.parse(readAside(meta) ?? '') as unknown;
    const d = isPlainObject(o) && typeof o.description === 'string' ? o.description.trim() : '';
    return d === '' ? undefined : d;
  } catch {
    return undefined;
  }
}

/** Usage as one call's figures (Anthropic-style reports are already folded into one meaning by the codec). */
export function callOf(conversation: number, index: number, v: MessageView, u: ReportedUsage): CallFacts {
  return {
    conversation,
    key: u.key ?? `#${conversation}:${index}`,
    index,
    at: isoTime(v.timestamp),
    model: u.model ?? v.model,
    input: u.input,
    output: u.output,
    cacheRead: u.cacheRead ?? 0,
    cacheWrite: u.cacheWrite ?? 0,
    cacheWrite1h: u.cacheWrite1h ?? 0,
    reasoning: u.reasoning ?? 0,
    n: u.calls ?? 1,
  };
}

/**
 * Everything the catalog keeps of a parsed file; with `from`, only of the records from there on in each
 * conversation (what an agent appended): the session figures are then those of the new records alone.
 */
export function factsOf(file: string, opened: Pick<OpenedFile, 'codec' | 'doc'>, from?: readonly number[], where: { lines?: LineBytes; /** No threads worked out (a listing from a few lines has none to give). */ noThreads?: boolean } = {}): FileFacts {
  const { codec, doc } = opened;
  const titles = from ? [] : conversationTitles(codec, doc);
  const sessions: SessionFacts[] = [];
  const calls = new Map<string, CallFacts>();
  const messages: MessageFacts[] = [];
  const names: Array<{ sessionId: string; name: string }> = [];
  const slots = where.lines ? recordLines(doc) : undefined;
  const rows = where.noThreads ? undefined : threadRows(codec, doc);
  doc.conversations.forEach((conv, conversation) => {
    const models = new Set<string>();
    let firstAt: string | undefined;
    let lastAt: string | undefined;
    let prompts = 0;
    const start = from?.[conversation] ?? 0;
    for (let index = start; index < conv.records.length; index++) {
      const v = codec.view(conv.records[index]);
      const named = codec.sessionName?.(conv.records[index]);
      if (named) names.push({ sessionId: named.sessionId, name: oneLine(maskedLine(named.name), 120) });
      const at = isoTime(v.timestamp);
      if (at) {
        if (firstAt === undefined || at < firstAt) firstAt = at;
        if (lastAt === undefined || at > lastAt) lastAt = at;
      }
      if (v.model) models.add(v.model);
      if (v.normalRole === 'user' && !v.meta && !v.sidechain && !v.summary && v.parts.some((p) => p.kind === 'text')) prompts++;
      if (v.usage) {
        const call = callOf(conversation, index, v, v.usage);
        // A call of a file that times its sessions alone (Aider's header): on the day its session began.
        call.at ??= isoTime(conv.meta?.startedAt);
        if (call.model) models.add(call.model);
        // A call streamed over several lines: its last line carries the final figures.
        calls.set(`${conversation}\u0000${call.key}`, call);
      }
      const reasoning = reasoningText(v);
      const sent = sentText(v);
      const text = reasoning ? `${sent}\n${reasoning}` : sent;
      if (text) {
        const m: MessageFacts = { conversation, index, role: v.normalRole, text };
        if (v.role !== v.normalRole) m.spelled = v.role;
        const bytes = slots && conversation === 0 ? where.lines!(slots[index]) : undefined;
        if (bytes) m.bytes = bytes;
        if (rows) {
          m.shown = rows[conversation]?.rows[index] ?? null;
          if (m.shown === null) m.offPath = rows[conversation]?.off[index] ?? 'branch';
        }
        messages.push(m);
      }
    }
    for (const t of codec.usageTotals?.(doc, conversation) ?? []) {
      const total = totalOf(codec, conversation, conv.records, t, calls);
      if (total.model) models.add(total.model);
    }
    const meta = conv.meta;
    // What the tool keeps beside the file, asked only for what the file does not say.
    const aside = codec.aside && (!meta?.cwd || (firstAt === undefined && start === 0)) ? codec.aside(file, doc, conversation, readAside) : undefined;
    // Messages that carry no time: when the session began, as the file says it elsewhere (its header, its name).
    if (firstAt === undefined && start === 0) firstAt = lastAt = isoTime(meta?.startedAt) ?? isoTime(aside?.startedAt) ?? timeInName(file);
    const agent = agentOf(file, codec, conv.records);
    sessions.push({
      conversation,
      sessionId: meta?.sessionId,
      ...agent,
      // A Claude Code sub-agent is called what its session's thread menu calls it: the description of its task.
      title: start === 0 ? ((agent.agentId && codec.id === 'claude-code' ? agentDescription(file) : undefined) ?? titles[conversation]) : undefined,
      project: projectOf(file, codec, meta?.cwd ?? aside?.project),
      ...(meta?.projectHash ? { projectHash: meta.projectHash, projectProven: meta.cwd !== undefined || (aside?.project !== undefined && !aside.named) } : {}),
      firstAt,
      lastAt,
      models: [...models].sort(),
      messages: conv.records.length,
      prompts,
      appended: start > 0 || undefined,
      defaultThread: rows?.[conversation]?.byDefault,
      threads: rows?.[conversation]?.threads,
      ...codexParent(doc),
    });
  });
  return { format: codec.id, formatLabel: codec.label, tool: codec.tool, sessions, calls: [...calls.values()], messages, otherRecords: doc.otherRecords, ...(names.length > 0 ? { names } : {}) };
}

/**
 * A total the file reports beside its messages (Copilot CLI's figures of a run), as one call of `usage.calls`
 * calls: the messages' calls it adds up count in it, not apart (their rows stay, with their own output, as no
 * call), and its output is what theirs leaves. Put among `calls`, and given back.
 */
function totalOf(codec: Codec, conversation: number, records: readonly unknown[], t: ReportedTotal, calls: Map<string, CallFacts>): CallFacts {
  const covered = new Map<string, CallFacts>();
  for (const row of t.covers) {
    const v = codec.view(records[row]);
    if (!v.usage) continue;
    const c = callOf(conversation, row, v, v.usage);
    covered.set(c.key, c);
  }
  let theirs = 0;
  for (const c of covered.values()) {
    theirs += c.output ?? 0;
    calls.set(`${conversation}\u0000${c.key}`, { ...c, n: 0 });
  }
  const u = runTotal(t, theirs, covered.size);
  const total: CallFacts = {
    conversation,
    key: t.key,
    index: t.index,
    at: isoTime(t.at),
    model: u.model,
    input: u.input,
    output: u.output,
    cacheRead: u.cacheRead ?? 0,
    cacheWrite: u.cacheWrite ?? 0,
    cacheWrite1h: u.cacheWrite1h ?? 0,
    reasoning: u.reasoning ?? 0,
    n: u.calls,
  };
  calls.set(`${conversation}\u0000${t.key}`, total);
  return total;
}

/** Where each line of a file's text is in its bytes: [start, end) without the line's break. */
export type LineBytes = (line: number) => [number, number] | undefined;

/**
 * The byte range of each line of `bytes` (a line per `\n`, its `\r` left out), offset by `base`: the lines a
 * JSONL baseline numbers, found in the bytes (a scan for newlines), not by measuring the decoded text.
 */
export function lineBytesOf(bytes: Uint8Array, base = 0, firstLine = 0): LineBytes {
  const starts = lineStartsOf(bytes);
  return (line) => {
    const k = line - firstLine;
    if (k < 0 || k >= starts.length) return undefined;
    const start = starts[k];
    let end = k + 1 < starts.length ? starts[k + 1] - 1 : bytes.length;
    if (end > start && bytes[end - 1] === 0x0d) end--;
    return [base + start, base + end];
  };
}

/** Where each line of `bytes` starts (a line per `\n`; the last one may be empty, at the end). */
export function lineStartsOf(bytes: Uint8Array): number[] {
  const starts: number[] = [0];
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) starts.push(at + 1);
  return starts;
}

/** The line each record of a one-record-per-line log came from (its baseline's slots), else undefined. */
function recordLines(doc: ConversationDocument): readonly number[] | undefined {
  const b = doc.baseline as Partial<JsonlRecordsBaseline> | undefined;
  return b?.kind === 'records' && b.slots && doc.conversations.length === 1 ? b.slots : undefined;
}

/** A Codex sub-agent's rollout names the thread that spawned it (`session_meta.source.subagent.thread_spawn`). */
function codexParent(doc: ConversationDocument): Partial<SessionFacts> {
  if (doc.codec !== 'codex-rollout') return {};
  const raw = (doc.baseline as { lines?: { lines?: Array<{ value: unknown }> } } | undefined)?.lines?.lines;
  if (!raw) return {};
  for (const line of raw.slice(0, 5)) {
    const v = line.value;
    if (!isPlainObject(v) || v.type !== 'session_meta' || !isPlainObject(v.payload)) continue;
    const source = v.payload.source;
    const spawn = isPlainObject(source) && isPlainObject(source.subagent) ? source.subagent.thread_spawn : undefined;
    if (isPlainObject(spawn) && typeof spawn.parent_thread_id === 'string') return { kind: 'subagent', parentSessionId: spawn.parent_thread_id, agentId: firstString([typeof spawn.agent_nickname === 'string' ? spawn.agent_nickname : undefined]) };
  }
  return {};
}
