/**
 * The commands, as data: one list for the renderer's shortcuts and palette and Electron's menus. What a
 * command does lives with the renderer (app/renderer/features/commands/registry.ts), keyed by these ids.
 */
export interface CommandInfo {
  id: string;
  label: string;
  /** Electron accelerator syntax; the palette shows it too. */
  accelerator?: string;
  menu?: 'File' | 'Edit' | 'View';
}

export const COMMAND_INFO: CommandInfo[] = [
  { id: 'palette', label: 'Command Palette…', accelerator: 'CmdOrCtrl+K', menu: 'View' },
  { id: 'save', label: 'Save', accelerator: 'CmdOrCtrl+S', menu: 'File' },
  { id: 'save-as', label: 'Save As…', accelerator: 'CmdOrCtrl+Shift+S', menu: 'File' },
  { id: 'revert', label: 'Revert to the File on Disk', menu: 'File' },
  { id: 'export-json', label: 'Export as JSON', menu: 'File' },
  { id: 'export-yaml', label: 'Export as YAML', menu: 'File' },
  { id: 'export-markdown', label: 'Export as a Markdown Transcript', menu: 'File' },
  { id: 'export-text', label: 'Export as Plain Text (role: content)', menu: 'File' },
  { id: 'history', label: 'Local History…', menu: 'File' },
  { id: 'undo', label: 'Undo', accelerator: 'CmdOrCtrl+Z', menu: 'Edit' },
  { id: 'redo', label: 'Redo', accelerator: 'CmdOrCtrl+Shift+Z', menu: 'Edit' },
  { id: 'edit', label: 'Edit the Selected Message', accelerator: 'E', menu: 'Edit' },
  { id: 'add', label: 'Add a Message After', accelerator: 'N', menu: 'Edit' },
  { id: 'add-before', label: 'Add a Message Before', accelerator: 'Shift+N', menu: 'Edit' },
  { id: 'system', label: 'Insert a System Prompt', menu: 'Edit' },
  { id: 'duplicate', label: 'Duplicate', accelerator: 'CmdOrCtrl+D', menu: 'Edit' },
  { id: 'delete', label: 'Delete', accelerator: 'Delete', menu: 'Edit' },
  { id: 'move-up', label: 'Move Up', accelerator: 'Alt+Up', menu: 'Edit' },
  { id: 'move-down', label: 'Move Down', accelerator: 'Alt+Down', menu: 'Edit' },
  { id: 'search', label: 'Search Messages', accelerator: '/', menu: 'View' },
  { id: 'window', label: 'Context Window Panel', accelerator: 'W', menu: 'View' },
  { id: 'compare', label: 'Compare with the File on Disk', menu: 'View' },
];

/** How a shortcut reads in the palette. */
export function shortcutLabel(accelerator: string | undefined): string | undefined {
  return accelerator?.replace('CmdOrCtrl', 'Ctrl').replace('Up', '↑').replace('Down', '↓');
}
