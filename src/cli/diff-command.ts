import { basename, resolve } from 'node:path';
import { getTokenizer, resolveEncoding } from '../core/index.js';
import { compareSessions, compareSide, wordPieces, type CompareMessage, type CompareRow, type Comparison, type SideFigures } from '../core/compare/index.js';
import type { OpenedFile } from '../core/formats/document-file.js';
import { countView } from '../core/views.js';
import { countingModel, shownSessionModel } from '../core/models.js';
import { SESSION_MODEL } from '../core/defaults.js';
import { standsIn } from '../core/tokenizer/estimate.js';
import { formatUsd } from '../core/usage.js';
import { oneLine } from '../core/util/one-line.js';
import { open, type CommonOptions } from './commands.js';
import { printJson, table } from './output.js';
import { selectRecords, type Selection } from './thread-selection.js';
import { UsageError } from './usage.js';

export interface DiffOptions extends CommonOptions {
  at?: string;
  conversation?: string;
}

interface Side {
  file: string;
  opened: OpenedFile;
  selection: Selection;
  /** What the side is, for people: "main thread", "the branch through a1b2…". */
  what: string;
  messages: CompareMessage[];
}

function conversationOf(opened: OpenedFile, given: string | undefined): number {
  if (given === undefined) return 0;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 0 || n >= opened.doc.conversations.length) throw new UsageError(`--conversation takes 0 to ${opened.doc.conversations.length - 1}, not "${given}"`, { brief: true });
  return n;
}

/**
 * `diff A [B] [--at ID]`: A's path as `show` shows it (its main thread) on the left; on the right B's, or with
 * `--at ID` the branch through message ID (of B, or of A when B is not given): two branches of one session.
 */
export function diffCommand(files: readonly string[], opts: DiffOptions): void {
  if (files.length === 0 || files.length > 2) throw new UsageError('diff takes FILE A and FILE B, or one FILE with --at ID (a branch of it against its main thread)');
  if (files.length === 1 && opts.at === undefined) throw new UsageError('diff of one FILE needs --at ID: the branch through that message, against the main thread');
  const [fa, fb = fa] = files;
  const oa = open(fa, opts.format, opts.as);
  const ob = fb === fa ? oa : open(fb, opts.format, opts.as);
  const ca = conversationOf(oa, opts.conversation);
  const cb = conversationOf(ob, opts.conversation);
  // Each side whole, through its compactions: a branch before a compaction is only in the whole path.
  const whole = (o: OpenedFile) => o.codec.tree !== undefined;
  const sa = selectRecords(oa, ca, { thread: opts.thread, whole: whole(oa) });
  const sb = selectRecords(ob, cb, { thread: opts.thread, whole: whole(ob), at: opts.at });
  const view = (o: OpenedFile, c: number, s: Selection) => s.records.map((i) => o.codec.view(o.doc.conversations[c].records[i]));
  const va = view(oa, ca, sa);
  const vb = view(ob, cb, sb);
  // One tokenizer for both sides: --model, else the model A's session ran on.
  const named = opts.sessionModel ? shownSessionModel(va, () => vb) : undefined;
  const model = opts.sessionModel ? countingModel(SESSION_MODEL, named) : opts.model;
  const tokenizer = getTokenizer(model);
  const side = (file: string, opened: OpenedFile, selection: Selection, views: typeof va, what: string): Side => ({
    file,
    opened,
    selection,
    what,
    messages: compareSide(
      views,
      views.map((v) => countView(v, tokenizer).tokens),
      { model: named },
    ),
  });
  const thread = (s: Selection) => (s.thread === undefined ? 'every message' : s.thread === 'main' ? 'main thread' : `thread ${s.thread.replace(/^side:/, '')}`);
  const left = side(fa, oa, sa, va, thread(sa));
  const right = side(fb, ob, sb, vb, opts.at !== undefined ? `the branch through ${opts.at}` : thread(sb));
  const c = compareSessions(left.messages, right.messages);
  const choice = resolveEncoding(model);
  if (opts.json) {
    printJson(diffJson(left, right, c, { model: choice.model, encoding: choice.encoding, approximate: choice.approximate, ...(standsIn(choice) ? { encodingStandsIn: standsIn(choice) } : {}) }));
    return;
  }
  process.stdout.write(diffText(left, right, c, choice.approximate));
}

const n = (x: number) => x.toLocaleString('en-US');
const signed = (x: number) => (x > 0 ? `+${n(x)}` : x < 0 ? `−${n(-x)}` : '0');
const signedUsd = (x: number, estimated?: boolean) => `${estimated ? '≈ ' : ''}${x > 0 ? '+' : x < 0 ? '−' : ''}${formatUsd(Math.abs(x))}`;
const cost = (f: SideFigures) => (f.cost === undefined ? '' : `, ${f.costEstimated ? '≈ ' : ''}${formatUsd(f.cost)}`);
const figures = (f: SideFigures, approximate: boolean) => `${n(f.messages)} message${f.messages === 1 ? '' : 's'}, ${approximate ? '≈ ' : ''}${n(f.tokens)} tokens${cost(f)}`;

/** A changed row's text in git's word-diff notation: [-taken out-]{+put in+}, around the first change. */
function changedText(a: string, b: string, width = 110): string {
  const pieces = wordPieces(a, b);
  const text = pieces.map((p) => (p.op === 'same' ? p.text : p.op === 'removed' ? `[-${p.text}-]` : `{+${p.text}+}`)).join('');
  const first = text.search(/\[-|\{\+/);
  const from = Math.max(0, first - 30);
  return oneLine(`${from > 0 ? '…' : ''}${text.slice(from)}`, width);
}

const MARK: Record<CompareRow['kind'], string> = { same: '=', changed: '~', 'only-left': '-', 'only-right': '+' };

function diffText(left: Side, right: Side, c: Comparison, approximate: boolean): string {
  const out: string[] = [];
  const name = (s: Side) => `${s.file === right.file && s.file === left.file ? basename(s.file) : s.file} (${s.what})`;
  out.push(`--- A: ${name(left)}: ${figures(c.left, approximate)}`);
  out.push(`+++ B: ${name(right)}: ${figures(c.right, approximate)}`);
  if (c.differences.length === 0) {
    out.push('', `The same ${n(c.rows.length)} messages, in the same order.`, '');
    return out.join('\n');
  }
  out.push('');
  const rows: Array<Array<string | number>> = [];
  const msg = (side: CompareMessage[], i: number | undefined) => (i === undefined ? undefined : side[i]);
  for (const [t, turn] of c.turns.entries()) {
    if (!turn.differs) continue;
    const dt = turn.right.tokens - turn.left.tokens;
    const dc = turn.left.cost !== undefined || turn.right.cost !== undefined ? signedUsd((turn.right.cost ?? 0) - (turn.left.cost ?? 0), turn.left.costEstimated || turn.right.costEstimated) : '';
    rows.push([`turn ${t + 1}`, '', '', '', signed(dt), dc, '']);
    for (let k = turn.start; k < turn.end; k++) {
      const r = c.rows[k];
      const l = msg(left.messages, r.left);
      const m = msg(right.messages, r.right);
      const role = (l ?? m)!.role;
      const text = r.kind === 'changed' ? (r.whitespaceOnly ? `(white space only) ${oneLine(m!.text, 90)}` : changedText(l!.text, m!.text)) : oneLine((l ?? m)!.text, 110);
      rows.push([`  ${MARK[r.kind]}`, r.left ?? '', r.right ?? '', role, r.kind === 'same' ? '' : signed(r.tokens), r.cost === undefined || r.kind === 'same' ? '' : signedUsd(r.cost, r.costEstimated), text]);
    }
  }
  out.push(table(['', 'A#', 'B#', 'ROLE', 'ΔTOKENS', 'ΔCOST', 'CONTENT'], rows));
  const d = c.delta;
  out.push('');
  out.push(`${n(c.counts.same)} the same, ${n(c.counts.changed)} changed, ${n(c.counts['only-left'])} only in A, ${n(c.counts['only-right'])} only in B; ${c.turns.filter((t) => t.differs).length} of ${c.turns.length} turns differ`);
  out.push(`B less A: ${signed(d.messages)} messages, ${approximate ? '≈ ' : ''}${signed(d.tokens)} tokens${d.cost === undefined ? '' : `, ${signedUsd(d.cost, d.costEstimated)} at list prices`}${d.costEstimated ? ' (≈: estimated from the tokens counted here where the file reports no usage)' : ''}`);
  out.push('');
  return out.join('\n');
}

function diffJson(left: Side, right: Side, c: Comparison, counting: Record<string, unknown>) {
  const sideJson = (s: Side, f: SideFigures) => ({ file: resolve(s.file), format: s.opened.codec.id, what: s.what, ...(s.selection.thread !== undefined ? { thread: s.selection.thread } : {}), ...f });
  const message = (side: CompareMessage[], i: number | undefined, withText: boolean) => {
    if (i === undefined) return undefined;
    const m = side[i];
    return { index: i, ...(m.id !== undefined ? { id: m.id } : {}), role: m.role, tokens: m.tokens, ...(m.cost !== undefined ? { cost: m.cost, ...(m.costEstimated ? { costEstimated: true } : {}) } : {}), ...(m.lines && m.lines > 1 ? { lines: m.lines } : {}), ...(withText ? { text: m.text } : {}) };
  };
  return {
    left: sideJson(left, c.left),
    right: sideJson(right, c.right),
    ...counting,
    counts: c.counts,
    delta: c.delta,
    turns: c.turns,
    differences: c.differences,
    rows: c.rows.map((r) => ({ kind: r.kind, turn: r.turn, tokens: r.tokens, ...(r.cost !== undefined ? { cost: r.cost } : {}), ...(r.costEstimated ? { costEstimated: true } : {}), left: message(left.messages, r.left, r.kind !== 'same'), right: message(right.messages, r.right, r.kind !== 'same'), ...(r.words ? { words: r.words } : {}), ...(r.whitespaceOnly ? { whitespaceOnly: true } : {}) })),
  };
}
