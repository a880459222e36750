import { isPlainObject } from '../../message.js';
import type { MessageTree } from '../../tree/message-tree.js';
import { longestIncreasing } from '../../util/longest-increasing.js';

type Node = Record<string, unknown>;

/** How a conversation's records hang together now: each one's parent id, the children of every node, the current node. */
export interface Links {
  parentOf: Map<string, string | null>;
  childrenOf: Map<string, string[]>;
  current: string | null;
}

export const idOf = (r: unknown): string | undefined => (isPlainObject(r) && typeof r.id === 'string' ? r.id : undefined);

/** Where a format keeps a node's id and its parent's, and which nodes are links only (a root without a message). */
export interface LinkKeys {
  id: string;
  parent: string;
  isLink(node: Node): boolean;
}

export const CHATGPT_KEYS: LinkKeys = { id: 'id', parent: 'parent', isLink: (node) => node.message == null };

/**
 * The links of `records` against the conversation's `mapping` as read. A record keeps the parent it had; a
 * deleted record's children hang from its nearest surviving ancestor; a record the file did not have (added,
 * duplicated) follows the record before it in the list. The current node stays, moves up past a deletion,
 * and moves on to a record added after it (the conversation continued).
 */
export function linksOf(mapping: Record<string, Node>, records: readonly unknown[], current: string | null, keys: LinkKeys = CHATGPT_KEYS, treeOrder: readonly string[] = Object.keys(mapping)): Links {
  const idOf = (r: unknown): string | undefined => (isPlainObject(r) && typeof r[keys.id] === 'string' ? (r[keys.id] as string) : undefined);
  // A record moved out of its place in the tree's order is placed anew where it now stands (its children
  // stay where they were, hung from its old parent), as an added one is.
  const position = new Map(treeOrder.map((id, i) => [id, i]));
  const knownIds = records.map(idOf).filter((id): id is string => id !== undefined && isPlainObject(mapping[id]));
  const staying = longestIncreasing(knownIds.map((id) => position.get(id) ?? -1));
  const moved = new Set(knownIds.filter((_, k) => !staying.has(k)));
  const alive = new Set(records.map(idOf).filter((x): x is string => x !== undefined && !moved.has(x)));
  const isLink = (id: string) => isPlainObject(mapping[id]) && keys.isLink(mapping[id]);
  const up = (start: unknown): string | null | undefined => {
    const seen = new Set<string>();
    let p = start;
    while (typeof p === 'string' && !seen.has(p)) {
      seen.add(p);
      if (alive.has(p) || isLink(p)) return p;
      if (!isPlainObject(mapping[p])) return undefined;
      p = mapping[p][keys.parent];
    }
    return p === null ? null : undefined;
  };
  const parentOf = new Map<string, string | null>();
  let previous: string | null = Object.keys(mapping).find((k) => isLink(k) && mapping[k][keys.parent] == null) ?? null;
  const added: string[] = [];
  for (const r of records) {
    const id = idOf(r);
    if (id === undefined) continue;
    const known = isPlainObject(mapping[id]) && !moved.has(id);
    const p = known ? up((r as Node)[keys.parent]) : undefined;
    parentOf.set(id, p === undefined ? previous : p);
    if (!known) added.push(id);
    previous = id;
  }
  // A record added between two others takes the later one as its child: it is spliced into the path.
  const ids = records.map(idOf);
  const isAdded = new Set(added);
  ids.forEach((id, i) => {
    const next = ids[i + 1];
    if (id !== undefined && next !== undefined && isAdded.has(id) && !isAdded.has(next) && parentOf.get(next) === parentOf.get(id)) parentOf.set(next, id);
  });
  const childrenOf = new Map<string, string[]>();
  // Siblings in the list's order, which is the tree's (the records are read depth first).
  const order = new Map<string, number>();
  ids.forEach((id, i) => id !== undefined && order.set(id, i));
  const push = (parent: string, child: string) => {
    const list = childrenOf.get(parent);
    if (list) list.push(child);
    else childrenOf.set(parent, [child]);
  };
  for (const [id, p] of parentOf) if (p !== null) push(p, id);
  for (const list of childrenOf.values()) list.sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity));
  let now = current === null ? null : (up(current) ?? previous);
  // Added after the current node, a record continues the conversation from there.
  for (let moved = true; moved; ) {
    moved = false;
    const next = added.find((id) => parentOf.get(id) === now);
    if (next !== undefined) {
      now = next;
      moved = true;
    }
  }
  return { parentOf, childrenOf, current: now };
}

/** A one-thread tree of `records` from their links; `active` the id of the leaf the file resumes from. */
export function treeOfLinks(records: readonly unknown[], idOf: (r: unknown) => string | undefined, links: Links, active: string | null | undefined): MessageTree {
  const index = new Map(records.map((r, i) => [idOf(r), i]));
  const parent = new Int32Array(records.length).fill(-1);
  records.forEach((r, i) => {
    const p = links.parentOf.get(idOf(r) ?? '');
    parent[i] = p != null ? (index.get(p) ?? -1) : -1;
  });
  const at = active != null ? (index.get(active) ?? -1) : -1;
  return { parent, thread: new Array<string>(records.length).fill('main'), active: at, continues: new Map() };
}
