import { app, BrowserWindow, ipcMain, Menu } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBackend } from '../service/backend/backend.js';
import { FolderShell } from '../service/folders/folder-shell.js';
import { RecentFolders } from '../service/folders/recent-folders.js';
import { openChosen, openFileFolder, pickFolder } from './folders/electron-folders.js';
import { pushEvent, registerIpc } from './ipc.js';
import { buildMenu } from './menu.js';
import { registerAppScheme, serveRenderer } from './platform/app-protocol.js';
import { createMainWindow } from './window.js';
import { safeStorageSecrets } from './platform/safe-storage-secrets.js';

// Wiring only: the engine, handlers and watcher live in their own modules.
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..');
const startDir = process.env.INSPECTOR_DIR ?? process.argv.slice(2).find((a) => !a.startsWith('-')) ?? process.cwd();
let shell: FolderShell;
let win: BrowserWindow | undefined;

registerAppScheme();
app.enableSandbox();

function startShell(): FolderShell {
  const data = app.getPath('userData');
  // Documents, parsing and counting live on the service's thread: this one only routes and draws menus.
  const start = (dir: string) => startBackend({ dirs: [dir], mode: 'electron', settingsFile: join(data, 'settings.json'), historyDir: join(data, 'history'), tokenCacheDir: join(data, 'token-cache') }, safeStorageSecrets(join(data, 'secrets')));
  const s = new FolderShell(startDir, { start, scope: null, pick: () => pickFolder(win), recents: new RecentFolders(join(data, 'recent-folders.json')) });
  s.onEvent = (event, payload) => {
    // Every window of the app is told (a change made in one is news in the others).
    for (const w of BrowserWindow.getAllWindows()) pushEvent(w, event, payload);
    if (event === 'folder:opened') setMenu();
  };
  return s;
}

/** The menu, with the recent folders as they are now (rebuilt when another folder opens). */
function setMenu(): void {
  Menu.setApplicationMenu(
    buildMenu({
      openFile: () => void openFileFolder(shell),
      recent: shell.recentFolders(),
      openRecent: (path) => void openChosen(shell, path),
      reload: () => win?.webContents.reload(),
      command: (id) => pushEvent(win, 'command:run', { id }),
    }),
  );
}

void app.whenReady().then(() => {
  serveRenderer(join(dist, 'renderer'));
  shell = startShell();
  registerIpc(ipcMain, shell);
  setMenu();
  win = createMainWindow(join(dist, 'preload', 'index.cjs'));
});

app.on('window-all-closed', () => {
  void shell?.close();
  app.quit();
});
