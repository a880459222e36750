import type { StateCreator } from 'zustand';
import type { EditCommandInput, EditState } from '../../shared/contract.js';
import { sparseGet } from '../../shared/sparse.js';
import { request, RequestError } from '../api/client.js';
import type { AppState } from './index.js';

export interface EditingSlice {
  edit: EditState | undefined;
  /** Files with edits not saved yet, as their edit states last said: the sidebar marks them after a switch. */
  unsaved: ReadonlySet<string>;
  /** A save is being written (a big file takes seconds). */
  saving: boolean;
  /** A save that failed, in words the user can act on (conflict, permissions). */
  saveError: { code: string; message: string; problems?: readonly string[] } | undefined;
  /** Tool-call partners a delete or move would orphan: asked first, with the offer to take them along. */
  pendingDelete: { indexes: number[]; partners: number[]; moveTo?: number } | undefined;
  paletteOpen: boolean;
  /** Which dialog is open over the conversation. */
  dialog: 'history' | 'compare' | 'merge' | undefined;
  /** Save As name being typed, when the prompt is open. */
  saveAsName: string | undefined;
  /** Where the save under way is (its step, and the bytes of the file written; while it waits, who has the file open). */
  saveProgress: { step: string; at: number; of: number; done?: number; total?: number; writers?: string } | undefined;
  /** What the last save did besides writing the edits (messages another program added, kept; appended in place). */
  savedNote: string | undefined;
  /** Stops the save under way before it replaces the file (it is then as it was). */
  cancelSave(): void;
  /** The copy a Save As just wrote (said in a banner, with a way to open it). */
  savedAs: string | undefined;
  /** Messages marked with Ctrl/Shift-click: delete, duplicate and move act on all of them. */
  marked: Set<number>;
  setDialog(d: EditingSlice['dialog']): void;
  setSaveAsName(name: string | undefined): void;
  toggleMark(index: number, range?: boolean): void;
  /** The messages a command acts on: the marked ones, else the selected one. */
  targets(): number[];
  applyEdit(command: EditCommandInput): Promise<boolean>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  /** `force`: overwrite a file that changed on disk; `acceptProblems`: write what its tool would not read whole. */
  save(force?: boolean, acceptProblems?: boolean): Promise<void>;
  saveAs(target: string): Promise<void>;
  revert(): Promise<void>;
  exportAs(format: 'json' | 'yaml' | 'markdown' | 'text'): Promise<void>;
  refreshEditState(): Promise<void>;
  /** An edit's answer from main (its state, and the change as a delta) shown. */
  afterEdit(state: EditState): Promise<void>;
  requestDelete(indexes: number[]): void;
  /** Moves, or first asks when the move would separate a tool call from its result. */
  requestMove(indexes: number[], to: number): Promise<boolean>;
  setPendingDelete(p: EditingSlice['pendingDelete']): void;
  setPalette(open: boolean): void;
}

/** What a save did besides writing the edits, in words (undefined when nothing worth saying). */
export function savedNoteOf(merged: { added: number; changed: number; removed: number } | undefined, appended: boolean | undefined): string | undefined {
  const n = (k: number, what: string) => `${k} message${k === 1 ? '' : 's'} ${what}`;
  const onDisk = merged ? [merged.added && n(merged.added, 'added'), merged.changed && n(merged.changed, 'changed'), merged.removed && n(merged.removed, 'removed')].filter(Boolean) : [];
  const kept = onDisk.length > 0 ? `kept ${onDisk.join(', ')} on disk by another program meanwhile` : '';
  const inPlace = appended ? 'added your messages at the end of the file, which stays the one the other program writes' : '';
  const said = [kept, inPlace].filter(Boolean).join('; ');
  return said ? `Saved: ${said}.` : undefined;
}

/** Messages linked by tool calls to the given ones but not among them. */
export function toolPartners(state: AppState, indexes: number[]): number[] {
  const sk = state.skeleton;
  if (!sk) return [];
  const chosen = new Set(indexes);
  const partners = new Set<number>();
  const resultOwners = new Map<string, number[]>();
  sk.toolResults.values.forEach((id, k) => resultOwners.set(id, (resultOwners.get(id) ?? []).concat(sk.toolResults.at[k])));
  const callOwner = new Map<string, number>();
  sk.toolCalls.values.forEach((ids, k) => ids.forEach((id) => callOwner.set(id, sk.toolCalls.at[k])));
  for (const i of indexes) {
    for (const id of sparseGet(sk.toolCalls, i) ?? []) for (const r of resultOwners.get(id) ?? []) if (!chosen.has(r)) partners.add(r);
    const answered = sparseGet(sk.toolResults, i);
    const call = answered !== undefined ? callOwner.get(answered) : undefined;
    if (call !== undefined && !chosen.has(call)) partners.add(call);
  }
  return [...partners].sort((a, b) => a - b);
}

/** The delete or move the user chose, with or without the tool-call partners. */
export function withPartners(p: { indexes: number[]; partners: number[]; moveTo?: number }, partners: boolean): EditCommandInput {
  const indexes = partners ? [...p.indexes, ...p.partners].sort((a, b) => a - b) : p.indexes;
  if (p.moveTo === undefined) return { type: 'delete', indexes };
  // The destination counted the selected messages only; partners before it shift it down too.
  const shift = partners ? p.partners.filter((i) => i < p.moveTo! + p.indexes.filter((j) => j < p.moveTo!).length).length : 0;
  return { type: 'move', indexes, to: Math.max(0, p.moveTo - shift) };
}

export const createEditingSlice: StateCreator<AppState, [], [], EditingSlice> = (set, get) => {
  const after = async (state: EditState) => {
    const { delta, ...edit } = state;
    set({ edit });
    await get().applyChange(delta);
  };
  return {
    edit: undefined,
    unsaved: new Set(),
    saving: false,
    saveError: undefined,
    pendingDelete: undefined,
    paletteOpen: false,
    dialog: undefined,
    saveAsName: undefined,
    savedAs: undefined,
    marked: new Set(),
    setDialog: (dialog) => set({ dialog }),
    setSaveAsName: (saveAsName) => set({ saveAsName }),
    toggleMark: (index, range) => {
      const next = new Set(get().marked);
      const anchor = get().selected;
      if (range && anchor !== undefined) for (let i = Math.min(anchor, index); i <= Math.max(anchor, index); i++) next.add(i);
      else if (!next.delete(index)) next.add(index);
      set({ marked: next });
    },
    targets: () => {
      const { marked, selected } = get();
      if (marked.size > 0) return [...marked].sort((a, b) => a - b);
      return selected === undefined ? [] : [selected];
    },
    applyEdit: async (command) => {
      const path = get().openPath;
      if (!path) return false;
      try {
        await after(await request('edit:apply', { path, conversation: get().openConversationIndex, command }));
        // An edit that went through: an earlier failure's note no longer applies.
        set({ marked: new Set(), saveError: undefined, savedNote: undefined });
        return true;
      } catch (e) {
        set({ saveError: { code: (e as RequestError).code, message: (e as Error).message } });
        return false;
      }
    },
    undo: async () => {
      const path = get().openPath;
      if (path && get().edit?.canUndo) await after(await request('edit:undo', { path, conversation: get().openConversationIndex }));
    },
    redo: async () => {
      const path = get().openPath;
      if (path && get().edit?.canRedo) await after(await request('edit:redo', { path, conversation: get().openConversationIndex }));
    },
    save: async (force = false, acceptProblems = false) => {
      const path = get().openPath;
      if (!path || get().saving) return;
      set({ saving: true, saveProgress: undefined });
      try {
        const { delta, merged, appended, ...edit } = await request('edit:save', { path, force, acceptProblems });
        // A note of what an unsaved redaction would do is stale once it is written.
        set({ edit, saveError: undefined, savedNote: savedNoteOf(merged, appended), ...(get().secretsNote ? { secretsNote: undefined } : {}) });
        // A save changes no message, but the file's size and what later deltas build on.
        if (delta) await get().applyChange(delta);
        // The watcher does not report our own write: refresh the sidebar's figures for the file ourselves.
        await get().refreshDirectory();
        get().syncEntry();
      } catch (e) {
        set({ saveError: { code: (e as RequestError).code, message: (e as Error).message, problems: (e as RequestError).problems } });
        await get().refreshEditState();
      } finally {
        set({ saving: false, saveProgress: undefined });
      }
    },
    saveProgress: undefined,
    savedNote: undefined,
    cancelSave: () => {
      const path = get().openPath;
      if (path && get().saving) void request('edit:cancel-save', { path }).catch(() => {});
    },
    saveAs: async (target) => {
      const path = get().openPath;
      if (!path) return;
      try {
        const { target: written } = await request('edit:save-as', { path, target });
        set({ saveError: undefined, savedAs: written });
        await get().refreshDirectory();
      } catch (e) {
        set({ saveError: { code: (e as RequestError).code, message: (e as Error).message } });
      }
    },
    revert: async () => {
      const path = get().openPath;
      if (!path) return;
      set({ saveError: undefined });
      await after(await request('edit:revert', { path }));
    },
    exportAs: async (format) => {
      const path = get().openPath;
      if (!path) return;
      const { filename, text, mime } = await request('edit:export', { path, conversation: get().openConversationIndex, format });
      // A download in the browser; Electron turns it into a save dialog.
      const url = URL.createObjectURL(new Blob([text], { type: mime }));
      const a = document.createElement('a');
      a.href = url;
      a.download = filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
    afterEdit: (state) => after(state),
    refreshEditState: async () => {
      const path = get().openPath;
      if (!path) return set({ edit: undefined });
      try {
        const state = await request('edit:state', { path, conversation: get().openConversationIndex });
        if (get().openPath === path) set({ edit: state });
      } catch {
        set({ edit: undefined });
      }
    },
    requestDelete: (indexes) => {
      const partners = toolPartners(get(), indexes);
      if (partners.length > 0) set({ pendingDelete: { indexes, partners } });
      else void get().applyEdit({ type: 'delete', indexes });
    },
    requestMove: async (indexes, to) => {
      const partners = toolPartners(get(), indexes);
      if (partners.length > 0) {
        set({ pendingDelete: { indexes, partners, moveTo: to } });
        return false;
      }
      return get().applyEdit({ type: 'move', indexes, to });
    },
    setPendingDelete: (pendingDelete) => set({ pendingDelete }),
    setPalette: (paletteOpen) => set({ paletteOpen }),
  };
};
