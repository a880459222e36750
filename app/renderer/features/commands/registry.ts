import { FLAGS } from '../../../shared/contract.js';
import { useApp, type AppState } from '../../store/index.js';

export interface Command {
  id: string;
  label: string;
  /** Shown in the palette and menus. */
  shortcut?: string;
  /** Whether a key event triggers it. */
  matches?(e: KeyboardEvent): boolean;
  /** Plain-key shortcuts are ignored while typing; modifier ones work everywhere. */
  whileTyping?: boolean;
  enabled(s: AppState): boolean;
  run(s: AppState): void;
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;
const open = (s: AppState) => s.skeleton !== undefined;
const selected = (s: AppState) => open(s) && s.selected !== undefined;

/** Every command, once: the keyboard, the palette and the buttons all read this list. */
export const COMMANDS: Command[] = [
  { id: 'palette', label: 'Command palette', shortcut: 'Ctrl+K', whileTyping: true, matches: (e) => mod(e) && e.key.toLowerCase() === 'k', enabled: () => true, run: (s) => s.setPalette(!s.paletteOpen) },
  { id: 'save', label: 'Save', shortcut: 'Ctrl+S', whileTyping: true, matches: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 's', enabled: (s) => open(s), run: (s) => void s.save() },
  { id: 'undo', label: 'Undo', shortcut: 'Ctrl+Z', matches: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z', enabled: (s) => !!s.edit?.canUndo, run: (s) => void s.undo() },
  { id: 'redo', label: 'Redo', shortcut: 'Ctrl+Shift+Z', matches: (e) => mod(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || e.key.toLowerCase() === 'y'), enabled: (s) => !!s.edit?.canRedo, run: (s) => void s.redo() },
  { id: 'window', label: 'Toggle the window panel', shortcut: 'W', matches: (e) => !mod(e) && e.key.toLowerCase() === 'w', enabled: open, run: (s) => s.toggleWindow() },
  { id: 'search', label: 'Search messages', shortcut: '/', matches: (e) => e.key === '/', enabled: open, run: () => (document.querySelector('[data-testid="search"]') as HTMLInputElement | null)?.focus() },
  { id: 'edit', label: 'Edit the selected message', shortcut: 'E', matches: (e) => !mod(e) && e.key.toLowerCase() === 'e', enabled: selected, run: () => document.dispatchEvent(new CustomEvent('inspector:edit')) },
  { id: 'add-before', label: 'Add a message before the selected one', shortcut: 'Shift+N', matches: (e) => !mod(e) && e.shiftKey && e.key.toLowerCase() === 'n', enabled: selected, run: (s) => void addAt(s, s.selected!) },
  { id: 'add', label: 'Add a message after the selected one', shortcut: 'N', matches: (e) => !mod(e) && !e.shiftKey && e.key.toLowerCase() === 'n', enabled: open, run: (s) => void addAt(s, s.selected === undefined ? s.skeleton!.count : s.selected + 1) },
  { id: 'system', label: 'Insert a system prompt at the top', enabled: open, run: (s) => void s.applyEdit({ type: 'insert', index: 0, messages: [{ role: 'System', content: 'You are a helpful assistant.' }] }).then(() => s.select(0)) },
  { id: 'duplicate', label: 'Duplicate the selected or marked messages', shortcut: 'Ctrl+D', matches: (e) => mod(e) && e.key.toLowerCase() === 'd', enabled: (s) => s.targets().length > 0, run: (s) => void s.applyEdit({ type: 'duplicate', indexes: s.targets() }) },
  { id: 'delete', label: 'Delete the selected or marked messages', shortcut: 'Delete', matches: (e) => e.key === 'Delete', enabled: (s) => open(s) && s.targets().length > 0, run: (s) => s.requestDelete(s.targets()) },
  { id: 'move-up', label: 'Move the selected message up', shortcut: 'Alt+↑', matches: (e) => e.altKey && e.key === 'ArrowUp', enabled: (s) => selected(s) && s.selected! > 0, run: (s) => void moveSelected(s, -1) },
  { id: 'move-down', label: 'Move the selected message down', shortcut: 'Alt+↓', matches: (e) => e.altKey && e.key === 'ArrowDown', enabled: (s) => selected(s) && s.selected! < s.skeleton!.count - 1, run: (s) => void moveSelected(s, 1) },
  { id: 'revert', label: 'Revert to the file on disk', enabled: (s) => !!s.edit?.dirty, run: (s) => void s.revert() },
  { id: 'save-as', label: 'Save As…', shortcut: 'Ctrl+Shift+S', whileTyping: true, matches: (e) => mod(e) && e.shiftKey && e.key.toLowerCase() === 's', enabled: open, run: (s) => s.setSaveAsName(s.openPath?.replace(/(\.[^.]+)$/, '.copy$1')) },
  { id: 'history', label: 'Local history: earlier versions of this file', enabled: open, run: (s) => s.setDialog('history') },
  { id: 'compare', label: 'Compare with the file on disk', enabled: open, run: (s) => s.setDialog('compare') },
  { id: 'export-json', label: 'Export as JSON', enabled: open, run: (s) => void s.exportAs('json') },
  { id: 'export-yaml', label: 'Export as YAML', enabled: open, run: (s) => void s.exportAs('yaml') },
  { id: 'export-markdown', label: 'Export as a Markdown transcript', enabled: open, run: (s) => void s.exportAs('markdown') },
  { id: 'export-text', label: 'Export as plain text (role: content)', enabled: open, run: (s) => void s.exportAs('text') },
];

async function addAt(s: AppState, at: number): Promise<void> {
  if (await s.applyEdit({ type: 'insert', index: at, messages: [{ role: 'user', content: '' }] })) {
    useApp.getState().select(at);
    document.dispatchEvent(new CustomEvent('inspector:edit'));
  }
}

async function moveSelected(s: AppState, delta: number): Promise<void> {
  const i = s.selected!;
  if (await moveMessages(s, [i], i + delta)) useApp.getState().select(i + delta);
}

/** Moves messages (asking first when that can separate a tool call from its result). */
export async function moveMessages(s: AppState, indexes: number[], to: number): Promise<boolean> {
  const sk = s.skeleton!;
  const linked = indexes.some((i) => (sk.flags[i] & (FLAGS.toolCall | FLAGS.toolResult)) !== 0);
  if (linked && !window.confirm?.('Part of a tool exchange: moving can separate a call from its result. Move anyway?')) return false;
  return s.applyEdit({ type: 'move', indexes, to });
}

/** Runs the first enabled command bound to this key. */
export function handleCommandKey(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  const typing = !!t && (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || t.isContentEditable);
  const state = useApp.getState();
  for (const c of COMMANDS) {
    if (!c.matches?.(e) || (typing && !c.whileTyping) || !c.enabled(state)) continue;
    e.preventDefault();
    c.run(state);
    return true;
  }
  return false;
}
