import { useEffect, useState } from 'react';

/**
 * The file's search inside the open message: how many times it matches here, and ↑ ↓ (or F3, Shift+F3) to
 * go from one to the next, scrolled to, so that a match deep in a long message is found.
 */
export function SearchHits({ query, message }: { query: string; message: number }) {
  const [count, setCount] = useState(0);
  const [current, setCurrent] = useState(0);
  // The marks are counted as the detail draws them: its cards and long parts come after this line does.
  useEffect(() => {
    const root = document.getElementById('detail');
    if (!root) return;
    const recount = () => setCount(root.querySelectorAll('mark.hit').length);
    recount();
    const watch = new MutationObserver(recount);
    watch.observe(root, { subtree: true, childList: true, characterData: true });
    return () => watch.disconnect();
  }, [query, message]);
  useEffect(() => setCurrent(0), [query, message]);
  useEffect(() => {
    const marks = document.querySelectorAll('#detail mark.hit');
    marks.forEach((m, i) => m.classList.toggle('current', i === current));
    marks[current]?.scrollIntoView({ block: 'center' });
  }, [current, count, query, message]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'F3') return;
      e.preventDefault();
      setCurrent((c) => (count === 0 ? 0 : (c + (e.shiftKey ? count - 1 : 1)) % count));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count]);
  if (count === 0) return <p className="muted small" data-testid="detail-hits">“{query}” is not in what is shown of this message.</p>;
  return (
    <p className="small detail-hits" data-testid="detail-hits">
      match {current + 1} of {count} in this message
      <button onClick={() => setCurrent((c) => (c + count - 1) % count)} aria-label="Previous match (Shift+F3)" data-testid="hit-prev">↑</button>
      <button onClick={() => setCurrent((c) => (c + 1) % count)} aria-label="Next match (F3)" data-testid="hit-next">↓</button>
    </p>
  );
}
