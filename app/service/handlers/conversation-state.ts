import type { Codec } from '../../../src/core/formats/codec.js';
import type { MessageView } from '../../../src/core/formats/model.js';
import type { Message } from '../../../src/core/message.js';
import { renderBlock } from '../../../src/core/render.js';
import { resolveEncoding } from '../../../src/core/tokenizer/index.js';
import { RENDER_SEPARATOR } from '../../../src/core/window/skeleton.js';
import { linkToolParts, partTexts, renderViewBlock } from '../../../src/core/views.js';
import type { OpenedFile } from '../../../src/core/formats/document-file.js';
import type { Skeleton, SkeletonDelta } from '../../shared/contract.js';
import { applySkeletonDelta, skeletonDelta, spliceBetween } from '../../shared/skeleton-delta.js';
import { isDirty, viewOf, type OpenDocument } from '../documents/documents.js';
import { summaryOf } from '../listing/file-summary.js';
import { buildSkeleton, columnsOf, modelField, needsLinking, readOnlyOf, skeletonRowOf, staticEndOf, swarmsCodec, tableRow } from '../documents/skeleton.js';
import { treeFields, type ViewedConversation } from '../documents/conversation-views.js';
import { FLAGS } from '../../shared/contract.js';
import type { HandlerContext } from './context.js';
import { editVersion } from '../documents/edit-version.js';

export interface Counted {
  model: string;
  /** The last message's rendered block has no separator after it. */
  last: boolean;
  tokens: number;
  toolTokens: number;
  reasoningTokens: number;
  renderedTokens: number;
}

/**
 * The skeleton a renderer was last sent for a conversation, and what it was built from. Deltas of edits are
 * kept and applied when the whole skeleton is next needed (an edit at 200k messages touches only its rows).
 */
interface Shown {
  version: number;
  base: Skeleton;
  pending: SkeletonDelta[];
  records: readonly Message[];
  file: OpenedFile;
  /** No view of these records needs linking (every call and result has its id): views are the records' own. */
  linkFree: boolean;
  /** The model the conversation was last counted with: a delta brings counts in it. */
  model?: string;
  /** The reported usages' keys of the first `usageKeysUpTo` records (an append goes on from them). */
  usageKeys?: ReadonlyMap<string, number>;
  usageKeysUpTo?: number;
}

function skeletonOf(entry: Shown): Skeleton {
  if (entry.pending.length > 0) {
    entry.base = entry.pending.reduce(applySkeletonDelta, entry.base);
    entry.pending = [];
  }
  return entry.base;
}

/** Shown skeletons kept (each is a few MB at 200k messages). */
const SHOWN_LIMIT = 6;
/**
 * Per conversation, the skeletons shown before the last one, kept so that a window still showing one of them
 * (another window made the change) is sent the change as a delta: its selection and open editor follow their
 * messages, and the row indexes it edits by stay the ones it shows.
 */
const EARLIER_LIMIT = 2;
/** A delta brings table rows and counts for at most this many messages; past that the renderer asks. */
const DELTA_ROWS_LIMIT = 2000;
const DELTA_COUNT_LIMIT = 20_000;

let versions = 0;

export type ConversationState = ReturnType<typeof conversationState>;

/**
 * What the conversation handlers and the editing handlers share: linked views per list of records, token
 * counts per record object (an edit replaces only the records it touches, so a recount counts only those),
 * and the skeleton each conversation was last shown as, which deltas are made from.
 */
export function conversationState(ctx: HandlerContext) {
  // Tool links need the whole conversation (a result without an id answers the oldest open call): computed
  // once per list of records. `linkFree`: nothing needed linking, so the views are the records' own.
  const linked = new WeakMap<readonly Message[], { views: MessageView[]; linkFree: boolean; codec: Codec }>();
  const linking = (doc: OpenDocument, records: readonly Message[]) => {
    let entry = linked.get(records);
    // Views are the codec's: a file read with other roles has views of its own.
    if (!entry || entry.codec !== doc.codec) {
      const own = records.map((r) => viewOf(doc.codec, r));
      const linkFree = !own.some(needsLinking);
      entry = { views: linkFree ? own : linkToolParts(own), linkFree, codec: doc.codec };
      linked.set(records, entry);
    }
    return entry;
  };
  const linkedViews = (doc: OpenDocument, records: readonly Message[]) => linking(doc, records).views;

  const counted = new WeakMap<object, Counted>();
  const shown = new Map<string, Shown>();
  const keyOf = (absolute: string, conversation: number) => `${absolute}\0${conversation}`;
  const earlier = new Map<string, Shown[]>();
  const remember = (key: string, entry: Shown) => {
    const previous = shown.get(key);
    // Only skeletons of the same read of the file: one read again holds the whole old document otherwise.
    if (previous && previous !== entry && previous.file === entry.file) earlier.set(key, [previous, ...(earlier.get(key) ?? []).filter((e) => e.file === entry.file)].slice(0, EARLIER_LIMIT));
    else if (previous?.file !== entry.file) earlier.delete(key);
    shown.delete(key);
    shown.set(key, entry);
    if (shown.size > SHOWN_LIMIT) {
      const oldest = shown.keys().next().value!;
      shown.delete(oldest);
      earlier.delete(oldest);
    }
  };

  /** The count of message i remembered for its record, in this model and place (last or not). */
  const hit = (records: readonly Message[], i: number, model: string): Counted | undefined => {
    const r = records[i];
    const c = r !== null && typeof r === 'object' ? counted.get(r) : undefined;
    return c && c.model === model && c.last === (i === records.length - 1) ? c : undefined;
  };

  /** A record's count in this model, wherever it ended a list (its tokens do not depend on that). */
  const countOf = (r: Message, model: string): Counted | undefined => {
    const c = r !== null && typeof r === 'object' ? counted.get(r) : undefined;
    return c?.model === model ? c : undefined;
  };

  /** Counts known for these records in this model; the indexes still to count. */
  const lookup = (records: readonly Message[], model: string) => {
    const missing: number[] = [];
    const known = records.map((_, i) => {
      const c = hit(records, i, model);
      if (!c) missing.push(i);
      return c;
    });
    return { known, missing };
  };

  /** Counts the messages `which` (remembered per record); progress in messages of `which`. */
  const countSome = async (doc: OpenDocument, records: readonly Message[], which: readonly number[], model: string, progress: (k: number, total: number) => void = () => {}) => {
    // Nothing to count (every row remembered): no round trip to the counters.
    if (which.length === 0) {
      const { encoding, approximate } = resolveEncoding(model);
      return { encoding, approximate, entries: [] as Counted[] };
    }
    const n = records.length;
    const views = which.map((i) => viewOf(doc.codec, records[i]));
    const swarms = swarmsCodec(doc);
    const split = views.map((v) => partTexts(v));
    const blocks = which.map((i, k) => (swarms ? renderBlock(records[i]) : renderViewBlock(views[k])) + (i < n - 1 ? RENDER_SEPARATOR : ''));
    const fresh = await ctx.tokens.count({ model, parts: split.map((x) => x.sent), tools: split.map((x) => x.tools), reasoning: split.map((x) => x.reasoning), blocks }, progress);
    const entries = which.map((i, k) => {
      const entry: Counted = { model, last: i === n - 1, tokens: fresh.tokens[k], toolTokens: fresh.toolTokens[k], reasoningTokens: fresh.reasoningTokens[k], renderedTokens: fresh.renderedTokens[k] };
      if (records[i] !== null && typeof records[i] === 'object') counted.set(records[i] as object, entry);
      return entry;
    });
    return { encoding: fresh.encoding, approximate: fresh.approximate, entries };
  };

  /** The counts of messages `which`: those remembered, and the rest counted now. */
  const countsOf = async (doc: OpenDocument, records: readonly Message[], which: readonly number[], model: string) => {
    const known = which.map((i) => hit(records, i, model));
    const fresh = await countSome(
      doc,
      records,
      which.filter((_, k) => known[k] === undefined),
      model,
    );
    let j = 0;
    return { encoding: fresh.encoding, approximate: fresh.approximate, entries: known.map((c) => c ?? fresh.entries[j++]) };
  };

  const view = (doc: OpenDocument) => (r: Message) => viewOf(doc.codec, r);

  const build = (absolute: string, doc: OpenDocument, conversation: number, model: string | undefined): Shown => {
    const records = doc.conversations[conversation].records;
    const { views, linkFree } = linking(doc, records);
    const skeleton = buildSkeleton(ctx.roots.display(absolute), doc, conversation, records, views, ++versions);
    return { version: skeleton.version, base: skeleton, pending: [], records, file: doc.file, linkFree, model };
  };

  /**
   * The session's model after a change of rows [start, end) of the old records into [start, newEnd) of the new:
   * as shown before when no row taken out or put in names one (the common edit, an agent's line of text),
   * else counted again over every row.
   */
  const modelAfter = (before: Shown, doc: OpenDocument, old: readonly Message[], records: readonly Message[], start: number, oldEnd: number, newEnd: number): Pick<Skeleton, 'model'> => {
    const v = view(doc);
    const names = (x: MessageView) => x.model !== undefined || x.usage?.model !== undefined;
    let changed = false;
    for (let i = start; i < oldEnd && !changed; i++) changed = names(v(old[i]));
    for (let i = start; i < newEnd && !changed; i++) changed = names(v(records[i]));
    if (!changed) {
      const shown = before.pending.length > 0 ? before.pending[before.pending.length - 1].file.model : before.base.model;
      return shown ? { model: shown } : {};
    }
    return modelField(doc, records.map(v));
  };

  /**
   * The delta of an edit, built from the edited rows alone: when the records before and after share all but a
   * run, nothing needs linking, no reported usage is deduplicated across the run, and the static prefix stays.
   * Undefined when any of that does not hold (the skeleton is then built whole and compared).
   */
  const editDelta = (before: Shown, doc: OpenDocument, conversation: number, records: readonly Message[], version: number, display: string): SkeletonDelta | undefined => {
    // Records are compared as objects: a save that re-read nothing (the swarms writers) keeps them all.
    // A view of a tree says where its path forks: built whole, so that that is always right.
    if (!before.linkFree || before.file.codec.id !== doc.codec.id || doc.conversations[conversation]?.store) return undefined;
    const old = before.records;
    const n = records.length;
    const m = old.length;
    let p = 0;
    while (p < n && p < m && old[p] === records[p]) p++;
    let t = 0;
    while (t < n - p && t < m - p && old[m - 1 - t] === records[n - 1 - t]) t++;
    // Nothing in common as objects and the file read again (a change on disk, a save that parsed its output):
    // its rows are matched by their text instead, and keep their counts.
    if (p + t === 0 && m > 0 && before.file !== doc.file) return undefined;
    let start = p;
    let deleteCount = m - t - p;
    // The last message renders without a separator: a change reaching the end changes the one before it.
    if (t === 0 && start > 0 && (deleteCount > 0 || n - t - p > 0)) {
      start--;
      deleteCount++;
    }
    const v = view(doc);
    for (let i = start; i < n - t; i++) {
      const x = v(records[i]);
      if (needsLinking(x) || x.usage?.key !== undefined) return undefined;
    }
    for (let i = start; i < m - t; i++) if (v(old[i]).usage?.key !== undefined) return undefined;
    const s0 = staticEndOf(doc, old, v);
    const s1 = staticEndOf(doc, records, v);
    if (s0 !== s1 || (n !== m && s1 > start)) return undefined;
    const rows = [];
    for (let i = start; i < n - t; i++) rows.push(skeletonRowOf(doc, records[i], v(records[i]), i < s1));
    const { format, formatLabel, swarms } = before.base;
    const has = columnsOf(n, (i) => v(records[i]));
    const model = modelAfter(before, doc, old, records, start, m - t, n - t);
    const file = { path: display, conversation, conversations: doc.conversations.length, title: doc.file.doc.conversations[conversation]?.title, ...model, format, formatLabel, swarms, count: n, bytes: doc.file.partBytes ?? doc.size, other: doc.file.doc.otherRecords, version, has, ...readOnlyOf(doc) };
    return { from: before.version, file, start, deleteCount, rows };
  };

  /**
   * The delta of a file that grew (read as an append: the records read before are the same objects, but for a
   * last line read again): the rows after the old ones, each built alone. A reported usage already shown on an
   * earlier row (Claude Code writes a line per content block of one call) is not shown again. Undefined when
   * the shown records are not a prefix of the new ones, or linking or the static prefix could change old rows.
   */
  const appendDelta = (before: Shown, doc: OpenDocument, conversation: number, records: readonly Message[], version: number, display: string): SkeletonDelta | undefined => {
    // Another read of the same file by an append (not the same read with other roles: every row changes then).
    if (before.file === doc.file || !before.file.lineage || before.file.lineage !== doc.file.lineage || before.file.codec !== doc.file.codec || before.file.doc === doc.file.doc || !before.linkFree) return undefined;
    const old = before.records;
    const m = old.length;
    const n = records.length;
    let p = 0;
    while (p < m && p < n && old[p] === records[p]) p++;
    if (m === 0 || p < m - 1 || n < m) return undefined;
    // The last old row renders with a separator now; a last line read again is built anew.
    const start = m - 1;
    const v = view(doc);
    for (let i = start; i < n; i++) if (needsLinking(v(records[i]))) return undefined;
    // The rows before the appended ones are as the base has them (deltas since only appended or replaced the
    // last): its static prefix and file fields hold, without applying those deltas to the whole skeleton.
    const base = before.base;
    const s0 = base.flags.findIndex((f) => (f & FLAGS.static) === 0);
    const staticEnd = s0 === -1 ? Math.min(base.count, m) : s0;
    // Old rows all static (a system prompt so far): what follows may extend the prefix; built whole then.
    if (staticEnd >= start) return undefined;
    // Reported usages shown so far, once per call at its last line: kept with what was shown, extended by
    // each append. A new line of a call shown on an old row takes its figures from there: that row is built
    // anew only when it is the last old one (a call still being written); else the skeleton is built whole.
    const seen = new Map(before.usageKeys && before.usageKeysUpTo === m ? before.usageKeys : undefined);
    if (seen.size === 0)
      for (let i = 0; i < m; i++) {
        const key = v(old[i]).usage?.key;
        if (key !== undefined) seen.set(key, i);
      }
    const rows = [];
    for (let i = start; i < n; i++) {
      const x = v(records[i]);
      const row = skeletonRowOf(doc, records[i], x, false);
      const key = x.usage?.key;
      if (key !== undefined) {
        const j = seen.get(key);
        if (j !== undefined && j !== i) {
          if (j < start) return undefined;
          delete rows[j - start].usage;
        }
        seen.set(key, i);
      }
      rows.push(row);
    }
    const { format, formatLabel, swarms } = base;
    const had = before.pending.length > 0 ? before.pending[before.pending.length - 1].file.has : base.has;
    const has = had?.time && had.id ? had : columnsOf(n, (i) => v(records[i]));
    const tree = treeFields(doc.conversations as ViewedConversation[], conversation, (r) => viewOf(doc.codec, r));
    const model = modelAfter(before, doc, old, records, start, m, n);
    const file = { path: display, conversation, conversations: doc.conversations.length, title: doc.file.doc.conversations[conversation]?.title, ...model, format, formatLabel, swarms, count: n, bytes: doc.file.partBytes ?? doc.size, other: doc.file.doc.otherRecords, version, has, ...tree, ...readOnlyOf(doc) };
    appendedUsage.set(records, seen);
    return { from: before.version, file, start, deleteCount: m - start, rows };
  };
  /** The usage keys an append delta saw up to the end of its records, and the row each is shown at (the next append goes on from them). */
  const appendedUsage = new WeakMap<readonly Message[], Map<string, number>>();

  /** Table rows and counts of the rows a delta brings. */
  /**
   * The token total of a session shown as its threads: every record of the file as it stands (unsaved edits
   * included), the ones no view shows counted now. Nothing for a file that is not such a session.
   */
  const sessionTotal = async (doc: OpenDocument, model: string): Promise<number | undefined> => {
    const first = doc.conversations[0];
    if (!first?.store || !doc.conversations.every((c) => c.store === first.store)) return undefined;
    const records = first.store.all;
    // A file read by appends goes on from its last total: only the records after it are summed.
    const last = doc.file.lineage ? lastTotal.get(doc.file.lineage) : undefined;
    // (Only across an append: a new read of the file. An edit keeps the file read and changes any record.)
    const from = last && last.model === model && (last.file !== doc.file || last.all === records) && last.count <= records.length && last.count > 0 && records[last.count - 1] === last.end ? last.count : 0;
    const missing: number[] = [];
    for (let i = from; i < records.length; i++) if (!countOf(records[i], model)) missing.push(i);
    if (missing.length > 0) await countSome(doc, records, missing, model);
    if (records !== first.store.all) return undefined;
    let total = from > 0 ? last!.total : 0;
    for (let i = from; i < records.length; i++) {
      const c = countOf(records[i], model);
      if (!c) return undefined;
      total += c.tokens;
    }
    if (doc.file.lineage && records.length > 0) lastTotal.set(doc.file.lineage, { model, count: records.length, end: records[records.length - 1], total, file: doc.file, all: records });
    return total;
  };
  /** Per file read by appends (its lineage), the session's last total and the record it ended at. */
  const lastTotal = new WeakMap<object, { model: string; count: number; end: Message; total: number; file: OpenedFile; all: readonly Message[] }>();

  /** Each conversation's tokens of a file that holds several apart (a dataset, an export), counting what is not yet. */
  const datasetTotals = async (doc: OpenDocument, model: string): Promise<number[] | undefined> => {
    const out: number[] = [];
    for (const c of doc.conversations) {
      const records = c.records as readonly Message[];
      const missing = records.flatMap((r, i) => (countOf(r, model) ? [] : [i]));
      if (missing.length > 0) await countSome(doc, records, missing, model);
      if (c.records !== records || !records.every((r) => countOf(r, model))) return undefined;
      out.push(records.reduce((n, r) => n + countOf(r, model)!.tokens, 0));
    }
    return out;
  };

  /** The session's figures a count or delta brings: the whole file's, and each thread's, once all are counted. */
  const sessionFigures = async (doc: OpenDocument, model: string | undefined): Promise<{ fileTotal?: number; threadTotals?: Record<string, number> }> => {
    const fileTotal = model ? await sessionTotal(doc, model) : undefined;
    if (fileTotal === undefined) return {};
    const threads = threadTotals(doc, model!);
    return { fileTotal, ...(threads ? { threadTotals: threads } : {}) };
  };

  /** Each thread's figure, once the session's records are all counted (after `sessionTotal`). */
  const threadTotals = (doc: OpenDocument, model: string): Record<string, number> | undefined => {
    const first = doc.conversations[0];
    if (!first?.store || doc.conversations.length < 2) return undefined;
    const out: Record<string, number> = {};
    for (const [k, c] of doc.conversations.entries()) {
      if (c.store !== first.store) return undefined;
      let sum = 0;
      for (const r of c.records) {
        const n = countOf(r, model);
        if (!n) return undefined;
        sum += n.tokens;
      }
      out[k] = sum;
    }
    return out;
  };

  const withRowsAndCounts = async (delta: SkeletonDelta, doc: OpenDocument, records: readonly Message[], linkFree: boolean, model: string | undefined) => {
    const inserted = Array.from({ length: delta.rows.length }, (_, k) => delta.start + k);
    if (inserted.length <= DELTA_ROWS_LIMIT) {
      const views = linkFree ? undefined : linkedViews(doc, records);
      delta.previews = inserted.map((i) => tableRow(views ? views[i] : viewOf(doc.codec, records[i]), i));
    }
    if (model && inserted.length <= DELTA_COUNT_LIMIT) {
      const { encoding, approximate, entries } = await countsOf(doc, records, inserted, model);
      delta.counts = {
        model,
        encoding,
        approximate,
        tokens: entries.map((c) => c.tokens),
        toolTokens: entries.map((c) => c.toolTokens),
        reasoningTokens: entries.map((c) => c.reasoningTokens),
        renderedTokens: entries.map((c) => c.renderedTokens),
      };
    }
    // A session's other threads change the file's figure too: it comes with every delta of one of its views.
    Object.assign(delta, await sessionFigures(doc, model));
    return delta;
  };

  /**
   * What changed since the skeleton of version `since` (the last one shown), as a delta with the table rows
   * and counts of the rows it brings; the whole skeleton when that version is not the last one shown.
   */
  const changesOf = async (absolute: string, doc: OpenDocument, conversation: number, since: number | undefined, model?: string): Promise<{ delta: SkeletonDelta } | { skeleton: Skeleton }> => {
    const key = keyOf(absolute, conversation);
    const before = shown.get(key);
    const records = doc.conversations[conversation].records;
    const countModel = model ?? before?.model;
    if (before && before.records === records && before.file === doc.file && before.version === since) {
      const sk = skeletonOf(before);
      return { delta: { ...skeletonDelta(sk, sk, { start: 0, deleteCount: 0, insertCount: 0 }), previews: [], ...(await sessionFigures(doc, countModel)) } };
    }
    // Another window was shown the change already: this one gets it from the skeleton it still shows.
    const behind = before && before.records === records && before.file === doc.file ? earlier.get(key)?.find((e) => e.version === since) : undefined;
    if (before && behind && behind.file.codec.id === doc.codec.id) {
      const old = skeletonOf(behind);
      const now = skeletonOf(before);
      const splice = spliceBetween(old, now, (i, j) => behind.records[i] === records[j]);
      return { delta: await withRowsAndCounts(skeletonDelta(old, now, splice), doc, records, before.linkFree, countModel) };
    }
    // A file that grew, read as an append: its new rows alone.
    if (before && before.version === since) {
      const version = ++versions;
      const grown = appendDelta(before, doc, conversation, records, version, ctx.roots.display(absolute));
      if (grown) {
        remember(key, { version, base: before.base, pending: before.pending.concat(grown), records, file: doc.file, linkFree: true, model: countModel, usageKeys: appendedUsage.get(records), usageKeysUpTo: records.length });
        return { delta: await withRowsAndCounts(grown, doc, records, true, countModel) };
      }
    }
    // The fast path is for edits: a file read again, or read with other roles, is built whole and compared.
    if (before && before.version === since && before.file === doc.file) {
      const version = ++versions;
      const fast = editDelta(before, doc, conversation, records, version, ctx.roots.display(absolute));
      if (fast) {
        remember(key, { version, base: before.base, pending: before.pending.concat(fast), records, file: doc.file, linkFree: true, model: countModel });
        return { delta: await withRowsAndCounts(fast, doc, records, true, countModel) };
      }
    }
    const entry = build(absolute, doc, conversation, countModel);
    remember(key, entry);
    const skeleton = entry.base;
    if (!before || before.version !== since || before.file.codec.id !== doc.codec.id) return { skeleton };
    const old = skeletonOf(before);
    // Records read again from disk are new objects: the same text in the file is the same message.
    const sameText = before.file !== doc.file;
    const same = (i: number, j: number) => {
      const a = before.records[i];
      const b = records[j];
      if (a === b) return true;
      if (!sameText) return false;
      const ta = doc.codec.rawText(before.file.doc, conversation, a);
      return ta !== undefined && ta === doc.codec.rawText(doc.file.doc, conversation, b);
    };
    const splice = spliceBetween(old, skeleton, same);
    if (sameText) {
      // Their counts are the old objects' counts.
      const carry = (i: number, j: number) => {
        const from = before.records[i];
        const to = records[j];
        const hit = from !== null && typeof from === 'object' ? counted.get(from) : undefined;
        if (hit && to !== null && typeof to === 'object') counted.set(to, hit);
      };
      for (let i = 0; i < splice.start; i++) carry(i, i);
      const tail = old.count - splice.start - splice.deleteCount;
      for (let k = 1; k <= tail; k++) carry(old.count - k, skeleton.count - k);
    }
    return { delta: await withRowsAndCounts(skeletonDelta(old, skeleton, splice), doc, records, entry.linkFree, countModel) };
  };

  /** The changes, with the state of the document's edits they show (taken with the records they are made of). */
  const changes = async (absolute: string, doc: OpenDocument, conversation: number, since: number | undefined, model?: string): Promise<{ delta: SkeletonDelta } | { skeleton: Skeleton }> => {
    const stamp = editVersion(doc);
    const answer = await changesOf(absolute, doc, conversation, since, model);
    if ('delta' in answer) {
      answer.delta.file = { ...answer.delta.file, editVersion: stamp };
      return answer;
    }
    return { skeleton: { ...answer.skeleton, editVersion: stamp } };
  };

  return {
    linkedViews,
    lookup,
    countsOf,
    countSome,
    /** A session's figures (the whole file's, each thread's), in the model it was last counted in. */
    sessionFigures,
    /**
     * What the sidebar should say of a file read or written whole, as it is on disk: its exact counts, and its
     * token total when every message is counted in the model it was last counted with.
     */
    async noteListing(absolute: string, doc: OpenDocument, countedIn?: string): Promise<void> {
      if (isDirty(doc)) return;
      ctx.listing.setSummary(absolute, doc.size, doc.mtimeMs, summaryOf(doc.codec, doc.file.doc), true);
      const model = countedIn ?? shown.get(keyOf(absolute, 0))?.model;
      if (!model) return;
      const size = doc.size;
      const mtime = doc.mtimeMs;
      // The sidebar's figure is the file's, as its message count is: a session shown as threads counts them all.
      const only = doc.conversations.length === 1 && !doc.conversations[0].store ? doc.conversations[0].records : undefined;
      if (doc.conversations.length > 1 && !doc.conversations[0].store) {
        // A dataset's conversations are each counted, after the one shown and without holding up its answer; the
        // sidebar then says each conversation's figure (and can sort them by it).
        void datasetTotals(doc, model)
          .then((each) => {
            if (!each || isDirty(doc) || doc.size !== size || doc.mtimeMs !== mtime) return;
            ctx.listing.setTokens(absolute, size, mtime, model, each.reduce((a, b) => a + b, 0), each);
            const summary = ctx.listing.summary(absolute, size, mtime)?.summary ?? {};
            const path = ctx.roots.display(absolute);
            const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '');
            // `modified` as the listing has it (the stat's Date), so the sidebar takes it for the same file.
            const modified = Math.round(mtime);
            ctx.emit('dir:details', { root: ctx.roots.root(), entries: [{ ...summary, path, name, bytes: size, modified, tokens: each.reduce((a, b) => a + b, 0), conversationTokens: each }] });
          })
          .catch(() => {});
        return;
      }
      const total = only ? (only.every((r) => countOf(r, model)) ? only.reduce((n, r) => n + countOf(r, model)!.tokens, 0) : undefined) : await sessionTotal(doc, model).catch(() => undefined);
      if (total !== undefined && !isDirty(doc) && doc.size === size && doc.mtimeMs === mtime) ctx.listing.setTokens(absolute, size, mtime, model, total);
    },
    /** Message `index` seen with its tool links (without linking the whole conversation when none is needed). */
    viewAt(absolute: string, doc: OpenDocument, conversation: number, index: number): MessageView {
      const records = doc.conversations[conversation].records;
      const entry = shown.get(keyOf(absolute, conversation));
      if (entry && entry.records === records && entry.linkFree) return viewOf(doc.codec, records[index]);
      return linkedViews(doc, records)[index];
    },
    /** Remembers the model a renderer counts a conversation with, so that deltas bring counts in it. */
    countedWith(absolute: string, conversation: number, model: string) {
      const entry = shown.get(keyOf(absolute, conversation));
      if (entry) entry.model = model;
    },

    /** The skeleton of the conversation as it is (the one last shown when nothing changed since). */
    skeleton(absolute: string, doc: OpenDocument, conversation: number): Skeleton {
      const key = keyOf(absolute, conversation);
      const before = shown.get(key);
      const records = doc.conversations[conversation].records;
      const stamp = editVersion(doc);
      if (before && before.records === records && before.file === doc.file) return { ...skeletonOf(before), editVersion: stamp };
      const entry = build(absolute, doc, conversation, before?.model);
      remember(key, entry);
      return { ...entry.base, editVersion: stamp };
    },

    changes,
    /** What an edit changed since the skeleton last shown (undefined when none was shown). */
    async changesSinceShown(absolute: string, doc: OpenDocument, conversation: number): Promise<SkeletonDelta | undefined> {
      const before = shown.get(keyOf(absolute, conversation));
      if (!before || !doc.conversations[conversation]) return undefined;
      const result = await changes(absolute, doc, conversation, before.version);
      return 'delta' in result ? result.delta : undefined;
    },

  };
}
