import type { StateCreator } from 'zustand';
import type { Row, Skeleton, SkeletonDelta } from '../../shared/contract.js';
import { request, RequestError } from '../api/client.js';
import { applyDelta, movedIndex } from './apply-delta.js';
import { carryPlanSkeleton } from '../features/window/plan-skeleton.js';
import type { AppState } from './index.js';

export const PAGE_SIZE = 200;
/** Files this big show their head's messages while they are read whole. */
export const PEEK_MIN_BYTES = 4 * 1024 * 1024;
/** Files this big also show their last messages, every message placed, while they are read whole. */
export const ENDS_MIN_BYTES = 16 * 1024 * 1024;

export interface OpenError {
  path: string;
  message: string;
  line?: number;
  column?: number;
  wellFormed?: boolean;
}

export interface ConversationSlice {
  openPath: string | undefined;
  /** Which conversation of the open file (datasets and exports hold several). */
  openConversationIndex: number;
  skeleton: Skeleton | undefined;
  opening: boolean;
  openError: OpenError | undefined;
  /** Loaded pages of rows by page number; fetched as they scroll into view. */
  pages: Map<number, Row[]>;
  /** Bumped on every reload, so stale page answers are dropped. */
  generation: number;
  /** Per-message times, fetched the first time the table sorts by time. */
  times: number[] | undefined;
  /** The file that was open before the one being read (Esc goes back to it). */
  previousOpen: { path: string; conversation: number } | undefined;
  /**
   * The skeleton shown is the file's head, while the whole file is read (a big file). `ends`: it places every
   * message, the first `head` and those from `from` read, the rest unread, `count` in all.
   */
  provisional: { size: number; read: number; estimated?: number; ends?: { head: number; from: number; count: number } } | undefined;
  /**
   * Where the user asked to go while only the head is shown (End, "go to #N" past it): gone to as soon as the
   * whole file is read.
   */
  pendingJump: { to: 'end' } | { to: number; session?: number } | undefined;
  /**
   * Goes to message `to` (or the last): at once when it is shown, else when the file is read. In a session read a
   * part at a time, `to` is the session's number (across its parts): the part that holds it is opened.
   */
  jumpTo(to: 'end' | number): void;
  /** Where "go to #N" in a session read a part at a time took the user, or why it could not. */
  goToNote: { text: string; missed: boolean } | undefined;
  openConversation(path: string, conversation?: number): Promise<void>;
  /** Back to no open file (Esc while a big file is read): its answer, when it comes, is dropped. */
  closeConversation(): void;
  reloadConversation(): Promise<void>;
  /** The open conversation as it is in main now: a delta from what is shown when main can make one. */
  refreshConversation(): Promise<void>;
  /** A change main sent (an edit's answer): applied when it builds on what is shown, else a reload. */
  applyChange(delta: SkeletonDelta | undefined): Promise<void>;
  ensureRows(start: number, end: number): void;
  /** The sidebar's figures for the open file, from what is shown (a file read whole, nothing unsaved). */
  syncEntry(): void;
}

const inflight = new Set<string>();
/** The row requests on their way. */
const rowsComing = new Set<Promise<unknown>>();

/** Runs `then` once the table has drawn (and asked for its rows) and the rows asked for have come. */
function afterRows(then: () => void): void {
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (f: () => void) => setTimeout(f, 16);
  frame(() =>
    setTimeout(() => {
      void Promise.allSettled([...rowsComing]).then(then);
    }, 0),
  );
}

/** The parts of the file whose part is open, and which of them it is; undefined for a file read whole. */
export function partsAround(s: Pick<AppState, 'entries' | 'openPath'>): { parts: NonNullable<AppState['entries'][number]['parts']>; at: number } | undefined {
  const parts = s.entries.find((e) => e.parts?.some((p) => p.path === s.openPath))?.parts;
  const at = parts?.findIndex((p) => p.path === s.openPath) ?? -1;
  return parts && at >= 0 ? { parts, at } : undefined;
}

/** A session's file count and its view's, as they were when it was last clean: edits move the file's count by as much as the view's. */
let viewBase: { path: string; count: number; messages: number } | undefined;

export const createConversationSlice: StateCreator<AppState, [], [], ConversationSlice> = (set, get) => {
  /** A whole skeleton shown: what depends on it (edit state, time order, first rows, counts, search) follows. */
  const show = (skeleton: Skeleton, pages: Map<number, Row[]>) => {
    const jump = get().pendingJump;
    // An editor with nothing typed starts over on its row as it is now; a draft keeps the state it was made on.
    const restart = get().editing !== undefined && !get().draftDirty ? { editingVersion: skeleton.editVersion, editingSession: get().editingSession + 1 } : {};
    set({ skeleton, pages, generation: get().generation + 1, openError: undefined, times: undefined, provisional: undefined, pendingJump: undefined, ...restart });
    // Counted for the model the session ran on, where the pick is the session's own.
    get().followSession(skeleton.model);
    get().syncEntry();
    // Where the user asked to go while the file was read.
    if (jump && skeleton.count > 0) get().select(jump.to === 'end' ? skeleton.count - 1 : Math.min(jump.to, skeleton.count - 1));
    void get().refreshEditState();
    if (get().sort.key === 'time') void get().setSort('time', get().sort.desc);
    // Rows first: counting a long history is long work and must not hold back what the user sees.
    get().ensureRows(0, PAGE_SIZE);
    void get().countTokens();
    // A search typed while the file was read runs after the rows on screen are asked for and come (the table
    // asks once it has drawn): a search of a long file would hold them back.
    if (get().search) afterRows(() => void get().runSearch(get().search));
  };
  /** The file's last messages and its count while it is read (see ENDS_MIN_BYTES), and the jump asked meanwhile. */
  const peekEnds = async (path: string, conversation: number) => {
    const both = await request('conversation:peek', { path, conversation, ends: true }).catch(() => undefined);
    const s = get();
    if (!both?.skeleton || both.from === undefined || both.head === undefined || s.openPath !== path || s.openConversationIndex !== conversation || !s.provisional || !s.opening || s.skeleton?.version !== -1) return;
    const count = both.skeleton.count;
    const pages = new Map(s.pages);
    // Whole pages only: a page the tail starts in the middle of is asked for once the file is read.
    for (let k = Math.ceil(both.from / PAGE_SIZE); k * PAGE_SIZE < count; k++) pages.set(k, both.rows.slice(k * PAGE_SIZE - both.from, (k + 1) * PAGE_SIZE - both.from));
    // The sidebar's count is exact now: the list's elements were counted.
    const entries = s.entries.map((e) => (e.path === path ? { ...e, messages: count, estimated: false } : e));
    set({ skeleton: both.skeleton, pages, entries, provisional: { size: s.provisional.size, read: s.provisional.read, ends: { head: both.head, from: both.from, count } } });
    const jump = s.pendingJump;
    if (jump) {
      set({ pendingJump: undefined });
      get().select(jump.to === 'end' ? count - 1 : Math.min(jump.to, count - 1));
    }
  };
  /** Goes to message `to` of the file open (or its last): at once when it is shown, else when the file is read. */
  const jumpWithin = (to: 'end' | number, session?: number) => {
    const { skeleton, provisional, opening } = get();
    if (!skeleton) return;
    const reading = provisional !== undefined && opening && !provisional.ends;
    if (reading && (to === 'end' || to >= skeleton.count)) {
      set({ pendingJump: to === 'end' ? { to } : { to, session } });
      // Meanwhile, as far as is read.
      get().select(skeleton.count - 1);
      return;
    }
    get().select(to === 'end' ? skeleton.count - 1 : Math.min(to, skeleton.count - 1));
  };
  /** Message `n` of a session read a part at a time: its part is asked for, opened unless open, and `n` selected there. */
  const goToInParts = async (n: number) => {
    const from = get().openPath;
    if (!from) return;
    const session = (k: number) => `#${k.toLocaleString('en-US')}`;
    set({ goToNote: { text: `Finding message ${session(n)} of the session…`, missed: false } });
    let place;
    try {
      place = await request('conversation:locate', { path: from, index: n });
    } catch (e) {
      if (get().openPath === from) set({ goToNote: { text: `Message ${session(n)} could not be found: ${(e as Error).message}`, missed: true } });
      return;
    }
    // Another file opened meanwhile: the user went elsewhere.
    if (get().openPath !== from) return;
    if (!place.found) {
      set({ goToNote: { text: place.count === 0 ? `This session has no messages: there is no message ${session(n)}.` : `This session has ${place.count.toLocaleString('en-US')} messages (${session(0)} to ${session(place.count - 1)}, in ${place.parts} parts): there is no message ${session(n)}.`, missed: true } });
      return;
    }
    const note = { text: `Message ${session(n)} of the session is ${session(place.index)} of part ${place.part} of ${place.parts} (whose first message is the session's ${session(place.first)}).`, missed: false };
    if (place.path === from) {
      set({ goToNote: note });
      jumpWithin(place.index, n);
      return;
    }
    void get().openConversation(place.path, 0);
    // Opened (not kept from by a draft): the message is selected once the part shows.
    if (get().openPath === place.path) set({ pendingJump: { to: place.index, session: n }, goToNote: note });
    else set({ goToNote: undefined });
  };
  return {
    goToNote: undefined,
    openPath: undefined,
    openConversationIndex: 0,
    skeleton: undefined,
    opening: false,
    openError: undefined,
    pages: new Map(),
    generation: 0,
    times: undefined,
    provisional: undefined,
    pendingJump: undefined,
    jumpTo: (to) => {
      if (!get().skeleton) return;
      // A session read a part at a time ends in its last part: End goes there, the parts between never read.
      const parted = partsAround(get());
      if (to === 'end' && parted && parted.at < parted.parts.length - 1) {
        const last = parted.parts[parted.parts.length - 1].path;
        void get().openConversation(last, 0);
        // Opened (not kept from by a draft): its last message is selected once it shows.
        if (get().openPath === last) set({ pendingJump: { to: 'end' } });
        return;
      }
      if (typeof to === 'number' && parted) {
        void goToInParts(to);
        return;
      }
      jumpWithin(to);
    },
    previousOpen: undefined,
    openConversation: async (path, conversation = 0) => {
      if ((path !== get().openPath || conversation !== get().openConversationIndex) && !get().leaveDraft()) return;
      // What Esc goes back to while this one is read: the file shown before, if it was shown whole.
      const before = get().openPath;
      set({ previousOpen: before && before !== path && get().skeleton && !get().opening ? { path: before, conversation: get().openConversationIndex } : undefined });
      set({ openPath: path, openConversationIndex: conversation, opening: true, openError: undefined, goToNote: undefined, saveError: undefined, savedAs: undefined, savedNote: undefined, pendingJump: undefined, skeleton: undefined, pages: new Map(), generation: get().generation + 1, selected: undefined, editing: undefined, searchMatches: undefined, provisional: undefined });
      // A search is of the file it was typed in: another file opens with every message shown.
      if (before !== path && get().search !== '') set({ search: '' });
      // A big file shows its first messages from its head while main reads the whole of it (asked first, so
      // that it is answered before the long read begins).
      // A part of a file read a part at a time is as big as the file says (its first part shows the file's head).
      const entry = get().entries.find((e) => e.path === path || e.parts?.some((p) => p.path === path));
      if (entry && entry.bytes >= PEEK_MIN_BYTES) {
        // The whole read is asked for once the head is answered: started together, the read's thread (and the
        // counter it readies) take the cores the head needs, and the first rows came after a second, not at once.
        await request('conversation:peek', { path, conversation })
          .then((peek) => {
            const s = get();
            if (!peek.skeleton || s.openPath !== path || s.openConversationIndex !== conversation || s.skeleton || !s.opening) return;
            const pages = new Map<number, Row[]>();
            for (let k = 0; k * PAGE_SIZE < peek.rows.length; k++) pages.set(k, peek.rows.slice(k * PAGE_SIZE, (k + 1) * PAGE_SIZE));
            set({ skeleton: peek.skeleton, pages, provisional: { size: peek.size, read: peek.read, estimated: peek.estimated } });
            get().followSession(peek.skeleton.model);
            // The sidebar's estimate (from 64 KB) gives way to this one (from 512 KB): one figure on the screen.
            if (peek.estimated !== undefined) set({ entries: get().entries.map((e) => (e.path === path && e.estimated ? { ...e, messages: peek.estimated } : e)) });
            // Then its end: every message placed, so that End, the scrollbar and "go to" land before the parse ends.
            if (entry.bytes >= ENDS_MIN_BYTES) void peekEnds(path, conversation);
          })
          .catch(() => {});
        // Another file opened meanwhile, or this one closed (Esc): that one is read instead, or none.
        if (get().openPath !== path || get().openConversationIndex !== conversation) return;
      }
      await get().reloadConversation();
    },
    closeConversation: () => {
      if (!get().leaveDraft()) return;
      const back = get().previousOpen;
      set({ openPath: undefined, opening: false, goToNote: undefined, skeleton: undefined, provisional: undefined, pages: new Map(), generation: get().generation + 1, selected: undefined, editing: undefined, counts: undefined, countProgress: undefined, openError: undefined, edit: undefined, previousOpen: undefined });
      // Back to the file that was open before (read already: it opens at once).
      if (back) void get().openConversation(back.path, back.conversation);
    },
    reloadConversation: async () => {
      const path = get().openPath;
      if (!path) return;
      const generation = get().generation + 1;
      set({ opening: true, generation });
      try {
        const skeleton = await request('conversation:open', { path, conversation: get().openConversationIndex });
        if (get().openPath !== path) return;
        // The head's rows are the file's first rows: kept, so that nothing blinks empty while the rest come. The
        // head's last page is cut where the head ended: dropped, so that its other rows are asked for.
        const keep = get().provisional && get().skeleton?.path === skeleton.path && get().skeleton?.conversation === skeleton.conversation;
        const pages = keep ? new Map(get().pages) : new Map<number, Row[]>();
        for (const [k, rows] of pages) if (rows.length < PAGE_SIZE && k * PAGE_SIZE + rows.length < skeleton.count) pages.delete(k);
        // The tail's rows are where the file ended then: kept only if it still ends there.
        const ends = keep ? get().provisional?.ends : undefined;
        if (ends && ends.count !== skeleton.count) for (const k of [...pages.keys()]) if (k * PAGE_SIZE >= ends.head) pages.delete(k);
        show(skeleton, pages);
      } catch (e) {
        const err = e as RequestError;
        if (get().openPath === path) set({ skeleton: undefined, provisional: undefined, openError: { path, message: err.message, line: err.line, column: err.column, wellFormed: err.wellFormed } });
      } finally {
        if (get().openPath === path) set({ opening: false });
      }
    },
    refreshConversation: async () => {
      const { openPath: path, skeleton } = get();
      if (!path) return;
      if (!skeleton || skeleton.path !== path) return get().reloadConversation();
      try {
        const answer = await request('conversation:update', { path, conversation: get().openConversationIndex, since: skeleton.version, model: get().model });
        if (get().openPath !== path) return;
        // A change on disk to a file with unsaved edits changes no row: the edit state says it is in conflict.
        if ('delta' in answer) {
          await get().applyChange(answer.delta);
          if (get().edit?.dirty) await get().refreshEditState();
          return;
        }
        set({ counts: undefined });
        show(answer.skeleton, new Map());
      } catch (e) {
        // Unsaved edits of a file that can no longer be read here (swapped for a link out of the folder): they
        // stay on screen, and Save As keeps them.
        const code = (e as RequestError).code;
        if (get().edit?.dirty && (code === 'FORBIDDEN' || code === 'NOT_FOUND')) {
          set({ saveError: { code, message: `${(e as Error).message}. Your edits are kept here: Save As writes them to a file inside the folder.` } });
          return;
        }
        await get().reloadConversation();
      }
    },
    applyChange: async (delta) => {
      const { skeleton, pages, counts } = get();
      if (!delta || !skeleton || delta.file.path !== skeleton.path || delta.file.conversation !== skeleton.conversation || delta.from !== skeleton.version) return get().reloadConversation();
      const next = applyDelta({ skeleton, pages, counts }, delta, PAGE_SIZE);
      carryPlanSkeleton({ skeleton, counts }, next, delta);
      const changed = delta.rows.length > 0 || delta.deleteCount > 0;
      const { editing, editingVersion, marked, draftDirty } = get();
      const touched = (i: number) => i >= delta.start && i < delta.start + delta.deleteCount;
      // An open editor follows its message: nothing typed yet, it starts over on it as it is now; with a draft,
      // the draft stays, and its edit is of the state shown now unless its message is what changed.
      const restart = editing !== undefined && !draftDirty;
      const follows = restart || (editing !== undefined && editingVersion !== undefined && editingVersion === skeleton.editVersion && !touched(editing));
      // Messages marked stay marked where they went; those the change replaced are unmarked.
      const remarked = marked.size === 0 || !changed ? marked : new Set([...marked].flatMap((i) => (touched(i) ? [] : [movedIndex(i, delta) ?? -1]).filter((j) => j >= 0)));
      // Rows still on their way were asked for before the change: the generation drops them.
      set({ skeleton: next.skeleton, pages: new Map(next.pages), counts: next.counts, generation: get().generation + 1, selected: movedIndex(get().selected, delta), editing: movedIndex(editing, delta), editingVersion: follows ? next.skeleton.editVersion : editingVersion, ...(restart ? { editingSession: get().editingSession + 1 } : {}), marked: remarked, times: changed ? undefined : get().times });
      get().syncEntry();
      if (!changed) return;
      if (get().sort.key === 'time') void get().setSort('time', get().sort.desc);
      if (!next.counts) void get().countTokens();
      if (get().search) void get().runSearch(get().search);
    },
    syncEntry: () => {
      const { skeleton, counts, edit, openPath, entries } = get();
      // A session shown as a path of its tree (a view) keeps the file's counts: every thread's messages and tokens.
      const view = skeleton?.whole !== undefined;
      if (!skeleton || skeleton.path !== openPath || skeleton.version < 0 || (skeleton.conversations !== 1 && !view) || skeleton.conversation !== 0) return;
      const mine = counts && counts.path === skeleton.path && counts.tokens.length === skeleton.count ? counts : undefined;
      const total = view ? mine?.fileTotal : mine?.total;
      // Edited and not saved, the figures are the edited conversation's (the row says unsaved); the size stays the disk's.
      const bytes = edit?.dirty ? {} : { bytes: skeleton.bytes };
      // A view of a session's threads: the file's count (every thread's) moves by what the edits add or remove.
      const entry = entries.find((e) => e.path === openPath);
      if (view && entry?.messages !== undefined && (!edit?.dirty || viewBase?.path !== openPath)) viewBase = { path: openPath, count: skeleton.count, messages: entry.messages };
      const viewMessages = view && viewBase?.path === openPath ? { messages: viewBase.messages + skeleton.count - viewBase.count } : {};
      const next = entries.map((e) => (e.path === openPath ? { ...e, ...(view ? viewMessages : { messages: skeleton.count, conversations: 1, estimated: false }), ...bytes, ...(total !== undefined ? { tokens: total } : {}) } : e));
      if (next.some((e, i) => e !== entries[i] && (e.messages !== entries[i].messages || e.tokens !== entries[i].tokens || e.bytes !== entries[i].bytes || e.estimated !== entries[i].estimated || e.conversations !== entries[i].conversations))) set({ entries: next });
    },
    ensureRows: (start, end) => {
      const { openPath, skeleton, pages, generation } = get();
      if (!openPath || !skeleton) return;
      const ends = get().provisional?.ends;
      for (let page = Math.floor(start / PAGE_SIZE); page * PAGE_SIZE < Math.min(end, skeleton.count); page++) {
        const key = `${generation}:${page}`;
        if (pages.has(page) || inflight.has(key)) continue;
        // Rows between the ends are there once the file is read: asking now would wait for that anyway.
        if (ends && get().opening) continue;
        inflight.add(key);
        const ask = { path: openPath, conversation: get().openConversationIndex, start: page * PAGE_SIZE, count: PAGE_SIZE };
        const keep = (rows: Row[], counted: boolean) => {
          if (get().generation !== generation || (!counted && get().pages.has(page))) return;
          const next = new Map(get().pages);
          next.set(page, rows);
          set({ pages: next });
        };
        // While the whole conversation is being counted, the rows on screen are counted first; their content
        // comes at once, not after the count (the counter is busy with the rest).
        const counting = !get().counts && get().countProgress !== undefined && get().provisional === undefined;
        const plain = request('conversation:rows', ask).then(({ rows }) => keep(rows, false));
        const counted = counting ? request('conversation:rows', { ...ask, model: get().model }).then(({ rows }) => keep(rows, true)) : undefined;
        rowsComing.add(plain);
        Promise.all([plain, counted])
          .catch(() => {})
          .finally(() => {
            inflight.delete(key);
            rowsComing.delete(plain);
          });
      }
    },
  };
};
