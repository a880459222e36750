import type { StateCreator } from 'zustand';
import { request, RequestError } from '../api/client.js';
import type { RequestOutput } from '../../shared/contract.js';
import type { AppState } from './index.js';

export type FolderChoices = RequestOutput<'folder:recent'>;

export interface FoldersSlice {
  folderDialogOpen: boolean;
  folderChoices: FolderChoices | undefined;
  folderError: string | undefined;
  /** Open Folder: Electron's own dialog, or browser mode's (recent folders and a folder browser). */
  chooseFolder(): Promise<void>;
  closeFolderDialog(): void;
  /** Opens a folder in place of this one, asking first when edits are unsaved. The page starts over on it. */
  openFolder(path: string): Promise<void>;
  loadFolderChoices(): Promise<void>;
}

/** Unsaved edits are lost with the folder: a plain confirm, as leaving the editor asks. */
function mayDiscard(s: AppState): boolean {
  const n = s.unsaved.size;
  if (n === 0) return true;
  return window.confirm(`${n === 1 ? 'A file has' : `${n} files have`} unsaved edits (${[...s.unsaved].slice(0, 3).join(', ')}${n > 3 ? ', …' : ''}). Open the other folder and lose them?`);
}

export const createFoldersSlice: StateCreator<AppState, [], [], FoldersSlice> = (set, get) => ({
  folderDialogOpen: false,
  folderChoices: undefined,
  folderError: undefined,
  loadFolderChoices: async () => {
    try {
      set({ folderChoices: await request('folder:recent', {}) });
    } catch (e) {
      set({ folderError: (e as Error).message });
    }
  },
  chooseFolder: async () => {
    await get().loadFolderChoices();
    const s = get();
    // Browser mode browses here; Electron has the system's dialog.
    if (s.folderChoices?.browse !== false) {
      set({ folderDialogOpen: true });
      return;
    }
    if (!mayDiscard(s)) return;
    try {
      await request('folder:pick', { discard: s.unsaved.size > 0 });
    } catch (e) {
      set({ folderError: (e as Error).message, folderDialogOpen: true });
    }
  },
  closeFolderDialog: () => set({ folderDialogOpen: false, folderError: undefined }),
  openFolder: async (path) => {
    const s = get();
    if (!mayDiscard(s)) return;
    try {
      await request('folder:open', { path, discard: s.unsaved.size > 0 });
      // The folder:opened event starts the page over; nothing else to do here.
    } catch (e) {
      if (e instanceof RequestError && e.code === 'CONFLICT' && window.confirm(`${e.message}. Open anyway?`)) {
        await request('folder:open', { path, discard: true }).catch((again: Error) => set({ folderError: again.message }));
        return;
      }
      set({ folderError: (e as Error).message });
    }
  },
});
