import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { closeOnEscape } from '../close-on-escape.js';
import { moveAmongButtons } from '../arrow-keys.js';

/**
 * A button and what it folds away: a small panel under it, not modal. Esc closes it (the innermost layer only)
 * and gives the focus back to its button; a click elsewhere closes it too. `open`/`onOpen` let a child keep it
 * open (a dialog opened from it returns the focus into it).
 */
export function Popover({ label, title, content, children, className = '', testid, align = 'start', open: controlled, onOpen, buttonProps }: {
  /** The panel's accessible name. */
  label: string;
  title?: string;
  /** What the button shows. */
  content: ReactNode;
  children: ReactNode | ((close: () => void) => ReactNode);
  className?: string;
  testid?: string;
  align?: 'start' | 'end';
  open?: boolean;
  onOpen?(open: boolean): void;
  buttonProps?: Record<string, string | undefined>;
}) {
  const [own, setOwn] = useState(false);
  const open = controlled ?? own;
  const set = (v: boolean) => (onOpen ? onOpen(v) : setOwn(v));
  const id = useId();
  const box = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = (refocus = true) => {
    set(false);
    if (refocus) button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      // A dialog opened from the panel (outside it in the page) keeps it open.
      const t = e.target as Node;
      if (box.current?.contains(t) || (t instanceof Element && t.closest('[role="dialog"][aria-modal="true"]'))) return;
      set(false);
    };
    document.addEventListener('mousedown', away);
    // The first control of the panel takes the focus, as a menu's first item does; a panel of text alone takes it
    // itself, so that Esc (heard in the panel) closes it.
    const first = box.current?.querySelector<HTMLElement>('.popover-panel button:not([disabled]), .popover-panel [href], .popover-panel input') ?? box.current?.querySelector<HTMLElement>('.popover-panel');
    first?.focus();
    return () => document.removeEventListener('mousedown', away);
  }, [open]);
  return (
    <span ref={box} className={`popover ${className}`}>
      <button ref={button} type="button" className="chip-toggle popover-button" aria-expanded={open} aria-controls={open ? id : undefined} title={title} onClick={() => set(!open)} data-testid={testid} {...buttonProps}>
        {content}
      </button>
      {open && (
        <div
          id={id}
          role="dialog"
          aria-label={label}
          tabIndex={-1}
          className={`popover-panel ${align}`}
          onKeyDown={(e) => {
            closeOnEscape(() => close())(e);
            // ↓ ↑ from item to item, as in a menu (Tab too).
            if (!e.defaultPrevented) moveAmongButtons(e, e.currentTarget, true);
          }}
          data-testid={testid ? `${testid}-panel` : undefined}
        >
          {typeof children === 'function' ? children(() => close()) : children}
        </div>
      )}
    </span>
  );
}
