import type { KeyboardEvent, PointerEvent } from 'react';

const STEP = 16;

/**
 * A bar between two panes that resizes one of them: dragged with the pointer, or with the arrow keys when
 * focused (Shift for bigger steps). `size` is the pane's current size; `sign` says which way grows it.
 */
export function Splitter({ label, vertical, size, sign, onResize, onReset, testid, className = '' }: { label: string; vertical: boolean; size: number; sign: 1 | -1; onResize(px: number): void; onReset?(): void; testid?: string; className?: string }) {
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const start = vertical ? e.clientX : e.clientY;
    const from = size;
    const el = e.currentTarget;
    el.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent) => onResize(from + sign * ((vertical ? ev.clientX : ev.clientY) - start));
    const up = () => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const grow: Record<string, number> = vertical ? { ArrowRight: 1, ArrowLeft: -1 } : { ArrowDown: 1, ArrowUp: -1 };
    const d = grow[e.key];
    if (!d) return;
    e.preventDefault();
    e.stopPropagation();
    onResize(size + sign * d * (e.shiftKey ? STEP * 4 : STEP));
  };
  return (
    <div
      className={`splitter ${vertical ? 'vertical' : 'horizontal'} ${className}`}
      role="separator"
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      aria-label={label}
      aria-valuenow={size}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      // A double click puts the default size back.
      onDoubleClick={onReset}
      onClick={(e) => e.stopPropagation()}
      data-testid={testid}
    />
  );
}
