import type { StateCreator } from 'zustand';
import type { EditCommandInput, EditState } from '../../shared/contract.js';
import { sparseGet } from '../../shared/sparse.js';
import { ownChangesShown, request, RequestError } from '../api/client.js';

/** This window, for its page's life: the service takes back by Undo only the edits the window itself made. */
const WINDOW_ID = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `w${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
import type { AppState } from './index.js';

export interface EditingSlice {
  edit: EditState | undefined;
  /** Files with edits not saved yet, as their edit states last said: the sidebar marks them after a switch. */
  unsaved: ReadonlySet<string>;
  /** A save is being written (a big file takes seconds). */
  saving: boolean;
  /** A save that failed, in words the user can act on (conflict, permissions). */
  saveError: { code: string; message: string; problems?: readonly string[] } | undefined;
  /**
   * Tool-call partners a delete or move would orphan: asked first, with the offer to take them along. `version`:
   * the state its indexes are of (what the user answers about).
   */
  pendingDelete: { indexes: number[]; partners: number[]; moveTo?: number; version?: number } | undefined;
  /**
   * A request refused because the document changed since this window showed it (another window's edit, a read
   * from disk): the current state is shown, and this says so, calmly.
   */
  staleNotice: string | undefined;
  /** Files whose unsaved edits include some this window did not make (another window's): Reload asks first. */
  foreignEdits: ReadonlySet<string>;
  /** Reload was asked for over another window's unsaved edits: the banner asks whether to drop them. */
  confirmReload: boolean;
  /** Another window changed a document (`version`: its state now): this one shows the change if it is open here. */
  changedElsewhere(path: string, version: number | undefined): Promise<void>;
  /**
   * A refusal because the document changed since this window showed it (STALE): the current state is fetched
   * and shown, and the notice says why nothing was done (`then` may add a sentence). False for other failures.
   */
  refusedAsStale(e: unknown, then?: () => string | undefined): Promise<boolean>;
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
  /**
   * `version`: the state of the document the command's indexes were computed on (an editor's, a question's);
   * the state shown now when left out.
   */
  applyEdit(command: EditCommandInput, version?: number): Promise<boolean>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  /** `force`: overwrite a file that changed on disk; `acceptProblems`: write what its tool would not read whole. */
  save(force?: boolean, acceptProblems?: boolean): Promise<void>;
  saveAs(target: string): Promise<void>;
  /** `others`: the user agreed to drop another window's unsaved edits too. */
  revert(others?: boolean): Promise<void>;
  exportAs(format: 'json' | 'yaml' | 'markdown' | 'text'): Promise<void>;
  refreshEditState(): Promise<void>;
  /** An edit's answer from main (its state, and the change as a delta) shown. */
  afterEdit(state: EditState): Promise<void>;
  requestDelete(indexes: number[]): void;
  /** Moves, or first asks when the move would separate a tool call from its result. */
  requestMove(indexes: number[], to: number): Promise<boolean>;
  setPendingDelete(p: EditingSlice['pendingDelete']): void;
  /** `seed`: what the palette opens with typed ("#" for Go to Message). */
  setPalette(open: boolean, seed?: string): void;
  paletteSeed: string | undefined;
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
export function withPartners(p: { indexes: number[]; partners: number[]; moveTo?: number; version?: number }, partners: boolean): EditCommandInput {
  const indexes = partners ? [...p.indexes, ...p.partners].sort((a, b) => a - b) : p.indexes;
  if (p.moveTo === undefined) return { type: 'delete', indexes };
  // The destination counted the selected messages only; partners before it shift it down too.
  const shift = partners ? p.partners.filter((i) => i < p.moveTo! + p.indexes.filter((j) => j < p.moveTo!).length).length : 0;
  return { type: 'move', indexes, to: Math.max(0, p.moveTo - shift) };
}

/** Per file, the state of its edits this window's own last change made (telling its edits from another window's). */
const ownVersion = new Map<string, number>();

/** The state of the open document's edits the rows shown are of (-1 before there is one: refused, and refetched). */
const shownVersion = (s: AppState): number => s.skeleton?.editVersion ?? -1;

/** Whether the edit state says of unsaved edits this window did not make (sticky until the file is clean). */
function foreignAfter(s: AppState, state: Pick<EditState, 'path' | 'dirty' | 'version'>, own: boolean): ReadonlySet<string> {
  const was = s.foreignEdits.has(state.path);
  const now = state.dirty && (was || (!own && ownVersion.get(state.path) !== state.version));
  if (now === was) return s.foreignEdits;
  const next = new Set(s.foreignEdits);
  if (now) next.add(state.path);
  else next.delete(state.path);
  return next;
}

export const createEditingSlice: StateCreator<AppState, [], [], EditingSlice> = (set, get) => {
  const after = async (state: EditState) => {
    const { delta, ...edit } = state;
    ownVersion.set(edit.path, edit.version);
    set({ edit, foreignEdits: foreignAfter(get(), edit, true), staleNotice: undefined, confirmReload: false });
    await get().applyChange(delta);
  };
  const refusedAsStale = async (e: unknown, then?: () => string | undefined): Promise<boolean> => {
    if ((e as RequestError).code !== 'STALE') return false;
    await get().refreshConversation();
    await get().refreshEditState();
    const more = then?.();
    set({ staleNotice: more ? `${(e as Error).message} ${more}` : (e as Error).message, saveError: undefined });
    return true;
  };
  return {
    staleNotice: undefined,
    refusedAsStale,
    foreignEdits: new Set(),
    confirmReload: false,
    changedElsewhere: async (path, version) => {
      // A change on disk comes as a dir:changed too, which refreshes the file shown.
      if (version === undefined) return;
      await ownChangesShown();
      const s = get();
      if (!s.openPath || (s.openPath !== path && !s.openPath.startsWith(`${path}#part-`)) || !s.skeleton || s.skeleton.version < 0) return;
      // This window's own change (or one it was shown already): only what the edit state says may differ (a save).
      if (s.skeleton.editVersion !== version) await get().refreshConversation();
      await get().refreshEditState();
    },
    edit: undefined,
    unsaved: new Set(),
    saving: false,
    saveError: undefined,
    pendingDelete: undefined,
    paletteOpen: false,
    paletteSeed: undefined,
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
    applyEdit: async (command, version) => {
      const path = get().openPath;
      if (!path) return false;
      const editor = version !== undefined;
      try {
        await after(await request('edit:apply', { path, conversation: get().openConversationIndex, version: version ?? shownVersion(get()), command, window: WINDOW_ID }));
        // An edit that went through: an earlier failure's note no longer applies.
        set({ marked: new Set(), saveError: undefined, savedNote: undefined });
        return true;
      } catch (e) {
        const at = get().editing;
        const stale = await refusedAsStale(e, () => {
          if (!editor || at === undefined || get().editing !== at) return undefined;
          // The text stays in the editor; applied again, it goes to the message shown at its row now.
          set({ editingVersion: shownVersion(get()) });
          return `Your text is still in the editor: check that message ${at} is the one you meant, then apply it again.`;
        });
        if (!stale) set({ saveError: { code: (e as RequestError).code, message: (e as Error).message } });
        return false;
      }
    },
    undo: async () => {
      const path = get().openPath;
      if (!path || !get().edit?.canUndo) return;
      try {
        await after(await request('edit:undo', { path, conversation: get().openConversationIndex, version: shownVersion(get()), window: WINDOW_ID }));
      } catch (e) {
        if (!(await refusedAsStale(e))) throw e;
      }
    },
    redo: async () => {
      const path = get().openPath;
      if (!path || !get().edit?.canRedo) return;
      try {
        await after(await request('edit:redo', { path, conversation: get().openConversationIndex, version: shownVersion(get()), window: WINDOW_ID }));
      } catch (e) {
        if (!(await refusedAsStale(e))) throw e;
      }
    },
    save: async (force = false, acceptProblems = false) => {
      const path = get().openPath;
      if (!path || get().saving) return;
      set({ saving: true, saveProgress: undefined });
      try {
        const { delta, merged, appended, ...edit } = await request('edit:save', { path, version: shownVersion(get()), force, acceptProblems });
        ownVersion.set(edit.path, edit.version);
        // A note of what an unsaved redaction would do is stale once it is written.
        set({ edit, saveError: undefined, staleNotice: undefined, savedNote: savedNoteOf(merged, appended), foreignEdits: foreignAfter(get(), edit, true), ...(get().secretsNote ? { secretsNote: undefined } : {}) });
        // A save changes no message, but the file's size and what later deltas build on.
        if (delta) await get().applyChange(delta);
        // The watcher does not report our own write: refresh the sidebar's figures for the file ourselves.
        await get().refreshDirectory();
        get().syncEntry();
      } catch (e) {
        if (await refusedAsStale(e)) return;
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
        const { target: written } = await request('edit:save-as', { path, target, ...(get().skeleton ? { version: shownVersion(get()) } : {}) });
        set({ saveError: undefined, savedAs: written });
        await get().refreshDirectory();
      } catch (e) {
        if (await refusedAsStale(e)) return;
        set({ saveError: { code: (e as RequestError).code, message: (e as Error).message } });
      }
    },
    revert: async (others = false) => {
      const path = get().openPath;
      if (!path) return;
      // Another window's unsaved edits are dropped only when the user says so.
      if (!others && get().foreignEdits.has(path)) return set({ confirmReload: true });
      set({ saveError: undefined, confirmReload: false });
      try {
        await after(await request('edit:revert', { path, version: shownVersion(get()) }));
      } catch (e) {
        const stale = await refusedAsStale(e, () => (get().edit?.dirty ? 'It has unsaved edits made in another window: they are shown now, and Reload asks before it drops them.' : undefined));
        if (!stale) set({ saveError: { code: (e as RequestError).code, message: (e as Error).message } });
      }
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
        if (get().openPath === path) set({ edit: state, foreignEdits: foreignAfter(get(), state, false) });
      } catch {
        set({ edit: undefined });
      }
    },
    requestDelete: (indexes) => {
      const partners = toolPartners(get(), indexes);
      if (partners.length > 0) set({ pendingDelete: { indexes, partners, version: shownVersion(get()) } });
      else void get().applyEdit({ type: 'delete', indexes });
    },
    requestMove: async (indexes, to) => {
      const partners = toolPartners(get(), indexes);
      if (partners.length > 0) {
        set({ pendingDelete: { indexes, partners, moveTo: to, version: shownVersion(get()) } });
        return false;
      }
      return get().applyEdit({ type: 'move', indexes, to });
    },
    setPendingDelete: (pendingDelete) => set({ pendingDelete }),
    setPalette: (paletteOpen, seed) => set({ paletteOpen, paletteSeed: seed }),
  };
};
