import { linkToolParts } from '../views.js';
import type { Codec } from './codec.js';
import { createDocument, type NewConversation } from './create.js';
import { threadPaths } from '../tree/thread-paths.js';
import type { OpenedFile } from './document-file.js';
import { ConversationFileError } from './errors.js';
import { sentText, type MessageView, type Part } from './model.js';
import { nameFunctionResponses } from './gemini/contents-codec.js';
import { codecById } from './registry.js';
import { describeProblem, problemsOf } from './validity.js';

/**
 * Conversion from any format into any other, so that the file written is one the target's own tool takes:
 * every message the target can hold, tool calls linked to their results, the conversation's tools carried,
 * and each thing the target has no place for, or that had to change to be valid there, said before writing.
 */

export interface ConvertOptions {
  /** Where a new agent session (Claude Code, Codex) says it ran, when the source does not say. */
  cwd?: string;
  /** The session id a new agent session gets (a fresh one otherwise). */
  sessionId?: string;
  /** The source file, as a refusal names it. */
  file?: string;
}

export interface Conversion {
  text: string;
  /** What the target could not hold, or what changed to make it valid there, each with how often. */
  notes: string[];
  /** What the target's own tool would still refuse in the result (none for every built-in pair). */
  problems: string[];
}

/** Counts of notes, said once each with their count. */
class Notes {
  private readonly counts = new Map<string, number>();
  add(note: string, n = 1): void {
    this.counts.set(note, (this.counts.get(note) ?? 0) + n);
  }
  list(): string[] {
    return [...this.counts].map(([note, n]) => note.replace('{n}', String(n)).replace('{s}', n === 1 ? '' : 's'));
  }
}

/**
 * Targets whose every conversation is a fine-tuning example: one with no assistant message teaches nothing
 * (OpenAI refuses the file; LLaMA-Factory drops a ShareGPT conversation with no answer).
 */
const EXAMPLES = new Set(['openai-chat-jsonl', 'openai-chat-dataset', 'sharegpt', 'sharegpt-jsonl', 'llamafactory-v1']);
/** Targets that are an agent's session: its tool opens none of no message (Claude Code does not list it). */
const SESSIONS = new Set(['claude-code', 'codex-rollout']);

const STRICT_LINKS = new Set(['openai-chat', 'openai-chat-jsonl', 'openai-chat-dataset', 'anthropic-messages', 'claude-code', 'codex-rollout', 'langchain', 'claude-ai-export']);
const SHAREGPT = new Set(['sharegpt', 'sharegpt-jsonl']);

/**
 * An OASST tree is a prompter's message and answers in turn, text only: the system prompt and the tool
 * exchanges are dropped (said so), turns of one side in a row become one, and an answer before any prompt goes.
 */
function fitOasst(views: MessageView[], notes: Notes): MessageView[] {
  const out: MessageView[] = [];
  for (const v of views) {
    const text = v.parts.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text).join('\n');
    const side = v.normalRole === 'user' ? 'user' : v.normalRole === 'assistant' ? 'assistant' : undefined;
    if (!side || text === '') {
      notes.add(side ? 'dropped {n} message{s} without text (tool calls, results, images: an OASST message is text)' : `dropped {n} ${v.normalRole} message{s} (an OASST tree has prompts and answers only)`);
      continue;
    }
    if (out.length === 0 && side === 'assistant') {
      notes.add('dropped {n} answer{s} before the first prompt');
      continue;
    }
    const last = out[out.length - 1];
    if (last && last.normalRole === side) {
      last.parts = [{ kind: 'text', text: `${(last.parts[0] as { text: string }).text}\n\n${text}` }];
      notes.add('{n} message{s} joined to the one before (an OASST tree alternates prompt and answer)');
      continue;
    }
    out.push({ ...v, role: side === 'user' ? 'prompter' : 'assistant', normalRole: side, parts: [{ kind: 'text', text }] });
  }
  return out;
}

/** Reasoning the target keeps: its own provider's (Anthropic takes back only signed thinking), readable text elsewhere. */
function keepsReasoning(target: Codec, p: Extract<Part, { kind: 'reasoning' }>): boolean {
  if (!target.capabilities.reasoning) return false;
  if (target.id === 'anthropic-messages' || target.id === 'claude-code' || target.id === 'claude-ai-export') return p.vendor === 'anthropic';
  if (target.id === 'codex-rollout') return !p.encrypted || p.vendor === 'openai';
  return !p.encrypted && !p.signature;
}

/**
 * A target that keys its messages by id reads a repeated id as a later version of the earlier message (which
 * it then hides): a message whose id an earlier one has (an index of renames, a copy) gets one of its own.
 */
function withoutRepeatedIds(views: MessageView[]): MessageView[] {
  const seen = new Set<string>();
  return views.map((v) => {
    if (v.id === undefined) return v;
    if (!seen.has(v.id)) {
      seen.add(v.id);
      return v;
    }
    const { id: _repeated, ...fresh } = v;
    return fresh;
  });
}

/**
 * A conversation's views as the target can hold them: tool results that answer no call become plain
 * messages, calls never answered get a result that says so (where the target requires one), reasoning the
 * target cannot take is dropped, and a message left with nothing is dropped.
 */
function fitViews(source: readonly MessageView[], target: Codec, notes: Notes): MessageView[] {
  const views = linkToolParts(source);
  const strict = STRICT_LINKS.has(target.id) || SHAREGPT.has(target.id) || target.id === 'llamafactory-v1';
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const v of views) for (const p of v.parts) {
    if (p.kind === 'tool-call' && p.id) calls.add(p.id);
    if (p.kind === 'tool-result' && p.callId && calls.has(p.callId)) answered.add(p.callId);
  }
  const out: MessageView[] = [];
  const seenCalls = new Set<string>();
  for (const v of views) {
    const parts: Part[] = [];
    let orphan = false;
    for (const p of v.parts) {
      if (p.kind === 'reasoning' && !keepsReasoning(target, p)) {
        if (p.encrypted) notes.add('{n} encrypted reasoning item{s} (only the model that wrote them can read them)');
        else for (const l of target.loses({ ...v, parts: [p] })) notes.add(l);
        continue;
      }
      if (p.kind === 'tool-result' && strict && !(p.callId && seenCalls.has(p.callId))) {
        orphan = true;
        if (p.text !== '') parts.push({ kind: 'text', text: p.text });
        continue;
      }
      if (p.kind === 'tool-call' && p.id) seenCalls.add(p.id);
      parts.push(p);
    }
    if (orphan) notes.add(`{n} tool result{s} with no call before them: written as user messages (${target.label} links every result to its call)`);
    if (parts.length === 0) {
      if (v.parts.length > 0 && !orphan) notes.add('{n} message{s} with nothing else than what the target cannot hold, dropped');
      else if (v.parts.length === 0) notes.add('{n} empty message{s} dropped');
      continue;
    }
    const view: MessageView = orphan && !parts.some((p) => p.kind === 'tool-result') ? { ...v, parts, role: 'user', normalRole: 'user' } : parts === v.parts ? v : { ...v, parts };
    out.push(view);
    // A call the conversation never answers, with more after it: the target needs a result first.
    const unanswered = strict ? view.parts.filter((p): p is Extract<Part, { kind: 'tool-call' }> => p.kind === 'tool-call' && !!p.id && !answered.has(p.id)) : [];
    // A last call may stay open (the session stopped there), but in a rollout Codex resumes every call needs its output.
    if (unanswered.length > 0 && (!isLast(views, v) || target.id === 'codex-rollout')) {
      for (const c of unanswered) out.push({ role: 'tool', normalRole: 'tool', parts: [{ kind: 'tool-result', callId: c.id, text: '(no result was recorded)' }] });
      notes.add(`{n} tool call{s} with no result in the file: answered with "(no result was recorded)" (${target.label} needs every call answered)`, unanswered.length);
    }
  }
  return out;
}

const isLast = (views: readonly MessageView[], v: MessageView) => views.indexOf(v) === views.length - 1;

/**
 * A message split where the target keeps each call or result in a record of its own (`toolParts: 'one'`) or
 * each result apart (`calls`): a run of other parts is one message, each call or result that needs a record
 * gets one; the message's own id stays with the first piece.
 */
export function splitForTarget(views: readonly MessageView[], to: Codec): MessageView[] {
  const mode = to.capabilities.toolParts ?? 'calls';
  if (mode === 'turn') return foldResultsIntoTurns(views);
  const out: MessageView[] = [];
  for (const v of views) {
    // Blocks hold any mix, but a result is the user's side's: one in a model turn (Gemini's) goes apart.
    const own = (p: Part) => (p.kind === 'tool-result' && (mode !== 'any' || v.normalRole === 'assistant')) || (mode === 'one' && (p.kind === 'tool-call' || (p.kind === 'reasoning' && to.capabilities.reasoning)));
    const pieces = v.parts.filter(own).length;
    if (pieces === 0 || (pieces === 1 && v.parts.length === 1 && v.parts[0].kind !== 'tool-result')) {
      out.push(v);
      continue;
    }
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

/** For a target whose model turn holds its calls' results (Gemini CLI): each result message folded into the turn before it. */
function foldResultsIntoTurns(views: readonly MessageView[]): MessageView[] {
  const out: MessageView[] = [];
  for (const v of views) {
    const last = out[out.length - 1];
    const results = v.parts.filter((p) => p.kind === 'tool-result');
    // A turn that holds calls keeps its own results; another message's results go to the turn that made the calls.
    if (results.length === 0 || v.parts.some((p) => p.kind === 'tool-call') || !last || last.normalRole !== 'assistant' || !last.parts.some((p) => p.kind === 'tool-call')) {
      out.push(v);
      continue;
    }
    out[out.length - 1] = { ...last, parts: [...last.parts, ...results] };
    // What else the message says (a Cline result's environment details) is the user's, after the turn.
    const rest = v.parts.filter((p) => p.kind !== 'tool-result');
    if (rest.length > 0) out.push({ ...v, parts: rest });
  }
  return out;
}

const side = (v: MessageView) => (v.normalRole === 'assistant' ? 'model' : 'human');
const isCall = (v: MessageView) => v.parts.length > 0 && v.parts.every((p) => p.kind === 'tool-call');
const isResult = (v: MessageView) => v.parts.length > 0 && v.parts.every((p) => p.kind === 'tool-result');

/**
 * ShareGPT as LLaMA-Factory reads it: the system prompt apart, turns alternating human and model,
 * parallel calls in one `function_call` turn and their results in one `observation`, an even count.
 */
function fitShareGpt(views: readonly MessageView[], notes: Notes): { views: MessageView[]; system?: string } {
  let k = 0;
  const system: string[] = [];
  while (k < views.length && views[k].normalRole === 'system') system.push(sentText(views[k++]));
  const out: MessageView[] = [];
  for (; k < views.length; k++) {
    let v = views[k];
    if (v.normalRole === 'system') {
      notes.add('{n} system message{s} after the first turn: written as human turns (ShareGPT keeps one system prompt, first)');
      v = { ...v, normalRole: 'user', role: 'user' };
    }
    const prev = out[out.length - 1];
    if (!prev || side(prev) !== side(v)) {
      out.push(v);
      continue;
    }
    // Two turns of one side in a row: ShareGPT alternates, so they become one, or one gives way.
    if (isCall(prev) && isCall(v)) out[out.length - 1] = { ...prev, parts: [...prev.parts, ...v.parts] };
    // Parallel calls' results share one observation turn (the writer joins them as LLaMA-Factory does).
    else if (isResult(prev) && isResult(v)) out[out.length - 1] = { ...prev, parts: [...prev.parts, ...v.parts] };
    else if (!isCall(prev) && !isResult(prev) && isCall(v)) {
      notes.add('{n} assistant text{s} right before a tool call dropped (a ShareGPT function_call turn holds only the call)');
      out[out.length - 1] = v;
    } else if (!isCall(prev) && !isResult(prev) && !isCall(v) && !isResult(v)) {
      out[out.length - 1] = { ...prev, parts: [{ kind: 'text', text: `${sentText(prev)}\n\n${sentText(v)}` }] };
      notes.add('{n} turn{s} joined to the turn before by the same side (ShareGPT alternates human and gpt)');
    } else notes.add(isResult(prev) ? '{n} human turn{s} right after a tool result dropped (in ShareGPT the model answers an observation)' : '{n} turn{s} that could not alternate dropped');
  }
  while (out.length > 0 && side(out[0]) === 'model') {
    out.shift();
    notes.add('{n} model turn{s} before the first human turn dropped (ShareGPT starts with the human)');
  }
  if (out.length % 2 === 1) {
    out.pop();
    notes.add('{n} last human turn{s} with no answer dropped (LLaMA-Factory drops a conversation with an odd number of turns)');
  }
  return { views: out, ...(system.length > 0 ? { system: system.join('\n\n') } : {}) };
}

/** Anthropic's Messages keep the system prompt apart, and answer parallel calls in one user message. */
function fitAnthropic(views: readonly MessageView[]): { views: MessageView[]; system?: string } {
  let k = 0;
  const system: string[] = [];
  while (k < views.length && views[k].normalRole === 'system') system.push(sentText(views[k++]));
  const out: MessageView[] = [];
  for (const v of views.slice(k)) {
    const prev = out[out.length - 1];
    if (prev && isResult(prev) && isResult(v)) out[out.length - 1] = { ...prev, parts: [...prev.parts, ...v.parts] };
    else out.push(v);
  }
  return { views: out, ...(system.length > 0 ? { system: system.join('\n\n') } : {}) };
}

/** The session fields a new Claude Code line carries, taken from the source where it is a session too. */
function claudeCodeSeed(from: OpenedFile, conversation: number, options: ConvertOptions): Record<string, unknown> {
  const meta = from.doc.conversations[conversation]?.meta ?? {};
  return {
    isSidechain: false,
    userType: 'external',
    cwd: options.cwd ?? meta.cwd ?? process.cwd(),
    sessionId: options.sessionId ?? crypto.randomUUID(),
    version: from.codec.id === 'claude-code' && meta.version ? meta.version : '2.0.0',
    ...(meta.gitBranch ? { gitBranch: meta.gitBranch } : {}),
  };
}

/** What converting would lose before anything is made valid: each message's losses, and the file's own. */
function losses(from: OpenedFile, to: Codec, notes: Notes): void {
  if (to.capabilities.conversations === 'one' && from.doc.conversations.length > 1) notes.add(`all but the first of ${from.doc.conversations.length} conversations (${to.label} holds one)`);
  if (from.doc.otherRecords > 0 && !to.capabilities.otherRecords) notes.add(`${from.doc.otherRecords} records that are not messages (session metadata, events)`);
  if (from.codec.id.startsWith('sharegpt') && !to.id.startsWith('sharegpt') && from.doc.conversations.some((c) => c.records.some((r) => ['chosen', 'rejected'].includes(from.codec.view(r).category ?? '')))) {
    notes.add('which answer was chosen and which rejected (the pair becomes two answers in a row)');
  }
  const hasTools = from.doc.conversations.some((c) => (c.meta?.tools?.length ?? 0) > 0);
  const holdsTools = ['openai-chat', 'openai-chat-jsonl', 'openai-chat-dataset', 'llamafactory-v1', 'sharegpt', 'sharegpt-jsonl', 'anthropic-messages'];
  if (hasTools && !holdsTools.includes(to.id)) notes.add(`the tool schemas the conversations declare (${to.label} has no place for them)`);
}

/** Converts a document into another format (or, to its own, gives its bytes back). */
export function convert(from: OpenedFile, toId: string, options: ConvertOptions = {}): Conversion {
  const to = codecById(toId);
  if (!to) throw new ConversationFileError('(convert)', `unknown format "${toId}"`);
  if (to.id === from.codec.id) return { text: (from.bom ? '\ufeff' : '') + from.doc.text, notes: [], problems: [] };
  if (to.readOnly) throw new ConversationFileError('(convert)', `${to.label} is read here, never written (${to.readOnly})`);
  const notes = new Notes();
  losses(from, to, notes);
  const keep = to.capabilities.conversations === 'many' ? from.doc.conversations : from.doc.conversations.slice(0, 1);
  const refuse = (why: string) => new ConversationFileError(options.file ?? '(convert)', `nothing to write: ${why}`);
  let made: Array<NewConversation & { answered: boolean }> = keep.map((c, ci) => {
    // A session is a tree: what converts is its main thread's path, through its compactions. Sub-agents'
    // messages in between would break the target's call-and-result order; abandoned branches were never sent.
    const path = threadPaths(from.codec, from.doc, ci)?.[0];
    const records = path && path.thread === 'main' ? path.whole.map((i) => c.records[i]) : c.records;
    if (records.length < c.records.length) notes.add(`dropped {n} message{s} of sub-agent threads and other branches (the main thread's path, as shown, is converted)`, c.records.length - records.length);
    let views = fitViews(
      records.map((r) => from.codec.view(r)),
      to,
      notes,
    );
    let system: string | undefined;
    if (SHAREGPT.has(to.id)) ({ views, system } = fitShareGpt(splitForTarget(views, to), notes));
    else if (to.id === 'anthropic-messages') ({ views, system } = fitAnthropic(splitForTarget(views, to)));
    else if (to.id === 'oasst-trees') views = fitOasst(views, notes);
    else views = splitForTarget(views, to);
    const lossTexts = new Set<string>();
    for (const v of views) for (const l of to.loses(v)) lossTexts.add(l);
    for (const l of lossTexts) notes.add(l);
    const near = to.id === 'claude-code' ? claudeCodeSeed(from, ci, options) : undefined;
    if (to.freshIds) views = withoutRepeatedIds(views);
    const records2 = views.map((v) => to.fromView(v, near));
    return { records: to.id === 'gemini-contents' ? nameFunctionResponses(records2) : records2, meta: c.meta, title: c.title, system, answered: views.some((v) => v.normalRole === 'assistant') };
  });
  if (SESSIONS.has(to.id) && (made[0]?.records.length ?? 0) === 0) throw refuse(`the conversation has no messages, and ${to.tool ?? to.label} opens no session of none`);
  if (EXAMPLES.has(to.id)) {
    const examples = made.filter((c) => c.answered);
    if (examples.length === 0) throw refuse(`no conversation of the file has an assistant message, and each ${to.label} example needs one to learn from`);
    if (examples.length < made.length) notes.add('{n} conversation{s} with no assistant message dropped (a fine-tuning example needs one to learn from)', made.length - examples.length);
    made = examples;
  }
  const sessionId = to.id === 'claude-code' ? String((made[0]?.records[0] as { sessionId?: unknown } | undefined)?.sessionId ?? '') : undefined;
  const text = createDocument(to, made, options);
  if (to.id === 'claude-code' && sessionId) {
    const cwd = String((made[0].records[0] as { cwd?: unknown }).cwd);
    notes.add(`a new Claude Code session ${sessionId} for ${cwd}: for \`claude --resume ${sessionId}\` to find it, save it as ~/.claude/projects/${cwd.replace(/[^A-Za-z0-9]/g, '-')}/${sessionId}.jsonl`);
  }
  let problems: string[] = [];
  try {
    const again = to.parse(text, `(converted)${to.extensions[0]}`);
    problems = problemsOf(to, again).map((p) => describeProblem(p, again.conversations.length));
  } catch (e) {
    problems = [`the ${to.label} written would not read back (${(e as Error).message})`];
  }
  return { text, notes: notes.list(), problems };
}
