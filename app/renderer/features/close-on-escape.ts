import type { KeyboardEvent } from 'react';

/**
 * Esc closes the innermost layer only (a dialog, the palette, the editor): the event stops here, so the
 * window panel or the search behind it stays as it was.
 */
export function closeOnEscape(close: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    e.preventDefault();
    close();
  };
}
