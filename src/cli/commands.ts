import { extname, resolve } from 'node:path';
import { getTokenizer, listConversationFiles, resolveEncoding, serializeConversation, writeFileAtomicSync, type ParsedConversation } from '../core/index.js';
import { readDocumentFile, type OpenedFile } from '../core/formats/document-file.js';
import { codecById, listCodecs } from '../core/formats/registry.js';
import { compactionText, displayText, ENCRYPTED_REASONING, onlyEncryptedReasoning, onlyUnsavedReasoning, readableText, reasoningText, sentText, UNSAVED_REASONING } from '../core/formats/model.js';
import { plainSummary } from '../core/util/reasoning-summary.js';
import { inlineThinking } from '../core/util/inline-thinking.js';
import { withoutLineNumbers } from '../core/util/numbered-lines.js';
import { withoutTerminalCodes } from '../core/util/terminal-codes.js';
import { localCommandText } from '../core/formats/claude-code/local-commands.js';
import { isPlainObject } from '../core/message.js';
import { countView } from '../core/views.js';
import { codecWithRoles, mergeRoles, roleMapping, rolesOf, type RoleDeclaration } from '../core/formats/roles.js';
import { convert } from '../core/formats/convert.js';
import { addUp, callsOf, costOf, costText, describeUsage, formatUsd, priceSourcesText, reportedTotalsOf, reportedUsage, withReportedTotals, type UsageReport } from '../core/usage.js';
import { countingModel, shownSessionModel } from '../core/models.js';
import { SESSION_MODEL } from '../core/defaults.js';
import { standsIn } from '../core/tokenizer/estimate.js';
import { humanBytes, outsideLinksNote, printJson, table } from './output.js';
import { oneLine } from '../core/util/one-line.js';
import { conversationOption, folderArg, UsageError } from './usage.js';
import { selectRecords, type Selection } from './thread-selection.js';
import { ownerWithCall, sessionCalls, sessionThreadFiles, threadFileAsked } from './session-threads.js';
import { threadFileTitle, type ThreadFile } from '../core/sessions/thread-files.js';

/** `1 message`, `2 messages`. */
const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface CommonOptions {
  json: boolean;
  /** The model tokens are counted for (where `sessionModel`, only for a file that names none). */
  model: string;
  /** No --model: a session is counted for the model it ran on. */
  sessionModel?: boolean;
  format?: string;
  depth?: string;
  /** `--as NAME=ROLE`: who speaks under a name, beside what the file declares. */
  as?: readonly string[];
  /** `--thread ID|all`, `--whole`: which path of a session. */
  thread?: string;
  whole?: boolean;
  /** The session's sub-agents in files of their own, by id (what --thread also takes; for its error). */
  threadFiles?: readonly string[];
  /** `--conversation N`: one conversation of a file of several (show). */
  conversation?: string;
}

/** What a count was made with; where the model's own tokenizer is not public, which encoding stands in for it. */
function modelInfo(model: string, source?: 'session' | 'option' | 'default') {
  const choice = resolveEncoding(model);
  const note = standsIn(choice);
  return { model: choice.model, encoding: choice.encoding, approximate: choice.approximate, ...(note ? { encodingStandsIn: note } : {}), ...(source ? { modelSource: source } : {}) };
}

/**
 * The model a file's shown records are counted for: without --model, the model the session ran on (its own
 * tokenizer where public, else an estimate that says so), DEFAULT_MODEL where the file names none.
 */
function countedFor(opened: OpenedFile, selections: readonly Selection[], opts: CommonOptions): { model: string; source: 'session' | 'option' | 'default' } {
  if (!opts.sessionModel) return { model: opts.model, source: 'option' };
  const view = (c: number, i: number) => opened.codec.view(opened.doc.conversations[c].records[i]);
  const named = shownSessionModel(
    selections.flatMap((s, c) => s.records.map((i) => view(c, i))),
    () => opened.doc.conversations.flatMap((conv) => conv.records.map((r) => opened.codec.view(r))),
  );
  return { model: countingModel(SESSION_MODEL, named), source: named ? 'session' : 'default' };
}

/** "46 tokens (gpt-5.4, o200k_base)", or for an estimate "≈ 11,533 tokens (o200k_base stands in for claude-opus-4-6)". */
function tokensLine(total: number, model: string): string {
  const choice = resolveEncoding(model);
  const note = standsIn(choice);
  const n = `${total.toLocaleString('en-US')} token${total === 1 ? '' : 's'}`;
  if (note) return `≈ ${n} (${note})`;
  return `${n} (${choice.encoding === model ? model : `${model}, ${choice.encoding}`})`;
}

function checkFormat(format: string | undefined): void {
  if (format !== undefined && !codecById(format)) throw new UsageError(`unknown --format "${format}"; known: ${listCodecs().map((c) => c.id).join(', ')}`, { brief: true });
}

const NORMAL_ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/** `--as NAME=ROLE` options as role declarations (a bad one is a usage error that says what is wrong). */
export function roleOptions(as: readonly string[] | undefined): RoleDeclaration[] {
  return (as ?? []).map((spec) => {
    const at = spec.lastIndexOf('=');
    const name = at > 0 ? spec.slice(0, at).trim() : '';
    const role = at > 0 ? spec.slice(at + 1).trim().toLowerCase() : '';
    if (!name || !(NORMAL_ROLES as readonly string[]).includes(role)) throw new UsageError(`--as takes NAME=ROLE with ROLE one of ${NORMAL_ROLES.join(', ')}, not "${spec}"`);
    return { role: name, normalRole: role as RoleDeclaration['normalRole'], from: '--as' };
  });
}

export function open(file: string, format: string | undefined, as?: readonly string[]): OpenedFile {
  checkFormat(format);
  const opened = readDocumentFile(file, { format });
  const overrides = roleOptions(as);
  return overrides.length === 0 ? opened : { ...opened, codec: codecWithRoles(opened.codec, mergeRoles(rolesOf(opened.codec), overrides)) };
}

export function lsCommand(dir: string, opts: CommonOptions): void {
  const path = folderArg(dir, 'ls');
  const depth = opts.depth === undefined ? undefined : Number(opts.depth);
  if (depth !== undefined && (!Number.isInteger(depth) || depth < 0)) throw new UsageError(`--depth takes a whole number, not "${opts.depth}"`);
  // Without --model, each file is counted for its session's model, as show and tokens count it.
  const counter = opts.sessionModel
    ? (named: string | undefined) => {
        const model = countingModel(SESSION_MODEL, named);
        return { model, tokenizer: getTokenizer(model) };
      }
    : getTokenizer(opts.model);
  const { entries, truncated, tooDeep, outside } = listConversationFiles(path, counter, { depth });
  const estimates = entries.filter((e) => e.model && resolveEncoding(e.model).approximate).length;
  if (opts.json) {
    printJson({
      directory: path,
      ...(opts.sessionModel ? { modelSource: 'session' } : modelInfo(opts.model, 'option')),
      truncated,
      tooDeep,
      files: entries.map(({ file: _f, name: _n, formatLabel: _l, ...e }) => ({ ...e, ...(e.model ? { approximate: resolveEncoding(e.model).approximate, ...(standsIn(resolveEncoding(e.model)) ? { encodingStandsIn: standsIn(resolveEncoding(e.model)) } : {}) } : {}), modified: e.modified.toISOString() })),
      outside: outside.map((l) => ({ path: l.path, folder: l.folder })),
    });
    return;
  }
  if (entries.length === 0 && outside.length === 0) {
    process.stdout.write(`No conversation files (${[...new Set(listCodecs().flatMap((c) => c.extensions))].join(', ')}) in ${path}\n`);
    return;
  }
  // The path last, as `ls -l` puts a name: a long one (a Claude Code sub-agent's, 180 columns) then pads no other
  // row out past the terminal's width.
  const rows = entries.map((e) => [e.format ?? (e.notRead ? 'not read' : 'error'), e.conversations ?? '', e.messages ?? '', e.tokens ?? '', humanBytes(e.bytes), e.modified.toISOString().replace('T', ' ').slice(0, 19), e.path]);
  for (const l of outside) rows.push(['link outside', '', '', '', '', '', `${l.path}${l.folder ? '/' : ''}`]);
  process.stdout.write(table(['FORMAT', 'CONVERSATIONS', 'MESSAGES', 'TOKENS', 'SIZE', 'MODIFIED', 'PATH'], rows) + '\n');
  // Another tool's database is no error: it is said to be one, not read here.
  for (const e of entries.filter((x) => x.error)) process.stderr.write(`${e.notRead ? 'note' : 'error'}: ${e.path}${e.errorLine ? `:${e.errorLine}:${e.errorColumn ?? 1}` : ''}: ${e.error}\n`);
  if (estimates) process.stderr.write(`note: ${estimates === 1 ? '1 file is' : `${estimates} files are`} counted for a model whose tokenizer is not public (Claude, Gemini, …): o200k_base stands in, its TOKENS are estimates (--json says which)\n`);
  if (truncated) process.stderr.write('note: the listing stopped at its cap; there are more files\n');
  if (tooDeep) process.stderr.write(`note: ${tooDeep} folders deeper than the depth limit were not looked into (--depth N)\n`);
  outsideLinksNote(outside.length, dir);
}


interface ShownMessage {
  conversation: number;
  index: number;
  role: string;
  normalRole: string;
  tokens: number;
  toolTokens?: number;
  reasoningTokens?: number;
  storedTokens?: number;
  category?: string;
  timestamp?: string;
  message_id?: string;
  sidechain?: boolean;
  meta?: boolean;
  /** In a session shown as a path: the record's index in the file's conversation. */
  record?: number;
  /** The tool calls it makes, each with the row of what is shown that holds its result (null: none does). */
  calls?: Array<{ id: string; name: string; result: number | null }>;
  /** With `--thread all`, a message of a thread file of the session's: the thread and its file (`record` is its place there). */
  thread?: string;
  file?: string;
  content: string;
}

/**
 * The messages of the file, across its conversations, with their tokens: of a session, the path the app
 * shows (its main thread since the last compaction, unless `--thread`/`--whole` say otherwise).
 */
function shown(opened: OpenedFile, opts: CommonOptions): { messages: ShownMessage[]; total: number; selections: Selection[]; model: string; source: 'session' | 'option' | 'default' } {
  const messages: ShownMessage[] = [];
  const selections = opened.doc.conversations.map((_, conversation) => selectRecords(opened, conversation, opts));
  // `--conversation N`: that conversation's messages alone, numbered as in the whole file.
  const only = opts.conversation === undefined ? undefined : conversationOption(opts.conversation, opened.doc.conversations.length);
  const { model, source } = countedFor(opened, selections, opts);
  const tokenizer = getTokenizer(model);
  const answers = new Map<string, number>();
  let total = 0;
  opened.doc.conversations.forEach((c, conversation) =>
    (only === undefined || only === conversation ? selections[conversation].records : []).forEach((fileIndex, index) => {
      const r = c.records[fileIndex];
      const v = opened.codec.view(r);
      const t = countView(v, tokenizer);
      total += t.tokens;
      const m: ShownMessage = { conversation, index, role: v.role, normalRole: v.normalRole, tokens: t.tokens, content: sentText(v) };
      if (selections[conversation].thread !== undefined) m.record = fileIndex;
      if (t.toolTokens) m.toolTokens = t.toolTokens;
      if (t.reasoningTokens) m.reasoningTokens = t.reasoningTokens;
      if (isPlainObject(r) && typeof r.token_count === 'number') m.storedTokens = r.token_count;
      if (v.category) m.category = v.category;
      if (v.timestamp) m.timestamp = v.timestamp;
      if (v.id) m.message_id = v.id;
      if (v.sidechain) m.sidechain = true;
      if (v.meta) m.meta = true;
      const calls = v.parts.flatMap((p) => (p.kind === 'tool-call' && p.id ? [{ id: p.id, name: p.name, result: null as number | null }] : []));
      if (calls.length > 0) m.calls = calls;
      for (const p of v.parts) if (p.kind === 'tool-result' && p.callId) answers.set(`${conversation} ${p.callId}`, index);
      messages.push(m);
    }),
  );
  for (const m of messages) for (const c of m.calls ?? []) c.result = answers.get(`${m.conversation} ${c.id}`) ?? null;
  return { messages, total, selections, model, source };
}

/** What a command says of the path it shows, in its JSON: the thread, and the others there are. */
function threadFields(selections: readonly Selection[]): { thread?: string; whole?: boolean; threads?: Selection['threads']; forks?: number; reattached?: number } {
  const s = selections.length === 1 ? selections[0] : undefined;
  return s?.thread !== undefined ? { thread: s.thread, whole: s.whole, threads: s.threads, forks: s.forks ?? 0, ...(s.reattached ? { reattached: s.reattached } : {}) } : {};
}

function printNotes(selections: readonly Selection[]): void {
  for (const s of selections) if (s.note) process.stderr.write(`note: ${s.note}\n`);
}

/**
 * The session a command works on, and its threads in files of their own: `--thread ID` naming one of those is
 * that file (the session said as whose it is); each of them opened once.
 */
interface SessionTarget {
  file: string;
  opened: OpenedFile;
  opts: CommonOptions;
  /** The session's threads in files of their own (of the file asked for). */
  files: ThreadFile[];
  /** Opens one of them (once). */
  child(t: ThreadFile): OpenedFile;
}

function sessionTarget(file: string, opts: CommonOptions): SessionTarget {
  const opened = open(file, opts.format, opts.as);
  const files = sessionThreadFiles(file, opened);
  const cache = new Map<string, OpenedFile>();
  const child = (t: ThreadFile) => {
    let o = cache.get(t.file);
    if (!o) cache.set(t.file, (o = open(t.file, undefined, opts.as)));
    return o;
  };
  const asked = threadFileAsked(opened, files, opts.thread);
  if (asked) return { file: asked.file, opened: child(asked), opts: { ...opts, thread: undefined }, files: [], child };
  return { file, opened, opts: { ...opts, threadFiles: files.map((t) => t.thread) }, files, child };
}

/** What a thread's own file says of whose it is (a sub-agent file, a Codex child rollout), for --json. */
function sessionField(file: string, opened: OpenedFile) {
  const owner = ownerWithCall(file, opened, (f) => open(f, undefined));
  if (!owner) return {};
  return { session: { id: owner.sessionId, ...(owner.file ? { file: resolve(owner.file) } : {}), thread: owner.thread, kind: owner.kind, ...(owner.name ? { name: owner.name } : {}), ...(owner.callId ? { call: owner.callId } : {}) } };
}

/** The session's threads for --json: those of its file, then each of its thread files (with the row of the call that started it). */
function threadsField(selections: readonly Selection[], target: SessionTarget, messages: readonly ShownMessage[]) {
  const base = threadFields(selections);
  if (target.files.length === 0) return base;
  const s = selections[0];
  const own = base.threads && base.threads.length > 0 ? base.threads : [{ thread: s?.thread ?? 'main', messages: target.opened.doc.conversations[0]?.records.length ?? 0, current: s?.records.length ?? 0 }];
  const rowOf = new Map<string, number>();
  for (const m of messages) if (m.thread === undefined) for (const c of m.calls ?? []) rowOf.set(c.id, m.index);
  const files = target.files.map((t) => {
    let counts = {};
    try {
      const o = target.child(t);
      const sel = selectRecords(o, 0, {});
      counts = { messages: o.doc.conversations[0]?.records.length ?? 0, current: sel.records.length };
    } catch (e) {
      counts = { error: (e as Error).message };
    }
    const row = t.callId ? rowOf.get(t.callId) : undefined;
    return { thread: t.thread, file: resolve(t.file), kind: t.kind, ...(t.name ? { name: t.name } : {}), ...(t.role ? { role: t.role } : {}), ...(t.model ? { model: t.model } : {}), ...(t.callId ? { call: t.callId } : {}), ...(row !== undefined ? { callRow: row } : {}), bytes: t.bytes, ...counts };
  });
  return { ...base, thread: base.thread ?? s?.thread ?? 'main', threads: [...own, ...files] };
}

/** With `--thread all`, the messages of each thread file after the session's own, numbered on. */
function withThreadFiles(target: SessionTarget, shownMain: ReturnType<typeof shown>): ReturnType<typeof shown> {
  if (target.opts.thread !== 'all' || target.files.length === 0) return shownMain;
  const messages = shownMain.messages.slice();
  let total = shownMain.total;
  for (const t of target.files) {
    let o: OpenedFile;
    try {
      o = target.child(t);
    } catch (e) {
      process.stderr.write(`note: ${t.file}: not read (${(e as Error).message})\n`);
      continue;
    }
    const more = shown(o, { ...target.opts, thread: 'all', model: shownMain.model, sessionModel: false });
    const at = messages.length;
    for (const m of more.messages) messages.push({ ...m, index: at + m.index, record: m.record ?? m.index, thread: t.thread, file: resolve(t.file), calls: m.calls?.map((c) => ({ ...c, result: c.result === null ? null : at + c.result })) });
    total += more.total;
  }
  return { ...shownMain, messages, total };
}

export function showCommand(file: string, opts: CommonOptions): void {
  const target = sessionTarget(file, opts);
  const { opened } = target;
  const { messages, total, selections, model, source } = withThreadFiles(target, shown(opened, target.opts));
  if (opts.json) {
    printJson({ file: resolve(target.file), format: opened.codec.id, ...modelInfo(model, source), conversations: opened.doc.conversations.length, ...sessionField(target.file, opened), ...threadsField(selections, target, messages), messages, other: opened.doc.otherRecords, totalTokens: total });
    return;
  }
  const many = opened.doc.conversations.length > 1;
  const rows = messages.map((m) => {
    const stored = m.storedTokens !== undefined && m.storedTokens !== m.tokens - (m.toolTokens ?? 0) ? `${m.storedTokens}` : '';
    const from = m.file !== undefined ? target.child(target.files.find((t) => resolve(t.file) === m.file)!) : opened;
    const v = from.codec.view(from.doc.conversations[m.conversation].records[m.record ?? m.index]);
    const result = v.parts.find((p) => p.kind === 'tool-result');
    const marks = [m.sidechain && 'sub-agent', m.meta && 'meta', result?.kind === 'tool-result' && result.isError ? 'tool error' : result && v.normalRole !== 'tool' && 'tool result', (m.category === 'chosen' || m.category === 'rejected') && m.category];
    const flags = marks.filter(Boolean).map((f) => ` (${f})`).join('');
    // As the app says it: a row of nothing but thinking the file keeps only the signature of is not left blank.
    const read = displayText(v);
    // A file a tool read out with its lines numbered reads as the file, as the app's row does.
    const written = result ? (withoutLineNumbers(read) ?? read) : read;
    // An answer that opens with its reasoning in <think> tags reads as its answer, as the app's row does.
    const thought = v.normalRole === 'assistant' ? inlineThinking(written) : undefined;
    // Its reasoning alone before a tool call it made (Crush): the call is what it did, as the app's row says.
    const calls = thought && !thought.answer && v.parts.some((p) => p.kind === 'tool-call') ? readableText({ parts: v.parts.filter((p) => p.kind === 'tool-call') }) : '';
    const shown = thought ? thought.answer || calls || plainSummary(thought.reasoning) : written;
    const said = (shown && (localCommandText(shown) ?? shown)) || m.content || plainSummary(reasoningText(v)) || (onlyUnsavedReasoning(v) ? `[${UNSAVED_REASONING}]` : onlyEncryptedReasoning(v) ? `[${ENCRYPTED_REASONING}]` : '');
    const text = v.compaction ? [compactionText(v.compaction), said].filter(Boolean).join(' · ') : said;
    // Reasoning is counted apart: say so where a row would otherwise read as empty.
    // A file's terminal codes are not written to the user's terminal (they would restyle it, or worse).
    const preview = oneLine(withoutTerminalCodes(m.reasoningTokens ? `[reasoning, ${m.reasoningTokens} tok] ${text}` : text), 60);
    const number = m.thread !== undefined ? `${m.thread.slice(0, 10)}:${m.record}` : many ? `${m.conversation}:${m.index}` : m.index;
    return [number, m.role + flags, m.tokens, stored, m.timestamp ?? '', preview];
  });
  process.stdout.write(table(['#', 'ROLE', 'TOKENS', 'STORED', 'TIMESTAMP', 'CONTENT'], rows) + '\n');
  const other = opened.doc.otherRecords ? `, ${counted(opened.doc.otherRecords, 'other record')}` : '';
  printNotes(selections);
  threadFilesNote(target);
  process.stdout.write(`\n${opened.codec.label}: ${many ? `${opened.doc.conversations.length} conversations, ` : ''}${counted(messages.length, 'message')}${other}, ${tokensLine(total, model)}\n`);
}

/** One line for people on the session's thread files, or on whose thread a file is. */
function threadFilesNote(target: SessionTarget): void {
  const n = target.files.length;
  if (n > 0 && target.opts.thread !== 'all') {
    process.stderr.write(`note: ${counted(n, 'thread')} of this session ${n === 1 ? 'is a file' : 'are files'} of ${n === 1 ? 'its' : 'their'} own (${target.files.slice(0, 3).map(threadFileTitle).join(', ')}${n > 3 ? ', …' : ''}): --thread ID shows one, --thread all adds them\n`);
    return;
  }
  if (n > 0) return;
  const owner = ownerWithCall(target.file, target.opened, (f) => open(f, undefined));
  if (owner) process.stderr.write(`note: the ${threadFileTitle(owner)} of session ${owner.sessionId}${owner.file ? ` (${owner.file})` : ', whose file is not beside it'}${owner.callId ? `, started by its call ${owner.callId}` : ''}\n`);
}

const usageFigures = (u: UsageReport) => ({ calls: u.calls, inputCalls: u.inputCalls, outputCalls: u.outputCalls, input: u.input, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, output: u.output, reasoning: u.reasoning });

export function tokensCommand(file: string, opts: CommonOptions): void {
  const target = sessionTarget(file, opts);
  const { opened } = target;
  const { messages, total, selections, model, source } = withThreadFiles(target, shown(opened, target.opts));
  const children = target.files.flatMap((t) => {
    try {
      return [{ thread: t, opened: target.child(t) }];
    } catch {
      return [];
    }
  });
  const byRole: Record<string, number> = {};
  const byCategory: Record<string, number> = {};
  let input = 0;
  let output = 0;
  let reasoning = 0;
  for (const m of messages) {
    byRole[m.role] = (byRole[m.role] ?? 0) + m.tokens;
    const cat = m.category ?? '(none)';
    byCategory[cat] = (byCategory[cat] ?? 0) + m.tokens;
    if (m.category === 'input') input += m.tokens;
    if (m.category === 'output') output += m.tokens;
    reasoning += m.reasoningTokens ?? 0;
  }
  // What the API reported, where the file records it (each call once): the real input and output, and at
  // list prices what it cost. input_tokens/output_tokens then say that; otherwise they count the categories
  // as the swarms class does.
  // With --thread all, the thread files' records are shown too: what they report is in it.
  const alsoShown = target.opts.thread === 'all' ? children.flatMap((ch) => ch.opened.doc.conversations.flatMap((c) => c.records.map((r) => ch.opened.codec.view(r)))) : [];
  const shownViews = [...opened.doc.conversations.flatMap((c, i) => selections[i].records.map((k) => opened.codec.view(c.records[k]))), ...alsoShown];
  // What the file reports beside its messages (a Copilot CLI run's totals) counts where every record is shown, in order.
  const whole = opened.doc.conversations.length === 1 && alsoShown.length === 0 && selections[0].records.every((k, i) => k === i);
  const totals = whole ? reportedTotalsOf(opened.codec, opened.doc, 0, selections[0].records.length) : [];
  const reported = addUp(withReportedTotals(callsOf(shownViews), totals).map((c) => c.usage));
  const cost = reported ? costOf(reported) : undefined;
  // Every call of the session, whatever is shown: each thread of the file, each thread file's, each once.
  const calls = opened.codec.tree ? sessionCalls(opened, children) : undefined;
  const session = calls?.total;
  if (reported) {
    input = reported.input;
    output = reported.output;
  }
  // A figure no call recorded is unknown, not 0 (Copilot CLI keeps only the output per call).
  const inputKnown = !reported || reported.inputCalls !== 0;
  const outputKnown = !reported || reported.outputCalls !== 0;
  const result = {
    file: resolve(target.file),
    format: opened.codec.id,
    ...modelInfo(model, source),
    ...sessionField(target.file, opened),
    ...threadsField(selections, target, []),
    messages: messages.length,
    totalTokens: total,
    reasoningTokens: reasoning,
    byRole,
    byCategory,
    input_tokens: inputKnown ? input : null,
    output_tokens: outputKnown ? output : null,
    total_tokens: inputKnown && outputKnown ? input + output : null,
    ...(reported ? { reported: { ...reported, cost: cost && { usd: Number(cost.usd.toFixed(6)), unpriced: cost.unpriced, pricesDated: cost.dated, missingInput: cost.missingInput, sources: cost.sources } } } : {}),
    // Every call of the session file, whatever is shown (each once, its final figures), and of them those on
    // branches it did not go on with.
    // Its thread files' calls are in it (a sub-agent's calls are the session's spend), and each thread's apart.
    ...(session ? { session: { ...usageFigures(session), byModel: session.byModel, otherBranches: session.otherBranches ? usageFigures({ ...session.otherBranches, byModel: {} }) : null, threads: calls!.threads.map((t) => ({ thread: t.thread, ...(t.file ? { file: resolve(t.file), kind: t.kind } : {}), ...usageFigures(t.usage) })) } } : {}),
  };
  if (opts.json) {
    printJson(result);
    return;
  }
  printNotes(selections);
  const section = (title: string, counts: Record<string, number>) => `${title}\n` + table(['', 'TOKENS'], Object.entries(counts).map(([k, v]) => [k, v])).replace(/^.*\n/, '') + '\n';
  // What the file records the API reported leads; the count made here follows, named for what it is.
  if (reported) {
    process.stdout.write(`Reported by the API (${counted(reported.calls, 'model call')}): ${describeUsage(reported)}\n`);
    const models = Object.entries(reported.byModel);
    if (models.length > 1) for (const [model, t] of models) process.stdout.write(`  ${model}: ${counted(t.calls, 'call')}, ${describeUsage(t)}\n`);
    if (cost) {
      process.stdout.write(`Cost: ${costText(cost, models.length)}\n`);
      const sources = priceSourcesText(cost);
      if (sources) process.stdout.write(`  prices: ${sources.split('\n').join('\n          ')}\n`);
    }
    process.stdout.write('\n');
  }
  if (session && (!reported || session.calls !== reported.calls)) {
    const files = children.length > 0 ? `, its ${counted(children.length, 'thread file')}` : '';
    const all = costOf(session);
    process.stdout.write(`The session in all (every thread${files}, part and branch): ${counted(session.calls, 'model call')}: ${describeUsage(session)}; ${costText(all, Object.keys(session.byModel).length)}\n`);
    if (session.otherBranches) process.stdout.write(`  of which on branches the session did not go on with: ${counted(session.otherBranches.calls, 'call')}, ${describeUsage(session.otherBranches)}\n`);
    if (calls!.threads.length > 1) for (const t of calls!.threads) process.stdout.write(`  ${t.file ? threadFileTitle({ thread: t.thread, kind: t.kind ?? 'sub-agent' }) : t.thread === 'main' ? 'main thread' : `sub-agent ${t.thread}`}: ${counted(t.usage.calls, 'call')}, ${describeUsage(t.usage)}; ${formatUsd(costOf(t.usage).usd)}\n`);
  }
  process.stdout.write(`Counted here: ${counted(messages.length, 'message')}, ${tokensLine(total, model)}${reasoning ? ` (and ${reasoning} of reasoning)` : ''}\n\n`);
  process.stdout.write(section('By role', byRole) + '\n');
  // Categories where the file gives any (a swarms history's): a lone "(none)" row says nothing.
  const categorized = Object.keys(byCategory).some((k) => k !== '(none)');
  if (categorized) process.stdout.write(section('By category', byCategory) + '\n');
  // A compacted session's part since its compaction may hold no call yet: say so, not input_tokens 0.
  if (!reported && !categorized) {
    const all = reportedUsage(opened.doc.conversations.flatMap((c) => c.records.map((r) => opened.codec.view(r))));
    if (all) process.stdout.write(`No model call reported usage in what is shown (the file reports ${all.calls} call${all.calls === 1 ? '' : 's'} in all, its sub-agents' too: --whole, --thread)\n`);
    return;
  }
  const figure = (name: string, value: number, known: boolean) => (known ? `${name} ${value}` : `${name} not recorded`);
  process.stdout.write(`${[figure('input_tokens', input, inputKnown), figure('output_tokens', output, outputKnown), ...(inputKnown && outputKnown ? [`total_tokens ${input + output}`] : [])].join(', ')}${reported ? ' (as the API reported them)' : ''}\n`);
}

/** The formats a conversion can write. */
const writableCodecs = () => listCodecs().filter((c) => !c.readOnly).map((c) => c.id);

/** Codec ids by file extension, for `-o OUT` without `--to`... and the short names json and yaml. */
function targetCodec(to: string | undefined, from: OpenedFile): string {
  if (to === undefined) throw new UsageError(`convert needs --to FORMAT (one of: ${writableCodecs().join(', ')}; json and yaml for the swarms formats)`);
  if (to === 'json') return from.codec.id === 'swarms-json' ? from.codec.id : 'swarms-json';
  if (to === 'yaml') return 'swarms-yaml';
  const target = codecById(to);
  if (!target) throw new UsageError(`unknown --to "${to}"; known: ${writableCodecs().join(', ')}`, { brief: true });
  if (target.readOnly) throw new UsageError(`--to ${to}: ${target.label} is read here, never written (${target.readOnly})`, { brief: true });
  return to;
}

export function convertCommand(file: string, to: string | undefined, out: string | undefined, opts: { format?: string; as?: readonly string[]; cwd?: string } = {}): void {
  if (to === undefined) throw new UsageError(`convert needs --to FORMAT (one of: ${writableCodecs().join(', ')}; json and yaml for the swarms formats)`);
  const opened = open(file, opts.format, opts.as);
  const id = targetCodec(to, opened);
  const codec = codecById(id)!;
  if (out && !codec.extensions.includes(extname(out).toLowerCase())) throw new UsageError(`-o ${out}: ${codec.label} files end in ${codec.extensions.join(' or ')}`);
  const roles = roleMapping(opened.codec, opened.doc).filter((d) => d.normalRole !== 'other');
  if (roles.length > 0 && id !== opened.codec.id) process.stderr.write(`note: roles: ${roles.map((d) => `${d.role} is ${d.normalRole === 'user' ? 'the user' : `the ${d.normalRole}`} (${d.from})`).join('; ')}; --as NAME=ROLE says otherwise\n`);
  const same = sameShapeSwarms(opened, id);
  const conversion = same === undefined ? convert(opened, id, { cwd: opts.cwd, file }) : { text: same, notes: [], problems: [] };
  for (const l of conversion.notes) process.stderr.write(`note: ${/^\d/.test(l) || l.startsWith('a new ') ? l : `${codec.label} cannot hold ${l}`}\n`);
  for (const p of conversion.problems) process.stderr.write(`warning: ${codec.label} would not take ${p}\n`);
  const text = conversion.text;
  if (!out) {
    process.stdout.write(text);
    return;
  }
  writeFileAtomicSync(out, text);
  process.stderr.write(`Wrote ${opened.doc.conversations.reduce((n, c) => n + c.records.length, 0)} messages to ${out}\n`);
}

/** Between the swarms JSON and YAML formats the file keeps its shape (a wrapper stays a wrapper, with its metadata). */
function sameShapeSwarms(opened: OpenedFile, id: string): string | undefined {
  const swarms = ['swarms-json', 'swarms-yaml'];
  if (!swarms.includes(opened.codec.id) || !swarms.includes(id) || id === opened.codec.id) return undefined;
  const b = opened.doc.baseline as ({ kind: 'conversation'; parsed: ParsedConversation } | { kind: 'agent' }) | ParsedConversation;
  const parsed = 'kind' in b ? (b.kind === 'conversation' ? b.parsed : undefined) : b;
  if (!parsed) return undefined;
  return serializeConversation(parsed.messages, { format: id === 'swarms-json' ? 'json' : 'yaml', shape: parsed.shape, root: parsed.root });
}
