import { displayText, reasoningText, sentText, toolLinksOf, type MessageView } from '../../../src/core/formats/model.js';
import { isPlainObject, type Message } from '../../../src/core/message.js';
import { renderBlock } from '../../../src/core/render.js';
import { RENDER_SEPARATOR, staticPrefixLength } from '../../../src/core/window/skeleton.js';
import { linkToolParts, partTexts, renderViewBlock, staticViewPrefix, toolCallText } from '../../../src/core/views.js';
import { FLAGS, type Skeleton } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import { isDirty, viewOf, type OpenDocument } from '../documents.js';
import { summaryOf } from '../file-summary.js';
import type { HandlerContext } from './context.js';
import { openConversation } from './open-document.js';

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
  if (v.parts.some((p) => p.kind === 'reasoning')) f |= FLAGS.reasoning;
  return f;
}

function timeOf(v: MessageView): number {
  if (typeof v.timestamp !== 'string') return -1;
  // Timestamps without an offset are local time, as the Python reference writes them; Date.parse agrees.
  const t = Date.parse(v.timestamp);
  return Number.isFinite(t) ? t : -1;
}

/** A row's one-line text: the message's text, or its calls (name and arguments), or its result. */
function rowPreview(v: MessageView): string {
  const flat = (s: string) => {
    const one = s.replace(/\s+/g, ' ').trim();
    return one.length > 200 ? one.slice(0, 199) + '…' : one;
  };
  const text = flat(displayText(v));
  if (text !== '') return text;
  const calls = toolCallText(v);
  if (calls !== '') return flat(calls);
  return flat(reasoningText(v));
}

/** What the API reported, once per reported call (Claude Code writes one line per content block of a call). */
function usageByIndex(views: readonly MessageView[]): Skeleton['usage'] {
  const seen = new Set<string>();
  const out: Skeleton['usage'] = {};
  views.forEach((v, i) => {
    if (!v.usage) return;
    if (v.usage.key !== undefined) {
      if (seen.has(v.usage.key)) return;
      seen.add(v.usage.key);
    }
    const { key: _k, ...u } = v.usage;
    out[i] = u;
  });
  return out;
}

export function swarmsCodec(doc: OpenDocument): boolean {
  return doc.codec.id === 'swarms-json' || doc.codec.id === 'swarms-yaml';
}


/** Rows a first screen shows (and a little more): counted before the rest of a long count. */
const FIRST_SCREEN = 500;

interface Counted {
  model: string;
  /** The last message's rendered block has no separator after it. */
  last: boolean;
  tokens: number;
  toolTokens: number;
  reasoningTokens: number;
  renderedTokens: number;
}

/** Opening a conversation: a compact skeleton, then rows by page and full messages on demand. */
export function conversationHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'conversation:open' | 'conversation:rows' | 'conversation:message' | 'conversation:search' | 'conversation:times' | 'tokens:count'> {
  const open = (path: string, conversation: number) => openConversation(ctx, path, conversation);
  const viewsOf = (doc: OpenDocument, records: readonly Message[]) => records.map((r) => viewOf(doc.codec, r));
  // Tool links need the whole conversation (a result without an id answers the oldest open call): computed
  // once per list of records, which an edit replaces.
  const linked = new WeakMap<readonly Message[], MessageView[]>();
  const linkedViewsOf = (doc: OpenDocument, records: readonly Message[]) => {
    let views = linked.get(records);
    if (!views) linked.set(records, (views = linkToolParts(viewsOf(doc, records))));
    return views;
  };

  const counted = new WeakMap<object, Counted>();

  return {
    'conversation:open': ({ path, conversation }): Skeleton => {
      const { absolute, doc, conv } = open(path, conversation);
      if (!isDirty(doc)) ctx.listing.setSummary(absolute, doc.size, doc.mtimeMs, summaryOf(doc.codec, doc.file.doc), true);
      const records = conv.records;
      const views = linkedViewsOf(doc, records);
      // The swarms rule (system/developer roles, the MEMORY.md preamble) keeps the app and the library in step.
      const staticEnd = swarmsCodec(doc) ? staticPrefixLength(records) : staticViewPrefix(views);
      const roles = dictionary(views.map((v) => v.role));
      const normalRoles = roles.names.map((_, k) => views[roles.of.indexOf(k)].normalRole);
      const categories = dictionary(views.map((v) => v.category));
      const toolCalls: Record<string, string[]> = {};
      const toolResults: Record<string, string> = {};
      views.forEach((v, i) => {
        const links = toolLinksOf(v);
        if (links.callIds.length) toolCalls[i] = links.callIds;
        if (links.resultId !== undefined) toolResults[i] = links.resultId;
      });
      return {
        path: ctx.roots.display(absolute),
        conversation,
        conversations: doc.conversations.length,
        title: doc.file.doc.conversations[conversation]?.title,
        format: doc.codec.id,
        formatLabel: doc.codec.label,
        swarms: swarmsCodec(doc),
        count: records.length,
        bytes: doc.size,
        other: doc.file.doc.otherRecords,
        roles: roles.names,
        normalRoles,
        roleOf: roles.of,
        categories: categories.names,
        categoryOf: categories.of,
        flags: views.map((v, i) => flagsOf(v, i < staticEnd, swarmsCodec(doc) ? typeof records[i].content !== 'string' : !v.parts.every((p) => p.kind === 'text'))),
        storedTokens: records.map((m) => (isPlainObject(m) && typeof m.token_count === 'number' ? m.token_count : -1)),
        lengths: views.map((v) => sentText(v).length),
        toolCalls,
        toolResults,
        usage: usageByIndex(views),
      };
    },
    'conversation:times': ({ path, conversation }) => {
      const { doc, conv } = open(path, conversation);
      return { times: viewsOf(doc, conv.records).map(timeOf) };
    },
    'conversation:rows': ({ path, conversation, start, count }) => {
      const { doc, conv } = open(path, conversation);
      return {
        rows: conv.records.slice(start, start + count).map((m, k) => {
          const v = viewOf(doc.codec, m);
          return { index: start + k, role: v.role, preview: rowPreview(v), timestamp: v.timestamp, category: v.category, messageId: v.id };
        }),
      };
    },
    'conversation:message': ({ path, conversation, index }) => {
      const { doc, conv } = open(path, conversation);
      if (index >= conv.records.length) throw new HandlerError('NOT_FOUND', `${path} has ${conv.records.length} messages; there is no message ${index}`);
      const record = conv.records[index];
      const view = linkedViewsOf(doc, conv.records)[index];
      // The file's own text for a record unchanged since it was read; an edited one as JSON.
      const raw = doc.codec.rawText(doc.file.doc, conversation, record) ?? JSON.stringify(record, null, 4);
      const editableText = doc.codec.withText(record, displayText(view)) !== undefined;
      return { index, message: (isPlainObject(record) ? record : { value: record }) as Record<string, unknown>, view, text: displayText(view), raw, editableText };
    },
    'conversation:search': ({ path, conversation, query, caseSensitive }) => {
      const { doc, conv } = open(path, conversation);
      if (query === '') return { matches: [] };
      const needle = caseSensitive ? query : query.toLowerCase();
      const matches: number[] = [];
      conv.records.forEach((m, i) => {
        const v = viewOf(doc.codec, m);
        const hay = [sentText(v), reasoningText(v)].join('\n');
        if ((caseSensitive ? hay : hay.toLowerCase()).includes(needle)) matches.push(i);
      });
      return { matches };
    },
    'tokens:count': async ({ path, conversation, model }) => {
      // Let requests already queued (the first rows) be answered before this long job is prepared.
      await new Promise((resolve) => setImmediate(resolve));
      const { absolute, doc, conv } = open(path, conversation);
      const records = conv.records;
      const display = ctx.roots.display(absolute);
      const n = records.length;
      // Records an edit did not touch are the same objects as before: their counts are taken as they were, so a
      // recount after an edit counts (and hashes) only what changed.
      const missing: number[] = [];
      const known = records.map((r, i) => {
        const hit = r !== null && typeof r === 'object' ? counted.get(r) : undefined;
        if (hit && hit.model === model && hit.last === (i === n - 1)) return hit;
        missing.push(i);
        return undefined;
      });
      const views = viewsOf(doc, records);
      const swarms = swarmsCodec(doc);
      let done = n - missing.length;
      const countSome = async (which: number[]) => {
        const split = which.map((i) => partTexts(views[i]));
        const blocks = which.map((i) => (swarms ? renderBlock(records[i]) : renderViewBlock(views[i])) + (i < n - 1 ? RENDER_SEPARATOR : ''));
        let last = 0;
        const before = done;
        const fresh = await ctx.tokens.count({ model, parts: split.map((x) => x.sent), tools: split.map((x) => x.tools), reasoning: split.map((x) => x.reasoning), blocks }, (k, total) => {
          // Progress is throttled to what a progress bar can show, in messages of the conversation.
          if (k === total || k - last >= Math.max(500, total / 50)) {
            last = k;
            ctx.emit('tokens:progress', { path: display, done: before + k, total: n });
          }
        });
        which.forEach((i, k) => {
          const entry = { model, last: i === n - 1, tokens: fresh.tokens[k], toolTokens: fresh.toolTokens[k], reasoningTokens: fresh.reasoningTokens[k], renderedTokens: fresh.renderedTokens[k] };
          known[i] = entry;
          if (records[i] !== null && typeof records[i] === 'object') counted.set(records[i] as object, entry);
        });
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
      // The sidebar's figure for this file, while it stays as counted.
      if (doc.conversations.length === 1 && !isDirty(doc)) ctx.listing.setTokens(absolute, doc.size, doc.mtimeMs, model, total);
      return { path: display, conversation, model, ...result, total };
    },
  };
}
