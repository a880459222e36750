import { oneLine } from '../util/one-line.js';
import type { SummaryItem } from './summary-items.js';

/** Words with which an assistant states what it decided, found or did. */
const DECISION = /\b(I'll|I will|we'll|we will|let's|decided?|decision|plan(ned)?|chose|choose|instead|because|so that|the fix|fixed|root cause|turns out|found|done|completed|failed|will use|should|must|conclusion|summary|mitigated|resolved|updated|deployed|rolled back|reverted|merged|shipped|escalated|workaround)\b/i;
/** Marks of specific content: numbers, file names, identifiers, code. */
const SPECIFIC = /\d|\b\w+\.(ts|js|py|md|json|yaml|yml|go|rs|java|tsx|jsx|sh|txt|toml|csv)\b|\b[a-z]+[A-Z]\w*|\w+_\w+|`[^`]+`/g;

/** The sentences of a text: split at . ! ? and line breaks, each on one line and at most `max` characters. */
export function sentencesOf(text: string, max = 200): string[] {
  const out: string[] = [];
  // "Here is what I found: The cache…" is two sentences: the introduction and what it introduces.
  // A long message is read by its opening, as a reader skims it: a 10 MB tool output costs what a page does.
  const opening = text.length > 30 * max ? text.slice(0, 30 * max) : text;
  // A list's number ("1. Retries…") starts its sentence rather than being one.
  for (const piece of opening.split(/(?<=[.!?])(?<!(?:^|\s)\d{1,3}\.)\s+|(?<=:)\s+(?=\p{Lu})|\n+/u)) {
    const s = oneLine(piece, max);
    // Short answers say something too ("no", "0777", "On", a date): any text is a candidate, ranked low.
    if (/\S/.test(s)) out.push(s);
    if (out.length >= 12) break; // what the opening of a long message says is enough to rank it
  }
  return out;
}

/**
 * How much a sentence tells a reader who will not see the messages, by its speaker and its form (higher is
 * more): a user's request most, an assistant's decision or finding next; specifics (numbers, file names,
 * identifiers, code) add; an introduction ("Here is what I found:") and a very short sentence take away.
 */
export function salience(s: string, item: SummaryItem, first: boolean): number {
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
