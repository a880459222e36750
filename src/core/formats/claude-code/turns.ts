import { isPlainObject } from '../../message.js';
import type { MessageTree } from '../../tree/message-tree.js';
import { isCompactBoundary } from './chain.js';

/**
 * A Claude Code session's messages as the model saw them, from the tree their `parentUuid` chain makes. The
 * chain is how Claude Code wrote the lines, not how it called the model:
 * - one API response is written a line per content block (the same `message.id`, or `requestId`), and the
 *   results of parallel tool calls hang off the call they answer or the line before them (2.1.81: result A
 *   off call A while call B goes on from A; 2.1.150: call B off result A; 1.0.x: every call, then every
 *   result). The model was sent one assistant message with every block, then one user message with every
 *   result: each exchange is laid out so, and what came next follows its last line;
 * - 1.0.x writes local commands (`/help`, `/model`) off the same "Caveat" line, as siblings: they follow the
 *   line before them in the file, as they were typed;
 * - a new root after `/clear`, a session resumed into the same file (another `sessionId`) and an old-style
 *   compaction (an `isCompactSummary` line with no parent) start a new part of the thread (`continues`);
 * - a line whose parent is not in the file (a copied or partial transcript) follows the line before it.
 * The file's own chain is never changed by any of this: it is a way of reading it.
 */

/** The tree the chain makes, a record's parent being the nearest record up its chain. */
export interface ChainTree {
  parent: ArrayLike<number>;
  thread: readonly string[];
  /** Per record, 1 when its chain names a line that is not in the file. */
  missing: ArrayLike<number>;
  /** Compact boundaries and the record their `logicalParentUuid` names. */
  continues: ReadonlyMap<number, number>;
  active: number;
}

interface Line {
  type: string;
  key?: string;
  /** Ids of the tool calls it makes, and of those it answers. */
  calls: string[];
  answers: string[];
  local: boolean;
  clear: boolean;
  summary: boolean;
  boundary: boolean;
  sessionId?: string;
}

const LOCAL = /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr)>/;
const CLEAR = /<command-name>\/?clear<\/command-name>/;

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.length === 1 && isPlainObject(content[0]) && content[0].type === 'text' && typeof content[0].text === 'string') return content[0].text;
  return undefined;
}

function lineOf(value: unknown): Line {
  const v = isPlainObject(value) ? value : {};
  const message = isPlainObject(v.message) ? v.message : {};
  const type = typeof v.type === 'string' ? v.type : '';
  const calls: string[] = [];
  const answers: string[] = [];
  if (Array.isArray(message.content)) {
    for (const b of message.content) {
      if (!isPlainObject(b)) continue;
      if (b.type === 'tool_use' && typeof b.id === 'string') calls.push(b.id);
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') answers.push(b.tool_use_id);
    }
  }
  const text = type === 'user' ? textOf(message.content) : undefined;
  const local = text !== undefined && (LOCAL.test(text) || (v.isMeta === true && /^\s*Caveat:/.test(text)));
  return {
    type,
    key: type === 'assistant' ? (typeof message.id === 'string' ? message.id : typeof v.requestId === 'string' ? v.requestId : undefined) : undefined,
    calls,
    answers,
    local,
    clear: local && CLEAR.test(text!),
    summary: v.isCompactSummary === true,
    boundary: isCompactBoundary(v),
    sessionId: typeof v.sessionId === 'string' ? v.sessionId : undefined,
  };
}

/** Whether a record is a line the tool wrote for a local command (`/help`, its output, the caveat before it). */
export const isLocalCommandLine = (value: unknown): boolean => lineOf(value).local;

/** The chain's tree laid out as the model saw it (see above). */
export function layTurns(records: readonly unknown[], chain: ChainTree): MessageTree {
  const n = records.length;
  const lines = records.map(lineOf);
  const thread = chain.thread;
  const raw = (r: number) => {
    const p = chain.parent[r];
    return p >= 0 && p < n && thread[p] === thread[r] ? p : -1;
  };

  // The record before each one in the file, in its thread.
  const before = new Int32Array(n).fill(-1);
  const lastIn = new Map<string, number>();
  for (let r = 0; r < n; r++) {
    before[r] = lastIn.get(thread[r]) ?? -1;
    lastIn.set(thread[r], r);
  }

  // Exchanges: a response's lines and the results that answer its calls, each joining from a line of it.
  const exchangeOf = new Int32Array(n).fill(-1);
  const keys: Array<string | undefined> = [];
  const calls: Array<Set<string>> = [];
  const replies: number[][] = [];
  const results: number[][] = [];
  for (let r = 0; r < n; r++) {
    const line = lines[r];
    const p = raw(r);
    const e = p >= 0 && p < r ? exchangeOf[p] : -1;
    if (line.type === 'assistant') {
      if (e >= 0 && line.key !== undefined && keys[e] === line.key) {
        exchangeOf[r] = e;
        replies[e].push(r);
      } else {
        exchangeOf[r] = keys.length;
        keys.push(line.key);
        calls.push(new Set());
        replies.push([r]);
        results.push([]);
      }
      for (const id of line.calls) calls[exchangeOf[r]].add(id);
    } else if (line.type === 'user' && e >= 0 && line.answers.length > 0 && line.answers.every((id) => calls[e].has(id))) {
      exchangeOf[r] = e;
      results[e].push(r);
    }
  }
  const tail = (e: number) => (results[e].length > 0 ? results[e][results[e].length - 1] : replies[e][replies[e].length - 1]);
  /** Where what hangs off a record goes on from: the last line of its exchange. */
  const end = (p: number) => (p >= 0 && exchangeOf[p] >= 0 ? tail(exchangeOf[p]) : p);

  const parent = new Int32Array(n);
  const reattached: number[] = [];
  for (let r = 0; r < n; r++) {
    if (chain.missing[r] && raw(r) < 0 && before[r] >= 0) {
      parent[r] = end(before[r]);
      reattached.push(r);
    } else parent[r] = end(raw(r));
  }
  // Each exchange in the order the model saw it: the response's lines, then the results.
  for (let e = 0; e < keys.length; e++) {
    const order = [...replies[e], ...results[e]];
    for (let k = 1; k < order.length; k++) parent[order[k]] = order[k - 1];
  }

  // Local commands written as siblings follow the line before them, when nothing else already does.
  const children = new Int32Array(n);
  const firstChild = new Int32Array(n).fill(-1);
  for (let r = 0; r < n; r++) {
    const p = parent[r];
    if (p < 0) continue;
    children[p]++;
    if (firstChild[p] < 0 || r < firstChild[p]) firstChild[p] = r;
  }
  const aside = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    if (!lines[r].local) continue;
    aside[r] = 1;
    const p = parent[r];
    if (p < 0 || firstChild[p] === r || children[p] < 2) continue;
    const to = end(before[r]);
    if (to < 0 || to === p || to >= r || children[to] > 0) continue;
    children[p]--;
    parent[r] = to;
    children[to]++;
  }

  // Roots after the first of their thread: a new part (a /clear, a resume, an old compaction), or a root of
  // its own (a first prompt written again).
  const continues = new Map<number, number>();
  const restarts = new Map<number, 'clear' | 'resume'>();
  for (const [r, from] of chain.continues) if (r < n && from >= 0 && from < n) continues.set(r, end(from));
  for (let r = 0; r < n; r++) {
    if (parent[r] >= 0 || continues.has(r) || before[r] < 0) continue;
    const prev = before[r];
    const line = lines[r];
    const cleared = lines[prev].clear || (chain.parent[prev] >= 0 && lines[chain.parent[prev]]?.clear);
    const resumed = line.sessionId !== undefined && lines[prev].sessionId !== undefined && line.sessionId !== lines[prev].sessionId;
    if (line.boundary || line.summary || cleared || resumed) continues.set(r, end(prev));
    if (!line.boundary && !line.summary && (cleared || resumed)) restarts.set(r, cleared ? 'clear' : 'resume');
  }

  const active = chain.active >= 0 && chain.active < n ? end(chain.active) : -1;
  return { parent, thread: thread.slice(0, n), active, continues, ...(restarts.size > 0 ? { restarts } : {}), ...(aside.some((x) => x === 1) ? { aside } : {}), ...(reattached.length > 0 ? { reattached } : {}) };
}
