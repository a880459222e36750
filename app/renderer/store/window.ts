import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

export interface WindowSlice {
  windowOpen: boolean;
  strategyId: string;
  /** Parameters by strategy id, so switching strategies keeps what the user set for each. */
  windowParams: Record<string, Record<string, unknown>>;
  toggleWindow(open?: boolean): void;
  setStrategy(id: string): void;
  setParam(key: string, value: unknown): void;
}

export const createWindowSlice: StateCreator<AppState, [], [], WindowSlice> = (set, get) => ({
  windowOpen: false,
  strategyId: 'dynamic-context-window',
  windowParams: {},
  toggleWindow: (open) => set({ windowOpen: open ?? !get().windowOpen }),
  setStrategy: (strategyId) => set({ strategyId }),
  setParam: (key, value) => {
    const { strategyId, windowParams } = get();
    set({ windowParams: { ...windowParams, [strategyId]: { ...windowParams[strategyId], [key]: value } } });
  },
});
