import type { ReactNode } from 'react';

/** The text with every case-insensitive occurrence of `query` marked (the file's search, as main runs it). */
export function Highlight({ text, query }: { text: string; query: string }) {
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
