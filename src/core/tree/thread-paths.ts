import type { Codec, ConversationDocument } from '../formats/codec.js';
import { forkPoints, pathTo, resumedLeaf, threadsOf, type MessageTree } from './message-tree.js';

/** The path of a thread as its agent resumes it, and the same path through its compactions. */
export interface ThreadPath {
  /** `main`, or a sub-agent's (`side:<id>`). */
  thread: string;
  /** The record it ends with, -1 for an empty thread. */
  leaf: number;
  /** Since the last compaction: what the model is sent now. */
  current: number[];
  /** The whole session: on past each compaction into the history it replaced. */
  whole: number[];
  /** Where the thread went two ways (a rewind, an edited prompt, a regenerated answer): forkPoints' count. */
  forks: number;
}

/** The thread's leaf the tool resumes from: the file's own active leaf for the main thread, else its newest. */
export function defaultLeaf(tree: MessageTree, thread: string): number {
  return resumedLeaf(tree, thread);
}

export function threadPath(tree: MessageTree, thread: string, leaf = defaultLeaf(tree, thread)): ThreadPath {
  const whole = leaf >= 0 ? pathTo(tree, leaf, true) : [];
  return { thread, leaf, current: leaf >= 0 ? pathTo(tree, leaf, false) : [], whole, forks: forkPoints(tree, thread).length };
}

/**
 * The threads of a file's conversation (the main one first), or nothing for a file whose records are one flat
 * list: every record is then on the one path.
 */
export function threadPaths(codec: Codec, doc: ConversationDocument, conversation: number): ThreadPath[] | undefined {
  const records = doc.conversations[conversation]?.records;
  if (!codec.tree || !records) return undefined;
  const tree = codec.tree(doc, conversation, records);
  return threadsOf(tree).map((thread) => threadPath(tree, thread));
}

/**
 * Per record, 1 when it is on a branch its thread did not go on with: on no path to the leaf the thread's
 * tool resumes from (through its compactions and /clear parts, which are the thread's history, not branches).
 */
export function otherBranchRecords(tree: MessageTree): Uint8Array {
  const on = new Uint8Array(tree.parent.length);
  for (const thread of threadsOf(tree)) {
    const leaf = resumedLeaf(tree, thread);
    if (leaf >= 0) for (const i of pathTo(tree, leaf, true)) on[i] = 1;
  }
  return on.map((x) => 1 - x);
}

/** "3 lines name a parent not in this file; each is shown after the line before it". */
export function reattachedText(n: number): string {
  return `${n} line${n === 1 ? ' names' : 's name'} a parent not in this file; ${n === 1 ? 'it is' : 'each is'} shown after the line before it`;
}

/** A thread's name for people: "main thread", "sub-agent a1b2c3". */
export function threadName(thread: string): string {
  return thread === 'main' ? 'main thread' : `sub-agent ${thread.replace(/^side:/, '')}`;
}
