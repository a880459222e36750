import type { Codec, ReportedTotal } from '../formats/codec.js';
import { reportedTotalsOf } from '../usage.js';
import type { OpenedFile } from '../formats/document-file.js';
import { threadsOf } from '../tree/message-tree.js';
import { threadName, threadPath } from '../tree/thread-paths.js';
import type { MessageView, Part } from '../formats/model.js';
import type { ModelPrice } from '../pricing/prices.js';
import { linkToolParts } from '../views.js';
import { findingsOfRecords, findingKey, type RecordFinding } from '../secrets/record-findings.js';
import { masked } from '../secrets/document-scan.js';
import { placeholderOf, redactString, redactValue } from '../secrets/redact.js';
import { scanUnits } from '../secrets/scan.js';
import { KnownValues, type KnownValue } from '../secrets/known-values.js';
import { pretty, transcriptHtml, transcriptMarkdown, type Transcript } from './transcript.js';

/** One thread of what is shared: its title and its records as the file holds them. */
export interface SharedThread {
  title: string;
  records: readonly unknown[];
  /** Each record's number as the reader knows it (its row); its place in `records` when absent. */
  numbers?: readonly number[];
  /** The codec its records are of, when not the transcript's (a folder's files are of many formats). */
  codec?: Codec;
  /**
   * The totals its tool reported for runs of these records (Codec.usageTotals, rows in `records`): given only
   * when the records are a whole conversation, as the app and `tokens` add them (threadTotals).
   */
  totals?: readonly ReportedTotal[];
}

/** The totals a file reports for a conversation, for a thread of it that is every record of it in order. */
export function threadTotals(opened: Pick<OpenedFile, 'codec' | 'doc'>, conversation: number, records: readonly unknown[]): ReportedTotal[] | undefined {
  const all = opened.doc.conversations[conversation]?.records;
  if (!all || all.length !== records.length || !records.every((r, i) => r === all[i])) return undefined;
  const totals = reportedTotalsOf(opened.codec, opened.doc, conversation, records.length);
  return totals.length > 0 ? totals : undefined;
}

export interface ShareOptions {
  to: 'html' | 'markdown';
  /** Every secret and personal datum replaced by [REDACTED:<rule>] (the default of every share). */
  redact: boolean;
  /** With `redact`: user names in home folder paths and USER/USERNAME values replaced by <user> (default true). */
  paths?: boolean;
  /**
   * Values found so far (by any rule, anywhere: another file of the same export), added to by this transcript and
   * replaced wherever they stand in it. One per export, so that a value found once is redacted everywhere.
   */
  known?: KnownValues;
  /** Findings the user dismissed as false positives (kept as they are). */
  dismissed?: ReadonlySet<string>;
  /** Counts each message (the app's and the CLI's tokenizer). */
  count?: (view: MessageView) => number;
  countedWith?: string;
  prices?: Readonly<Record<string, ModelPrice>>;
}

/** What was redacted: one line per finding, in the order of the transcript. */
export interface Redaction {
  thread: string;
  number: number;
  field: string;
  rule: string;
  label: string;
  excerpt: string;
}

export interface Shared {
  text: string;
  redactions: Redaction[];
  /** The report beside the transcript (undefined when nothing was redacted by request). */
  report?: string;
}

const fieldOf = (path: ReadonlyArray<string | number>) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '') || '(the record)';

/** The strings of a view (beside its parts) a shared page shows. */
const SHOWN_FIELDS = ['role', 'timestamp', 'category', 'model'] as const;
/** Where a finding in a view lies when it is in no part: one of SHOWN_FIELDS, or its usage's model. */
const VIEW = -1;
const USAGE = -2;

/** A view's parts with any finding left in their text replaced (what the records' redaction could not reach). */
async function redactViews(views: MessageView[], kept: (f: { rule: string; value: string; kind: string }) => boolean, onFound: (i: number, f: RecordFinding) => void): Promise<MessageView[]> {
  const units: Array<{ text: string; where: { i: number; part: number; field: string } }> = [];
  // What the page shows of a message beside its parts, some of it read from records that are no message (a
  // Codex turn_context names the model its calls are priced under: "no list price for <model>").
  views.forEach((v, i) => {
    for (const field of SHOWN_FIELDS) if (typeof v[field] === 'string' && v[field] !== '') units.push({ text: v[field], where: { i, part: VIEW, field } });
    if (v.usage?.model) units.push({ text: v.usage.model, where: { i, part: USAGE, field: 'model' } });
  });
  // Arguments as the page shows them (indented, escapes written out): what is looked into is what is written.
  views = views.map((v) => (v.parts.some((p) => p.kind === 'tool-call') ? { ...v, parts: v.parts.map((p) => (p.kind === 'tool-call' ? { ...p, arguments: pretty(p.arguments) } : p)) } : v));
  views.forEach((v, i) =>
    v.parts.forEach((p, part) => {
      if ('text' in p && typeof p.text === 'string') units.push({ text: p.text, where: { i, part, field: 'text' } });
      if (p.kind === 'tool-call') units.push({ text: p.arguments, where: { i, part, field: 'arguments' } });
      if ((p.kind === 'image' || p.kind === 'file') && !p.ref.startsWith('data:')) units.push({ text: p.ref, where: { i, part, field: 'ref' } });
    }),
  );
  const found = (await scanUnits(units)).filter(kept);
  if (found.length === 0) return views;
  const out = views.map((v) => ({ ...v, parts: v.parts.slice() }));
  const byUnit = new Map<object, typeof found>();
  for (const f of found) byUnit.set(f.where, [...(byUnit.get(f.where) ?? []), f]);
  for (const [where, list] of byUnit) {
    const w = where as (typeof units)[number]['where'];
    for (const f of list) onFound(w.i, { ...f, where: [w.part === USAGE ? 'usage.model' : w.field], key: findingKey(f.rule, f.value) });
    if (w.part === VIEW) {
      out[w.i] = { ...out[w.i], [w.field]: redactString(units.find((u) => u.where === where)!.text, list) };
      continue;
    }
    if (w.part === USAGE) {
      out[w.i] = { ...out[w.i], usage: { ...out[w.i].usage!, model: redactString(out[w.i].usage!.model!, list) } };
      continue;
    }
    const part = out[w.i].parts[w.part] as Part & Record<string, unknown>;
    const text = part[w.field] as string;
    out[w.i].parts[w.part] = { ...part, [w.field]: redactString(text, list) } as Part;
  }
  return out;
}

/**
 * A transcript of these threads (a self-contained HTML page or Markdown), redacted unless asked otherwise:
 * each record's findings replaced where they are (so what a view makes of the record carries the placeholder),
 * then the views' own texts looked into again, so that nothing a rule finds reaches the page. The report
 * says what was replaced where, each finding masked.
 */
export async function shareTranscript(codec: Codec, threads: readonly SharedThread[], meta: { title: string; source: string; format: string }, opts: ShareOptions): Promise<Shared> {
  const dismissed = opts.dismissed ?? new Set<string>();
  const redactions: Redaction[] = [];
  const known = opts.known ?? new KnownValues();
  // What is redacted: a finding not dismissed; paths and user names unless asked to keep them.
  const kept = (f: { rule: string; value: string; kind: string }) => !dismissed.has(findingKey(f.rule, f.value)) && (opts.paths !== false || f.kind !== 'path');
  const learn = (f: { rule: string; value: string; kind: string; label: string }) => known.add({ value: f.value, rule: f.rule, label: f.label, kind: f.kind as 'secret' | 'personal' | 'path' });
  // What the page is headed with (a conversation's title, a thread's) is the file's text too: redacted first,
  // so that the report names threads by what the page calls them.
  const titles = threads.map((t) => t.title);
  let source = meta.source;
  if (opts.redact) {
    const heads = [{ text: meta.title, where: -1 }, { text: meta.source, where: -2 }, ...titles.map((text, i) => ({ text, where: i }))];
    const found = (await scanUnits(heads)).filter(kept);
    found.forEach(learn);
    for (const h of heads) {
      const here = found.filter((f) => f.where === h.where);
      if (here.length === 0) continue;
      const text = redactString(h.text, here);
      if (h.where === -1) meta = { ...meta, title: text };
      else if (h.where === -2) source = text;
      else titles[h.where] = text;
      for (const f of here) redactions.push({ thread: h.where === -1 ? '' : h.where === -2 ? '(the source)' : text, number: -1, field: 'title', rule: f.rule, label: f.label, excerpt: masked(f.value) });
    }
    meta = { ...meta, source };
  }
  const out: Transcript['threads'][number][] = [];
  for (const [k, th] of threads.entries()) {
    const title = titles[k];
    const number = (i: number) => th.numbers?.[i] ?? i;
    let records = th.records;
    if (opts.redact) {
      const findings = await findingsOfRecords(records);
      records = records.map((r, i) => {
        const here = findings[i].filter(kept);
        here.forEach(learn);
        for (const f of here) redactions.push({ thread: title, number: number(i), field: fieldOf(f.where), rule: f.rule, label: f.label, excerpt: masked(f.value) });
        return redactValue(r, here.map((f) => ({ path: f.where, start: f.start, end: f.end, rule: f.rule })));
      });
    }
    const own = th.codec ?? codec;
    let views = linkToolParts(records.map((r) => own.view(r)));
    if (opts.redact)
      views = await redactViews(views, kept, (i, f) => {
        learn(f);
        redactions.push({ thread: title, number: number(i), field: `shown ${f.where[0]}`, rule: f.rule, label: f.label, excerpt: masked(f.value) });
      });
    let totals = th.totals;
    if (opts.redact && totals?.some((t) => t.usage.model)) {
      // A run's total names the model it is priced under: shown in the page's header.
      const found = (await scanUnits(totals.map((t, k) => ({ text: t.usage.model ?? '', where: k })))).filter(kept);
      found.forEach(learn);
      for (const f of found) redactions.push({ thread: title, number: number(totals[f.where].index), field: 'the total of its run, usage.model', rule: f.rule, label: f.label, excerpt: masked(f.value) });
      totals = totals.map((t, k) => {
        const here = found.filter((f) => f.where === k);
        return here.length ? { ...t, usage: { ...t.usage, model: redactString(t.usage.model!, here) } } : t;
      });
    }
    out.push({ title, views, ...(opts.count ? { tokens: views.map((v) => opts.count!(v)) } : {}), ...(th.numbers ? { numbers: th.numbers } : {}), ...(totals ? { totals } : {}) });
  }
  if (opts.redact && known.size > 0) {
    // A value found anywhere (a key in a tool's metadata, a user name in a session's cwd) is the same secret
    // wherever else it stands: in prose, in a tool's result, in a title, in another thread.
    const sameValue = (thread: string, number: number, field: string) => (k: KnownValue) => redactions.push({ thread, number, field: `${field}, the same value as found elsewhere`, rule: k.rule, label: k.label, excerpt: masked(k.value) });
    const again = (text: string, found: (k: KnownValue) => void) => {
      const r = known.redact(text);
      r.replaced.forEach(found);
      return r.text;
    };
    meta = { ...meta, title: again(meta.title, sameValue('', -1, 'title')), source: again(meta.source, sameValue('(the source)', -1, 'title')) };
    for (const th of out) {
      const title = again(th.title, sameValue(th.title, -1, 'title'));
      th.views = th.views.map((v, i) => redactViewValues(v, (text, field) => again(text, sameValue(title, th.numbers?.[i] ?? i, `shown ${field}`))));
      th.title = title;
    }
  }
  const byRule: Record<string, number> = {};
  for (const r of redactions) byRule[r.label] = (byRule[r.label] ?? 0) + 1;
  const transcript: Transcript = {
    ...meta,
    ...(opts.countedWith ? { countedWith: opts.countedWith } : {}),
    ...(opts.prices ? { prices: opts.prices } : {}),
    threads: out,
    ...(opts.redact ? { redacted: { total: redactions.length, byRule, dismissed: dismissed.size } } : {}),
  };
  let text = opts.to === 'html' ? transcriptHtml(transcript) : transcriptMarkdown(transcript);
  if (opts.redact && known.size > 0) {
    // The last net: a value the page put together from pieces of a view.
    const last = known.redactRendered(text, opts.to === 'html');
    text = last.text;
    for (const k of last.replaced) redactions.push({ thread: '(the page)', number: -1, field: 'page, the same value as found elsewhere', rule: k.rule, label: k.label, excerpt: masked(k.value) });
  }
  return { text, redactions, ...(opts.redact ? { report: redactionReport(meta.source, redactions, threads.length > 1) } : {}) };
}

/** A view with every string it shows passed through `redact` (each part's texts, a call's name and arguments, a file's name). */
function redactViewValues(v: MessageView, redact: (text: string, field: string) => string): MessageView {
  let changed = false;
  const parts = v.parts.map((p) => {
    const next: Record<string, unknown> = { ...p };
    for (const [k, x] of Object.entries(p)) {
      if (k === 'kind' || k === 'mediaType' || typeof x !== 'string') continue;
      const y = redact(x, k);
      if (y !== x) {
        next[k] = y;
        changed = true;
      }
    }
    return next as Part;
  });
  return changed ? { ...v, parts } : v;
}

/** The report beside a redacted transcript: a line per replacement, its place, rule and a masked excerpt. */
export function redactionReport(source: string, redactions: readonly Redaction[], threads: boolean): string {
  const head = `${source}: ${redactions.length} finding${redactions.length === 1 ? '' : 's'} replaced by ${placeholderOf('<rule>')}`;
  const place = (r: Redaction) => (r.number >= 0 ? `${threads ? `${r.thread}, ` : ''}message ${r.number} (${r.field})` : r.thread === '' ? 'the title' : r.thread === '(the source)' ? 'the name of the file' : `the title of the thread now called ${r.thread}`);
  return [head, ...redactions.map((r) => `  ${place(r)}: ${r.label} ${r.excerpt}`)].join('\n') + '\n';
}

/** A thread asked for that the file does not have; `threads` names those it has. */
export class NoSuchThreadError extends Error {
  constructor(readonly threads: string[]) {
    super(`the threads are main, all or one of ${threads.join(', ') || '(no sub-agent threads)'}`);
  }
}

/**
 * The threads of a parsed file to share: for each of its conversations (`conversations`, else all), a session's
 * main thread (`thread` 'main', its whole path past compactions), every thread ('all') or one sub-agent's; a
 * flat conversation is its records. Titled by the file's conversation titles where it has several.
 */
export function fileThreads(opened: OpenedFile, thread?: string, conversations?: readonly number[]): SharedThread[] {
  const n = opened.doc.conversations.length;
  return (conversations ?? Array.from({ length: n }, (_, i) => i)).flatMap((c) => {
    const records = opened.doc.conversations[c].records;
    const name = opened.doc.conversations[c]?.title ?? (n > 1 ? `Conversation ${c + 1}` : 'Conversation');
    const tree = opened.codec.tree?.(opened.doc, c, records);
    if (!tree) {
      const totals = threadTotals(opened, c, records);
      return [{ title: name, records, ...(totals ? { totals } : {}) }];
    }
    const all = threadsOf(tree);
    // Unasked, the main thread; a sub-agent's own file (no main thread in it) is its threads.
    const wanted = thread === undefined ? (all.includes('main') ? ['main'] : all) : thread === 'all' ? all : all.filter((t) => t === thread || t === `side:${thread}` || t.startsWith(`side:${thread}`));
    if (wanted.length === 0) throw new NoSuchThreadError(all.filter((t) => t !== 'main').map((t) => t.replace(/^side:/, '')));
    return wanted.map((t) => {
      const title = t === 'main' ? 'Main thread' : threadName(t);
      const own = threadPath(tree, t).whole.map((i) => records[i]);
      const totals = threadTotals(opened, c, own);
      return { title: n > 1 ? `${name} · ${title}` : title, records: own, ...(totals ? { totals } : {}) };
    });
  });
}
