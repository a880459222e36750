import { app, BrowserWindow, dialog, ipcMain, Menu } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBackend } from './backend/backend.js';
import { FolderShell } from './folders/folder-shell.js';
import { RecentFolders } from './folders/recent-folders.js';
import { conversationExtensions } from '../../src/core/formats/registry.js';
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
  const pick = async () => {
    const r = win ? await dialog.showOpenDialog(win, { properties: ['openDirectory'] }) : await dialog.showOpenDialog({ properties: ['openDirectory'] });
    return r.canceled ? undefined : r.filePaths[0];
  };
  const s = new FolderShell(startDir, { start, scope: null, pick, recents: new RecentFolders(join(data, 'recent-folders.json')) });
  s.onEvent = (event, payload) => pushEvent(win, event, payload);
  return s;
}

/** A folder the system dialog chose, opened after asking whether unsaved edits may go. */
async function openChosen(dir: string): Promise<void> {
  try {
    await shell.open(dir, false);
  } catch {
    const answer = await dialog.showMessageBox({ type: 'warning', buttons: ['Cancel', 'Discard and Open'], defaultId: 0, cancelId: 0, message: 'There are unsaved edits', detail: `Opening ${dir} discards them.` });
    if (answer.response === 1) await shell.open(dir, true);
  }
}

void app.whenReady().then(() => {
  serveRenderer(join(dist, 'renderer'));
  shell = startShell();
  registerIpc(ipcMain, shell);
  Menu.setApplicationMenu(
    buildMenu({
      openFile: async () => {
        const r = await dialog.showOpenDialog({ properties: ['openFile'], filters: [{ name: 'Conversations', extensions: conversationExtensions().map((e) => e.slice(1)) }] });
        if (r.canceled || !r.filePaths[0]) return;
        await openChosen(dirname(r.filePaths[0]));
      },
      reload: () => win?.webContents.reload(),
      command: (id) => pushEvent(win, 'command:run', { id }),
    }),
  );
  win = createMainWindow(join(dist, 'preload', 'index.cjs'));
});

app.on('window-all-closed', () => {
  void shell?.close();
  app.quit();
});
