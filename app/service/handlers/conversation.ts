import { displayText, reasoningText, sentText, type MessageView } from '../../../src/core/formats/model.js';
import { isPlainObject, type Message } from '../../../src/core/message.js';
import type { Skeleton } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import { getTokenizer } from '../../../src/core/tokenizer/index.js';
import type { Handlers } from '../dispatch.js';
import { isDirty, viewOf, type OpenDocument } from '../documents/documents.js';
import { linkToolParts } from '../../../src/core/views.js';
import { peekHead } from '../listing/head-peek.js';
import { peekEnds } from '../parts/ends-peek.js';
import { endsSkeleton } from '../parts/ends-skeleton.js';
import { locateMessage } from '../parts/parted-messages.js';
import { queryTerms, textMatches } from '../../../src/core/search/words.js';
import { codecWithRoles, mappingOfViews, roleKey, rolesOf } from '../../../src/core/formats/roles.js';
import type { Codec } from '../../../src/core/formats/codec.js';
import { branchLeaf, revealRecord, showPath } from '../documents/conversation-views.js';
import { editVersion } from '../documents/edit-version.js';
import { branchOutline } from '../../../src/core/tree/branch-outline.js';
import { forkPoints, newestLeafUnder, pathTo } from '../../../src/core/tree/message-tree.js';
import { shownMessage, transcriptView } from '../documents/shown-message.js';
import { buildSkeleton, swarmsCodec, tableRow } from '../documents/skeleton.js';
import { apiCalls } from '../../../src/core/api-calls.js';
import type { HandlerContext } from './context.js';
import type { ConversationState, Counted } from './conversation-state.js';
import { openConversation } from './open-document.js';

function timeOf(v: MessageView): number {
  if (typeof v.timestamp !== 'string') return -1;
  // Timestamps without an offset are local time, as the Python reference writes them; Date.parse agrees.
  const t = Date.parse(v.timestamp);
  return Number.isFinite(t) ? t : -1;
}

/** What each name that is no role is read as in a conversation (one view per spelling says it). */
function roleMappingOf(doc: OpenDocument, conversation: number) {
  if (!doc.codec.namedSpeakers && rolesOf(doc.codec).length === 0) return [];
  const first = new Map<string, MessageView>();
  for (const r of doc.conversations[conversation]?.records ?? []) {
    const v = viewOf(doc.codec, r);
    if (!first.has(v.role)) first.set(v.role, v);
  }
  return mappingOfViews(doc.codec, [...first.values()]);
}

/** Rows of a file's head shown while the whole file is read. */
const PEEK_ROWS = 2000;
/** The tree view lists this many segments at most (a tree of thousands of forks says it was cut). */
const OUTLINE_LIMIT = 2000;

/** Rows a first screen shows (and a little more): counted before the rest of a long count. */
const FIRST_SCREEN = 500;

/** Opening a conversation: a compact skeleton, then rows by page and full messages on demand. */
export function conversationHandlers(
  ctx: HandlerContext,
  state: ConversationState,
): Pick<Handlers, 'conversation:open' | 'conversation:peek' | 'conversation:locate' | 'conversation:update' | 'conversation:rows' | 'conversation:message' | 'conversation:views' | 'conversation:calls' | 'conversation:search' | 'conversation:times' | 'tokens:count' | 'tokens:text' | 'conversation:set-role' | 'conversation:roles' | 'conversation:path' | 'conversation:reveal' | 'conversation:outline'> {
  const open = (path: string, conversation: number) => openConversation(ctx, path, conversation);
  const viewsOf = (doc: OpenDocument, records: readonly Message[]) => records.map((r) => viewOf(doc.codec, r));

  return {
    'conversation:open': ({ path, conversation }): Skeleton => {
      // Counting follows an open: the counter gets ready while the file is read.
      ctx.tokens.prepare?.(ctx.settings.get().model);
      const { absolute, doc } = open(path, conversation);
      state.noteListing(absolute, doc);
      return state.skeleton(absolute, doc, conversation);
    },
    'conversation:peek': async ({ path, conversation, ends }) => {
      const absolute = ctx.roots.resolve(path);
      let head;
      try {
        // A document read already opens at once: nothing to peek at.
        if (ctx.documents.peek(absolute)) return { rows: [], size: 0, read: 0 };
        if (ends) {
          // A part is read whole soon enough; a dataset's conversations are not its lines.
          const both = conversation === 0 && ctx.documents.fileOf(absolute) === absolute ? await peekEnds(absolute, ctx.documents.maxFileBytes) : undefined;
          if (!both) return { rows: [], size: 0, read: 0 };
          const { skeleton, rows, from, head: headRows } = endsSkeleton(ctx.roots.display(absolute), both, PEEK_ROWS);
          return { skeleton, rows, from, head: headRows, size: both.size, read: both.size };
        }
        // A part of a file read a part at a time has a head of its own, where its first line starts.
        const part = ctx.documents.partRange(absolute);
        if (part) {
          const peeked = peekHead(part.file, part.codec, part.start, part.end);
          head = peeked && { ...peeked, size: part.end - part.start };
        } else if (ctx.documents.fileOf(absolute) !== absolute) return { rows: [], size: 0, read: 0 };
        else head = peekHead(absolute);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new HandlerError('NOT_FOUND', `${path} does not exist (any more)`);
        throw new HandlerError('IO', `${path} could not be read: ${(e as Error).message}`);
      }
      const all = head?.doc.conversations[conversation]?.records as Message[] | undefined;
      if (!head || !all || all.length === 0) return { rows: [], size: head?.size ?? 0, read: head?.read ?? 0 };
      // Links are made in file order, so those of the first messages do not depend on the rest.
      const records = all.slice(0, PEEK_ROWS);
      const views = linkToolParts(records.map((r) => head.codec.view(r)));
      const source = { codec: head.codec, size: head.size, file: { doc: head.doc }, conversations: head.doc.conversations };
      const skeleton = buildSkeleton(ctx.roots.display(absolute), source, conversation, records, views, -1);
      // A part's count is not the file's: it is known once the part is read (soon: a part is some 100 MB).
      const estimated = head.doc.conversations.length === 1 && ctx.documents.fileOf(absolute) === absolute ? Math.round((all.length * head.size) / Math.max(1, head.read)) : undefined;
      return { skeleton, rows: views.map((v, i) => tableRow(v, i)), size: head.size, read: head.read, estimated };
    },
    'conversation:locate': async ({ path, index }) => {
      const absolute = ctx.roots.resolve(path);
      try {
        const place = await locateMessage(ctx.documents, absolute, index);
        return place.found ? { ...place, path: ctx.roots.display(place.path) } : place;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new HandlerError('NOT_FOUND', `${path} does not exist (any more)`);
        throw e;
      }
    },
    'conversation:update': async ({ path, conversation, since, model }) => {
      const { absolute, doc } = open(path, conversation);
      const answer = await state.changes(absolute, doc, conversation, since, model);
      state.noteListing(absolute, doc);
      return answer;
    },
    'conversation:set-role': async ({ path, conversation, role, normalRole }) => {
      const { absolute, doc: before } = open(path, conversation);
      // Choosing what the file itself says is no setting of the user's: it is dropped.
      const fileCodec = codecWithRoles((before.file.codec as { base?: Codec }).base ?? before.file.codec, rolesOf(before.file.codec).filter((d) => d.from !== 'your setting'));
      const sample = before.conversations[conversation]?.records.find((r) => roleKey(fileCodec.view(r).role) === roleKey(role));
      if (sample !== undefined && fileCodec.view(sample).normalRole === normalRole) normalRole = null;
      const all = { ...(ctx.settings.get().roleOverrides ?? {}) };
      const mine = { ...(all[absolute] ?? {}) };
      if (normalRole === null) delete mine[role];
      else mine[role] = normalRole;
      if (Object.keys(mine).length > 0) all[absolute] = mine;
      else delete all[absolute];
      ctx.settings.set({ roleOverrides: all });
      // Opened again, the document takes the new roles (its codec, views and skeleton made anew).
      const { doc } = open(path, conversation);
      const delta = await state.changesSinceShown(absolute, doc, conversation);
      ctx.emit('conversation:changed', { path: ctx.roots.display(absolute), version: editVersion(doc) });
      return { ...(delta ? { delta } : {}), roleMapping: roleMappingOf(doc, conversation) };
    },
    'conversation:path': async ({ path, conversation, at, option, whole, leaf: asked }) => {
      const { absolute, doc, conv } = open(path, conversation);
      if (!conv.store || !conv.view) throw new HandlerError('BAD_INPUT', `${path} is one list of messages: it has no other path to show`);
      let leaf = conv.view.leaf;
      if (asked !== undefined) {
        if (asked >= conv.store.all.length || conv.store.tree.thread[asked] !== conv.view.thread) throw new HandlerError('BAD_INPUT', `message ${asked} is not in the thread shown`);
        leaf = newestLeafUnder(conv.store.tree, asked);
        // A message before the leaf's last compaction is shown with the history it is in.
        if (whole === undefined && !pathTo(conv.store.tree, leaf, false).includes(asked)) whole = true;
      }
      if (at !== undefined || option !== undefined) {
        const chosen = at !== undefined && option !== undefined ? branchLeaf(conv, at, option) : undefined;
        if (chosen === undefined) throw new HandlerError('BAD_INPUT', `message ${at ?? '?'} has no other branch ${option ?? '?'} to show`);
        leaf = chosen;
      }
      showPath(doc.conversations, conv, leaf, whole ?? conv.view.whole);
      const delta = await state.changesSinceShown(absolute, doc, conversation);
      if (!delta) throw new HandlerError('BAD_INPUT', `open ${path} first`);
      // Every window showing the thread shows it on this path now (its rows are other messages).
      ctx.emit('conversation:changed', { path: ctx.roots.display(absolute), version: delta.file.editVersion });
      return { delta };
    },
    'conversation:outline': ({ path, conversation }) => {
      const { doc, conv } = open(path, conversation);
      if (!conv.store || !conv.view) return { segments: [], truncated: false, forks: 0 };
      const { store, view } = conv;
      const segments = branchOutline(store.tree, view.thread, OUTLINE_LIMIT);
      const onPath = new Set(pathTo(store.tree, view.leaf, true));
      const text = (i: number) => (tableRow(viewOf(doc.codec, store.all[i]), i).preview ?? '').slice(0, 140);
      return {
        segments: segments.map((g) => {
          const label = g.depth > 0 ? viewOf(doc.codec, store.all[g.first]).category : undefined;
          return { ...g, shown: onPath.has(g.first), firstText: text(g.first), lastText: g.last === g.first ? '' : text(g.last), leafText: text(g.leaf), ...(label ? { label } : {}) };
        }),
        truncated: segments.length >= OUTLINE_LIMIT,
        forks: forkPoints(store.tree, view.thread).length,
      };
    },
    'conversation:reveal': async ({ path, conversation, index }) => {
      const { absolute, doc } = open(path, 0);
      // Unsaved edits move records: the file's index is then its own, as the search read it.
      const was = editVersion(doc);
      const found = isDirty(doc) ? undefined : revealRecord(doc.conversations, conversation, index);
      if (!found) return { conversation, index };
      const delta = await state.changesSinceShown(absolute, doc, found.conversation);
      // Another path shown: every window showing the file learns its edits' state moved on.
      const now = editVersion(doc);
      if (now !== was) ctx.emit('conversation:changed', { path: ctx.roots.display(absolute), version: now });
      return { ...found, ...(delta ? { delta } : {}) };
    },
    'conversation:roles': ({ path, conversation }) => {
      const { doc } = open(path, conversation);
      return { roleMapping: roleMappingOf(doc, conversation) };
    },
    'conversation:times': ({ path, conversation }) => {
      const { doc, conv } = open(path, conversation);
      return { times: viewsOf(doc, conv.records).map(timeOf) };
    },
    'conversation:rows': async ({ path, conversation, start, count, model }) => {
      const { doc, conv } = open(path, conversation);
      const records = conv.records;
      const rows = records.slice(start, start + count).map((m, k) => tableRow(viewOf(doc.codec, m), start + k));
      if (model === undefined || rows.length === 0) return { rows };
      // The rows on screen are counted now, ahead of a long count of the whole conversation.
      const { entries } = await state.countsOf(doc, records, rows.map((r) => r.index), model);
      return { rows: rows.map((r, k) => ({ ...r, tokens: entries[k].tokens, toolTokens: entries[k].toolTokens, reasoningTokens: entries[k].reasoningTokens })) };
    },
    'conversation:message': ({ path, conversation, index, full }) => {
      const { absolute, doc, conv } = open(path, conversation);
      if (index >= conv.records.length) throw new HandlerError('NOT_FOUND', `${path} has ${conv.records.length} messages; there is no message ${index}`);
      const record = conv.records[index];
      const view = state.viewAt(absolute, doc, conversation, index);
      // The file's own text for a record unchanged since it was read; an edited one as JSON.
      const raw = doc.codec.rawText(doc.file.doc, conversation, record) ?? JSON.stringify(record, null, 4);
      const editableText = doc.codec.withText(record, displayText(view)) !== undefined;
      const whole = { message: (isPlainObject(record) ? record : { value: record }) as Record<string, unknown>, view, text: displayText(view), raw };
      return { index, editableText, ...shownMessage(whole, full) };
    },
    'conversation:views': ({ path, conversation, start, count }) => {
      const { absolute, doc, conv } = open(path, conversation);
      const end = Math.min(conv.records.length, start + count);
      const views = [];
      for (let i = start; i < end; i++) views.push({ index: i, ...transcriptView(state.viewAt(absolute, doc, conversation, i)) });
      return { views };
    },
    'conversation:calls': ({ path, conversation }) => {
      const { absolute, doc, conv } = open(path, conversation);
      const { first, last } = apiCalls(state.linkedViews(doc, conv.records), { oneMessageEach: swarmsCodec(doc) });
      return { version: state.skeleton(absolute, doc, conversation).version, first, last };
    },
    'conversation:search': ({ path, conversation, query }) => {
      const { doc, conv } = open(path, conversation);
      // The rule of the search across conversations: every word of the query begins a word of the message.
      const terms = queryTerms(query);
      if (terms.length === 0) return { matches: [] };
      const matches: number[] = [];
      conv.records.forEach((m, i) => {
        const v = viewOf(doc.codec, m);
        const reasoning = reasoningText(v);
        if (textMatches(reasoning ? `${sentText(v)}\n${reasoning}` : sentText(v), terms)) matches.push(i);
      });
      return { matches };
    },
    'tokens:text': ({ model, text }) => {
      const tokenizer = getTokenizer(model);
      return { tokens: tokenizer.countContent(text), encoding: tokenizer.encoding };
    },
    'tokens:count': async ({ path, conversation, model }) => {
      // Let requests already queued (the first rows) be answered before this long job is prepared.
      await new Promise((resolve) => setImmediate(resolve));
      const { absolute, doc, conv } = open(path, conversation);
      const records = conv.records;
      const display = ctx.roots.display(absolute);
      const n = records.length;
      state.countedWith(absolute, conversation, model);
      // Records an edit did not touch are the same objects as before: their counts are taken as they were.
      const { known, missing } = state.lookup(records, model);
      let done = n - missing.length;
      const countSome = async (which: number[]) => {
        let last = 0;
        const before = done;
        const fresh = await state.countSome(doc, records, which, model, (k, total) => {
          // Progress is throttled to what a progress bar can show, in messages of the conversation.
          if (k === total || k - last >= Math.max(500, total / 50)) {
            last = k;
            ctx.emit('tokens:progress', { path: display, done: before + k, total: n });
          }
        });
        which.forEach((i, k) => (known[i] = fresh.entries[k]));
        done += which.length;
        return fresh;
      };
      // A long count sends the first screen's counts first: the table shows them while the rest is counted.
      const firstEnd = Math.min(n, FIRST_SCREEN);
      const early = missing.length > FIRST_SCREEN ? missing.filter((i) => i < firstEnd) : [];
      if (early.length > 0) {
        await countSome(early);
        const head = (known as Counted[]).slice(0, firstEnd);
        ctx.emit('tokens:partial', { path: display, conversation, model, start: 0, tokens: head.map((c) => c.tokens), toolTokens: head.map((c) => c.toolTokens), reasoningTokens: head.map((c) => c.reasoningTokens) });
      }
      const fresh = await countSome(early.length > 0 ? missing.filter((i) => i >= firstEnd) : missing);
      const all = known as Counted[];
      const result = { encoding: fresh.encoding, approximate: fresh.approximate, tokens: all.map((c) => c.tokens), toolTokens: all.map((c) => c.toolTokens), reasoningTokens: all.map((c) => c.reasoningTokens), renderedTokens: all.map((c) => c.renderedTokens) };
      const total = result.tokens.reduce((a, b) => a + b, 0);
      // The sidebar's figure for this file, while it stays as counted (a session's other threads counted too).
      const figures = conv.store ? await state.sessionFigures(doc, model) : {};
      await state.noteListing(absolute, doc, model);
      return { path: display, conversation, model, ...result, total, ...figures };
    },
  };
}
