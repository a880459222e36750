import { EditError, type EditCommand } from '../editing/commands.js';
import { lineage } from '../message.js';
import { childrenOf, newestLeafUnder, type MessageTree } from './message-tree.js';

/**
 * Edits made on a path (the records a tree conversation shows) as the edits of the file's records they mean:
 * `path` gives, for each shown position, the index of its record among the file's. A message added after a
 * shown one goes right after it in the file (the writer links it there); a move lands next to the shown
 * record it now follows.
 */
export function onFileRecords(command: EditCommand, path: readonly number[], count: number): EditCommand {
  const at = (i: number) => {
    if (!Number.isInteger(i) || i < 0 || i >= path.length) throw new EditError(`message ${i} does not exist (${path.length} messages)`);
    return path[i];
  };
  switch (command.type) {
    case 'update':
      return { ...command, index: at(command.index) };
    case 'set':
      return { ...command, items: command.items.map((it) => ({ ...it, index: at(it.index) })) };
    case 'delete':
      return { ...command, indexes: command.indexes.map(at) };
    case 'insert': {
      if (!Number.isInteger(command.index) || command.index < 0 || command.index > path.length) throw new EditError(`cannot insert at ${command.index}`);
      const index = command.index === 0 ? (path.length > 0 ? path[0] : count) : path[command.index - 1] + 1;
      return { ...command, index };
    }
    case 'move': {
      const moving = new Set(command.indexes.map(at));
      const rest = path.filter((p) => !moving.has(p));
      const to = Math.max(0, Math.min(rest.length, command.to));
      // Among the file's records without the moving ones: before the shown record they now precede, or
      // right after the one they now follow.
      const position = (fileIndex: number) => {
        let n = 0;
        for (let i = 0; i < fileIndex; i++) if (!moving.has(i)) n++;
        return n;
      };
      const target = to < rest.length ? position(rest[to]) : rest.length > 0 ? position(rest[rest.length - 1]) + 1 : 0;
      return { ...command, indexes: [...moving], to: target };
    }
    default:
      // restore and replace-all are made by the history itself, on the file's records.
      return command;
  }
}

/** Where each record of `before` stands in `after`: by identity, or as what it was edited into. */
function indexAfter(after: readonly unknown[]): (record: unknown) => number {
  const where = new Map<object, number>();
  after.forEach((r, i) => {
    if (r === null || typeof r !== 'object') return;
    for (const x of lineage(r)) if (!where.has(x)) where.set(x, i);
  });
  return (record) => (record !== null && typeof record === 'object' ? (where.get(record) ?? -1) : -1);
}

/**
 * The leaf a view shows after the file's records changed: the one it showed (or what it was edited into),
 * extended to the newest leaf under it (a message added at the end); when that record is gone, the newest
 * leaf under the last record of the old path that is left; `fallback` when none is.
 */
export function followLeaf(tree: MessageTree, after: readonly unknown[], oldPath: readonly unknown[], fallback: number): number {
  const find = indexAfter(after);
  const children = childrenOf(tree);
  for (let k = oldPath.length - 1; k >= 0; k--) {
    const i = find(oldPath[k]);
    if (i >= 0) return newestLeafUnder(tree, i, children);
  }
  return fallback;
}

/**
 * The file's records once a path's records are replaced by `after` (a compaction of what a view shows): the
 * path's records `after` keeps stay where they are, those it drops go, and each new one goes right after the
 * record before it in `after`.
 */
export function replacePath<T>(all: readonly T[], path: readonly number[], after: readonly T[]): T[] {
  const onPath = new Set(path.map((i) => all[i]));
  const keep = new Set(after);
  const follows = new Map<T | undefined, T[]>();
  let previous: T | undefined;
  for (const r of after) {
    if (!onPath.has(r)) follows.set(previous, [...(follows.get(previous) ?? []), r]);
    previous = r;
  }
  const out: T[] = [...(follows.get(undefined) ?? [])];
  for (const r of all) {
    if (onPath.has(r) && !keep.has(r)) continue;
    out.push(r);
    for (const n of follows.get(r) ?? []) out.push(n);
  }
  return out;
}
