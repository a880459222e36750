import { Menu, type MenuItemConstructorOptions } from 'electron';
import { COMMAND_INFO } from '../shared/commands.js';

export interface MenuActions {
  openFile(): void;
  /** The folders opened before (newest first), for File › Open Recent. */
  recent: ReadonlyArray<{ path: string; name: string }>;
  openRecent(path: string): void;
  reload(): void;
  /** Runs a renderer command by id (the same registry as its shortcuts and palette). */
  command(id: string): void;
}

/** The opening commands, which head the File menu beside Open File and Open Recent (main's own). */
const OPENING = new Set(['open-folder']);

function items(menu: 'File' | 'Edit' | 'View', actions: MenuActions, which: (id: string) => boolean = () => true): MenuItemConstructorOptions[] {
  // Shortcuts are shown but handled by the renderer, so a key never fires twice or steals typing.
  return COMMAND_INFO.filter((c) => c.menu === menu && which(c.id)).map((c) => ({ label: c.label, accelerator: c.accelerator, registerAccelerator: false, click: () => actions.command(c.id) }));
}

export function buildMenu(actions: MenuActions): Menu {
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        ...items('File', actions, (id) => OPENING.has(id)),
        { label: 'Open File…', accelerator: 'CmdOrCtrl+Shift+O', click: actions.openFile },
        {
          label: 'Open Recent',
          enabled: actions.recent.length > 0,
          submenu: actions.recent.map((r) => ({ label: `${r.name} — ${r.path}`, click: () => actions.openRecent(r.path) })),
        },
        { type: 'separator' },
        ...items('File', actions, (id) => !OPENING.has(id)),
        { type: 'separator' },
        { label: 'Reload', accelerator: 'CmdOrCtrl+R', click: actions.reload },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { label: 'Edit', submenu: [...items('Edit', actions), { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    { label: 'View', submenu: [...items('View', actions), { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { role: 'togglefullscreen' }] },
  ];
  return Menu.buildFromTemplate(template);
}
