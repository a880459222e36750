import { useEffect, useRef, useState } from 'react';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog keeps the keyboard: Tab and Shift+Tab go round its own controls, never to the page behind
 * it; when it closes, focus goes back to what had it before (the button that opened it), where that is still
 * on screen. Put the ref on the dialog's outer element.
 */
export function useModalFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  // Taken at the first render, before the dialog's own autoFocus moves focus into it.
  const [before] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const el = ref.current;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab' || !el) return;
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((n) => n.offsetParent !== null || n === document.activeElement);
      if (items.length === 0) return;
      const first = items[0];
      const last = items[items.length - 1];
      const inside = el.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === first || !inside)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      // Back where the user was, unless that control is gone (a switch that changed the screen).
      if (before && before.isConnected) before.focus();
      else document.querySelector<HTMLElement>('[data-testid="message-grid"]')?.focus();
    };
  }, [before]);
  return ref;
}
