import { contentText, type Message } from '../message.js';
import { renderBlock } from '../render.js';
import { RENDER_SEPARATOR, staticPrefixLength, toolTokens } from './skeleton.js';
import { toolLinks, type ToolLinks } from './tool-links.js';
import type { Measure, SkeletonMessage, WindowSkeleton } from './types.js';

interface Entry {
  measure: Measure;
  role: string;
  content: unknown;
  timestamp: unknown;
  text: string;
  block: string;
  links: ToolLinks;
  tokens?: number;
  toolTokens?: number;
  withSeparator?: number;
  alone?: number;
}

/**
 * Per-message text and counts, reused while a message's role, content and timestamp are unchanged, so a
 * window over a long history re-plans from counts instead of re-tokenising it (the dynamic window's
 * `returnHistoryAsString()` depends on this).
 */
export class SkeletonCache {
  private entries = new WeakMap<Message, Entry>();

  private entry(m: Message, measure: Measure): Entry {
    const cached = this.entries.get(m);
    if (
      cached &&
      cached.measure === measure &&
      cached.role === m.role &&
      cached.timestamp === m.timestamp &&
      cached.content === m.content &&
      // Structured content can change in place under the same reference.
      (typeof m.content === 'string' || cached.text === contentText(m.content))
    ) {
      return cached;
    }
    const entry: Entry = { measure, role: m.role, content: m.content, timestamp: m.timestamp, text: contentText(m.content), block: renderBlock(m), links: toolLinks(m) };
    this.entries.set(m, entry);
    return entry;
  }

  /** `countToolCalls`: tokens include each tool call's name and arguments (see SkeletonOptions). */
  skeleton(messages: readonly Message[], measure: Measure, staticCount?: number, options: { countToolCalls?: boolean } = {}): WindowSkeleton {
    const staticEnd = staticPrefixLength(messages, staticCount);
    const entries = messages.map((m) => this.entry(m, measure));
    const last = entries.length - 1;
    const skeleton: SkeletonMessage[] = entries.map((e, i) => {
      e.tokens ??= e.text.trim().length === 0 ? 0 : measure.count(e.text);
      if (options.countToolCalls) e.toolTokens ??= toolTokens(measure, messages[i]);
      const renderedTokens = i === last ? (e.alone ??= measure.count(e.block)) : (e.withSeparator ??= measure.count(e.block + RENDER_SEPARATOR));
      return {
        role: e.role,
        tokens: e.tokens + (options.countToolCalls ? e.toolTokens! : 0),
        renderedTokens,
        length: e.text.length,
        toolCallIds: e.links.callIds,
        toolResultId: e.links.resultId,
        toolLike: e.links.toolLike,
        isStatic: i < staticEnd,
        contentIsString: typeof e.content === 'string',
      };
    });
    return { messages: skeleton, text: { content: (i) => entries[i].text, block: (i) => entries[i].block, measure } };
  }
}

/** The rendered history from `start` (a UTF-16 offset) to its end, built from the blocks it needs only. */
export function renderedTail(skeleton: WindowSkeleton, start: number, from = 0): string {
  const text = skeleton.text;
  const n = skeleton.messages.length;
  if (!text || n === 0) return '';
  // Blocks before `from` (the static context) are sent whole; `start` counts in the blocks after them.
  const head: string[] = [];
  for (let j = 0; j < Math.min(from, n); j++) head.push(text.block(j));
  let total = 0;
  for (let j = from; j < n; j++) total += text.block(j).length + (j < n - 1 ? RENDER_SEPARATOR.length : 0);
  const parts: string[] = [];
  let end = total;
  for (let j = n - 1; j >= from && end > start; j--) {
    const block = text.block(j) + (j < n - 1 ? RENDER_SEPARATOR : '');
    const blockStart = end - block.length;
    parts.push(start > blockStart ? block.slice(start - blockStart) : block);
    end = blockStart;
  }
  const tail = parts.reverse().join('');
  return head.length === 0 ? tail : tail ? head.join(RENDER_SEPARATOR) + RENDER_SEPARATOR + tail : head.join(RENDER_SEPARATOR);
}
