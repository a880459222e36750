import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openFolder(): void;
  openFile(): void;
  reload(): void;
}

export function buildMenu(actions: MenuActions): Menu {
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: actions.openFolder },
        { label: 'Open File…', accelerator: 'CmdOrCtrl+Shift+O', click: actions.openFile },
        { type: 'separator' },
        { label: 'Reload', accelerator: 'CmdOrCtrl+R', click: actions.reload },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
  ];
  return Menu.buildFromTemplate(template);
}
