import { contentText, type Message } from '../message.js';
import { renderBlock } from '../render.js';
import { toolCallTexts, toolLinks } from './tool-links.js';
import type { Measure, SkeletonMessage, WindowSkeleton } from './types.js';

export const RENDER_SEPARATOR = '\n\n';
const STATIC_ROLES = new Set(['system', 'developer']);
const MEMORY_MARKER = '[Persistent Memory — MEMORY.md]';

export interface SkeletonOptions {
  /** Force the first N messages to count as static context (a Conversation knows its seeds). */
  staticCount?: number;
  /** Stored counts to use instead of counting (the app's worker fills these in). */
  tokens?: readonly number[];
  renderedTokens?: readonly number[];
  /**
   * Count what the model is sent for each message, tool calls (names and arguments) included. Off for the
   * swarms class, whose `token_count` and trimming count the content alone, as its spec says.
   */
  countToolCalls?: boolean;
}

/** The leading system / developer / MEMORY.md messages, or the count the caller knows. */
export function staticPrefixLength(messages: readonly Message[], staticCount?: number): number {
  if (staticCount !== undefined) return Math.min(staticCount, messages.length);
  let n = 0;
  while (n < messages.length) {
    const m = messages[n];
    const isMemory = typeof m.content === 'string' && m.content.startsWith(MEMORY_MARKER);
    if (!STATIC_ROLES.has(m.role.toLowerCase()) && !isMemory) break;
    n++;
  }
  return n;
}

function contentTokens(measure: Measure, content: unknown): number {
  const text = contentText(content);
  return text.trim().length === 0 ? 0 : measure.count(text);
}

/** Tokens of a message's tool calls, each call counted on its own. */
export function toolTokens(measure: Measure, m: Message): number {
  let n = 0;
  for (const t of toolCallTexts(m)) n += measure.count(t);
  return n;
}

/** Builds the skeleton a planner needs; counts with `measure` unless counts are supplied. */
export function buildSkeleton(messages: readonly Message[], measure: Measure, options: SkeletonOptions = {}): WindowSkeleton {
  const staticEnd = staticPrefixLength(messages, options.staticCount);
  const skeleton: SkeletonMessage[] = messages.map((m, i) => {
    const links = toolLinks(m);
    const block = renderBlock(m);
    return {
      role: m.role,
      tokens: options.tokens?.[i] ?? contentTokens(measure, m.content) + (options.countToolCalls ? toolTokens(measure, m) : 0),
      renderedTokens: options.renderedTokens?.[i] ?? measure.count(i === messages.length - 1 ? block : block + RENDER_SEPARATOR),
      length: contentText(m.content).length,
      toolCallIds: links.callIds,
      toolResultId: links.resultId,
      toolLike: links.toolLike,
      isStatic: i < staticEnd,
      contentIsString: typeof m.content === 'string',
    };
  });
  return {
    messages: skeleton,
    text: {
      content: (i) => contentText(messages[i].content),
      block: (i) => renderBlock(messages[i]),
      measure,
    },
  };
}
