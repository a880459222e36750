import type { OpenedFile } from '../core/formats/document-file.js';
import { childrenOf, forkPoints, newestLeafUnder, threadsOf, type MessageTree } from '../core/tree/message-tree.js';
import { reattachedText, threadName, threadPath, type ThreadPath } from '../core/tree/thread-paths.js';
import { UsageError } from './usage.js';

/**
 * `--thread ID|all`, `--whole` and `--at ID`: which path of a session the CLI shows, as the app shows it
 * (`--at` a message's id: the branch through it, to its newest message, as the app's ‹ › show it).
 */
export interface ThreadOptions {
  thread?: string;
  whole?: boolean;
  at?: string;
  /** The session's threads in files of their own (Claude Code's `subagents/`): also what --thread takes. */
  threadFiles?: readonly string[];
}

/** The records of one conversation a command works on, by their index in the file's conversation. */
export interface Selection {
  records: number[];
  /** Set for a session whose records make threads: which one is shown, and what else there is. */
  thread?: string;
  whole?: boolean;
  threads?: Array<{ thread: string; messages: number; current: number }>;
  /** Where the thread shown went two ways (forkPoints' count: the app's header and branch tree give the same). */
  forks?: number;
  /** How many of the file's lines name a parent it does not hold (each shown after the line before it). */
  reattached?: number;
  /** One line for people on what is shown and how to see the rest. */
  note?: string;
}

function pick(paths: ThreadPath[], wanted: string, threadFiles: readonly string[] = []): ThreadPath {
  const found = paths.find((p) => p.thread === wanted || p.thread === `side:${wanted}`) ?? paths.filter((p) => p.thread.startsWith(`side:${wanted}`)).at(0);
  if (!found) {
    const own = paths.map((p) => p.thread.replace(/^side:/, ''));
    const files = threadFiles.length > 0 ? `; or a sub-agent of a file of its own: ${threadFiles.slice(0, 6).join(', ')}${threadFiles.length > 6 ? `, … (${threadFiles.length})` : ''}` : '';
    throw new UsageError(`--thread takes all or one of ${own.join(', ')}${files}; not "${wanted}"`, { brief: true });
  }
  return found;
}

/**
 * A session is a tree (rewinds, sub-agents, compactions): by default the main thread's path as its agent
 * resumes it, since the last compaction; a flat file, or `--thread all`, is every record in file order.
 */
export function selectRecords(opened: OpenedFile, conversation: number, opts: ThreadOptions): Selection {
  const all = opened.doc.conversations[conversation]?.records;
  const n = all?.length ?? 0;
  const every = Array.from({ length: n }, (_, i) => i);
  const tree = opened.codec.tree && all ? opened.codec.tree(opened.doc, conversation, all) : undefined;
  const through = tree && opts.at !== undefined ? recordById(opened, all ?? [], opts.at) : undefined;
  if (opts.at !== undefined && !tree) throw new UsageError('--at is for a session whose messages make a tree (rewinds, edits, regenerated answers); this file is one list of messages', { brief: true });
  const paths = tree ? threadsOf(tree).map((t) => (through !== undefined && tree.thread[through] === t ? threadPath(tree, t, newestLeafUnder(tree, through)) : threadPath(tree, t))) : undefined;
  if (!paths || paths.length === 0 || opts.thread === 'all') {
    if (opts.whole && !paths) throw new UsageError('--whole is for a session with compactions; this file is one list of messages');
    return { records: every };
  }
  if (through !== undefined && opts.thread === undefined) opts = { ...opts, thread: tree!.thread[through] };
  // The main thread by default; a sub-agent's own file (Claude Code's `subagents/agent-*.jsonl`) has only its own.
  const chosen = pick(paths, opts.thread ?? (paths.some((p) => p.thread === 'main') ? 'main' : paths[0].thread), opts.threadFiles);
  // A branch through a message before the last compaction is shown whole, or the message would not be in it.
  const whole = opts.whole === true || (through !== undefined && !chosen.current.includes(through));
  const records = whole ? chosen.whole : chosen.current;
  const earlier = chosen.whole.length - chosen.current.length;
  // What began the part shown, where no compaction did (tree.restarts): the model was sent nothing of before.
  const restart = earlier > 0 ? tree!.restarts?.get(chosen.current[0]) : undefined;
  const last = restart === 'clear' ? 'its last /clear' : restart === 'resume' ? 'it was last resumed in this file' : 'its last compaction';
  const others = paths.length - 1;
  const reattached = tree!.reattached?.length ?? 0;
  const rest = [
    !whole && earlier > 0 ? `${earlier} messages before ${last} (--whole)` : '',
    others > 0 && chosen.thread === 'main' ? `${others} sub-agent thread${others === 1 ? '' : 's'} (--thread ${paths[1].thread.replace(/^side:/, '')}${others > 1 ? ', …' : ''})` : '',
    chosen.forks > 0 ? `${chosen.forks} place${chosen.forks === 1 ? '' : 's'} where the thread forks (the file keeps other branches there: a rewind, an edited prompt, another answer; --at ${otherBranches(opened, all ?? [], tree!, chosen)} shows one)` : '',
    reattached > 0 ? reattachedText(reattached) : '',
    n !== records.length ? `every record in file order: --thread all` : '',
  ].filter(Boolean);
  const counts = { forks: chosen.forks, ...(reattached > 0 ? { reattached } : {}) };
  // A plain path of every record, in one thread: nothing to say.
  if (rest.length === 0 && paths.length === 1 && earlier === 0) return { records, thread: chosen.thread, whole, threads: [], ...counts };
  const what = `${threadName(chosen.thread)}${whole ? ', the whole session' : earlier > 0 ? ` since ${last}` : ''}`;
  return {
    records,
    thread: chosen.thread,
    whole,
    threads: paths.map((p) => ({ thread: p.thread, messages: p.whole.length, current: p.current.length })),
    ...counts,
    note: `${what}: ${records.length} of the session's ${n} messages${rest.length ? `; ${rest.join('; ')}` : ''}`,
  };
}

const idOf = (opened: OpenedFile, record: unknown) => opened.codec.view(record).id;

/** The record `--at` names: by its id, or a prefix of one that no other id shares. */
function recordById(opened: OpenedFile, records: readonly unknown[], id: string): number {
  const ids = records.map((r) => idOf(opened, r));
  const exact = ids.indexOf(id);
  if (exact >= 0) return exact;
  const prefixed = ids.flatMap((x, i) => (x !== undefined && id.length >= 4 && x.startsWith(id) ? [i] : []));
  if (prefixed.length === 1) return prefixed[0];
  if (prefixed.length > 1) throw new UsageError(`--at ${id}: ${prefixed.length} messages have ids that begin so; give more of it`, { brief: true });
  throw new UsageError(`--at ${id}: no message of this conversation has that id (show --json gives each message's message_id)`, { brief: true });
}

/** Ids of the first messages of branches the session did not go on with, for the note (a few). */
function otherBranches(opened: OpenedFile, records: readonly unknown[], tree: MessageTree, path: ThreadPath): string {
  const children = childrenOf(tree);
  // The ways not shown: at a fork on the path shown, the others (from an abandoned branch, the way the session
  // went on); at one off it, all but the way the session went on.
  const onPath = new Set(path.whole);
  const others = (f: { options: number[]; continued?: number }) => (f.options.some((o) => onPath.has(o)) ? f.options.filter((o) => !onPath.has(o)) : f.options.filter((_, k) => k !== f.continued));
  const ids = forkPoints(tree, path.thread, children).flatMap((f) => others(f).map((o) => idOf(opened, records[o])).filter((x): x is string => x !== undefined));
  return ids.length === 0 ? 'ID' : ids.length <= 2 ? ids.join(' or ') : `${ids.slice(0, 2).join(', ')}, …`;
}
