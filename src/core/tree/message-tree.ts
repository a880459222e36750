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
  /**
   * Of those roots, the ones no compaction started: a `/clear` (the model sent nothing of before, nothing
   * summarised) or a session resumed into the same file. Absent for a compaction's.
   */
  restarts?: ReadonlyMap<number, 'clear' | 'resume'>;
  /**
   * Per record, 1 for a line the tool wrote for itself beside the conversation (Claude Code's local commands:
   * `/help` and its output): another child beside one of them is no second way the session went.
   */
  aside?: Uint8Array;
  /** Records whose file names a parent it does not hold, shown after the record before them. */
  reattached?: readonly number[];
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
  /** Which of them the session went on with (the one toward the leaf its tool resumes from), -1 for none. */
  continued: number;
}

/** The leaf a thread's tool resumes from: the file's own active leaf for the main thread, else its newest. */
export function resumedLeaf(tree: MessageTree, thread: string, children?: number[][]): number {
  if (thread === 'main' && tree.active >= 0 && tree.thread[tree.active] === 'main') return tree.active;
  const leaves = leavesOf(tree, thread, children);
  return leaves.length > 0 ? leaves[leaves.length - 1] : -1;
}

const isAside = (tree: MessageTree, i: number) => tree.aside !== undefined && tree.aside[i] === 1;

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
  let wentOn: Set<number> | undefined;
  path.forEach((node, at) => {
    const p = tree.parent[node];
    const list = wanted.get(p);
    if (!list || isAside(tree, node)) return;
    // A local command's lines beside the conversation are not another way it went.
    const options = list.filter((c) => tree.thread[c] === tree.thread[node] && !isAside(tree, c));
    if (options.length < 2) return;
    if (!wentOn) {
      const leaf = resumedLeaf(tree, tree.thread[node], children);
      wentOn = new Set(leaf >= 0 ? pathTo(tree, leaf, true) : []);
    }
    forks.push({ at, options, chosen: options.indexOf(node), continued: options.findIndex((o) => wentOn!.has(o)) });
  });
  return forks;
}

/** A place where a thread went two ways: the record it went on from (-1 for its roots) and the ways. */
export interface ForkPoint {
  parent: number;
  options: number[];
  /** Which of them the session went on with (toward the leaf its tool resumes from), -1 for none. */
  continued: number;
}

/**
 * Every place where a thread really went two ways (a rewind, an edited prompt, a regenerated answer), on the
 * path shown or not: the one count of forks the CLI, the header and the branch tree give.
 */
export function forkPoints(tree: MessageTree, thread: string, children = childrenOf(tree)): ForkPoint[] {
  const out: ForkPoint[] = [];
  const ways = (list: readonly number[]) => list.filter((c) => tree.thread[c] === thread && !isAside(tree, c));
  const roots: number[] = [];
  tree.parent.forEach((p, i) => {
    if (p < 0 && tree.thread[i] === thread && !tree.continues.has(i)) roots.push(i);
  });
  const found: Array<{ parent: number; options: number[] }> = [];
  if (ways(roots).length > 1) found.push({ parent: -1, options: ways(roots) });
  children.forEach((list, p) => {
    if (list.length < 2 || tree.thread[p] !== thread) return;
    const options = ways(list);
    if (options.length > 1) found.push({ parent: p, options });
  });
  if (found.length === 0) return out;
  const leaf = resumedLeaf(tree, thread, children);
  const wentOn = new Set(leaf >= 0 ? pathTo(tree, leaf, true) : []);
  for (const f of found) out.push({ ...f, continued: f.options.findIndex((o) => wentOn.has(o)) });
  return out;
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
