import type { StateCreator } from 'zustand';
import type { DirEntry } from '../../shared/contract.js';
import { request } from '../api/client.js';
import { relisted, withDetails } from '../../shared/dir-details.js';
import type { AppState } from './index.js';

export interface DirectorySlice {
  root: string | undefined;
  /** The time the sidebar's ages are told from, moved on every half minute. */
  clock: number;
  entries: DirEntry[];
  /** The walk stopped at its cap. */
  listTruncated: boolean;
  listing: boolean;
  listError: string | undefined;
  fileFilter: string;
  /** The Files list narrowed to these files (the ones the session list leaves out), `more` of them not named. */
  fileOnly: { paths: string[]; more: number } | undefined;
  fileSort: 'name' | 'messages' | 'tokens' | 'modified';
  setFileFilter(filter: string): void;
  setFileOnly(only: DirectorySlice['fileOnly']): void;
  setFileSort(sort: DirectorySlice['fileSort']): void;
  refreshDirectory(): Promise<void>;
  /** Formats and counts the background read found (a `dir:details` event). */
  applyDirDetails(root: string, details: readonly DirEntry[]): void;
}

const SORT_KEY = 'inspector.fileSort';
const SORTS = ['name', 'messages', 'tokens', 'modified'] as const;

function rememberedSort(): DirectorySlice['fileSort'] {
  try {
    const kept = globalThis.localStorage?.getItem(SORT_KEY);
    return SORTS.find((s) => s === kept) ?? 'name';
  } catch {
    return 'name';
  }
}

export const createDirectorySlice: StateCreator<AppState, [], [], DirectorySlice> = (set, get) => ({
  root: undefined,
  clock: Date.now(),
  entries: [],
  listTruncated: false,
  // The app starts by listing its folder: not ready until that first listing is in.
  listing: true,
  listError: undefined,
  fileFilter: '',
  fileOnly: undefined,
  // The order chosen stays when another folder opens (the page starts over) and at the next start.
  fileSort: rememberedSort(),
  setFileFilter: (fileFilter) => set({ fileFilter }),
  setFileOnly: (fileOnly) => set({ fileOnly }),
  setFileSort: (fileSort) => {
    set({ fileSort });
    try {
      globalThis.localStorage?.setItem(SORT_KEY, fileSort);
    } catch {
      // storage refused (private window): the order holds for this page
    }
  },
  applyDirDetails: (root, details) => {
    if (root !== get().root) return;
    set({ entries: withDetails(get().entries, details) });
    // The open file's figures are those of what is shown (its unsaved edits), not the disk's.
    get().syncEntry();
  },
  refreshDirectory: async () => {
    set({ listing: true });
    try {
      const { root, entries, truncated } = await request('dir:list', {});
      set({ root, entries: root === get().root ? relisted(get().entries, entries) : entries, listTruncated: truncated, listError: undefined });
      get().syncEntry();
    } catch (e) {
      set({ listError: (e as Error).message });
    } finally {
      set({ listing: false });
    }
  },
});
