import type { StateCreator } from 'zustand';
import type { EventPayload, TokenCounts } from '../../shared/contract.js';
import { request } from '../api/client.js';
import { preparePlanSkeleton } from '../features/window/plan-skeleton.js';
import type { AppState } from './index.js';
import { DEFAULT_MODEL, SESSION_MODEL } from '../../../src/core/defaults.js';
import { countingModel } from '../../../src/core/models.js';

/** The picker's choices: each session's own model first (the default), then one model or encoding for all. */
export const MODELS = [SESSION_MODEL, DEFAULT_MODEL, ...['gpt-5', 'gpt-4.1', 'gpt-4o', 'o3', 'gpt-4', 'gpt-3.5-turbo', 'o200k_base', 'cl100k_base', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'llama-3.1-70b'].filter((m) => m !== DEFAULT_MODEL)];

export interface TokensSlice {
  /** What the user picked: SESSION_MODEL (each session's own model), or one model or encoding for all. */
  modelChoice: string;
  /** What the open conversation is counted for: the pick, or the session's model where the pick is that. */
  model: string;
  /** Where the pick is the session's own: count the open conversation for the model its skeleton names. */
  followSession(sessionModel: string | undefined): void;
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
  modelChoice: SESSION_MODEL,
  model: DEFAULT_MODEL,
  counts: undefined,
  countProgress: undefined,
  firstCounts: undefined,
  countError: undefined,
  followSession: (sessionModel) => {
    const model = countingModel(get().modelChoice, sessionModel);
    if (model !== get().model) set({ model, counts: undefined });
  },
  setModel: async (choice) => {
    const model = countingModel(choice, get().skeleton?.model);
    set({ modelChoice: choice, model });
    await request('settings:set', { model: choice }).catch(() => {});
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
