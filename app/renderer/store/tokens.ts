import type { StateCreator } from 'zustand';
import type { EventPayload, TokenCounts } from '../../shared/contract.js';
import { request } from '../api/client.js';
import { preparePlanSkeleton } from '../features/window/plan-skeleton.js';
import type { AppState } from './index.js';
import { DEFAULT_MODEL } from '../../../src/core/defaults.js';

export const MODELS = [DEFAULT_MODEL, ...['gpt-5', 'gpt-4.1', 'gpt-4o', 'o3', 'gpt-4', 'gpt-3.5-turbo', 'o200k_base', 'cl100k_base', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'llama-3.1-70b'].filter((m) => m !== DEFAULT_MODEL)];

export interface TokensSlice {
  model: string;
  counts: TokenCounts | undefined;
  countProgress: { done: number; total: number } | undefined;
  /** The first screen's counts, while the whole count is still running (a `tokens:partial` event). */
  firstCounts: EventPayload<'tokens:partial'> | undefined;
  countError: string | undefined;
  setModel(model: string): Promise<void>;
  countTokens(): Promise<void>;
}

export const createTokensSlice: StateCreator<AppState, [], [], TokensSlice> = (set, get) => ({
  // Until the settings arrive: the default the library, the CLI and the settings file share.
  model: DEFAULT_MODEL,
  counts: undefined,
  countProgress: undefined,
  firstCounts: undefined,
  countError: undefined,
  setModel: async (model) => {
    set({ model });
    await request('settings:set', { model }).catch(() => {});
    void get().refreshDirectory();
    await get().countTokens();
  },
  countTokens: async () => {
    const { openPath, model } = get();
    if (!openPath) return;
    set({ countProgress: { done: 0, total: get().skeleton?.count ?? 0 }, countError: undefined, firstCounts: undefined });
    try {
      const counts = await request('tokens:count', { path: openPath, conversation: get().openConversationIndex, model });
      if (get().openPath === counts.path && get().model === model) {
        set({ counts, countProgress: undefined, firstCounts: undefined });
        const skeleton = get().skeleton;
        if (skeleton && skeleton.count === counts.tokens.length) preparePlanSkeleton(skeleton, counts);
        // The sidebar's figure for a one-conversation file is this count, while nothing is unsaved.
        get().syncEntry();
      }
    } catch (e) {
      set({ countError: (e as Error).message, countProgress: undefined });
    }
  },
});
