import { app, BrowserWindow, dialog, ipcMain, Menu } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, type Runtime } from '../server/runtime.js';
import { pushEvent, registerIpc } from './ipc.js';
import { buildMenu } from './menu.js';
import { registerAppScheme, serveRenderer } from './platform/app-protocol.js';
import { createMainWindow } from './window.js';
import { safeStorageSecrets } from './platform/safe-storage-secrets.js';

// Wiring only: the engine, handlers and watcher live in their own modules.
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..');
const startDir = process.env.INSPECTOR_DIR ?? process.argv.slice(2).find((a) => !a.startsWith('-')) ?? process.cwd();
let runtime: Runtime;
let win: BrowserWindow | undefined;

registerAppScheme();
app.enableSandbox();

function open(dir: string): void {
  const previous = runtime;
  runtime = createRuntime({ dirs: [dir], mode: 'electron', settingsFile: join(app.getPath('userData'), 'settings.json'), historyDir: join(app.getPath('userData'), 'history'), secrets: safeStorageSecrets(join(app.getPath('userData'), 'secrets')) });
  runtime.onEvent = (event, payload) => pushEvent(win, event, payload);
  void previous?.close();
  win?.webContents.reload();
}

void app.whenReady().then(() => {
  serveRenderer(join(dist, 'renderer'));
  open(startDir);
  registerIpc(ipcMain, () => runtime.handlers);
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
  void runtime?.close();
  app.quit();
});
