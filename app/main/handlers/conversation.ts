import { contentText, type Message } from '../../../src/core/message.js';
import { renderBlock } from '../../../src/core/render.js';
import { contentPreview } from '../../../src/core/stats.js';
import { RENDER_SEPARATOR, staticPrefixLength } from '../../../src/core/window/skeleton.js';
import { toolCallText, toolLinks } from '../../../src/core/window/tool-links.js';
import { FLAGS, type Skeleton } from '../../shared/contract.js';
import { HandlerError } from '../../shared/errors.js';
import type { Handlers } from '../dispatch.js';
import type { HandlerContext } from './context.js';
import { openDocument } from './open-document.js';

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

function flagsOf(m: Message, isStatic: boolean): number {
  const links = toolLinks(m);
  let f = 0;
  if (links.callIds.length) f |= FLAGS.toolCall;
  if (links.toolLike) f |= FLAGS.toolResult;
  if (m.role.toLowerCase() === 'system') f |= FLAGS.system;
  if (typeof m.content !== 'string') f |= FLAGS.structured;
  if (isStatic) f |= FLAGS.static;
  return f;
}

function toolMaps(messages: Message[]): Pick<Skeleton, 'toolCalls' | 'toolResults'> {
  const toolCalls: Record<string, string[]> = {};
  const toolResults: Record<string, string> = {};
  messages.forEach((m, i) => {
    const links = toolLinks(m);
    if (links.callIds.length) toolCalls[i] = links.callIds;
    if (links.resultId !== undefined) toolResults[i] = links.resultId;
  });
  return { toolCalls, toolResults };
}

/** A row's one-line text: the content, or for a message that only calls tools, the calls (name and arguments). */
function rowPreview(m: Message): string {
  const text = contentPreview(m.content, 200);
  if (text !== '') return text;
  const calls = toolCallText(m);
  return calls === '' ? '' : contentPreview(calls.replace(/\n/g, ' '), 200);
}

function timeOf(m: Message): number {
  if (typeof m.timestamp !== 'string') return -1;
  // Timestamps without an offset are local time, as the Python reference writes them; Date.parse agrees.
  const t = Date.parse(m.timestamp);
  return Number.isFinite(t) ? t : -1;
}

/** Opening a conversation: a compact skeleton, then rows by page and full messages on demand. */
export function conversationHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'conversation:open' | 'conversation:rows' | 'conversation:message' | 'conversation:search' | 'conversation:times' | 'tokens:count'> {
  const open = (path: string) => openDocument(ctx, path);
  const messageAt = (messages: Message[], index: number, path: string) => {
    if (index >= messages.length) throw new HandlerError('NOT_FOUND', `${path} has ${messages.length} messages; there is no message ${index}`);
    return messages[index];
  };

  return {
    'conversation:open': ({ path }): Skeleton => {
      const { absolute, doc } = open(path);
      const { messages } = doc;
      const staticEnd = staticPrefixLength(messages);
      const roles = dictionary(messages.map((m) => m.role));
      const categories = dictionary(messages.map((m) => (typeof m.category === 'string' ? m.category : undefined)));
      return {
        path: ctx.roots.display(absolute),
        format: doc.parsed.format,
        shape: doc.parsed.shape,
        count: messages.length,
        bytes: doc.size,
        roles: roles.names,
        roleOf: roles.of,
        categories: categories.names,
        categoryOf: categories.of,
        flags: messages.map((m, i) => flagsOf(m, i < staticEnd)),
        storedTokens: messages.map((m) => (typeof m.token_count === 'number' ? m.token_count : -1)),
        lengths: messages.map((m) => contentText(m.content).length),
        ...toolMaps(messages),
      };
    },
    'conversation:times': ({ path }) => ({ times: open(path).doc.messages.map(timeOf) }),
    'conversation:rows': ({ path, start, count }) => {
      const { messages } = open(path).doc;
      return {
        rows: messages.slice(start, start + count).map((m, k) => ({
          index: start + k,
          role: m.role,
          preview: rowPreview(m),
          timestamp: typeof m.timestamp === 'string' ? m.timestamp : undefined,
          category: typeof m.category === 'string' ? m.category : undefined,
          messageId: typeof m.message_id === 'string' ? m.message_id : undefined,
        })),
      };
    },
    'conversation:message': ({ path, index }) => {
      const { doc } = open(path);
      const { baseline } = doc.parsed;
      const message = messageAt(doc.messages, index, path);
      // The file's own text for a message that is unchanged since it was read; an edited one as JSON.
      const original = baseline.origin.get(message);
      const span = original === undefined ? undefined : baseline.elements[original];
      const raw = span ? baseline.text.slice(span.start, span.end) : JSON.stringify(message, null, 4);
      return { index, message, text: contentText(message.content), raw };
    },
    'conversation:search': ({ path, query, caseSensitive }) => {
      const { messages } = open(path).doc;
      if (query === '') return { matches: [] };
      const needle = caseSensitive ? query : query.toLowerCase();
      const matches: number[] = [];
      messages.forEach((m, i) => {
        const hay = contentText(m.content);
        if ((caseSensitive ? hay : hay.toLowerCase()).includes(needle)) matches.push(i);
      });
      return { matches };
    },
    'tokens:count': async ({ path, model }) => {
      // Let requests already queued (the first rows) be answered before this long job is prepared.
      await new Promise((resolve) => setImmediate(resolve));
      const { absolute, doc } = open(path);
      const { messages } = doc;
      const display = ctx.roots.display(absolute);
      const texts = messages.map((m) => contentText(m.content));
      const tools = messages.map(toolCallText);
      const blocks = messages.map((m, i) => renderBlock(m) + (i < messages.length - 1 ? RENDER_SEPARATOR : ''));
      let last = 0;
      const result = await ctx.tokens.count({ model, texts, tools, blocks }, (done, total) => {
        // Progress is throttled to what a progress bar can show.
        if (done === total || done - last >= Math.max(500, total / 50)) {
          last = done;
          ctx.emit('tokens:progress', { path: display, done, total });
        }
      });
      return { path: display, model, ...result, total: result.tokens.reduce((a, b) => a + b, 0) };
    },
  };
}
