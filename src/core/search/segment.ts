import type { Dictionary } from './dictionary.js';

/** One message as search sees it: where it is, who wrote it, and its text (tool calls and results included). */
export interface SearchableMessage {
  conversation: number;
  index: number;
  role: string;
  text: string;
  /** The text as a line of results shows it, where that differs (a tool call's values, not its JSON: readableText). */
  readable?: string;
  /** The role as the file spells it, where that is not `role` (the normalised one search filters by). */
  spelled?: string;
  /** Where the app shows it, where that is not where the file holds it (a thread's row; null: off every thread shown). */
  shown?: { conversation: number; index: number } | null;
  /** Why, where `shown` is null: before a compaction of its thread, or on a branch its thread left (OffPath). */
  offPath?: 'earlier' | 'branch';
}

/**
 * The index of one file: the ids of its distinct words (ascending, ids of the index's dictionary), and for
 * each the messages holding it, as ordinals in file order. A file changed on disk gets a new segment.
 */
export interface Segment {
  path: string;
  format: string;
  size: number;
  mtimeMs: number;
  /** Word ids, ascending. */
  terms: Uint32Array;
  /** The ordinals holding terms[t] are postings[postStart[t] .. postStart[t + 1]), ascending. */
  postStart: Uint32Array;
  postings: Uint32Array;
  /** Each message's role, as a code into the roles the index keeps. */
  roles: Uint8Array;
  /** Conversation c holds the ordinals convStart[c] .. convStart[c + 1]. */
  convStart: Uint32Array;
}

export interface SegmentSource {
  path: string;
  format: string;
  size: number;
  mtimeMs: number;
  /** Messages in file order, conversation by conversation. */
  messages: Iterable<SearchableMessage>;
  /** Messages per conversation (empty ones too). */
  conversationSizes: readonly number[];
}

// Scratch reused by every build (one build runs at a time on a thread): each (word, message) pair in the
// order met, and the last message each word id was met in, by a stamp no other build reuses.
let pairWord = new Uint32Array(1 << 16);
let pairOrdinal = new Uint32Array(1 << 16);
let lastMet = new Float64Array(1 << 16);
let slotOf = new Uint32Array(1 << 16);
let inSegment = new Float64Array(1 << 16);
let stamp = 0;

function grow<T extends Uint32Array | Float64Array>(a: T, need: number): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

export function buildSegment(source: SegmentSource, dictionary: Dictionary, roleCode: (role: string) => number): Segment {
  const roles: number[] = [];
  let pairs = 0;
  let ordinal = -1;
  let met = 0;
  const segment = ++stamp;
  const distinctIds: number[] = [];
  const meet = (id: number) => {
    if (id >= lastMet.length) {
      lastMet = grow(lastMet, id + 1);
      inSegment = grow(inSegment, id + 1);
    }
    if (lastMet[id] === met) return;
    if (inSegment[id] !== segment) {
      inSegment[id] = segment;
      distinctIds.push(id);
    }
    lastMet[id] = met;
    if (pairs >= pairWord.length) {
      pairWord = grow(pairWord, pairs + 1);
      pairOrdinal = grow(pairOrdinal, pairs + 1);
    }
    pairWord[pairs] = id;
    pairOrdinal[pairs++] = ordinal;
  };
  for (const m of source.messages) {
    ordinal++;
    met = ++stamp;
    roles.push(roleCode(m.role));
    dictionary.scan(m.text, meet);
  }
  const count = ordinal + 1;
  // The distinct ids, ascending, then a counting sort of the pairs by id: pairs were met in message order,
  // so each word's messages come out ascending.
  const ids = Uint32Array.from(distinctIds).sort();
  const distinct = ids.length;
  if (slotOf.length < lastMet.length) slotOf = grow(slotOf, lastMet.length);
  for (let t = 0; t < distinct; t++) slotOf[ids[t]] = t;
  const postStart = new Uint32Array(distinct + 1);
  const slots = new Uint32Array(pairs);
  for (let p = 0; p < pairs; p++) postStart[(slots[p] = slotOf[pairWord[p]]) + 1]++;
  for (let t = 0; t < distinct; t++) postStart[t + 1] += postStart[t];
  const fill = postStart.slice(0, distinct);
  const postings = new Uint32Array(pairs);
  for (let p = 0; p < pairs; p++) postings[fill[slots[p]]++] = pairOrdinal[p];
  const convStart = new Uint32Array(source.conversationSizes.length + 1);
  source.conversationSizes.forEach((n, c) => (convStart[c + 1] = convStart[c] + n));
  if (convStart[convStart.length - 1] !== count) throw new Error(`${source.path}: ${count} messages given for conversations holding ${convStart[convStart.length - 1]}`);
  return { path: source.path, format: source.format, size: source.size, mtimeMs: source.mtimeMs, terms: ids, postStart, postings, roles: Uint8Array.from(roles), convStart };
}

/** Where term id `id` is in the segment's terms, or -1. */
export function termSlot(seg: Segment, id: number): number {
  let lo = 0;
  let hi = seg.terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = seg.terms[mid];
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Where an ordinal is: its conversation and its index there. */
export function locate(seg: Segment, ordinal: number): { conversation: number; index: number } {
  let lo = 0;
  let hi = seg.convStart.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (seg.convStart[mid] <= ordinal) lo = mid;
    else hi = mid - 1;
  }
  return { conversation: lo, index: ordinal - seg.convStart[lo] };
}

export const messageCount = (seg: Segment): number => seg.roles.length;
