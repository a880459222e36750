import { oneLine } from '../util/one-line.js';
import type { SummaryItem } from './summary-items.js';

/** Words with which an assistant states what it decided, found or did. */
const DECISION = /\b(I'll|I will|we'll|we will|let's|decided?|decision|plan(ned)?|chose|choose|instead|because|so that|the fix|fixed|root cause|turns out|found|done|completed|failed|will use|should|must|conclusion|summary|mitigated|resolved|updated|deployed|rolled back|reverted|merged|shipped|escalated|workaround)\b/i;
/** Marks of specific content: numbers, file names, identifiers, code. */
const SPECIFIC = /\d|\b\w+\.(ts|js|py|md|json|yaml|yml|go|rs|java|tsx|jsx|sh|txt|toml|csv)\b|\b[a-z]+[A-Z]\w*|\w+_\w+|`[^`]+`/g;

export interface Sentence {
  text: string;
  /** The message it comes from (an index into the range). */
  at: number;
  score: number;
}

/** The sentences of a text: split at . ! ? and line breaks, each on one line and at most `max` characters. */
export function sentencesOf(text: string, max = 200): string[] {
  const out: string[] = [];
  for (const piece of text.split(/(?<=[.!?])\s+|\n+/)) {
    const s = oneLine(piece, max);
    // Short answers say something too ("no", "0777", "On", a date): any text is a candidate, ranked low.
    if (/\S/.test(s)) out.push(s);
    if (out.length >= 12) break; // what the opening of a long message says is enough to rank it
  }
  return out;
}

/** How much a sentence tells a reader who will not see the messages (higher is more). */
function score(s: string, item: SummaryItem, first: boolean): number {
  let v = item.kind === 'request' ? 3 : item.kind === 'answer' ? 1 : item.kind === 'system' ? 0.5 : 0;
  if (first) v += item.kind === 'request' ? 1.5 : 0.5;
  if (item.kind === 'answer' && s.length >= 25 && DECISION.test(s)) v += 2;
  if (item.kind === 'request' && s.endsWith('?')) v += 0.5;
  v += Math.min(1.5, 0.3 * (s.match(SPECIFIC)?.length ?? 0));
  // "Here is what I found:" introduces; what follows it says something.
  if (s.endsWith(':')) v -= 1.5;
  if (s.length < 25) v -= 1;
  if (s.length > 180) v -= 0.5;
  return v;
}

/** Every candidate sentence of a range's messages, scored (a tool result's only where nothing else speaks). */
export function candidates(items: readonly SummaryItem[], from: number, to: number): Sentence[] {
  const out: Sentence[] = [];
  for (let i = from; i < to; i++) {
    const item = items[i];
    sentencesOf(item.text).forEach((text, k) => out.push({ text, at: i, score: score(text, item, k === 0) }));
  }
  return out;
}

/** The best sentence among them, the earliest of equals (the same input always gives the same pick). */
export function best(sentences: readonly Sentence[], kind?: (s: Sentence) => boolean): Sentence | undefined {
  let top: Sentence | undefined;
  for (const s of sentences) if ((!kind || kind(s)) && (!top || s.score > top.score)) top = s;
  return top;
}
