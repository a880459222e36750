import { app, BrowserWindow, dialog, ipcMain, Menu } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBackend, type Backend } from './backend/backend.js';
import { pushEvent, registerIpc } from './ipc.js';
import { buildMenu } from './menu.js';
import { registerAppScheme, serveRenderer } from './platform/app-protocol.js';
import { createMainWindow } from './window.js';
import { safeStorageSecrets } from './platform/safe-storage-secrets.js';

// Wiring only: the engine, handlers and watcher live in their own modules.
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..');
const startDir = process.env.INSPECTOR_DIR ?? process.argv.slice(2).find((a) => !a.startsWith('-')) ?? process.cwd();
let backend: Backend;
let win: BrowserWindow | undefined;

registerAppScheme();
app.enableSandbox();

function open(dir: string): void {
  const previous = backend;
  const data = app.getPath('userData');
  // Documents, parsing and counting live on the service's thread: this one only routes and draws menus.
  backend = startBackend({ dirs: [dir], mode: 'electron', settingsFile: join(data, 'settings.json'), historyDir: join(data, 'history'), tokenCacheDir: join(data, 'token-cache') }, safeStorageSecrets(join(data, 'secrets')));
  backend.onEvent = (event, payload) => pushEvent(win, event, payload);
  void previous?.close();
  win?.webContents.reload();
}

void app.whenReady().then(() => {
  serveRenderer(join(dist, 'renderer'));
  open(startDir);
  registerIpc(ipcMain, () => backend);
  Menu.setApplicationMenu(
    buildMenu({
      openFolder: async () => {
        const r = await dialog.showOpenDialog({ properties: ['openDirectory'] });
        if (!r.canceled && r.filePaths[0]) open(r.filePaths[0]);
      },
      openFile: async () => {
        const r = await dialog.showOpenDialog({ properties: ['openFile'], filters: [{ name: 'Conversations', extensions: ['json', 'yaml', 'yml'] }] });
        if (!r.canceled && r.filePaths[0]) open(dirname(r.filePaths[0]));
      },
      reload: () => win?.webContents.reload(),
      command: (id) => pushEvent(win, 'command:run', { id }),
    }),
  );
  win = createMainWindow(join(dist, 'preload', 'index.cjs'));
});

app.on('window-all-closed', () => {
  void backend?.close();
  app.quit();
});
