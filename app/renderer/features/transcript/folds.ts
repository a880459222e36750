import { createContext, useContext } from 'react';

/**
 * What the reader opened or closed in the transcript (a result, some reasoning, a sub-agent), by `message:part`,
 * kept while its message scrolls out of view and back. A part without a choice is as its default says (folded;
 * open where the search found words in it).
 */
export interface Folds {
  isOpen(key: string, byDefault: boolean): boolean;
  toggle(key: string, byDefault: boolean): void;
}

export const FoldContext = createContext<Folds>({ isOpen: (_k, d) => d, toggle: () => {} });
export const useFolds = () => useContext(FoldContext);

/** The choices as data: a key's choice, or a whole message closed (Esc) over its parts' defaults. */
export class FoldChoices {
  private readonly chosen = new Map<string, boolean>();
  private readonly closedAll = new Set<number>();

  isOpen(key: string, byDefault: boolean): boolean {
    const own = this.chosen.get(key);
    if (own !== undefined) return own;
    return this.closedAll.has(messageOf(key)) ? false : byDefault;
  }

  /** A copy with one choice made (the view re-renders on a new object). */
  with(key: string, open: boolean): FoldChoices {
    const next = this.copy();
    next.chosen.set(key, open);
    return next;
  }

  /** A copy with every part of message `i` folded, whatever its default. */
  closing(i: number): FoldChoices {
    const next = this.copy();
    for (const k of [...next.chosen.keys()]) if (messageOf(k) === i) next.chosen.delete(k);
    next.closedAll.add(i);
    return next;
  }

  /** Whether any part of message `i` is open by a choice. */
  anyOpen(i: number): boolean {
    for (const [k, v] of this.chosen) if (v && messageOf(k) === i) return true;
    return false;
  }

  private copy(): FoldChoices {
    const next = new FoldChoices();
    for (const [k, v] of this.chosen) next.chosen.set(k, v);
    for (const i of this.closedAll) next.closedAll.add(i);
    return next;
  }
}

/** The message a fold key is of ("12:p3" → 12, "12:sub:2/4" → 12; a sub-agent's own "12:sub:2/4:7:p0" → 12). */
export function messageOf(key: string): number {
  return Number(key.slice(0, key.indexOf(':')));
}
