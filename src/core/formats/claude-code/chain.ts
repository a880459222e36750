import { isPlainObject } from '../../message.js';
import type { JsonlOutLine } from '../syntax/jsonl.js';
import { longestIncreasing } from '../../util/longest-increasing.js';

/**
 * The `parentUuid` chain of a Claude Code session. Every transcript line names the line before it; `claude
 * --resume` starts from the newest line and follows the names back to a root (`parentUuid: null`: the first
 * line, a sub-agent's first line, or a compact boundary). A line whose parent is not in the file cuts off
 * everything before it, so every edit must leave each line's chain whole.
 */

/** Line types that are links of the chain (what Claude Code counts as transcript messages). */
const TRANSCRIPT = new Set(['user', 'assistant', 'system', 'attachment']);

export interface ChainNode {
  uuid: string;
  parent: string | null;
  /** A compact boundary's link to the last line before it (the boundary itself is a root). */
  logicalParent?: string;
  /** `main`, or the sub-agent's thread (`side:<agentId>`). */
  thread: string;
  /** A link of the transcript (not a progress or bookkeeping line). */
  transcript: boolean;
}

export function chainNode(value: unknown): ChainNode | undefined {
  if (!isPlainObject(value) || typeof value.uuid !== 'string') return undefined;
  const parent = typeof value.parentUuid === 'string' ? value.parentUuid : null;
  return {
    uuid: value.uuid,
    parent,
    logicalParent: typeof value.logicalParentUuid === 'string' ? value.logicalParentUuid : undefined,
    thread: threadOf(value),
    transcript: typeof value.type === 'string' && TRANSCRIPT.has(value.type),
  };
}

export function threadOf(value: unknown): string {
  if (!isPlainObject(value) || value.isSidechain !== true) return 'main';
  return `side:${typeof value.agentId === 'string' ? value.agentId : ''}`;
}

export const isCompactBoundary = (value: unknown): boolean => isPlainObject(value) && value.type === 'system' && value.subtype === 'compact_boundary';


const rootKey = (thread: string) => `\0first line of ${thread}`;

function withLinks(value: unknown, links: Record<string, string | null>): unknown {
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [k, v] of Object.entries(links)) out[k] = v;
  return out;
}

/**
 * Makes the chain of the lines about to be written whole again after edits (`original` are the values of the
 * file's lines as read, `out` the lines to write, changed in place):
 * - a line whose parent was deleted (or moved away) hangs from that parent's nearest surviving ancestor;
 * - a new or moved line hangs from the line before it in its thread, and the line that followed there (the
 *   first later child of the same parent in that thread) now hangs from it, so it is spliced into the chain
 *   rather than starting a branch;
 * - a new line never reuses a uuid the file holds (a duplicate gets a fresh one).
 * Branches the file already had (rewinds) and links to lines outside the file are left as they were.
 */
export function relinkChain(original: readonly unknown[], out: JsonlOutLine[]): void {
  const origParent = new Map<string, string | null>();
  for (const v of original) {
    const n = chainNode(v);
    if (n) origParent.set(n.uuid, n.parent);
  }
  // Records that left their place: not on the longest run that kept its order.
  const placed: number[] = [];
  const placedAt: number[] = [];
  out.forEach((o, i) => {
    if (o.record && o.line !== undefined) {
      placed.push(o.line);
      placedAt.push(i);
    }
  });
  const stay = longestIncreasing(placed);
  const moved = new Set<number>();
  placedAt.forEach((i, k) => !stay.has(k) && moved.add(i));

  // Lines still where they were; a line that moved counts as gone from its old place.
  const present = new Set<string>();
  const kept = new Set<string>();
  out.forEach((o, i) => {
    const n = o.line === undefined ? undefined : chainNode(o.value);
    if (!n) return;
    kept.add(n.uuid);
    if (!moved.has(i)) present.add(n.uuid);
  });
  // A parent is gone when the file had it and it is no longer where it was.
  const gone = (uuid: string) => origParent.has(uuid) && !present.has(uuid);
  const survivor = (uuid: string | null): string | null => {
    let p = uuid;
    for (let guard = 0; p !== null && gone(p) && guard < original.length + 1; guard++) p = origParent.get(p) ?? null;
    return p;
  };

  const last = new Map<string, string>();
  // For a line X after which new lines were put: the last of them (the line X's next child now hangs from).
  const tipAfter = new Map<string, { uuid: string; thread: string }>();
  const anchorOf = new Map<string, string>();
  const seenNew = new Set<string>();
  out.forEach((o, i) => {
    let n = chainNode(o.value);
    if (!n) {
      // A summary names the leaf of the branch it describes.
      const v = o.value;
      if (isPlainObject(v) && v.type === 'summary' && typeof v.leafUuid === 'string' && gone(v.leafUuid)) {
        const leaf = survivor(v.leafUuid);
        if (leaf !== null) o.value = withLinks(v, { leafUuid: leaf });
      }
      return;
    }
    const links: Record<string, string | null> = {};
    const fresh = o.line === undefined || moved.has(i);
    if (o.line === undefined) {
      if (kept.has(n.uuid) || seenNew.has(n.uuid)) {
        links.uuid = crypto.randomUUID();
        n = { ...n, uuid: links.uuid };
      }
      seenNew.add(n.uuid);
    }
    if (fresh) {
      // A compact boundary starts a new chain by design; anything else follows its thread.
      const want = isCompactBoundary(o.value) ? null : (last.get(n.thread) ?? null);
      if (want !== n.parent) links.parentUuid = want;
      if (!isCompactBoundary(o.value)) {
        // A new first line of its thread: the old first line now follows it.
        const anchor = want === null ? rootKey(n.thread) : (anchorOf.get(want) ?? want);
        tipAfter.set(anchor, { uuid: n.uuid, thread: n.thread });
        anchorOf.set(n.uuid, anchor);
      }
      if (n.logicalParent !== undefined && gone(n.logicalParent)) {
        const lp = survivor(n.logicalParent);
        if (lp !== null) links.logicalParentUuid = lp;
      }
    } else {
      let p = n.parent !== null && gone(n.parent) ? survivor(n.parent) : n.parent;
      const key = p ?? (isCompactBoundary(o.value) ? undefined : rootKey(n.thread));
      const tip = key !== undefined ? tipAfter.get(key) : undefined;
      if (key !== undefined && tip !== undefined && n.transcript && tip.thread === n.thread) {
        tipAfter.delete(key);
        p = tip.uuid;
      }
      if (p !== n.parent) links.parentUuid = p;
      if (n.logicalParent !== undefined && gone(n.logicalParent)) {
        const lp = survivor(n.logicalParent);
        if (lp !== null) links.logicalParentUuid = lp;
      }
    }
    if (Object.keys(links).length > 0) o.value = withLinks(o.value, links);
    if (n.transcript) last.set(n.thread, n.uuid);
  });
}

export interface ChainProblem {
  /** 1-based line of the file. */
  line: number;
  text: string;
}

/**
 * What would stop Claude Code from reading the session back whole: a parent that is not in the file, a
 * uuid used twice, a cycle, and along the chain the newest line resumes from, a tool result whose call is not
 * before it on that chain. Lines are the parsed values of the file (undefined for blank lines).
 */
export function chainProblems(values: readonly unknown[]): ChainProblem[] {
  const problems: ChainProblem[] = [];
  const lineOf = new Map<string, number>();
  const nodes: Array<ChainNode | undefined> = values.map((v) => chainNode(v));
  nodes.forEach((n, i) => {
    if (!n) return;
    if (lineOf.has(n.uuid)) problems.push({ line: i + 1, text: `uuid ${n.uuid} is used by line ${lineOf.get(n.uuid)! + 1} too` });
    else lineOf.set(n.uuid, i);
  });
  nodes.forEach((n, i) => {
    if (n?.parent && !lineOf.has(n.parent)) problems.push({ line: i + 1, text: `its parentUuid ${n.parent} names no line of the file: the chain breaks here` });
  });
  // Resume follows the newest transcript line of the main thread back to its root.
  let leaf = -1;
  for (let i = nodes.length - 1; i >= 0 && leaf === -1; i--) if (nodes[i]?.transcript && nodes[i]!.thread === 'main') leaf = i;
  if (leaf === -1) return problems;
  const path: number[] = [];
  const visited = new Set<number>();
  for (let at: number | undefined = leaf; at !== undefined; ) {
    if (visited.has(at)) {
      problems.push({ line: at + 1, text: 'the chain comes back to this line (a cycle)' });
      break;
    }
    visited.add(at);
    path.push(at);
    const p: string | null = nodes[at]!.parent;
    at = p === null ? undefined : lineOf.get(p);
  }
  path.reverse();
  const calls = new Set<string>();
  for (const i of path) {
    const v = values[i];
    const content = isPlainObject(v) && isPlainObject(v.message) && Array.isArray(v.message.content) ? v.message.content : [];
    for (const b of content) {
      if (!isPlainObject(b)) continue;
      if (b.type === 'tool_use' && typeof b.id === 'string') calls.add(b.id);
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && !calls.has(b.tool_use_id)) {
        problems.push({ line: i + 1, text: `a tool result answers ${b.tool_use_id}, a call that is not before it in the conversation` });
      }
    }
  }
  return problems;
}
