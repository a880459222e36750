import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';
import type { UiPrefs } from '../../shared/contract.js';
import { request } from '../api/client.js';

/** Pane sizes, in CSS pixels; remembered in this browser profile (Electron's or the browser's). */
export interface Layout {
  sidebar: number;
  panel: number;
  detail: number;
}

const KEY = 'inspector.layout';
export const DEFAULT_LAYOUT: Layout = { sidebar: 260, panel: 300, detail: 320 };
const LIMITS: Record<keyof Layout, [number, number]> = { sidebar: [160, 640], panel: [200, 720], detail: [80, 1400] };

export const clampLayout = (key: keyof Layout, px: number): number => Math.round(Math.max(LIMITS[key][0], Math.min(LIMITS[key][1], px)));

function remembered(): Layout {
  try {
    const kept = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null') as Partial<Layout> | null;
    const out = { ...DEFAULT_LAYOUT };
    for (const k of Object.keys(out) as Array<keyof Layout>) if (typeof kept?.[k] === 'number' && Number.isFinite(kept[k])) out[k] = clampLayout(k, kept[k]);
    return out;
  } catch {
    return { ...DEFAULT_LAYOUT };
  }
}

/** The message table's columns that take a width (the content column takes what is left). */
export type ColumnId = 'role' | 'tokens' | 'time' | 'category' | 'messageId';
export const DEFAULT_COLUMNS: Record<ColumnId, number> = { role: 110, tokens: 110, time: 150, category: 100, messageId: 76 };
const COLUMN_LIMITS: [number, number] = [44, 640];
const COLUMNS_KEY = 'inspector.columns';
const FOLD_KEY = 'inspector.detailCollapsed';
const TOKENS_KEY = 'inspector.tokensHidden';
/** Below this window width (a 1366 or 1400 px laptop) the tokens pane starts put away, unless the user chose to show it: at 1400 px with it the content column was some 260 px. */
const NARROW_WINDOW = 1440;

export const clampColumn = (px: number): number => Math.round(Math.max(COLUMN_LIMITS[0], Math.min(COLUMN_LIMITS[1], px)));

function rememberedColumns(): Record<ColumnId, number> {
  const out = { ...DEFAULT_COLUMNS };
  try {
    const kept = JSON.parse(globalThis.localStorage?.getItem(COLUMNS_KEY) ?? 'null') as Partial<Record<ColumnId, number>> | null;
    for (const k of Object.keys(out) as ColumnId[]) if (typeof kept?.[k] === 'number' && Number.isFinite(kept[k])) out[k] = clampColumn(kept[k]);
  } catch {
    // the defaults
  }
  return out;
}

function keep(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // Not remembered (storage full or off): the sizes hold for this session.
  }
}

function rememberedFold(): boolean {
  try {
    return globalThis.localStorage?.getItem(FOLD_KEY) === 'true';
  } catch {
    return false;
  }
}

export interface LayoutSlice {
  layout: Layout;
  /** The table's column widths, remembered like the panes. */
  columnWidths: Record<ColumnId, number>;
  /** The detail pane folded to its header line (remembered). */
  detailCollapsed: boolean;
  /** The tokens pane put away, its width given to the table (remembered); the window panel still opens. */
  tokensHidden: boolean;
  setTokensHidden(hidden: boolean): void;
  resize(key: keyof Layout, px: number): void;
  /** A column's width; undefined puts it back to its default. */
  resizeColumn(id: ColumnId, px: number | undefined): void;
  setDetailCollapsed(collapsed: boolean): void;
  /** The sizes kept with the settings (they outlive this page's address: browser mode's port changes). */
  applyUiPrefs(ui: UiPrefs | undefined): void;
}

const KEEP_MS = 400;
let keepTimer: ReturnType<typeof setTimeout> | undefined;

/** A drag sends one write when it pauses, not one per pixel. */
function keepWithSettings(s: AppState): void {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(() => {
    void request('settings:set', { ui: { layout: s.layout, columns: s.columnWidths, detailCollapsed: s.detailCollapsed } }).catch(() => {
      // Not kept beyond this page's storage: the sizes still hold here.
    });
  }, KEEP_MS);
}

export const createLayoutSlice: StateCreator<AppState, [], [], LayoutSlice> = (set, get) => ({
  layout: remembered(),
  columnWidths: rememberedColumns(),
  detailCollapsed: rememberedFold(),
  tokensHidden: (() => {
    try {
      const kept = globalThis.localStorage?.getItem(TOKENS_KEY);
      if (kept === 'true' || kept === 'false') return kept === 'true';
    } catch {
      // as if nothing were kept
    }
    // Not chosen yet: a laptop's window gives the messages the room (the pane is a tab away).
    return (globalThis.innerWidth ?? Infinity) < NARROW_WINDOW;
  })(),
  setTokensHidden: (tokensHidden) => {
    set({ tokensHidden });
    keep(TOKENS_KEY, tokensHidden);
  },
  resize: (key, px) => {
    const layout = { ...get().layout, [key]: clampLayout(key, px) };
    set({ layout });
    keep(KEY, layout);
    keepWithSettings(get());
  },
  resizeColumn: (id, px) => {
    const columnWidths = { ...get().columnWidths, [id]: px === undefined ? DEFAULT_COLUMNS[id] : clampColumn(px) };
    set({ columnWidths });
    keep(COLUMNS_KEY, columnWidths);
    keepWithSettings(get());
  },
  setDetailCollapsed: (detailCollapsed) => {
    set({ detailCollapsed });
    keep(FOLD_KEY, detailCollapsed);
    keepWithSettings(get());
  },
  applyUiPrefs: (ui) => {
    if (!ui) return;
    const layout = { ...get().layout };
    for (const k of Object.keys(layout) as Array<keyof Layout>) if (typeof ui.layout?.[k] === 'number') layout[k] = clampLayout(k, ui.layout[k]);
    const columnWidths = { ...get().columnWidths };
    for (const k of Object.keys(columnWidths) as ColumnId[]) if (typeof ui.columns?.[k] === 'number') columnWidths[k] = clampColumn(ui.columns[k]);
    set({ layout, columnWidths, detailCollapsed: ui.detailCollapsed ?? get().detailCollapsed });
  },
});
