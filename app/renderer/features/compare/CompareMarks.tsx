import { useAppPick } from '../../store/index.js';
import './compare.css';

const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** The files picked in the list to compare (Ctrl/Shift+click), and the command that compares them. */
export function CompareMarks() {
  const { compareMarks, openCompare, clearCompareMarks, compare } = useAppPick('compareMarks', 'openCompare', 'clearCompareMarks', 'compare');
  if (compareMarks.length === 0 || compare) return null;
  const [a, b] = compareMarks;
  return (
    <div className="cmp-marks" role="region" aria-label="Files picked to compare" data-testid="compare-marks">
      <span>
        <b>A</b> {nameOf(a)}
        {b ? (
          <>
            {' '}
            ↔ <b>B</b> {nameOf(b)}
          </>
        ) : (
          <span className="muted"> · Ctrl+click another file to compare it with</span>
        )}
      </span>
      {b && (
        <button className="primary" onClick={() => void openCompare({ a: { path: a, conversation: 0 }, b: { path: b, conversation: 0 } })} data-testid="compare-marked">
          Compare
        </button>
      )}
      <button onClick={clearCompareMarks} aria-label="Clear the files picked to compare">
        Clear
      </button>
    </div>
  );
}
