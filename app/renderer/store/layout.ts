import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

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

export interface LayoutSlice {
  layout: Layout;
  /** The detail pane folded to its header line. */
  detailCollapsed: boolean;
  resize(key: keyof Layout, px: number): void;
  setDetailCollapsed(collapsed: boolean): void;
}

export const createLayoutSlice: StateCreator<AppState, [], [], LayoutSlice> = (set, get) => ({
  layout: remembered(),
  detailCollapsed: false,
  resize: (key, px) => {
    const layout = { ...get().layout, [key]: clampLayout(key, px) };
    set({ layout });
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(layout));
    } catch {
      // Not remembered (storage full or off): the sizes hold for this session.
    }
  },
  setDetailCollapsed: (detailCollapsed) => set({ detailCollapsed }),
});
