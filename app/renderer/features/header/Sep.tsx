/**
 * Between two figures of the header: in its text (what a copy or a screen reader gets), and a figure's own, so
 * that it goes with the figure when the header has no room for it.
 */
export function Sep() {
  return <span className="sep">{' · '}</span>;
}
