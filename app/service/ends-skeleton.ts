import type { MessageView } from '../../src/core/formats/model.js';
import type { Message } from '../../src/core/message.js';
import { linkToolParts } from '../../src/core/views.js';
import { UNREAD_ROLE, type Row, type Skeleton } from '../shared/contract.js';
import type { EndsPeek } from './ends-peek.js';
import { buildSkeleton, tableRow } from './skeleton.js';

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
  const records = head.concat(new Array<Message>(unread).fill(UNREAD_RECORD), tail);
  const views = linkToolParts(head.map((r) => ends.codec.view(r))).concat(new Array<MessageView>(unread).fill(UNREAD_VIEW), tailViews);
  const source = { codec: ends.codec, size: ends.size, file: { doc: ends.head }, conversations: ends.head.conversations };
  const skeleton = buildSkeleton(displayPath, source, 0, records, views, -1);
  return { skeleton, rows: tailViews.map((v, i) => tableRow(v, from + i)), from, head: head.length };
}
