import type { StateCreator } from 'zustand';
import type { CompareAnswer, CompareSideInput } from '../../shared/contract.js';
import { request } from '../api/client.js';
import type { AppState } from './index.js';

export type CompareSide = CompareSideInput;

/** A comparison shown (or being made): its two sides, the answer, and which difference is current. */
export interface CompareView {
  a: CompareSide;
  b: CompareSide;
  answer?: CompareAnswer;
  error?: string;
  /** Index into answer.differences (-1: none picked yet). */
  current: number;
  /** Bumped by each request, so that a late answer to an earlier one is dropped. */
  request: number;
}

export interface CompareSlice {
  compare: CompareView | undefined;
  /** Files picked in the sidebar (Ctrl/Shift+click) to compare, in the order picked. */
  compareMarks: string[];
  /** Opens the compare view on two sides: two sessions, or two branches of one (the fork navigator calls this). */
  openCompare(sides: { a: CompareSide; b: CompareSide }): Promise<void>;
  closeCompare(): void;
  /** The next (+1) or previous (-1) difference; returns the row it is at. */
  stepDifference(step: 1 | -1): number | undefined;
  toggleCompareMark(path: string): void;
  clearCompareMarks(): void;
}

let requests = 0;

export const createCompareSlice: StateCreator<AppState, [], [], CompareSlice> = (set, get) => ({
  compare: undefined,
  compareMarks: [],
  async openCompare({ a, b }) {
    const id = ++requests;
    set({ compare: { a, b, current: -1, request: id } });
    try {
      const answer = await request('compare:sessions', { a, b });
      if (get().compare?.request !== id) return;
      set({ compare: { a, b, answer, current: -1, request: id } });
    } catch (e) {
      if (get().compare?.request !== id) return;
      set({ compare: { a, b, error: (e as Error).message, current: -1, request: id } });
    }
  },
  closeCompare() {
    requests++;
    set({ compare: undefined });
  },
  stepDifference(step) {
    const c = get().compare;
    const n = c?.answer?.differences.length ?? 0;
    if (!c || n === 0) return undefined;
    const current = c.current < 0 ? (step > 0 ? 0 : n - 1) : (c.current + step + n) % n;
    set({ compare: { ...c, current } });
    return c.answer!.differences[current];
  },
  toggleCompareMark(path) {
    const marks = get().compareMarks;
    // Two at most: a third replaces the older of the two.
    set({ compareMarks: marks.includes(path) ? marks.filter((p) => p !== path) : [...marks, path].slice(-2) });
  },
  clearCompareMarks() {
    set({ compareMarks: [] });
  },
});
