import type { Codec, ConversationDocument } from '../formats/codec.js';
import { threadPaths } from './thread-paths.js';

/** A record's place as `show` (and the app, as the file opens) shows it: its thread (as `--thread` names it) and row. */
export interface ThreadRow {
  thread: string;
  index: number;
}

/**
 * Why no thread shown by default holds a record: `earlier`, its thread's history before a compaction (shown with
 * the whole session); `branch`, a branch its thread did not go on with (a rewind, an edited prompt).
 */
export type OffPath = 'earlier' | 'branch';

export interface ConversationRows {
  /** Per record of the conversation: where it is shown, or null. */
  rows: Array<ThreadRow | null>;
  /** Per record shown on no thread (null in `rows`): why. */
  off: Array<OffPath | undefined>;
  /** Its threads in order, the main one first (the app shows each as a conversation of its own, in this order). */
  threads: string[];
  /** The thread `show` shows without `--thread`: the main one, or a sub-agent file's own. */
  byDefault?: string;
}

/**
 * For a file whose records make threads (a session's sub-agents, rewinds and compactions), where each record of
 * each conversation is shown by default: the first thread (the main one first) whose path since its last
 * compaction holds it, and its row there; null for a record on none of them (another branch, before a
 * compaction). Undefined for a file shown as stored, where a record's row is its place in the file.
 */
export function threadRows(codec: Codec, doc: ConversationDocument): ConversationRows[] | undefined {
  if (!codec.tree) return undefined;
  return doc.conversations.map((c, k) => {
    const rows = new Array<ThreadRow | null>(c.records.length).fill(null);
    // The main thread comes first; a sub-agent's own file has only its own, which `show` then shows by default.
    const paths = threadPaths(codec, doc, k) ?? [];
    const threads = paths.map((p) => p.thread.replace(/^side:/, ''));
    paths.forEach((p, t) => {
      p.current.forEach((record, index) => {
        rows[record] ??= { thread: threads[t], index };
      });
    });
    const earlier = new Uint8Array(c.records.length);
    for (const p of paths) for (const record of p.whole) earlier[record] = 1;
    const off = rows.map((r, record) => (r ? undefined : earlier[record] ? 'earlier' : 'branch'));
    return { rows, off, threads, byDefault: threads[0] };
  });
}
