import type { Codec, ConversationDocument } from '../../../src/core/formats/codec.js';
import { searchableMessages } from '../../../src/core/search/searchable.js';
import type { SearchableMessage } from '../../../src/core/search/segment.js';
import { threadRows } from '../../../src/core/tree/thread-rows.js';

/**
 * Where the table shows each message of a file whose conversations are trees (a session's threads, an export's
 * branches) when it opens: the thread (as the app numbers its conversations: each conversation's threads in
 * turn) and the row on it, or null where no thread shows it until it is asked for (another branch, before a
 * compaction: `offPath` says which); the rule of `revealRecord` and of the CLI's `show`, so that a hit's number is the row it opens
 * at. Files shown as stored are left as they are.
 */
export function markShownRows(codec: Codec, doc: ConversationDocument, messages: SearchableMessage[]): void {
  const conversations = threadRows(codec, doc);
  if (!conversations) return;
  let first = 0;
  const rows = conversations.map((c) => {
    const out = c.rows.map((r): SearchableMessage['shown'] => r && { conversation: first + c.threads.indexOf(r.thread), index: r.index });
    first += c.threads.length;
    return out;
  });
  for (const m of messages) {
    m.shown = rows[m.conversation]?.[m.index] ?? null;
    if (m.shown === null) m.offPath = conversations[m.conversation]?.off[m.index] ?? 'branch';
  }
}

/** A parsed file's messages as search sees them, each with the row the table shows it at. */
export function searchableAsShown(codec: Codec, doc: ConversationDocument): ReturnType<typeof searchableMessages> {
  const found = searchableMessages(codec, doc);
  markShownRows(codec, doc, found.messages);
  return found;
}

/** What a hit says beyond the file's order: the row the table shows it at (or why none), and its role as the table spells it. */
export function shownFields(m: SearchableMessage): Pick<SearchableMessage, 'shown' | 'offPath' | 'spelled'> {
  return { ...(m.shown !== undefined ? { shown: m.shown } : {}), ...(m.offPath !== undefined ? { offPath: m.offPath } : {}), ...(m.spelled !== undefined ? { spelled: m.spelled } : {}) };
}
