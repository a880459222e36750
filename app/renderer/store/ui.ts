import type { StateCreator } from 'zustand';
import { request } from '../api/client.js';
import type { AppState } from './index.js';
import { withMod } from '../features/platform.js';

export type SortKey = 'index' | 'role' | 'tokens' | 'time';

export interface UiSlice {
  selected: number | undefined;
  search: string;
  searchMatches: Set<number> | undefined;
  roleFilter: Set<string>;
  categoryFilter: Set<string>;
  /** Sub-agent (side chain) messages: all, hidden, or only those. */
  chainFilter: 'all' | 'main' | 'sidechain';
  setChainFilter(chain: UiSlice['chainFilter']): void;
  sort: { key: SortKey; desc: boolean };
  /** The message editor holds changes not applied yet: leaving it asks first. */
  draftDirty: boolean;
  setDraftDirty(dirty: boolean): void;
  /** True when it is fine to leave the editor: nothing unapplied, or the user chose to discard it. */
  leaveDraft(): boolean;
  select(index: number | undefined): void;
  /** The message whose editor is open (selecting another closes it). */
  editing: number | undefined;
  /** Opens the editor on a message (selecting it), or closes it. */
  setEditing(index: number | undefined): void;
  /**
   * The state of the document the open editor's message index is of: its edit names it. It follows changes
   * that leave the message where the editor knows it to be (see applyChange), and not the others.
   */
  editingVersion: number | undefined;
  /** Which opening of the editor this is: its draft lives as long as it does, whatever is fetched meanwhile. */
  editingSession: number;
  /** The message being edited was just added (N): cancelling its editor takes it away again. */
  editingAdded: boolean;
  /** Leaves the editor without applying: a message added only to be edited goes too (its insert undone). */
  cancelEditing(): void;
  setSearch(query: string): void;
  runSearch(query: string): Promise<void>;
  toggleRole(role: string): void;
  /** How many messages the table shows under the filters (the table says, as it orders them). */
  shownCount: number | undefined;
  /** The tokens of the messages shown (undefined until counted). */
  shownTokens: number | undefined;
  /** Search, roles, categories and sub-agents back to all. */
  clearFilters(): void;
  toggleCategory(category: string): void;
  setSort(key: SortKey, desc?: boolean): Promise<void>;
}

let searchSeq = 0;

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set, get) => ({
  selected: undefined,
  search: '',
  searchMatches: undefined,
  roleFilter: new Set(),
  categoryFilter: new Set(),
  chainFilter: 'all',
  setChainFilter: (chainFilter) => set({ chainFilter }),
  sort: { key: 'index', desc: false },
  draftDirty: false,
  setDraftDirty: (draftDirty) => set({ draftDirty }),
  leaveDraft: () => {
    if (!get().draftDirty) return true;
    // A plain confirm: it blocks like the close prompt does, and works in Electron and browsers alike.
    const discard = typeof window === 'undefined' || window.confirm(`The message editor has changes you have not applied (${withMod('Enter')} applies them). Discard them?`);
    if (discard) set({ draftDirty: false });
    return discard;
  },
  select: (selected) => {
    if (selected !== get().selected && !get().leaveDraft()) return;
    set(selected === get().editing ? { selected } : { selected, editing: undefined, editingAdded: false });
  },
  editing: undefined,
  editingAdded: false,
  editingVersion: undefined,
  editingSession: 0,
  setEditing: (editing) => {
    // Another app's store is read, not edited (the detail pane says why).
    if (editing !== undefined && get().skeleton?.readOnly?.edits === false) return;
    if (editing !== undefined && editing !== get().selected) {
      get().select(editing);
      if (get().selected !== editing) return;
    }
    if (editing === undefined) return set({ editing, editingAdded: false, editingVersion: undefined });
    if (editing !== get().editing) set({ editingVersion: get().skeleton?.editVersion, editingSession: get().editingSession + 1 });
    set({ editing, editingAdded: false });
  },
  cancelEditing: () => {
    const added = get().editingAdded;
    set({ editing: undefined, editingAdded: false, editingVersion: undefined });
    if (added) void get().undo();
  },
  setSearch: (search) => {
    set({ search });
    void get().runSearch(search);
  },
  runSearch: async (query) => {
    const seq = ++searchSeq;
    const path = get().openPath;
    if (!path || query === '') {
      set({ searchMatches: undefined });
      return;
    }
    // The search runs in main over full contents, so it finds rows that are not loaded or not rendered.
    const { matches } = await request('conversation:search', { path, conversation: get().openConversationIndex, query });
    if (seq === searchSeq) set({ searchMatches: new Set(matches) });
  },
  shownCount: undefined,
  shownTokens: undefined,
  clearFilters: () => {
    set({ roleFilter: new Set(), categoryFilter: new Set(), chainFilter: 'all', secretsOnly: false });
    get().setSearch('');
  },
  toggleRole: (role) => {
    const next = new Set(get().roleFilter);
    if (!next.delete(role)) next.add(role);
    set({ roleFilter: next });
  },
  toggleCategory: (category) => {
    const next = new Set(get().categoryFilter);
    if (!next.delete(category)) next.add(category);
    set({ categoryFilter: next });
  },
  setSort: async (key, desc) => {
    const { sort, openPath } = get();
    const next = { key, desc: desc ?? (sort.key === key ? !sort.desc : key === 'tokens') };
    if (key === 'time' && !get().times && openPath) {
      const { times } = await request('conversation:times', { path: openPath, conversation: get().openConversationIndex });
      if (get().openPath === openPath) set({ times });
    }
    set({ sort: next });
  },
});
