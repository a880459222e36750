import { extname, resolve } from 'node:path';
import { conversationOption } from './usage.js';
import {
  applyPlan,
  buildSkeleton,
  compactAllPlan,
  FATES,
  getTokenizer,
  strategies,
  summariesForPlan,
  summarizerFrom,
  writeFileAtomicSync,
  type Message,
  type Summarizer,
  type WindowPlan,
  type ParamSpec,
  type WindowSkeleton,
} from '../core/index.js';
import { readDocumentFile, serializeDocument, type OpenedFile } from '../core/formats/document-file.js';
import { sentText } from '../core/formats/model.js';
import { codecById } from '../core/formats/registry.js';
import { applyPlanToRecords, buildViewSkeleton, countView } from '../core/views.js';
import { printJson, table } from './output.js';
import { InputError, UsageError } from './usage.js';
import { selectRecords, type ThreadOptions } from './thread-selection.js';
import { replacePath } from '../core/tree/path-edits.js';

/**
 * `--set key=value` checked against the strategy's parameters: a key it does not have, or a value of the
 * wrong kind, is a usage error naming what it takes (a typo must not quietly plan with the default).
 */
export function parseSettings(pairs: readonly string[], params?: readonly ParamSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set takes key=value, not "${pair}"`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    const value = raw === 'null' ? null : raw === 'true' ? true : raw === 'false' ? false : raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    const spec = params?.find((p) => p.key === key);
    if (params && !spec) throw new UsageError(`--set ${key}: this strategy has no such setting (it takes: ${params.map((p) => p.key).join(', ') || 'none'})`);
    if (spec && (spec.kind === 'tokens' || spec.kind === 'count') && (typeof value !== 'number' || !Number.isInteger(value) || value < (spec.min ?? 0))) {
      throw new UsageError(`--set ${key}=${raw}: takes a whole number${spec.min !== undefined ? ` of at least ${spec.min}` : ''}`);
    }
    if (spec?.kind === 'boolean' && typeof value !== 'boolean') throw new UsageError(`--set ${key}=${raw}: takes true or false`);
    if (spec?.kind === 'choice' && !spec.choices?.includes(String(value))) throw new UsageError(`--set ${key}=${raw}: takes one of ${spec.choices?.join(', ')}`);
    out[key] = spec?.kind === 'text' || spec?.kind === 'choice' ? raw : value;
  }
  return out;
}

const FATE_MARK: Record<string, string> = { kept: 'kept', dropped: '⨯ dropped', cut: '✂ cut', summarised: 'Σ summarised' };

function printPlan(plan: WindowPlan, roles: string[], tokensBefore: number[]): void {
  const rows = plan.messages.map((f) => {
    const note = f.cut ? `${f.cut.keep === 'start' ? 'keeps the start up to' : 'keeps the end from'} offset ${f.cut.offset}${f.cut.approximate ? ' (estimated)' : ''}` : f.summary !== undefined ? `into summary ${f.summary}` : '';
    return [f.index, roles[f.index], FATE_MARK[f.fate], tokensBefore[f.index], f.tokensAfter, note];
  });
  process.stdout.write(table(['#', 'ROLE', 'FATE', 'TOKENS', 'AFTER', 'NOTE'], rows) + '\n\n');
  const c = plan.counts;
  process.stdout.write(
    `${plan.strategy} ${JSON.stringify(plan.params)}: ${plan.totalBefore} → ${plan.totalAfter} tokens (${plan.unit}); ` +
      `${c.kept} kept, ${c.cut} cut, ${c.dropped} dropped, ${c.summarised} summarised\n`,
  );
  for (const ins of plan.inserted) process.stdout.write(`+ a ${ins.role} summary before message ${ins.before}, replacing ${ins.replaces.length} messages\n`);
  for (const w of plan.warnings) process.stdout.write(`warning: ${w.message}\n`);
}

/**
 * A conversation of any format, ready for the planners: the swarms formats keep their own semantics (the
 * history string, token_count), every other format is seen through its parts.
 */
interface Planned {
  opened: OpenedFile;
  conversation: number;
  /** swarms messages, or for other formats a swarms-shaped stand-in per record (for summarisers). */
  messages: Message[];
  roles: string[];
  skeleton: WindowSkeleton;
  swarms: boolean;
  /** The records planned, by index among the conversation's: a session's path, else all of them. */
  path: number[];
}

function conversationIndex(raw: string | undefined, opened: OpenedFile): number {
  if (raw === undefined) {
    const n = opened.doc.conversations.length;
    if (n > 1) process.stderr.write(`note: the file holds ${n} conversations; this is conversation 0 (--conversation 0..${n - 1} picks another)\n`);
    return 0;
  }
  return conversationOption(raw, opened.doc.conversations.length);
}

function planned(file: string, opts: { model: string; format?: string; conversation?: string } & ThreadOptions): Planned {
  if (opts.format !== undefined && !codecById(opts.format)) throw new UsageError(`unknown --format "${opts.format}"`, { brief: true });
  const opened = readDocumentFile(file, { format: opts.format });
  const conversation = conversationIndex(opts.conversation, opened);
  const records = opened.doc.conversations[conversation].records;
  const tokenizer = getTokenizer(opts.model);
  if (opened.codec.id === 'swarms-json' || opened.codec.id === 'swarms-yaml') {
    const messages = records as Message[];
    return { opened, conversation, messages, roles: messages.map((m) => m.role), skeleton: buildSkeleton(messages, tokenizer, { countToolCalls: true }), swarms: true, path: messages.map((_, i) => i) };
  }
  // A session is planned on the path its model was sent: the main thread since its last compaction.
  const selection = selectRecords(opened, conversation, opts);
  if (selection.note) process.stderr.write(`note: ${selection.note}\n`);
  const views = selection.records.map((i) => opened.codec.view(records[i]));
  return { opened, conversation, messages: views.map((v) => ({ role: v.role, content: sentText(v) })), roles: views.map((v) => v.role), skeleton: buildViewSkeleton(views, tokenizer), swarms: false, path: selection.records };
}

export function planCommand(file: string, strategyId: string | undefined, settings: readonly string[], opts: { json: boolean; model: string; format?: string; conversation?: string } & ThreadOptions): void {
  if (!strategyId) throw new UsageError(`plan needs --strategy (one of: ${strategies.list().map((s) => s.id).join(', ')})`);
  if (!strategies.get(strategyId)) throw new UsageError(`unknown strategy "${strategyId}"; known: ${strategies.list().map((s) => s.id).join(', ')}`, { brief: true });
  const { skeleton, roles } = planned(file, opts);
  const plan = strategies.plan(strategyId, skeleton, parseSettings(settings, strategies.get(strategyId)?.params));
  const tokensBefore = skeleton.messages.map((m) => (plan.unit === 'content' ? m.tokens : m.renderedTokens));
  if (opts.json) {
    printJson({
      file: resolve(file),
      model: opts.model,
      ...plan,
      // Typed arrays print as {"0": 1, …} in JSON: as lists here, fates by name as in `messages`.
      fates: Array.from(plan.fates, (f) => FATES[f]),
      tokensAfter: Array.from(plan.tokensAfter),
      summaryOf: plan.summaryOf ? Array.from(plan.summaryOf) : null,
      messages: plan.messages.map((f) => ({ ...f, role: roles[f.index], tokens: tokensBefore[f.index] })),
    });
    return;
  }
  printPlan(plan, roles, tokensBefore);
}

export interface CompactOptions {
  format?: string;
  conversation?: string;
  summary?: string;
  summarizer?: string;
  output?: string;
  inPlace: boolean;
  keepRecent?: string;
  model: string;
  baseUrl?: string;
  summaryModel?: string;
}

function chooseSummarizer(opts: CompactOptions): Summarizer {
  if (opts.summary !== undefined && opts.summarizer !== undefined) throw new UsageError('give either --summary or --summarizer, not both');
  if (opts.summary !== undefined) {
    if (opts.summary.trim() === '') throw new UsageError('--summary must not be empty');
    return summarizerFrom({ kind: 'text', text: opts.summary }, { model: opts.model });
  }
  if (opts.summarizer === 'offline') return summarizerFrom({ kind: 'offline' }, { model: opts.model });
  if (opts.summarizer === 'openai') return summarizerFrom({ kind: 'openai', baseUrl: opts.baseUrl, model: opts.summaryModel }, { model: opts.model });
  throw new UsageError('compact needs --summary TEXT or --summarizer offline|openai');
}

/** The spec's compact: the static context, then one summary of everything else (or all but the last N). */
export async function compactCommand(file: string, opts: CompactOptions): Promise<void> {
  const summarizer = chooseSummarizer(opts);
  if (opts.inPlace && opts.output) throw new UsageError('give either -o OUT or --in-place, not both');
  const keepRecentMessages = opts.keepRecent === undefined ? 0 : Number(opts.keepRecent);
  if (!Number.isInteger(keepRecentMessages) || keepRecentMessages < 0) throw new UsageError('--keep-recent takes a whole number');
  const p = planned(file, opts);
  if (p.opened.codec.readOnly) throw new InputError(`${file}: ${p.opened.codec.label} is read here, never written (${p.opened.codec.readOnly}); convert it first`);
  if (opts.inPlace && p.opened.readOnly) throw new UsageError(`${file} is not written in place (${p.opened.readOnly.replace(/Save As/g, '-o OUT')}); give -o OUT`, { brief: true });
  if (opts.output && !p.opened.codec.extensions.includes(extname(opts.output).toLowerCase())) throw new UsageError(`-o ${opts.output}: ${p.opened.codec.label} files end in ${p.opened.codec.extensions.join(' or ')}`, { brief: true });
  const tokenizer = getTokenizer(opts.model);
  const plan = compactAllPlan(p.skeleton, keepRecentMessages);
  if (plan.inserted.length === 0) throw new InputError(`${file}: nothing to compact (only static context${keepRecentMessages ? ' and recent messages' : ''})`);
  const summaries = await summariesForPlan(p.messages, plan, summarizer);
  const { codec, doc, bom } = p.opened;
  const records = doc.conversations[p.conversation].records;
  let text: string;
  let after: number;
  let count: number;
  if (p.swarms) {
    const compacted = applyPlan(p.messages, plan, { summaries, measure: tokenizer });
    text = (bom ? '\ufeff' : '') + codec.serialize(doc, [compacted]);
    after = compacted.reduce((n, m) => n + tokenizer.countContent(m.content), 0);
    count = compacted.length;
  } else {
    // A session's path is compacted where it lies among the file's records (its other threads kept).
    const path = p.path.map((i) => records[i]);
    const compacted = applyPlanToRecords(codec, path, path.map((r) => codec.view(r)), plan, summaries);
    const all = doc.conversations.map((c, i) => (i === p.conversation ? replacePath(records, p.path, compacted) : c.records));
    text = serializeDocument(codec, doc, all, bom, { name: file });
    after = compacted.reduce<number>((n, r) => n + countView(codec.view(r), tokenizer).tokens, 0);
    count = compacted.length;
  }
  const target = opts.inPlace ? file : opts.output;
  if (!target) process.stdout.write(text);
  else writeFileAtomicSync(target, text);
  process.stderr.write(`Compacted ${p.path.length} → ${count} messages, ${plan.totalBefore} → ${after} tokens${target ? `; wrote ${target}` : ''}\n`);
  // Written as asked (nothing is lost: the messages are in the input), but a summary that saves nothing is said.
  if (after >= plan.totalBefore) process.stderr.write(`warning: the summary is not shorter than the messages it replaces (${plan.totalBefore} → ${after} tokens): compacting grew the history\n`);
}
