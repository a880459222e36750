import { useState, type ReactNode } from 'react';

/** Characters of a message shown before "Show all": a row stays a few lines high, the changes in view. */
export const SHOWN = 900;

/**
 * A message's text with its changed words marked (`del` on the left side, `ins` on the right: struck through
 * or underlined, not by colour alone). A long text shows the part around its first change, and the rest on
 * demand.
 */
export function MarkedText({ text, ranges, as, more }: { text: string; ranges?: Array<[number, number]>; as: 'del' | 'ins'; more?: number }) {
  const [all, setAll] = useState(false);
  const long = text.length > SHOWN && !all;
  const start = long ? Math.max(0, Math.min((ranges?.[0]?.[0] ?? 0) - 200, text.length - SHOWN)) : 0;
  const end = long ? start + SHOWN : text.length;
  const parts: ReactNode[] = [];
  let at = start;
  for (const [s, e] of ranges ?? []) {
    if (e <= start || s >= end) continue;
    const from = Math.max(s, start);
    const to = Math.min(e, end);
    if (from > at) parts.push(text.slice(at, from));
    const piece = text.slice(from, to);
    parts.push(as === 'del' ? <del key={from}>{piece}</del> : <ins key={from}>{piece}</ins>);
    at = to;
  }
  if (at < end) parts.push(text.slice(at, end));
  const hidden = text.length - (end - start) + (more ?? 0);
  return (
    <div className="cmp-text">
      {start > 0 && <span className="muted">…</span>}
      {text === '' ? <span className="muted">(empty)</span> : parts}
      {end < text.length && <span className="muted">…</span>}
      {long && (
        <button className="cmp-more" onClick={() => setAll(true)}>
          Show all ({hidden.toLocaleString('en-US')} more characters)
        </button>
      )}
      {!long && (more ?? 0) > 0 && <span className="muted cmp-cut"> … {more!.toLocaleString('en-US')} more characters (open the file to read them)</span>}
    </div>
  );
}
