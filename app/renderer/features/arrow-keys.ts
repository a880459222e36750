import type { KeyboardEvent } from 'react';

const NEXT: Record<string, 1 | -1 | 'first' | 'last'> = { ArrowDown: 1, ArrowUp: -1, ArrowRight: 1, ArrowLeft: -1, Home: 'first', End: 'last' };

/**
 * Arrow keys (and Home, End) move the focus among the buttons of a menu or a tab list, as in any menu: ↓ ↑ in a
 * menu (`vertical`), → ← in a tab list. The button reached is returned (a tab list selects it too); none where
 * the key is another's (typing in a field, a key of the other axis).
 */
export function moveAmongButtons(e: KeyboardEvent, container: HTMLElement | null, vertical: boolean): HTMLElement | undefined {
  const step = NEXT[e.key];
  if (step === undefined || !container || e.altKey || e.ctrlKey || e.metaKey) return undefined;
  if ((vertical && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) || (!vertical && (e.key === 'ArrowUp' || e.key === 'ArrowDown'))) return undefined;
  const from = e.target as HTMLElement;
  if (from.closest('input, textarea, select, [contenteditable="true"]')) return undefined;
  const items = [...container.querySelectorAll<HTMLElement>('button:not([disabled]), a[href]')];
  if (items.length === 0) return undefined;
  const at = items.indexOf(from);
  const next = step === 'first' ? 0 : step === 'last' ? items.length - 1 : at < 0 ? 0 : (at + step + items.length) % items.length;
  e.preventDefault();
  items[next].focus();
  return items[next];
}
