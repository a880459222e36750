import type { Skeleton, SkeletonDelta, SkeletonRow } from './contract.js';
import { sparseGet, splicedSparse } from './sparse.js';

/**
 * What changed between two skeletons of one conversation, as one splice: the rows before `start` and the last
 * rows are the same in both. Pure; both sides of the contract use it (main makes deltas, the renderer applies
 * them), and a property test holds `applySkeletonDelta(a, skeletonDelta(a, b)) == b`.
 */

export function rowOf(sk: Skeleton, i: number): SkeletonRow {
  const row: SkeletonRow = { role: sk.roles[sk.roleOf[i]], normalRole: sk.normalRoles[sk.roleOf[i]], flags: sk.flags[i], stored: sk.storedTokens[i], length: sk.lengths[i] };
  if (sk.categoryOf[i] !== -1) row.category = sk.categories[sk.categoryOf[i]];
  const calls = sparseGet(sk.toolCalls, i);
  if (calls) row.calls = calls;
  const result = sparseGet(sk.toolResults, i);
  if (result !== undefined) row.result = result;
  const usage = sparseGet(sk.usage, i);
  if (usage) row.usage = usage;
  return row;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, k) => x === b[k]);
}

function sameUsage(a: Record<string, number | string | undefined> | undefined, b: Record<string, number | string | undefined> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** Row i of a and row j of b say the same (without building either row). */
export function sameRow(a: Skeleton, i: number, b: Skeleton, j: number): boolean {
  return (
    a.flags[i] === b.flags[j] &&
    a.lengths[i] === b.lengths[j] &&
    a.storedTokens[i] === b.storedTokens[j] &&
    a.roles[a.roleOf[i]] === b.roles[b.roleOf[j]] &&
    a.normalRoles[a.roleOf[i]] === b.normalRoles[b.roleOf[j]] &&
    (a.categoryOf[i] === -1 ? b.categoryOf[j] === -1 : b.categoryOf[j] !== -1 && a.categories[a.categoryOf[i]] === b.categories[b.categoryOf[j]]) &&
    sameList(sparseGet(a.toolCalls, i), sparseGet(b.toolCalls, j)) &&
    sparseGet(a.toolResults, i) === sparseGet(b.toolResults, j) &&
    sameUsage(sparseGet(a.usage, i), sparseGet(b.usage, j))
  );
}

export interface Splice {
  start: number;
  deleteCount: number;
  insertCount: number;
}

/**
 * The one splice that turns a's rows into b's. `sameRecord(i, j)` says whether the messages behind row i of a
 * and row j of b are the same (their skeleton rows can agree while their texts differ).
 */
export function spliceBetween(a: Skeleton, b: Skeleton, sameRecord: (i: number, j: number) => boolean = () => true): Splice {
  const min = Math.min(a.count, b.count);
  let start = 0;
  while (start < min && sameRecord(start, start) && sameRow(a, start, b, start)) start++;
  let tail = 0;
  while (tail < min - start && sameRecord(a.count - 1 - tail, b.count - 1 - tail) && sameRow(a, a.count - 1 - tail, b, b.count - 1 - tail)) tail++;
  let deleteCount = a.count - start - tail;
  let insertCount = b.count - start - tail;
  // The last message renders without the separator the others have: a change that reaches the end changes
  // the rendered count of the message before it too, so that message is in the splice.
  if (tail === 0 && start > 0 && (deleteCount > 0 || insertCount > 0)) {
    start--;
    deleteCount++;
    insertCount++;
  }
  return { start, deleteCount, insertCount };
}

type FileFields = Pick<Skeleton, 'path' | 'conversation' | 'conversations' | 'title' | 'format' | 'formatLabel' | 'swarms' | 'count' | 'bytes' | 'other' | 'version' | 'editVersion' | 'has' | 'readOnly'>;

function fileFields(sk: Skeleton): FileFields {
  const { path, conversation, conversations, title, format, formatLabel, swarms, count, bytes, other, version, editVersion, has, threads, forks, forkCount, otherBranchUsage, sessionUsage, reattached, whole, earlier, earlierBy, session, readOnly, model } = sk;
  const tree = {
    ...(threads ? { threads } : {}),
    ...(forks ? { forks } : {}),
    ...(forkCount !== undefined ? { forkCount } : {}),
    ...(otherBranchUsage ? { otherBranchUsage } : {}),
    ...(sessionUsage ? { sessionUsage } : {}),
    ...(reattached !== undefined ? { reattached } : {}),
    ...(whole !== undefined ? { whole } : {}),
    ...(earlier !== undefined ? { earlier } : {}),
    ...(earlierBy ? { earlierBy } : {}),
    ...(session ? { session } : {}),
    ...(readOnly ? { readOnly } : {}),
    ...(model ? { model } : {}),
    ...(editVersion !== undefined ? { editVersion } : {}),
  };
  return { path, conversation, conversations, title, format, formatLabel, swarms, count, bytes, other, version, has, ...tree };
}

/** The delta from a to b (b's file-wide fields, and b's rows in the splice). */
export function skeletonDelta(a: Skeleton, b: Skeleton, splice: Splice = spliceBetween(a, b)): Omit<SkeletonDelta, 'previews' | 'counts'> {
  const rows: SkeletonRow[] = [];
  for (let k = 0; k < splice.insertCount; k++) rows.push(rowOf(b, splice.start + k));
  return { from: a.version, file: fileFields(b), start: splice.start, deleteCount: splice.deleteCount, rows };
}

/** Values of a list with [start, start + deleteCount) replaced (a new list; no spread into a call). */
export function spliced<T>(list: readonly T[], start: number, deleteCount: number, insert: readonly T[]): T[] {
  if (insert.length === deleteCount) {
    // An edit in place (the common case): one copy.
    const out = list.slice();
    for (let k = 0; k < insert.length; k++) out[start + k] = insert[k];
    return out;
  }
  return list.slice(0, start).concat(insert, list.slice(start + deleteCount));
}

/** Dictionary codes in order of first appearance, as a fresh skeleton has them. */
function encode(values: ReadonlyArray<string | undefined>): { names: string[]; of: number[]; firstAt: number[] } {
  const names: string[] = [];
  const firstAt: number[] = [];
  const index = new Map<string, number>();
  const of = values.map((v, i) => {
    if (v === undefined) return -1;
    let k = index.get(v);
    if (k === undefined) {
      k = names.length;
      names.push(v);
      firstAt.push(i);
      index.set(v, k);
    }
    return k;
  });
  return { names, of, firstAt };
}

/**
 * A dictionary-coded column with the splice applied, coded in order of first appearance. When every name
 * first appears before the splice and the inserted values are all known, the dictionary stays as it is and
 * only the codes are spliced (an edit at 200k messages); otherwise the column is coded afresh.
 */
function splicedColumn(
  names: readonly string[],
  of: readonly number[],
  start: number,
  deleteCount: number,
  inserted: ReadonlyArray<string | undefined>,
): { names: string[]; of: number[]; firstAt: number[] } | { names: readonly string[]; of: number[]; firstAt?: undefined } {
  const code = new Map(names.map((n, k) => [n, k]));
  const insertedCodes = inserted.map((v) => (v === undefined ? -1 : (code.get(v) ?? -2)));
  let seen = 0;
  const found = new Array<boolean>(names.length).fill(false);
  for (let i = 0; i < start && seen < names.length; i++) {
    const k = of[i];
    if (k !== -1 && !found[k]) {
      found[k] = true;
      seen++;
    }
  }
  if (seen === names.length && !insertedCodes.includes(-2)) return { names, of: spliced(of, start, deleteCount, insertedCodes) };
  const decoded = spliced(
    of.map((k) => (k === -1 ? undefined : names[k])),
    start,
    deleteCount,
    inserted,
  );
  return encode(decoded);
}

/** a with the delta applied: the same skeleton a fresh open would give. */
export function applySkeletonDelta(a: Skeleton, d: Pick<SkeletonDelta, 'file' | 'start' | 'deleteCount' | 'rows'>): Skeleton {
  const { start, deleteCount, rows } = d;
  const roles = splicedColumn(a.roles, a.roleOf, start, deleteCount, rows.map((r) => r.role));
  let normalRoles: string[];
  if (roles.firstAt === undefined) normalRoles = a.normalRoles.slice();
  else {
    // A name's normalised role is its first row's.
    const normalAt = (i: number) => (i < start ? a.normalRoles[a.roleOf[i]] : i < start + rows.length ? rows[i - start].normalRole : a.normalRoles[a.roleOf[i - rows.length + deleteCount]]);
    normalRoles = roles.firstAt.map(normalAt);
  }
  const categories = splicedColumn(a.categories, a.categoryOf, start, deleteCount, rows.map((r) => r.category));
  return {
    ...d.file,
    roles: roles.names.slice(),
    normalRoles,
    roleOf: roles.of,
    categories: categories.names.slice(),
    categoryOf: categories.of,
    flags: spliced(a.flags, start, deleteCount, rows.map((r) => r.flags)),
    storedTokens: spliced(a.storedTokens, start, deleteCount, rows.map((r) => r.stored)),
    lengths: spliced(a.lengths, start, deleteCount, rows.map((r) => r.length)),
    toolCalls: splicedSparse(a.toolCalls, start, deleteCount, rows.map((r) => r.calls)),
    toolResults: splicedSparse(a.toolResults, start, deleteCount, rows.map((r) => r.result)),
    usage: splicedSparse(a.usage, start, deleteCount, rows.map((r) => r.usage)),
  };
}
