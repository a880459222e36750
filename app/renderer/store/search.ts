import type { StateCreator } from 'zustand';
import type { EventPayload, SearchAnswer, SearchHitRow, SkeletonDelta } from '../../shared/contract.js';
import { request } from '../api/client.js';
import type { AppState } from './index.js';

type Role = 'system' | 'user' | 'assistant' | 'tool' | 'other';

export interface SearchSlice {
  /** The search across every conversation (Ctrl/Cmd+Shift+F) is open. */
  searchAllOpen: boolean;
  setSearchAllOpen(open: boolean): void;
  searchAllQuery: string;
  searchAllRegex: boolean;
  searchAllRole: Role | undefined;
  searchAllAnswer: SearchAnswer | undefined;
  searchAllError: string | undefined;
  searchAllBusy: boolean;
  /** How many hits an answer lists (more on request). */
  searchAllLimit: number;
  showMoreSearchAll(): void;
  searchIndex: EventPayload<'search:progress'> | undefined;
  setSearchAll(patch: { query?: string; regex?: boolean; role?: Role | undefined }): void;
  runSearchAll(): Promise<void>;
  /** Opens the hit's file at its message, the matched word in the file's search so that it is highlighted. */
  openSearchHit(hit: SearchHitRow): Promise<void>;
}

let seq = 0;
const SNIPPET_PAGE = 50;

export const createSearchSlice: StateCreator<AppState, [], [], SearchSlice> = (set, get) => ({
  searchAllOpen: false,
  setSearchAllOpen: (searchAllOpen) => {
    set({ searchAllOpen });
    // Opening starts the index (the first time) and shows how far it is.
    if (searchAllOpen) void get().runSearchAll();
  },
  searchAllQuery: '',
  searchAllRegex: false,
  searchAllRole: undefined,
  searchAllAnswer: undefined,
  searchAllError: undefined,
  searchAllBusy: false,
  searchAllLimit: 300,
  showMoreSearchAll: () => {
    set({ searchAllLimit: Math.min(2000, get().searchAllLimit * 3) });
    void get().runSearchAll();
  },
  searchIndex: undefined,
  setSearchAll: (patch) => {
    set({
      searchAllQuery: patch.query ?? get().searchAllQuery,
      searchAllRegex: patch.regex ?? get().searchAllRegex,
      searchAllRole: 'role' in patch ? patch.role : get().searchAllRole,
      searchAllLimit: 300,
    });
    void get().runSearchAll();
  },
  runSearchAll: async () => {
    const n = ++seq;
    const { searchAllQuery: query, searchAllRegex: regex, searchAllRole: role } = get();
    set({ searchAllBusy: true });
    try {
      const answer = await request('search:query', { query, regex, roles: role ? [role] : [], limit: get().searchAllLimit });
      if (n !== seq) return;
      set({ searchAllAnswer: query.trim() === '' ? undefined : answer, searchAllError: undefined, searchIndex: answer.status, searchAllBusy: false });
      // The lines of hits whose files the answer had no time to read, a page at a time, while nothing newer is asked.
      const missing = answer.hits.filter((h) => h.snippet === undefined);
      for (let k = 0; k < missing.length && n === seq; k += SNIPPET_PAGE) {
        const page = missing.slice(k, k + SNIPPET_PAGE).map(({ path, conversation, index }) => ({ path, conversation, index }));
        const { hits } = await request('search:snippets', { query, regex, hits: page });
        const current = get().searchAllAnswer;
        if (n !== seq || !current) return;
        const found = new Map(hits.map((h) => [`${h.path}\0${h.conversation}\0${h.index}`, h]));
        set({ searchAllAnswer: { ...current, hits: current.hits.map((h) => found.get(`${h.path}\0${h.conversation}\0${h.index}`) ? { ...h, ...found.get(`${h.path}\0${h.conversation}\0${h.index}`) } : h) } });
      }
    } catch (e) {
      if (n === seq) set({ searchAllError: (e as Error).message, searchAllAnswer: undefined, searchAllBusy: false });
    }
  },
  openSearchHit: async (hit) => {
    set({ searchAllOpen: false });
    // A hit names the message as the file holds it; a session's thread, branch or earlier part shows it.
    let where: { conversation: number; index: number; delta?: SkeletonDelta } = { conversation: hit.conversation, index: hit.index };
    try {
      where = await request('conversation:reveal', { path: hit.path, conversation: hit.conversation, index: hit.index });
    } catch {
      // The file as the search read it is gone or changed: it opens as it is now.
    }
    const s = get();
    if (s.openPath !== hit.path || s.openConversationIndex !== where.conversation || !s.skeleton) await s.openConversation(hit.path, where.conversation);
    else if (where.delta) await s.applyChange(where.delta);
    const now = get();
    if (now.openPath !== hit.path) return;
    // The file's search follows the same rule as this one: the whole query goes in, every word of it marked.
    // A regular expression is not the file search's: the text it matched here goes in instead.
    const regexMatch = hit.snippet !== undefined && hit.match ? hit.snippet.slice(hit.match[0], hit.match[1]) : '';
    const word = get().searchAllRegex ? regexMatch : get().searchAllQuery.trim();
    // The file's search filters the rows: its matches are in before the row is chosen, so the table scrolls to
    // the row where the filtered list has it.
    if (word) {
      set({ search: word });
      await now.runSearch(word);
    }
    get().select(where.index);
  },
});
