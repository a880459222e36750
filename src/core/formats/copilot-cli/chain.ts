import { isPlainObject } from '../../message.js';
import type { ConversationDocument } from '../codec.js';
import type { JsonlRecordsBaseline } from '../shared/jsonl-document.js';
import { planJsonl, type JsonlOutLine } from '../syntax/jsonl.js';
import type { MessageTree } from '../../tree/message-tree.js';

/**
 * The `parentId` chain of a Copilot CLI `events.jsonl`. Every event names the one written before it (the
 * first, `session.start`, names none): the chain is the file's order, one line after another, sub-agent events
 * (those with an `agentId`) interleaved with the main agent's. A rewind truncates the file and a fork starts
 * another session, so Copilot itself never leaves a branch; only an edit could, and the writer keeps the chain
 * whole instead.
 */

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The thread of an event: `main`, or the sub-agent's (`side:<agentId>`). */
export function threadOf(value: unknown): string {
  const agent = isPlainObject(value) ? str(value.agentId) : undefined;
  return agent ? `side:${agent}` : 'main';
}

export const isCompaction = (value: unknown): boolean => isPlainObject(value) && value.type === 'session.compaction_complete';

/**
 * Makes the chain of the lines about to be written whole again (`original` are the values of the file's lines
 * as read, `out` the lines to write, changed in place):
 * - a line whose parent was deleted names that parent's nearest surviving ancestor;
 * - a new line names the line before it, and the line that followed there now names the last new line, so new
 *   lines are spliced into the chain rather than starting a branch;
 * - a new line never reuses an id the file holds (a duplicate gets a fresh one).
 * Lines nothing was deleted before or inserted before keep their bytes.
 */
export function relinkEvents(original: readonly unknown[], out: JsonlOutLine[]): void {
  const origParent = new Map<string, string | null>();
  for (const v of original) {
    const id = isPlainObject(v) ? str(v.id) : undefined;
    if (id !== undefined && !origParent.has(id)) origParent.set(id, isPlainObject(v) ? (str(v.parentId) ?? null) : null);
  }
  const present = new Set<string>();
  for (const o of out) {
    const id = o.line !== undefined && isPlainObject(o.value) ? str(o.value.id) : undefined;
    if (id !== undefined) present.add(id);
  }
  const gone = (id: string) => origParent.has(id) && !present.has(id);
  const survivor = (id: string): string | null => {
    let p: string | null = id;
    for (let guard = 0; p !== null && gone(p) && guard <= origParent.size; guard++) p = origParent.get(p) ?? null;
    return p;
  };
  const fresh = new Set<string>();
  let previous: string | null = null;
  // Where a run of new lines was put: the id of the line before them (null at the top), while the run lasts.
  let anchor: string | null | undefined;
  for (const o of out) {
    const v = o.value;
    if (!isPlainObject(v)) continue;
    const links: Record<string, unknown> = {};
    let id = str(v.id);
    if (o.line === undefined) {
      if (id === undefined || present.has(id) || fresh.has(id)) id = links.id = crypto.randomUUID();
      fresh.add(id);
      if (anchor === undefined) anchor = previous;
      if (v.parentId !== previous) links.parentId = previous;
    } else {
      const named = v.parentId;
      let p: string | null | undefined = typeof named === 'string' ? (gone(named) ? survivor(named) : named) : named === null ? null : undefined;
      if (anchor !== undefined && p === anchor) p = previous;
      anchor = undefined;
      if (p !== undefined && p !== named) links.parentId = p;
    }
    if (Object.keys(links).length > 0) o.value = { ...v, ...links };
    if (id !== undefined) previous = id;
  }
}

/**
 * A session's messages as the tree the chain makes, as the file would be written now (relinked as a save
 * relinks it). A message follows the nearest message of its own thread up the chain: the events between two
 * messages (turn boundaries, tool starts, sub-agent events for the main thread) are links, not messages. An
 * event whose `parentId` names no earlier line (a hand-made or converted file) follows the line before it. A
 * compaction starts its thread anew, continuing what came before it; the session resumes from its newest main
 * message.
 */
export function copilotTree(doc: ConversationDocument, records: readonly unknown[]): MessageTree {
  const b = doc.baseline as JsonlRecordsBaseline;
  const out = planJsonl(b.lines, b.slots, records);
  relinkEvents(
    b.lines.lines.map((l) => l.value),
    out,
  );
  const n = records.length;
  const recordOfLine = new Int32Array(out.length).fill(-1);
  const lineOfId = new Map<string, number>();
  let k = 0;
  out.forEach((o, i) => {
    if (o.record) recordOfLine[i] = k++;
    const id = isPlainObject(o.value) ? str(o.value.id) : undefined;
    if (id !== undefined && !lineOfId.has(id)) lineOfId.set(id, i);
  });
  // Each line's parent line: the one its parentId names when that is earlier, else the line before it.
  const up = new Int32Array(out.length).fill(-1);
  let previous = -1;
  out.forEach((o, i) => {
    if (!isPlainObject(o.value)) return;
    const named = str(o.value.parentId);
    const p = named !== undefined ? lineOfId.get(named) : undefined;
    up[i] = p !== undefined && p < i ? p : previous;
    previous = i;
  });
  const threads = out.map((o) => threadOf(o.value));
  // The nearest message of `thread` at or above a line (parents are always earlier: no cycles).
  const messageAt = (line: number, thread: string): number => {
    for (let at = line; at >= 0; at = up[at]) if (recordOfLine[at] >= 0 && threads[at] === thread) return recordOfLine[at];
    return -1;
  };
  const parent = new Int32Array(n).fill(-1);
  const thread = new Array<string>(n).fill('main');
  const continues = new Map<number, number>();
  let active = -1;
  out.forEach((o, i) => {
    const r = recordOfLine[i];
    if (r < 0) return;
    thread[r] = threads[i];
    const before = up[i] >= 0 ? messageAt(up[i], threads[i]) : -1;
    if (isCompaction(o.value)) {
      if (before >= 0) continues.set(r, before);
    } else parent[r] = before;
    if (threads[i] === 'main') active = r;
  });
  return { parent, thread, active, continues };
}
