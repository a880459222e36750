/**
 * The commands, as data: one list for the renderer's shortcuts and palette and Electron's menus. What a
 * command does lives with the renderer (app/renderer/features/commands/registry.ts), keyed by these ids.
 */
export interface CommandInfo {
  id: string;
  label: string;
  /** Electron accelerator syntax; the palette shows it too, and the renderer's keys are matched from it. */
  accelerator?: string;
  /** Other keys the renderer takes for it (not in menus). */
  also?: string[];
  menu?: 'File' | 'Edit' | 'View';
}

export const COMMAND_INFO: CommandInfo[] = [
  { id: 'palette', label: 'Command Palette…', accelerator: 'CmdOrCtrl+K', menu: 'View' },
  { id: 'go-to', label: 'Go to Message…', accelerator: 'CmdOrCtrl+G', menu: 'View' },
  { id: 'open-folder', label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', menu: 'File' },
  { id: 'save', label: 'Save', accelerator: 'CmdOrCtrl+S', menu: 'File' },
  { id: 'save-as', label: 'Save As…', accelerator: 'CmdOrCtrl+Shift+S', menu: 'File' },
  { id: 'revert', label: 'Revert (Reload the File from Disk)', menu: 'File' },
  { id: 'export-json', label: 'Export as JSON', menu: 'File' },
  { id: 'export-yaml', label: 'Export as YAML', menu: 'File' },
  { id: 'export-markdown', label: 'Export as a Markdown Transcript', menu: 'File' },
  { id: 'export-text', label: 'Export as Plain Text (role: content)', menu: 'File' },
  { id: 'share', label: 'Share a Transcript (HTML or Markdown, Redacted)…', accelerator: 'CmdOrCtrl+Shift+E', menu: 'File' },
  { id: 'share-folder', label: 'Share Every Conversation in the Folder…', menu: 'File' },
  { id: 'secrets', label: 'Show Only Messages with Secrets or Personal Data', menu: 'View' },
  { id: 'redact-all', label: 'Redact Every Secret and Personal Datum Found', menu: 'Edit' },
  { id: 'history', label: 'Local History…', menu: 'File' },
  { id: 'undo', label: 'Undo', accelerator: 'CmdOrCtrl+Z', menu: 'Edit' },
  { id: 'redo', label: 'Redo', accelerator: 'CmdOrCtrl+Shift+Z', also: ['CmdOrCtrl+Y'], menu: 'Edit' },
  { id: 'edit', label: 'Edit the Selected Message', accelerator: 'E', menu: 'Edit' },
  { id: 'add', label: 'Add a Message After', accelerator: 'N', menu: 'Edit' },
  { id: 'add-before', label: 'Add a Message Before', accelerator: 'Shift+N', menu: 'Edit' },
  { id: 'system', label: 'Insert a System Prompt', menu: 'Edit' },
  { id: 'duplicate', label: 'Duplicate', accelerator: 'CmdOrCtrl+D', menu: 'Edit' },
  { id: 'delete', label: 'Delete', accelerator: 'Delete', menu: 'Edit' },
  { id: 'move-up', label: 'Move Up', accelerator: 'Alt+Up', menu: 'Edit' },
  { id: 'move-down', label: 'Move Down', accelerator: 'Alt+Down', menu: 'Edit' },
  { id: 'search', label: 'Search Messages', accelerator: '/', menu: 'View' },
  { id: 'next-match', label: 'Next Search Match (n in the transcript, Enter in the search box)', accelerator: 'F3', menu: 'View' },
  { id: 'prev-match', label: 'Previous Search Match (Shift+N in the transcript)', accelerator: 'Shift+F3', menu: 'View' },
  { id: 'search-all', label: 'Search All Conversations…', accelerator: 'CmdOrCtrl+Shift+F', menu: 'View' },
  { id: 'window', label: 'Context Window Panel', accelerator: 'W', menu: 'View' },
  { id: 'transcript', label: 'Read as a Transcript, or Back to the Table', accelerator: 'R', menu: 'View' },
  { id: 'tokens-pane', label: 'Show or Hide the Tokens Pane', accelerator: 'T', menu: 'View' },
  { id: 'compare', label: 'Compare with the File on Disk', menu: 'View' },
  { id: 'compare-files', label: 'Compare the Two Files Selected (Ctrl/Shift+click in the list)', menu: 'View' },
  { id: 'compare-branches', label: 'Compare Branches at the Selected Message', menu: 'View' },
  { id: 'sessions-or-files', label: 'List Sessions or Files in the Sidebar', menu: 'View' },
  { id: 'focus-list', label: 'Go to the Session List (or the File List)', accelerator: 'CmdOrCtrl+Shift+L', menu: 'View' },
  { id: 'usage', label: 'Usage and Cost over Every Session…', menu: 'View' },
  { id: 'overview', label: 'Overview of the Opened Folders (closes the conversation)', menu: 'View' },
];

export interface KeyChord {
  /** Ctrl, or Cmd on a Mac (either is taken everywhere). */
  mod: boolean;
  shift: boolean;
  alt: boolean;
  /** As `KeyboardEvent.key` names it (letters in lower case). */
  key: string;
}

const KEY_NAMES: Record<string, string> = { Up: 'ArrowUp', Down: 'ArrowDown', Left: 'ArrowLeft', Right: 'ArrowRight', Esc: 'Escape', Space: ' ', Plus: '+' };

/** An Electron accelerator ("CmdOrCtrl+Shift+S", "Alt+Up", "/") as the key event that presses it. */
export function parseAccelerator(accelerator: string): KeyChord {
  const parts = accelerator.split('+');
  // "Plus" is the key named +; a trailing empty part is a literal "+".
  const last = parts.pop() || '+';
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  const key = KEY_NAMES[last] ?? (last.length === 1 ? last.toLowerCase() : last);
  return { mod: mods.has('cmdorctrl') || mods.has('commandorcontrol') || mods.has('ctrl') || mods.has('control') || mods.has('cmd') || mods.has('command'), shift: mods.has('shift'), alt: mods.has('alt') || mods.has('option'), key };
}

/**
 * Whether a key event presses the chord. Shift must match for letters and named keys; for a symbol it is
 * how the layout types it ("/" is Shift+7 on a German keyboard), so it is not asked.
 */
export function chordMatches(chord: KeyChord, e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): boolean {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (key !== chord.key) return false;
  if ((e.ctrlKey || e.metaKey) !== chord.mod || e.altKey !== chord.alt) return false;
  const symbol = chord.key.length === 1 && chord.key.toLowerCase() === chord.key.toUpperCase();
  return symbol || e.shiftKey === chord.shift;
}

const MAC_KEYS: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→', Delete: '⌦', Escape: '⎋' };
const KEYS: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→' };

/** How a shortcut reads on this platform: ⇧⌘S on a Mac, Ctrl+Shift+S elsewhere. */
export function shortcutLabel(accelerator: string | undefined, mac = false): string | undefined {
  if (!accelerator) return undefined;
  const c = parseAccelerator(accelerator);
  const key = c.key.length === 1 ? c.key.toUpperCase() : c.key;
  if (mac) return `${c.alt ? '⌥' : ''}${c.shift ? '⇧' : ''}${c.mod ? '⌘' : ''}${MAC_KEYS[key] ?? key}`;
  return [c.mod && 'Ctrl', c.alt && 'Alt', c.shift && 'Shift', KEYS[key] ?? key].filter(Boolean).join('+');
}
