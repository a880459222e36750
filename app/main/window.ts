import { BrowserWindow, shell } from 'electron';
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
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
