import { diffArrays, diffWordsWithSpace } from 'diff';
import { lineage, markDerived } from '../message.js';

/**
 * A three-way merge of records, for a file that changed on disk while it had unsaved edits (an agent appended
 * while the user edited). `base` is the conversation as last read, `mine` the edited records (edited ones
 * are new objects derived from the base's, see lineage), `theirs` the conversation on disk now. My edits
 * (changed, deleted and added records) are applied on top of theirs where they touch records theirs left as
 * they were; where both changed the same record it is a conflict, for the user to settle.
 */

export interface MergeConflict {
  /** Where the record stands among the merged records. */
  index: number;
  /** The record as last read, mine, and theirs (undefined: deleted on that side). */
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

export interface MergeResult {
  /** The merged records; a conflict holds theirs until settled (see settle). */
  records: unknown[];
  conflicts: MergeConflict[];
  /** How many of my edits (changes, deletions, additions) the merge applied cleanly. */
  applied: number;
  /** What changed on disk since the base was read: records added, changed (in place) and removed. */
  onDisk: { added: number; changed: number; removed: number };
  /** Theirs' records that are none of the base's as it was (added, or changed in place), in their order. */
  theirsNew: unknown[];
}

const json = (r: unknown) => JSON.stringify(r);

/** For each base index, where mine holds it now: the same object, an edit of it, or nothing (deleted). */
function mineByBase(base: readonly unknown[], mine: readonly unknown[]): { at: Array<number | undefined>; added: Array<{ record: unknown; after: number }>; lastKept: number } {
  const index = new Map<object, number>();
  base.forEach((r, i) => r !== null && typeof r === 'object' && index.set(r, i));
  const at: Array<number | undefined> = new Array(base.length).fill(undefined);
  const added: Array<{ record: unknown; after: number }> = [];
  let lastBase = -1;
  mine.forEach((r, k) => {
    let b: number | undefined;
    if (r !== null && typeof r === 'object') for (const x of lineage(r)) if ((b = index.get(x)) !== undefined) break;
    if (b !== undefined && at[b] === undefined) {
      at[b] = k;
      lastBase = b;
    } else added.push({ record: r, after: lastBase });
  });
  return { at, added, lastKept: lastBase };
}

/** For each base index, where theirs holds the same record (by value), or undefined when theirs changed or dropped it. */
function theirsByBase(base: readonly unknown[], theirs: readonly unknown[]): Array<number | undefined> {
  const at: Array<number | undefined> = new Array(base.length).fill(undefined);
  let b = 0;
  let t = 0;
  for (const part of diffArrays(base.map(json), theirs.map(json))) {
    const n = part.count ?? part.value.length;
    if (part.added) t += n;
    else if (part.removed) b += n;
    else for (let k = 0; k < n; k++) at[b++] = t++;
  }
  return at;
}

interface Pending {
  base: unknown;
  mine: unknown;
  /** The theirs index of the record both changed, or undefined when theirs deleted it. */
  theirsAt: number | undefined;
  /** For a record theirs deleted: the theirs index it stood after. */
  after: number;
}

export function mergeRecords(base: readonly unknown[], mine: readonly unknown[], theirs: readonly unknown[]): MergeResult {
  const appended = appendedTo(base, theirs);
  if (appended) return appended(mine);
  const m = mineByBase(base, mine);
  const t = theirsByBase(base, theirs);
  // Start from theirs; per theirs index, what mine does to it.
  const replace = new Map<number, unknown>();
  const remove = new Set<number>();
  const pending: Pending[] = [];
  let applied = 0;
  base.forEach((b, i) => {
    const mk = m.at[i];
    const mineRecord = mk === undefined ? undefined : mine[mk];
    if (mineRecord === b) return;
    const tk = t[i];
    if (tk !== undefined) {
      if (mineRecord === undefined) remove.add(tk);
      else {
        // Written as an edit of theirs (the same value as mine's base): only what I changed is rewritten.
        if (mineRecord !== null && typeof mineRecord === 'object' && theirs[tk] !== null && typeof theirs[tk] === 'object') markDerived(mineRecord, theirs[tk] as object);
        replace.set(tk, mineRecord);
      }
      applied++;
      return;
    }
    // Theirs changed or dropped it too: a conflict, unless both ended the same way.
    const theirsAt = changedAt(base, theirs, t, i);
    if (mineRecord === undefined && theirsAt === undefined) return;
    if (mineRecord !== undefined && theirsAt !== undefined && json(theirs[theirsAt]) === json(mineRecord)) return;
    pending.push({ base: b, mine: mineRecord, theirsAt, after: anchorIn(t, i) });
  });
  // Records I added go after the theirs record that holds the base record they followed; those after the last base
  // record I kept go after what theirs added at the end too (as in appendedTo: a session goes on from its newest
  // line, and mine are newer), so the order does not hang on whether theirs was read as an append.
  const inserts = new Map<number, unknown[]>();
  for (const a of m.added) {
    const anchor = a.after === m.lastKept ? theirs.length - 1 : a.after === -1 ? -1 : anchorIn(t, a.after);
    inserts.set(anchor, [...(inserts.get(anchor) ?? []), a.record]);
    applied++;
  }
  const records: unknown[] = [];
  const conflicts: MergeConflict[] = [];
  const changedHere = new Map<number, Pending>();
  for (const p of pending) if (p.theirsAt !== undefined) changedHere.set(p.theirsAt, p);
  const emit = (after: number) => {
    for (const r of inserts.get(after) ?? []) records.push(r);
    // Theirs deleted it while I changed it: held as theirs (absent) until settled.
    for (const p of pending) if (p.theirsAt === undefined && p.after === after) conflicts.push({ index: records.length, base: p.base, mine: p.mine, theirs: undefined });
  };
  emit(-1);
  theirs.forEach((r, k) => {
    if (!remove.has(k)) {
      const p = changedHere.get(k);
      if (p) conflicts.push({ index: records.length, base: p.base, mine: p.mine, theirs: r });
      records.push(replace.has(k) ? replace.get(k) : r);
    }
    emit(k);
  });
  const same = new Set(t);
  return { records, conflicts, applied, onDisk: diskChanges(base, theirs), theirsNew: theirs.filter((_, k) => !same.has(k)) };
}

/**
 * Theirs is base with records after it, the very same objects (an agent appended to its session, read as an
 * append): the merge is mine with those records put in, found without comparing a record's text. They go after
 * the last record of mine that came from the base; what I added after that (the end of the conversation, as I
 * saw it) goes after them: a session goes on from its newest line, and my lines are newer than the agent's.
 */
function appendedTo(base: readonly unknown[], theirs: readonly unknown[]): ((mine: readonly unknown[]) => MergeResult) | undefined {
  if (theirs.length < base.length) return undefined;
  for (let i = 0; i < base.length; i++) if (theirs[i] !== base[i]) return undefined;
  const tail = theirs.slice(base.length);
  return (mine) => {
    const inBase = new Map<object, number>();
    base.forEach((r, i) => r !== null && typeof r === 'object' && inBase.set(r, i));
    let applied = 0;
    let lastFromBase = -1;
    const kept = new Set<unknown>();
    mine.forEach((r, k) => {
      const from = r !== null && typeof r === 'object' ? baseOf(r, inBase) : undefined;
      if (from !== undefined) {
        lastFromBase = k;
        kept.add(from);
      }
      if (from !== r) applied++;
    });
    for (const b of base) if (!kept.has(b)) applied++;
    const records = mine.slice(0, lastFromBase + 1);
    for (const r of tail) records.push(r);
    for (let k = lastFromBase + 1; k < mine.length; k++) records.push(mine[k]);
    return { records, conflicts: [], applied, onDisk: { added: tail.length, changed: 0, removed: 0 }, theirsNew: tail };
  };
}

/** The base record `r` is, or was edited from. */
function baseOf(r: object, inBase: ReadonlyMap<object, number>): object | undefined {
  if (inBase.has(r)) return r;
  for (const x of lineage(r)) if (inBase.has(x)) return x;
  return undefined;
}

/** Records theirs added, changed and removed against base: a removed run right before an added one is changed. */
function diskChanges(base: readonly unknown[], theirs: readonly unknown[]): MergeResult['onDisk'] {
  const out = { added: 0, changed: 0, removed: 0 };
  const parts = diffArrays(base.map(json), theirs.map(json));
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    const n = p.count ?? p.value.length;
    if (p.removed && parts[k + 1]?.added) {
      const m = parts[k + 1].count ?? parts[k + 1].value.length;
      out.changed += Math.min(n, m);
      out.removed += Math.max(0, n - m);
      out.added += Math.max(0, m - n);
      k++;
    } else if (p.removed) out.removed += n;
    else if (p.added) out.added += n;
  }
  return out;
}

/** The theirs index of the nearest base record at or before `i` that theirs kept (-1: before everything). */
function anchorIn(t: ReadonlyArray<number | undefined>, i: number): number {
  for (let k = i; k >= 0; k--) if (t[k] !== undefined) return t[k]!;
  return -1;
}

/** Where theirs has the record that took base[i]'s place (changed in place), if it is one. */
function changedAt(base: readonly unknown[], theirs: readonly unknown[], t: ReadonlyArray<number | undefined>, i: number): number | undefined {
  const before = i > 0 ? anchorIn(t, i - 1) : -1;
  let after = theirs.length;
  for (let k = i + 1; k < base.length; k++) if (t[k] !== undefined) {
    after = t[k]!;
    break;
  }
  // One record between the neighbours theirs kept: base[i] changed there. More or none: no telling which.
  return after - before === 2 ? before + 1 : undefined;
}

/**
 * The merged records with each conflict settled: `mine` takes my side (my edit, or my deletion), `theirs`
 * the file's. Indexes are the conflicts' own, in `result.conflicts` order.
 */
export function settle(result: MergeResult, choices: ReadonlyArray<'mine' | 'theirs'>): unknown[] {
  const records = result.records.slice();
  // From the end, so that earlier indexes stay right.
  for (let k = result.conflicts.length - 1; k >= 0; k--) {
    const c = result.conflicts[k];
    if (choices[k] !== 'mine') continue;
    if (c.theirs === undefined) {
      if (c.mine !== undefined) records.splice(c.index, 0, c.mine);
    } else if (c.mine === undefined) records.splice(c.index, 1);
    else {
      if (c.mine !== null && typeof c.mine === 'object' && c.theirs !== null && typeof c.theirs === 'object') markDerived(c.mine, c.theirs);
      records[c.index] = c.mine;
    }
  }
  return records;
}

/** Two texts word by word: the words only the first has, only the second has, and both. */
export function wordDiff(theirs: string, mine: string): Array<{ text: string; side?: 'theirs' | 'mine' }> {
  return diffWordsWithSpace(theirs, mine).map((p) => ({ text: p.value, ...(p.added ? { side: 'mine' as const } : p.removed ? { side: 'theirs' as const } : {}) }));
}
