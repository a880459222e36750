import { BrowserWindow, dialog, shell } from 'electron';
import { APP_ORIGIN, isAllowedNavigation, windowOptions } from './security.js';

/** The main window: sandboxed, no navigation away, no new windows, no permissions. */
export function createMainWindow(preloadPath: string): BrowserWindow {
  const win = new BrowserWindow(windowOptions(preloadPath));
  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    // Documentation links the user clicks open in their browser; the app never opens windows itself.
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (e, url) => {
    if (!isAllowedNavigation(url)) e.preventDefault();
  });
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  // Closing with unsaved edits asks first (the renderer's beforeunload says when there are some).
  contents.on('will-prevent-unload', (e) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'warning',
      buttons: ['Close without saving', 'Keep editing'],
      defaultId: 1,
      cancelId: 1,
      message: 'You have unsaved edits.',
      detail: 'Close without saving, or keep editing and save them first (Ctrl+S).',
    });
    if (choice === 0) e.preventDefault();
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
