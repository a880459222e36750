import { useEffect, useRef, useState } from 'react';
import { fateColumns, keptEdges, messageAtPixel } from './fate-columns.js';

const COLOURS = ['#4c8bf5', '#b9bec7', '#e8a33d', '#8a63d2'];

/**
 * The whole history as a strip, a pixel per slice of messages coloured by fate (dropped hatched, so the
 * strip reads without colour), a dark line where the kept part begins or ends, and, with `at`, the row the
 * table shows. A click selects the message there.
 */
/**
 * `inGrid`: drawn inside the message grid, whose rows say each message's fate already: a mouse shortcut hidden
 * from assistive technology (a grid may own rows only).
 */
export function FateStrip({ fates, n, vertical = false, at, onSelect, label, testid, inGrid = false }: { fates: ArrayLike<number>; n: number; vertical?: boolean; at?: number; onSelect(i: number): void; label: string; testid?: string; inGrid?: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const measure = () => setSize({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);
  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext?.('2d');
    if (!el || !ctx || size.w === 0 || size.h === 0) return;
    const ratio = globalThis.devicePixelRatio || 1;
    el.width = Math.round(size.w * ratio);
    el.height = Math.round(size.h * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, size.w, size.h);
    const length = vertical ? size.h : size.w;
    const across = vertical ? size.w : size.h;
    const columns = fateColumns(fates, n, Math.ceil(length));
    for (let p = 0; p < columns.length; p++) {
      const f = columns[p];
      if (f < 0) continue;
      ctx.fillStyle = COLOURS[f];
      if (vertical) ctx.fillRect(0, p, across, 1);
      else ctx.fillRect(p, 0, 1, across);
      // Dropped: hatched, every fourth pixel darker.
      if (f === 1 && p % 4 === 0) {
        ctx.fillStyle = '#8a9099';
        if (vertical) ctx.fillRect(0, p, across, 1);
        else ctx.fillRect(p, 0, 1, across);
      }
    }
    ctx.fillStyle = '#1d2430';
    for (const i of keptEdges(fates)) {
      const p = (i / Math.max(1, n)) * length;
      if (vertical) ctx.fillRect(0, p - 1, across, 2);
      else ctx.fillRect(p - 1, 0, 2, across);
    }
    if (at !== undefined && n > 0) {
      const p = (at / n) * length;
      ctx.strokeStyle = '#d9822b';
      ctx.lineWidth = 2;
      ctx.beginPath();
      if (vertical) {
        ctx.moveTo(0, p);
        ctx.lineTo(across, p);
      } else {
        ctx.moveTo(p, 0);
        ctx.lineTo(p, across);
      }
      ctx.stroke();
    }
  }, [fates, n, size, vertical, at]);
  return (
    <canvas
      ref={canvas}
      className={vertical ? 'fate-strip vertical' : 'fate-strip'}
      role={inGrid ? undefined : 'img'}
      aria-label={inGrid ? undefined : label}
      aria-hidden={inGrid || undefined}
      title={inGrid ? label : undefined}
      data-testid={testid}
      onClick={(e) => {
        const box = e.currentTarget.getBoundingClientRect();
        onSelect(messageAtPixel(vertical ? e.clientY - box.top : e.clientX - box.left, vertical ? box.height : box.width, n));
      }}
    />
  );
}
