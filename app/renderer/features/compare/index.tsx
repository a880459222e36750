import { CompareLayer } from './CompareView.js';
import { CompareMarks } from './CompareMarks.js';

/** Everything of the compare feature the app draws: the view when open, the files picked to compare. */
export function Compare() {
  return (
    <>
      <CompareMarks />
      <CompareLayer />
    </>
  );
}
