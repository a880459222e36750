import { createContext, useContext, type ReactNode } from 'react';
import { termMatches } from '../../../src/core/search/snippet.js';
import { queryTerms } from '../../../src/core/search/words.js';

/** Secrets and personal data found in the message shown, marked wherever its text shows them (the detail pane). */
export interface SecretMark {
  value: string;
  label: string;
  kind: 'secret' | 'personal' | 'path';
}
export const SecretMarks = createContext<readonly SecretMark[]>([]);

/** The text with the words the file's search matched marked: each word beginning with a word of the query, the rule that found the message. */
function QueryHighlight({ text, query }: { text: string; query: string }) {
  const terms = query ? queryTerms(query) : [];
  if (terms.length === 0) return <>{text}</>;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of termMatches(text, terms)) {
    parts.push(text.slice(at, start), <mark key={start} className="hit">{text.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

/** The text with the search's matches marked, and the secrets found in it outlined with their rule. */
export function Highlight({ text, query }: { text: string; query: string }) {
  const marks = useContext(SecretMarks);
  if (marks.length === 0) return <QueryHighlight text={text} query={query} />;
  const parts: ReactNode[] = [];
  let at = 0;
  // The earliest occurrence of any value next (the longest where two start together).
  for (;;) {
    let best: { i: number; m: SecretMark } | undefined;
    for (const m of marks) {
      if (!m.value) continue;
      const i = text.indexOf(m.value, at);
      if (i !== -1 && (!best || i < best.i || (i === best.i && m.value.length > best.m.value.length))) best = { i, m };
    }
    if (!best) break;
    parts.push(<QueryHighlight key={`t${at}`} text={text.slice(at, best.i)} query={query} />);
    parts.push(
      <mark key={`s${best.i}`} className={`secret ${best.m.kind}`} title={best.m.label} data-testid="secret-mark">
        {best.m.value}
      </mark>,
    );
    at = best.i + best.m.value.length;
  }
  parts.push(<QueryHighlight key={`t${at}`} text={text.slice(at)} query={query} />);
  return <>{parts}</>;
}

/** How many characters of a row's text a table cell shows before its first match, where that match is further on. */
const LEAD = 24;

/**
 * A row's one-line text as its cell shows it while the file is searched: from a little before its first match when
 * that match lies past what the cell shows (a cell shows some 50 characters of 200), so the word found is in sight.
 */
export function fromFirstMatch(text: string, query: string): string {
  const terms = query ? queryTerms(query) : [];
  if (terms.length === 0) return text;
  const first = termMatches(text, terms, 1)[0]?.[0];
  if (first === undefined || first <= LEAD * 2) return text;
  // At a word's start, not inside one.
  const space = text.lastIndexOf(' ', first - LEAD);
  const from = space > 0 && first - space <= LEAD * 2 ? space + 1 : first - LEAD;
  return `…${text.slice(from)}`;
}
