import type { MessageView } from '../../../src/core/formats/model.js';
import type { Message } from '../../../src/core/message.js';
import { linkToolParts } from '../../../src/core/views.js';
import { UNREAD_ROLE, type Row, type Skeleton } from '../../shared/contract.js';
import type { EndsPeek } from './ends-peek.js';
import { buildSkeleton, tableRow } from '../documents/skeleton.js';

// What stands for each message between the ends until the file is read: a role of its own, nothing in it.
const UNREAD_RECORD = { role: UNREAD_ROLE, content: '' } as Message;
const UNREAD_VIEW: MessageView = { role: UNREAD_ROLE, normalRole: 'other', parts: [] };

/**
 * A skeleton of every message of a file whose ends alone are read: the first `headRows` as the head has them,
 * the last ones from the tail, and the messages between as unread (version -1: nothing builds on it). The
 * rows of the tail come with it; the head's rows the renderer has already.
 */
export function endsSkeleton(displayPath: string, ends: EndsPeek, headRows: number): { skeleton: Skeleton; rows: Row[]; from: number; head: number } {
  const head = (ends.head.conversations[0].records as Message[]).slice(0, headRows);
  // Ends that meet (a file the head nearly holds) are one stretch: the tail starts where the head stops.
  const from = Math.max(ends.from, head.length);
  const tail = (ends.tail.conversations[0].records as Message[]).slice(from - ends.from);
  const unread = from - head.length;
  const tailViews = linkToolParts(tail.map((r) => ends.codec.view(r)));
  // One unread message stands for all of them while the skeleton is built, then is repeated: building hundreds of
  // thousands of rows alike took as long as finding the ends.
  const one = Math.min(1, unread);
  const records = head.concat(new Array<Message>(one).fill(UNREAD_RECORD), tail);
  const views = linkToolParts(head.map((r) => ends.codec.view(r))).concat(new Array<MessageView>(one).fill(UNREAD_VIEW), tailViews);
  const source = { codec: ends.codec, size: ends.size, file: { doc: ends.head }, conversations: ends.head.conversations };
  const skeleton = widened(buildSkeleton(displayPath, source, 0, records, views, -1), head.length, unread - one);
  return { skeleton, rows: tailViews.map((v, i) => tableRow(v, from + i)), from, head: head.length };
}

/** The skeleton with its message at `at` repeated `extra` more times (the messages after it move down). */
function widened(s: Skeleton, at: number, extra: number): Skeleton {
  if (extra <= 0) return s;
  // Filled whole, then its ends written over: concat over a filled array (holey to V8) took a fifth of a second.
  const repeat = (xs: number[]) => {
    const out = new Array<number>(xs.length + extra).fill(xs[at]);
    for (let i = 0; i < at; i++) out[i] = xs[i];
    for (let i = at + 1; i < xs.length; i++) out[i + extra] = xs[i];
    return out;
  };
  const moved = <T>(sparse: { at: number[]; values: T[] }) => ({ at: sparse.at.map((i) => (i > at ? i + extra : i)), values: sparse.values });
  return { ...s, count: s.count + extra, roleOf: repeat(s.roleOf), categoryOf: repeat(s.categoryOf), flags: repeat(s.flags), storedTokens: repeat(s.storedTokens), lengths: repeat(s.lengths), toolCalls: moved(s.toolCalls), toolResults: moved(s.toolResults), usage: moved(s.usage) };
}
