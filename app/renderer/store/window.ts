import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';
import type { WindowPlan } from '../../../src/core/window/types.js';
import type { Skeleton } from '../../shared/contract.js';
import { contextWindowOf } from '../../../src/core/models.js';
import { requestOverhead as coreOverhead } from '../../../src/core/usage.js';

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
  /**
   * Until one is picked, each file's own: the swarms history string's trimming for swarms files, the agent's
   * own auto-compact (at its model's window) for Claude Code and Codex sessions, else truncation.
   */
  strategyForFile(skeleton: Skeleton): void;
  setParam(key: string, value: unknown): void;
  /** Strategies whose parameters the user set (a file's own defaults leave them be). */
  paramsTouched: ReadonlySet<string>;
}

/** Where an agent compacts its own context, as a share of its model's window. */
const COMPACTS_AT: Record<string, number> = { 'claude-code': 0.92, 'codex-rollout': 0.9 };

/**
 * The dynamic window renders `[time] role: content` blocks, as the swarms history string does: the framework's
 * own trimming for its files. An agent session is planned as the agent plans it: everything until the
 * conversation nears the model's window, then one summary. Other formats send their messages as messages:
 * truncation counts those.
 */
/** What a request holds beside the file's messages (the system prompt, the tool schemas): see the core's rule. */
export function requestOverhead(skeleton: Pick<Skeleton, 'usage'> & Partial<Pick<Skeleton, 'lengths'>>): number {
  return coreOverhead(skeleton.usage, skeleton.lengths);
}

export function defaultStrategy(skeleton: Pick<Skeleton, 'swarms' | 'format' | 'usage'> & Partial<Pick<Skeleton, 'lengths'>>): { id: string; params?: Record<string, unknown> } {
  if (skeleton.swarms) return { id: 'dynamic-context-window' };
  const at = COMPACTS_AT[skeleton.format];
  if (at === undefined) return { id: 'truncate' };
  // The window of the model the session used last.
  let model: string | undefined;
  for (let k = skeleton.usage.values.length - 1; k >= 0 && !model; k--) model = skeleton.usage.values[k].model;
  const window = contextWindowOf(model) ?? (skeleton.format === 'codex-rollout' ? 272_000 : 200_000);
  return { id: 'auto-compact', params: { contextWindowTokens: window, compactAt: String(at), fixedTokens: requestOverhead(skeleton) } };
}

export const createWindowSlice: StateCreator<AppState, [], [], WindowSlice> = (set, get) => ({
  windowOpen: false,
  strategyId: 'dynamic-context-window',
  windowParams: {},
  turnView: undefined,
  setTurnView: (turnView) => set({ turnView }),
  toggleWindow: (open) => set({ windowOpen: open ?? !get().windowOpen, ...((open ?? !get().windowOpen) ? {} : { turnView: undefined }) }),
  strategyChosen: false,
  setStrategy: (strategyId) => set({ strategyId, strategyChosen: true }),
  strategyForFile: (skeleton) => {
    if (get().strategyChosen) return;
    const { id, params } = defaultStrategy(skeleton);
    // The file's own parameters, unless the user set this strategy's.
    const windowParams = params && !get().paramsTouched.has(id) ? { ...get().windowParams, [id]: params } : get().windowParams;
    if (id !== get().strategyId || windowParams !== get().windowParams) set({ strategyId: id, windowParams });
  },
  setParam: (key, value) => {
    const { strategyId, windowParams, paramsTouched } = get();
    set({ windowParams: { ...windowParams, [strategyId]: { ...windowParams[strategyId], [key]: value } }, paramsTouched: new Set(paramsTouched).add(strategyId) });
  },
  paramsTouched: new Set(),
});
