import { childrenOf, newestLeafUnder, type MessageTree } from './message-tree.js';

/**
 * A thread's tree as people read it: runs of messages with one way on (a segment), and where a message has
 * several, each way on a segment below it. A session of 10,000 messages with three rewinds is a handful of
 * segments, not 10,000 nodes.
 */
export interface Segment {
  /** The segment's records, first and last (a chain: each the only child of the one before). */
  first: number;
  last: number;
  /** How many records it holds. */
  length: number;
  /** Its depth in the outline: 0 for a root's, one more under each fork. */
  depth: number;
  /** The leaf a click shows: the newest one under the segment. */
  leaf: number;
  /** Whether it begins after a compaction (a root that continues the record before it). */
  compacted: boolean;
}

/** Roots continuing a record, by the record they continue (a compaction goes on from its last message). */
function continuations(tree: MessageTree): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const [root, from] of tree.continues) out.set(from, [...(out.get(from) ?? []), root]);
  return out;
}

/** The segments of `thread`, depth first in file order; at most `limit` (a pathological tree is cut, said by the caller). */
export function branchOutline(tree: MessageTree, thread: string, limit = 2000): Segment[] {
  const children = childrenOf(tree);
  const cont = continuations(tree);
  const next = (at: number) => [...children[at], ...(cont.get(at) ?? [])].filter((c) => tree.thread[c] === thread).sort((a, b) => a - b);
  const roots: number[] = [];
  tree.parent.forEach((p, i) => {
    if (p < 0 && tree.thread[i] === thread && !tree.continues.has(i)) roots.push(i);
  });
  const out: Segment[] = [];
  const stack: Array<{ node: number; depth: number; compacted: boolean }> = roots.reverse().map((node) => ({ node, depth: 0, compacted: false }));
  const seen = new Set<number>();
  while (stack.length > 0 && out.length < limit) {
    const { node, depth, compacted } = stack.pop()!;
    if (seen.has(node)) continue;
    let last = node;
    let length = 1;
    seen.add(node);
    // On along the chain while there is one way on and it is no compaction (a boundary starts a segment of its own).
    for (let ways = next(last); ways.length === 1 && !tree.continues.has(ways[0]) && !seen.has(ways[0]); ways = next(last)) {
      last = ways[0];
      seen.add(last);
      length++;
    }
    out.push({ first: node, last, length, depth, leaf: newestLeafUnder(tree, node, children), compacted });
    const ways = next(last);
    // Each way on from a fork is indented under it; so is a compaction's new chain, under the run it continues.
    const deeper = ways.filter((w) => !tree.continues.has(w)).length > 1 ? depth + 1 : depth;
    for (const w of ways.reverse()) stack.push({ node: w, depth: tree.continues.has(w) ? depth + 1 : deeper, compacted: tree.continues.has(w) });
  }
  return out;
}
