import type { StateCreator } from 'zustand';
import type { RequestOutput } from '../../shared/contract.js';
import { request } from '../api/client.js';
import type { AppState } from './index.js';

export type TranscriptMessage = RequestOutput<'conversation:views'>['views'][number];

/** Messages fetched together as the transcript scrolls (a screen is a few of them, not hundreds as in the table). */
export const VIEW_PAGE = 40;
/** Pages kept: the ones around the place read; far ones are fetched again when scrolled back to. */
const PAGES_KEPT = 60;

/** Where the reader was in the view they left: the message at its top, and whether the selected one was in sight. */
export interface ReadingPlace {
  top: number;
  selectedInView: boolean;
  /** The conversation it is a place in (path and conversation): another one opened later is placed at its own message. */
  of?: string;
}

/** The key a reading place is kept under: the conversation shown. */
export const placeKey = (skeleton: { path: string; conversation: number } | undefined): string | undefined => (skeleton ? `${skeleton.path}\0${skeleton.conversation}` : undefined);

export interface TranscriptSlice {
  /** The open conversation is read as a transcript, not as the table. */
  transcriptOpen: boolean;
  /** Between the table and the transcript, each opening where the other was. */
  toggleTranscript(open?: boolean): void;
  /** Set as a view is left, taken by the other as it opens. */
  readingPlace: ReadingPlace | undefined;
  /** The messages' parts, by page, for the conversation shown (`viewsOf` names which, and of which version). */
  views: Map<number, TranscriptMessage[]>;
  viewsOf: string | undefined;
  ensureViews(start: number, end: number): void;
  /** The model calls the service read in the conversation shown (its turns), for the skeleton version `version`. */
  calls: { of: string; version: number; first: number[]; last: number[] } | undefined;
  ensureCalls(): void;
  /** The next (1) or previous (-1) message the search found, from the selected one, round the end. */
  goToMatch(step: 1 | -1): void;
}

/** Each view says where its reader is as they scroll: read when the view is toggled. */
let placeOf: () => ReadingPlace | undefined = () => undefined;
export function reportPlace(read: () => ReadingPlace | undefined): () => void {
  placeOf = read;
  return () => {
    if (placeOf === read) placeOf = () => undefined;
  };
}

const inflight = new Set<string>();

export const createTranscriptSlice: StateCreator<AppState, [], [], TranscriptSlice> = (set, get) => ({
  transcriptOpen: false,
  readingPlace: undefined,
  toggleTranscript: (open) => {
    const next = open ?? !get().transcriptOpen;
    if (next === get().transcriptOpen) return;
    const place = placeOf();
    set({ transcriptOpen: next, readingPlace: place && { ...place, of: placeKey(get().skeleton) } });
  },
  views: new Map(),
  viewsOf: undefined,
  calls: undefined,
  ensureCalls: () => {
    const { openPath, skeleton, openConversationIndex, calls } = get();
    if (!openPath || !skeleton || skeleton.version < 0) return;
    const of = `${openPath}\0${openConversationIndex}`;
    if (calls && calls.of === of && calls.version === skeleton.version) return;
    const ask = `calls\0${of}\0${skeleton.version}`;
    if (inflight.has(ask)) return;
    inflight.add(ask);
    request('conversation:calls', { path: openPath, conversation: openConversationIndex })
      .then(({ version, first, last }) => {
        const now = get();
        // Kept only while it is still the conversation shown (a later version asks again).
        if (now.openPath === openPath && now.openConversationIndex === openConversationIndex && now.skeleton?.version === version) set({ calls: { of, version, first, last } });
      })
      .catch(() => {})
      .finally(() => inflight.delete(ask));
  },
  ensureViews: (start, end) => {
    const { openPath, skeleton, generation, openConversationIndex } = get();
    if (!openPath || !skeleton || skeleton.version < 0) return;
    const key = `${generation}\0${openPath}\0${openConversationIndex}`;
    if (get().viewsOf !== key) set({ views: new Map(), viewsOf: key });
    for (let page = Math.floor(start / VIEW_PAGE); page * VIEW_PAGE < Math.min(end, skeleton.count); page++) {
      const ask = `${key}\0${page}`;
      if (get().views.has(page) || inflight.has(ask)) continue;
      inflight.add(ask);
      request('conversation:views', { path: openPath, conversation: openConversationIndex, start: page * VIEW_PAGE, count: VIEW_PAGE })
        .then(({ views }) => {
          if (get().viewsOf !== key) return;
          const next = new Map(get().views);
          next.set(page, views);
          // The pages farthest from this one go first.
          if (next.size > PAGES_KEPT) {
            const far = [...next.keys()].sort((a, b) => Math.abs(b - page) - Math.abs(a - page));
            for (const k of far.slice(0, next.size - PAGES_KEPT)) next.delete(k);
          }
          set({ views: next });
        })
        .catch(() => {})
        .finally(() => inflight.delete(ask));
    }
  },
  goToMatch: (step) => {
    const { searchMatches, selected } = get();
    if (!searchMatches || searchMatches.size === 0) return;
    const all = [...searchMatches].sort((a, b) => a - b);
    let to: number;
    if (selected === undefined) to = step === 1 ? all[0] : all[all.length - 1];
    else if (step === 1) to = all.find((i) => i > selected) ?? all[0];
    else to = [...all].reverse().find((i) => i < selected) ?? all[all.length - 1];
    get().select(to);
  },
});

/** A message of the pages fetched, if it is among them. */
export function viewAt(views: Map<number, TranscriptMessage[]>, i: number): TranscriptMessage | undefined {
  const page = views.get(Math.floor(i / VIEW_PAGE));
  const v = page?.[i % VIEW_PAGE];
  return v?.index === i ? v : undefined;
}
