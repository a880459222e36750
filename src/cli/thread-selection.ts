import type { OpenedFile } from '../core/formats/document-file.js';
import { threadName, threadPaths, type ThreadPath } from '../core/tree/thread-paths.js';
import { UsageError } from './usage.js';

/** `--thread ID|all` and `--whole`: which path of a session the CLI shows, as the app shows it. */
export interface ThreadOptions {
  thread?: string;
  whole?: boolean;
}

/** The records of one conversation a command works on, by their index in the file's conversation. */
export interface Selection {
  records: number[];
  /** Set for a session whose records make threads: which one is shown, and what else there is. */
  thread?: string;
  whole?: boolean;
  threads?: Array<{ thread: string; messages: number; current: number }>;
  /** One line for people on what is shown and how to see the rest. */
  note?: string;
}

function pick(paths: ThreadPath[], wanted: string): ThreadPath {
  const found = paths.find((p) => p.thread === wanted || p.thread === `side:${wanted}`) ?? paths.filter((p) => p.thread.startsWith(`side:${wanted}`)).at(0);
  if (!found) throw new UsageError(`--thread takes main, all or one of ${paths.filter((p) => p.thread !== 'main').map((p) => p.thread.replace(/^side:/, '')).join(', ') || '(no sub-agent threads)'}, not "${wanted}"`, { brief: true });
  return found;
}

/**
 * A session is a tree (rewinds, sub-agents, compactions): by default the main thread's path as its agent
 * resumes it, since the last compaction; a flat file, or `--thread all`, is every record in file order.
 */
export function selectRecords(opened: OpenedFile, conversation: number, opts: ThreadOptions): Selection {
  const n = opened.doc.conversations[conversation]?.records.length ?? 0;
  const every = Array.from({ length: n }, (_, i) => i);
  const paths = threadPaths(opened.codec, opened.doc, conversation);
  if (!paths || paths.length === 0 || opts.thread === 'all') {
    if (opts.whole && !paths) throw new UsageError('--whole is for a session with compactions; this file is one list of messages');
    return { records: every };
  }
  const chosen = pick(paths, opts.thread ?? 'main');
  const whole = opts.whole === true;
  const records = whole ? chosen.whole : chosen.current;
  const earlier = chosen.whole.length - chosen.current.length;
  const others = paths.length - 1;
  const rest = [
    !whole && earlier > 0 ? `${earlier} messages before its last compaction (--whole)` : '',
    others > 0 && chosen.thread === 'main' ? `${others} sub-agent thread${others === 1 ? '' : 's'} (--thread ${paths[1].thread.replace(/^side:/, '')}${others > 1 ? ', …' : ''})` : '',
    chosen.forks > 0 ? `${chosen.forks} place${chosen.forks === 1 ? '' : 's'} where the path forks (the file keeps other branches there: a rewind, an edited prompt, another answer; the app switches between them)` : '',
    n !== records.length ? `every record in file order: --thread all` : '',
  ].filter(Boolean);
  // A plain path of every record, in one thread: nothing to say.
  if (rest.length === 0 && paths.length === 1 && earlier === 0) return { records, thread: chosen.thread, whole, threads: [] };
  const what = `${threadName(chosen.thread)}${whole ? ', the whole session' : earlier > 0 ? ' since its last compaction' : ''}`;
  return {
    records,
    thread: chosen.thread,
    whole,
    threads: paths.map((p) => ({ thread: p.thread, messages: p.whole.length, current: p.current.length })),
    note: `${what}: ${records.length} of the file's ${n} records${rest.length ? `; ${rest.join('; ')}` : ''}`,
  };
}
