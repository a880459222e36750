import { useRef, type RefObject } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';

/** How much of a message must show below its top for it to count as in view (its head and a line or two). */
const READABLE = 120;

/**
 * The transcript's ways of bringing a message into view and keeping it there while the messages around it are
 * measured (each is first placed by an estimate of its height): as the screen shows them, not as the virtualizer
 * guesses.
 */
export function useScrollHolds(scrollRef: RefObject<HTMLDivElement | null>, virtualizer: Virtualizer<HTMLDivElement, Element>) {
  /**
   * Holds message i at the top while the messages around it are measured (each is first placed by an estimate,
   * and one opened from a search hit could end at the screen's bottom edge), until the reader scrolls, clicks or
   * types, or a second has passed.
   */
  const holding = useRef(0);
  const holdAtTop = (i: number, onlyIfOut = false) => {
    const el = scrollRef.current;
    if (!el) return;
    // Where it was in view already: kept where it is while it stays in view, brought to the top if it drifts out.
    let loose = onlyIfOut;
    // The last message chosen is the one held.
    const mine = ++holding.current;
    let frames = 0;
    let acted = false;
    const stop = () => {
      acted = true;
    };
    const events = ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const;
    events.forEach((e) => el.addEventListener(e, stop, { passive: true, once: true }));
    const check = () => {
      if (acted || ++frames > 60 || scrollRef.current !== el || holding.current !== mine) {
        events.forEach((e) => el.removeEventListener(e, stop));
        return;
      }
      const node = el.querySelector<HTMLElement>(`.tx-slot[data-index="${i}"]`);
      const top = node ? node.getBoundingClientRect().top - el.getBoundingClientRect().top : undefined;
      if (loose && top !== undefined && top >= -1 && top < el.clientHeight - READABLE) {
        requestAnimationFrame(check);
        return;
      }
      loose = false;
      // At the top, or as far down as the end of the transcript lets it go.
      const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      if (top === undefined || top < -1 || (top > 1 && !atEnd)) virtualizer.scrollToIndex(i, { align: 'start' });
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  };

  /**
   * Brings message i into view at the top, unless it is in view already: as the screen shows it, not by the
   * virtualizer's measurements (estimates for messages not yet drawn, which put one at the bottom edge).
   */
  const reveal = (i: number, align: 'start' | 'auto' = 'start') => {
    const el = scrollRef.current;
    const node = el?.querySelector<HTMLElement>(`.tx-slot[data-index="${i}"]`);
    if (el && node) {
      const box = el.getBoundingClientRect();
      const top = node.getBoundingClientRect().top;
      // In view as drawn now, perhaps by estimates of the messages above it: watched while they are measured.
      if (top >= box.top - 1 && top < box.bottom - READABLE) {
        holdAtTop(i, true);
        return;
      }
    }
    virtualizer.scrollToIndex(i, { align });
    if (align === 'start') holdAtTop(i);
  };

  /**
   * Keeps message i in sight while the messages above it are measured (a table's screen of rows is taller as a
   * transcript): the table's top stays at the top as long as i fits below it, else i ends the screen.
   */
  const keepInView = (i: number) => {
    let frames = 0;
    const check = () => {
      const el = scrollRef.current;
      if (!el || ++frames > 12) return;
      const node = el.querySelector<HTMLElement>(`.tx-slot[data-index="${i}"]`);
      const box = el.getBoundingClientRect();
      const r = node?.getBoundingClientRect();
      if (!r || r.bottom > box.bottom + 1 || r.top < box.top - 1) virtualizer.scrollToIndex(i, { align: r && r.height > el.clientHeight ? 'start' : 'end' });
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  };

  return { holdAtTop, reveal, keepInView };
}
