import { createContext, useContext, type ReactNode } from 'react';

/** Secrets and personal data found in the message shown, marked wherever its text shows them (the detail pane). */
export interface SecretMark {
  value: string;
  label: string;
  kind: 'secret' | 'personal';
}
export const SecretMarks = createContext<readonly SecretMark[]>([]);

/** The text with every case-insensitive occurrence of `query` marked (the file's search, as main runs it). */
function QueryHighlight({ text, query }: { text: string; query: string }) {
  if (!query) return <>{text}</>;
  const parts: ReactNode[] = [];
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  // Lowercasing that changes lengths (İ) would put marks in the wrong place: then nothing is marked.
  if (lower.length !== text.length) return <>{text}</>;
  let at = 0;
  for (let i = lower.indexOf(q); i !== -1 && q; i = lower.indexOf(q, at)) {
    parts.push(text.slice(at, i), <mark key={i} className="hit">{text.slice(i, i + q.length)}</mark>);
    at = i + q.length;
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
