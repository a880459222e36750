import type { StateCreator } from 'zustand';
import type { EventPayload, RequestOutput } from '../../shared/contract.js';
import { request } from '../api/client.js';
import type { AppState } from './index.js';

export type SessionsAnswer = RequestOutput<'catalog:sessions'>;
export type UsageAnswer = RequestOutput<'catalog:usage'>;
export type UsageBy = UsageAnswer['by'];

export interface SessionFilters {
  tool?: string;
  model?: string;
  /** YYYY-MM-DD: sessions active on or after it. */
  from?: string;
  /** YYYY-MM-DD: sessions begun on or before it. */
  to?: string;
  /** Only sessions in which secrets were found. */
  secrets?: boolean;
}

/** Whether a filter narrows the list. */
export const filtering = (f: SessionFilters): boolean => !!(f.tool || f.model || f.from || f.to || f.secrets);

/** Sessions an agent wrote (the tool's own id of the session in its file): the sidebar opens on them. */
export const holdsAgentSessions = (answer: SessionsAnswer): boolean => answer.sessions.some((s) => s.sessionId !== undefined);

export interface CatalogSlice {
  /** What the sidebar lists: the sessions of the catalog, or the folders' files. */
  sidebarMode: 'sessions' | 'files';
  /**
   * Whether the list shown was chosen (by the user, or by a conversation opened from the files): until then, the
   * sidebar turns to the sessions once the catalog finds agent sessions in the opened folders.
   */
  sidebarChosen: boolean;
  setSidebarMode(mode: 'sessions' | 'files'): void;
  /** The user is at work in the list shown (scrolling, clicking, typing in it): it no longer turns by itself. */
  holdSidebar(): void;
  sessionGroup: 'project' | 'time';
  setSessionGroup(group: 'project' | 'time'): void;
  sessionFilters: SessionFilters;
  setSessionFilters(patch: SessionFilters): void;
  sessionsAnswer: SessionsAnswer | undefined;
  sessionsError: string | undefined;
  loadSessions(): Promise<void>;
  catalogStatus: EventPayload<'catalog:progress'> | undefined;
  usageOpen: boolean;
  setUsageOpen(open: boolean): void;
  usageBy: UsageBy;
  usageAnswer: UsageAnswer | undefined;
  usageError: string | undefined;
  loadUsage(by?: UsageBy): Promise<void>;
}

let asked = 0;

const MODE_KEY = 'inspector.sidebarMode';

/** The list the user last chose (it holds across a reload and at the next start); undefined while none was. */
function rememberedMode(): CatalogSlice['sidebarMode'] | undefined {
  try {
    const kept = globalThis.localStorage?.getItem(MODE_KEY);
    return kept === 'files' || kept === 'sessions' ? kept : undefined;
  } catch {
    return undefined;
  }
}

const GROUP_KEY = 'inspector.sessionGroup';

/** How the session list was last grouped: by project unless by time was chosen. */
function rememberedGroup(): CatalogSlice['sessionGroup'] {
  try {
    return globalThis.localStorage?.getItem(GROUP_KEY) === 'time' ? 'time' : 'project';
  } catch {
    return 'project';
  }
}

export const createCatalogSlice: StateCreator<AppState, [], [], CatalogSlice> = (set, get) => ({
  sidebarMode: rememberedMode() ?? 'files',
  sidebarChosen: rememberedMode() !== undefined,
  holdSidebar: () => {
    if (!get().sidebarChosen) set({ sidebarChosen: true });
  },
  setSidebarMode: (sidebarMode) => {
    set({ sidebarMode, sidebarChosen: true });
    try {
      globalThis.localStorage?.setItem(MODE_KEY, sidebarMode);
    } catch {
      // storage refused (private window): the choice holds for this page
    }
    if (sidebarMode === 'sessions') void get().loadSessions();
  },
  sessionGroup: rememberedGroup(),
  setSessionGroup: (sessionGroup) => {
    set({ sessionGroup });
    try {
      globalThis.localStorage?.setItem(GROUP_KEY, sessionGroup);
    } catch {
      // storage refused (private window): the choice holds for this page
    }
  },
  sessionFilters: {},
  setSessionFilters: (patch) => {
    set({ sessionFilters: { ...get().sessionFilters, ...patch } });
    void get().loadSessions();
  },
  sessionsAnswer: undefined,
  sessionsError: undefined,
  loadSessions: async () => {
    const mine = ++asked;
    const f = get().sessionFilters;
    try {
      const answer = await request('catalog:sessions', { sort: 'recent', ...(f.tool ? { tool: f.tool } : {}), ...(f.model ? { model: f.model } : {}), ...(f.from ? { from: f.from } : {}), ...(f.to ? { to: f.to } : {}), ...(f.secrets ? { secrets: true } : {}) });
      // An answer to an earlier ask (other filters) never replaces a later one's.
      if (mine !== asked) return;
      set({ sessionsAnswer: answer, sessionsError: undefined, catalogStatus: answer.status });
      // Folders of agent sessions open on their sessions, unless the user has already chosen or opened a file.
      const s = get();
      if (!s.sidebarChosen && s.sidebarMode === 'files' && s.openPath === undefined && !filtering(f) && holdsAgentSessions(answer)) set({ sidebarMode: 'sessions' });
    } catch (e) {
      if (mine === asked) set({ sessionsError: (e as Error).message });
    }
  },
  catalogStatus: undefined,
  usageOpen: false,
  setUsageOpen: (usageOpen) => {
    set({ usageOpen });
    if (usageOpen) void get().loadUsage();
  },
  usageBy: 'day',
  usageAnswer: undefined,
  usageError: undefined,
  loadUsage: async (by) => {
    const want = by ?? get().usageBy;
    set({ usageBy: want });
    try {
      const answer = await request('catalog:usage', { by: want });
      if (get().usageBy === want) set({ usageAnswer: answer, usageError: undefined });
    } catch (e) {
      set({ usageError: (e as Error).message });
    }
  },
});
