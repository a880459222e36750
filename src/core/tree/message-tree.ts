/**
 * A conversation as the tree its file makes of it. Many files link each message to the one it follows
 * (Claude Code's `parentUuid`, ChatGPT's `mapping`, OASST's replies): a rewind or a regenerated answer leaves a
 * second child, a sub-agent runs in a thread of its own, a compaction starts a new root. What a model was sent
 * is one path, from a root to a leaf; a flat list of every record is none of them.
 */
export interface MessageTree {
  /** Per record: the record it follows, -1 for a root. */
  parent: Int32Array;
  /** Per record: its thread: `main`, or a sub-agent's (`side:<id>`). */
  thread: readonly string[];
  /** The record the file's own tool resumes from (the newest line's, `current_node`), -1 for none. */
  active: number;
  /**
   * Roots that continue an earlier part of their thread (a compaction boundary's `logicalParentUuid`): the
   * record they continue.
   */
  continues: ReadonlyMap<number, number>;
}

/** A flat list as a tree: each record follows the one before it, in one thread. */
export function linearTree(n: number): MessageTree {
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i - 1;
  return { parent, thread: new Array<string>(n).fill('main'), active: n - 1, continues: new Map() };
}

/** Each record's children, in file order. */
export function childrenOf(tree: MessageTree): number[][] {
  const out: number[][] = Array.from({ length: tree.parent.length }, () => []);
  tree.parent.forEach((p, i) => {
    if (p >= 0) out[p].push(i);
  });
  return out;
}

/**
 * The records from a root to `leaf`. `throughCompactions` goes on past a root that continues an earlier part
 * (the history a compaction replaced), so the path is the whole session; otherwise it stops there (what the
 * model is sent now).
 */
export function pathTo(tree: MessageTree, leaf: number, throughCompactions = false): number[] {
  const out: number[] = [];
  // A walk longer than the tree has nodes is a cycle (a file whose links loop): it stops there.
  const limit = tree.parent.length;
  for (let at = leaf; at >= 0 && out.length <= limit; ) {
    out.push(at);
    const p = tree.parent[at];
    at = p >= 0 ? p : throughCompactions ? (tree.continues.get(at) ?? -1) : -1;
  }
  if (out.length > limit) {
    // Cut at the first node seen twice, as a walk that remembers them would have.
    const seen = new Set<number>();
    const k = out.findIndex((x) => (seen.has(x) ? true : (seen.add(x), false)));
    out.length = k;
  }
  return out.reverse();
}

/**
 * The newest leaf (last in file order) of the subtree under `node`, in its thread, going on past compactions:
 * a root that continues a record of the subtree (a compaction's new chain) is part of where that branch went.
 */
export function newestLeafUnder(tree: MessageTree, node: number, children = childrenOf(tree)): number {
  const continuedBy = new Map<number, number[]>();
  for (const [root, from] of tree.continues) continuedBy.set(from, [...(continuedBy.get(from) ?? []), root]);
  let best = node;
  const stack = [node];
  const seen = new Set<number>();
  const thread = tree.thread[node];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    const kids = [...children[at], ...(continuedBy.get(at) ?? [])].filter((c) => tree.thread[c] === thread);
    if (kids.length === 0 && at > best) best = at;
    for (const c of kids) stack.push(c);
  }
  return best;
}

/** The leaves of a thread, in file order. */
export function leavesOf(tree: MessageTree, thread: string, children = childrenOf(tree)): number[] {
  const out: number[] = [];
  tree.parent.forEach((_, i) => {
    if (tree.thread[i] === thread && !children[i].some((c) => tree.thread[c] === thread)) out.push(i);
  });
  return out;
}

export interface Fork {
  /** Where on the path the choice is: the position of the record that has siblings. */
  at: number;
  /** The records that could stand there (its parent's children in its thread), in file order. */
  options: number[];
  /** Which of them the path takes. */
  chosen: number;
}

/** Where a path could have gone otherwise: each record on it whose parent has other children in its thread. */
export function forksOf(tree: MessageTree, path: readonly number[], children?: number[][]): Fork[] {
  const forks: Fork[] = [];
  const n = tree.parent.length;
  // Only the nodes on the path with siblings are forks: their parents' children are gathered, no one else's
  // (a session of 150,000 messages has a handful of forks, and an append asks again).
  const count = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) count[tree.parent[i] + 1]++;
  const wanted = new Map<number, number[]>();
  for (const node of path) {
    const p = tree.parent[node];
    // Roots are siblings too (a first message written again: SillyTavern's other greetings, an edited first
    // prompt), but not a root that continues what a compaction replaced.
    if (count[p + 1] > 1 && (p >= 0 || !tree.continues.has(node))) wanted.set(p, []);
  }
  if (wanted.size === 0) return forks;
  if (children) for (const p of wanted.keys()) if (p >= 0) wanted.set(p, children[p].slice());
  for (let i = 0; i < n; i++) {
    const p = tree.parent[i];
    const list = wanted.get(p);
    if (list && (!children || p < 0) && (p >= 0 || !tree.continues.has(i))) list.push(i);
  }
  path.forEach((node, at) => {
    const p = tree.parent[node];
    const list = wanted.get(p);
    if (!list) return;
    const options = list.filter((c) => tree.thread[c] === tree.thread[node]);
    if (options.length > 1) forks.push({ at, options, chosen: options.indexOf(node) });
  });
  return forks;
}

/** The threads of a tree: `main` first, then the others in the order they first appear. */
export function threadsOf(tree: MessageTree): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let before: string | undefined;
  for (const t of tree.thread) {
    // Runs of one thread (a session's main thread is most of it) are one look-up.
    if (t === before) continue;
    before = t;
    if (seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  return out.sort((a, b) => (a === 'main' ? -1 : b === 'main' ? 1 : 0));
}
