import type { ConversationDocument } from '../codec.js';
import type { JsonlRecordsBaseline } from '../shared/jsonl-document.js';
import { planJsonl, type JsonlOutLine } from '../syntax/jsonl.js';
import type { MessageTree } from '../../tree/message-tree.js';
import { chainNode, isCompactBoundary, relinkChain } from './chain.js';
import { layTurns } from './turns.js';

/**
 * What the tree of a file's lines as read (nothing edited) knows after its first `lines` lines, kept for the
 * next version of the file read by an append: the lines it adds are all that is walked. Keyed by the baseline's
 * origin map, which every version of a file read by appends shares.
 */
interface Walked {
  lines: number;
  /** The value of the last line walked: the next version goes on from it only if it still holds it. */
  last: unknown;
  lineOfUuid: Map<string, number>;
  recordOfLine: number[];
  parent: number[];
  thread: string[];
  /** Per message, 1 when its chain names a line the file does not hold. */
  missing: number[];
  continues: Map<number, number>;
}
const walkedOf = new WeakMap<object, Walked>();

/**
 * A Claude Code session's messages as the tree their `parentUuid` chain makes, as the file would be written now
 * (the chain relinked the way a save relinks it, so an edit shows where it lands). A message's parent is the
 * nearest message up its chain: the `system` and `progress` lines between two messages are links, not messages.
 * The tree is then laid out as the model saw it (turns.ts): one API call's lines and its results one run.
 */
export function claudeCodeTree(doc: ConversationDocument, records: readonly unknown[]): MessageTree {
  const b = doc.baseline as JsonlRecordsBaseline;
  // The records as the file holds them (nothing edited): the file's own lines are what a save would write, and
  // what an earlier version of the file (before an append) walked holds.
  const asRead = records.length === b.slots.length && records.every((r, k) => r === b.lines.lines[b.slots[k]].value);
  if (asRead) return walkAsRead(b, records);
  const out = planJsonl(b.lines, b.slots, records);
  relinkChain(
    b.lines.lines.map((l) => l.value),
    out,
  );
  const w: Walked = { lines: 0, last: undefined, lineOfUuid: new Map(), recordOfLine: [], parent: [], thread: [], missing: [], continues: new Map() };
  walk(w, outLines(out), 0, out.length);
  return treeOf(w, outLines(out), records);
}

/** A file's lines as a walk reads them: each one's value, and whether it holds a message. */
interface Lines {
  length: number;
  value(i: number): unknown;
  record(i: number): boolean;
}

const outLines = (out: readonly JsonlOutLine[]): Lines => ({ length: out.length, value: (i) => out[i].value, record: (i) => out[i].record });

function walkAsRead(b: JsonlRecordsBaseline, records: readonly unknown[]): MessageTree {
  const lines = b.lines.lines;
  const isRecord = new Uint8Array(lines.length);
  for (const k of b.slots) isRecord[k] = 1;
  const out: Lines = { length: lines.length, value: (i) => lines[i].value, record: (i) => isRecord[i] === 1 };
  let w = walkedOf.get(b.lines.origin);
  // Only a walk of these very lines goes on (a file read again whole walks anew).
  if (!w || w.lines > lines.length || (w.lines > 0 && lines[w.lines - 1].value !== w.last)) {
    w = { lines: 0, last: undefined, lineOfUuid: new Map(), recordOfLine: [], parent: [], thread: [], missing: [], continues: new Map() };
    walkedOf.set(b.lines.origin, w);
  }
  // A last line without its line break may be read again differently: walked, but not kept.
  const complete = lines.length > 0 && lines[lines.length - 1].eol === '' ? lines.length - 1 : lines.length;
  walk(w, out, w.lines, complete);
  w.lines = complete;
  w.last = complete > 0 ? lines[complete - 1].value : undefined;
  if (complete === lines.length) return treeOf(w, out, records);
  const kept = { records: w.parent.length, continues: new Map(w.continues) };
  walk(w, out, complete, lines.length);
  const tree = treeOf(w, out, records);
  // Back to what the complete lines make.
  for (let i = complete; i < lines.length; i++) {
    const node = chainNode(out.value(i));
    if (node && w.lineOfUuid.get(node.uuid) === i) w.lineOfUuid.delete(node.uuid);
  }
  w.recordOfLine.length = complete;
  w.parent.length = kept.records;
  w.thread.length = kept.records;
  w.missing.length = kept.records;
  w.continues = kept.continues;
  return tree;
}

/** Walks lines [from, to) of `out` into `w`: each message's parent (the nearest message up its chain) and thread. */
function walk(w: Walked, out: Lines, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    w.recordOfLine[i] = out.record(i) ? w.parent.length : -1;
    if (out.record(i)) {
      w.parent.push(-1);
      w.thread.push('main');
      w.missing.push(0);
    }
    const node = chainNode(out.value(i));
    if (node && !w.lineOfUuid.has(node.uuid)) w.lineOfUuid.set(node.uuid, i);
  }
  // The nearest message at or above a line, following the chain through the lines that are not messages;
  // MISSING when the chain names a line the file does not hold before reaching one.
  const MISSING = -2;
  const messageAt = (line: number | undefined): number => {
    let steps = 0;
    for (let at = line; at !== undefined && steps++ <= out.length; ) {
      if (w.recordOfLine[at] >= 0) return w.recordOfLine[at];
      const p = chainNode(out.value(at))?.parent;
      if (!p) return -1;
      at = w.lineOfUuid.get(p);
      if (at === undefined) return MISSING;
    }
    return -1;
  };
  for (let i = from; i < to; i++) {
    const r = w.recordOfLine[i];
    if (r < 0) continue;
    const node = chainNode(out.value(i));
    if (!node) continue;
    w.thread[r] = node.thread;
    const up = !node.parent ? -1 : w.lineOfUuid.has(node.parent) ? messageAt(w.lineOfUuid.get(node.parent)) : MISSING;
    w.parent[r] = up === MISSING ? -1 : up;
    w.missing[r] = up === MISSING ? 1 : 0;
    if (isCompactBoundary(out.value(i)) && node.logicalParent) {
      const before = messageAt(w.lineOfUuid.get(node.logicalParent));
      if (before >= 0) w.continues.set(r, before);
    }
    // Older sessions keep their sub-agents in the file without an agentId: each sidechain root starts one.
    if (w.thread[r] === 'side:') {
      const p = w.parent[r];
      w.thread[r] = p >= 0 && p < r && w.thread[p].startsWith('side:') ? w.thread[p] : `side:${node.uuid.slice(0, 8)}`;
    }
  }
}

function treeOf(w: Walked, out: Lines, records: readonly unknown[]): MessageTree {
  const n = records.length;
  const parent = Int32Array.from(w.parent.slice(0, n));
  // Claude Code resumes from the newest line of the main thread.
  let active = -1;
  for (let i = out.length - 1; i >= 0 && active < 0; i--) {
    const node = chainNode(out.value(i));
    if (!node?.transcript || node.thread !== 'main') continue;
    let at: number | undefined = i;
    let steps = 0;
    while (at !== undefined && steps++ <= out.length) {
      if (w.recordOfLine[at] >= 0) {
        active = w.recordOfLine[at];
        break;
      }
      const p: string | null | undefined = chainNode(out.value(at))?.parent;
      at = p ? w.lineOfUuid.get(p) : undefined;
    }
  }
  return layTurns(records, { parent, thread: w.thread.slice(0, n), missing: w.missing.slice(0, n), active, continues: w.continues });
}
