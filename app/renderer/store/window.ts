import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';
import type { WindowPlan } from '../../../src/core/window/types.js';

/** The window as it was at a turn of the run, while the turn scrubber is off its end: the table follows it. */
export interface TurnView {
  /** 1-based, of `turns`. */
  turn: number;
  turns: number;
  /** Messages [0, end) had been sent by then; the plan is of them. */
  end: number;
  plan: WindowPlan;
}

export interface WindowSlice {
  windowOpen: boolean;
  strategyId: string;
  /** Parameters by strategy id, so switching strategies keeps what the user set for each. */
  windowParams: Record<string, Record<string, unknown>>;
  turnView: TurnView | undefined;
  setTurnView(view: TurnView | undefined): void;
  toggleWindow(open?: boolean): void;
  /** The user picked a strategy: it stays, whatever file is opened next. */
  strategyChosen: boolean;
  setStrategy(id: string): void;
  /** Until one is picked, each file's own: the swarms history string's trimming for swarms files, else truncation. */
  strategyForFile(swarms: boolean): void;
  setParam(key: string, value: unknown): void;
}

/**
 * The dynamic window renders `[time] role: content` blocks, as the swarms history string does: the framework's
 * own trimming for its files. Other formats send their messages as messages: truncation counts those.
 */
export const defaultStrategy = (swarms: boolean): string => (swarms ? 'dynamic-context-window' : 'truncate');

export const createWindowSlice: StateCreator<AppState, [], [], WindowSlice> = (set, get) => ({
  windowOpen: false,
  strategyId: 'dynamic-context-window',
  windowParams: {},
  turnView: undefined,
  setTurnView: (turnView) => set({ turnView }),
  toggleWindow: (open) => set({ windowOpen: open ?? !get().windowOpen, ...((open ?? !get().windowOpen) ? {} : { turnView: undefined }) }),
  strategyChosen: false,
  setStrategy: (strategyId) => set({ strategyId, strategyChosen: true }),
  strategyForFile: (swarms) => {
    if (get().strategyChosen) return;
    const strategyId = defaultStrategy(swarms);
    if (strategyId !== get().strategyId) set({ strategyId });
  },
  setParam: (key, value) => {
    const { strategyId, windowParams } = get();
    set({ windowParams: { ...windowParams, [strategyId]: { ...windowParams[strategyId], [key]: value } } });
  },
});
