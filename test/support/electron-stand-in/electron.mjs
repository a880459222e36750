/* global Response, Buffer, setTimeout */
/**
 * A faithful-enough stand-in for the parts of Electron's main-process API that dist/main/index.mjs uses.
 * It records what main does with them; scenario.mjs then drives the app through them and reports.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const record = { schemes: [], protocols: new Map(), ipc: new Map(), windows: [], menus: [], dialogs: [], openDialogs: [], external: [], sandbox: false, quit: false };

let readyResolve;
const ready = new Promise((r) => (readyResolve = r));

class App extends EventEmitter {
  whenReady() {
    return ready;
  }
  isReady() {
    return true;
  }
  enableSandbox() {
    record.sandbox = true;
  }
  getPath(name) {
    return `${process.env.STAND_IN_USER_DATA}/${name === 'userData' ? '' : name}`.replace(/\/$/, '');
  }
  getVersion() {
    return '0.0.0-stand-in';
  }
  quit() {
    record.quit = true;
  }
}
export const app = new App();

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    if (record.readyFired) throw new Error('registerSchemesAsPrivileged must be called before ready');
    record.schemes.push(...schemes);
  },
  handle(scheme, handler) {
    record.protocols.set(scheme, handler);
  },
};

export const net = {
  async fetch(url) {
    if (!url.startsWith('file://')) throw new Error(`net.fetch stand-in only serves file:// (got ${url})`);
    try {
      const body = await readFile(fileURLToPath(url));
      const type = url.endsWith('.html') ? 'text/html' : url.endsWith('.js') ? 'text/javascript' : url.endsWith('.css') ? 'text/css' : 'application/octet-stream';
      return new Response(body, { status: 200, headers: { 'content-type': type } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  },
};

export const ipcMain = {
  handle(channel, fn) {
    record.ipc.set(channel, fn);
  },
  on() {},
  removeHandler(channel) {
    record.ipc.delete(channel);
  },
};

class WebContents extends EventEmitter {
  constructor() {
    super();
    this.sent = [];
    this.session = { setPermissionRequestHandler: (fn) => (this.permissionHandler = fn) };
  }
  setWindowOpenHandler(fn) {
    this.windowOpenHandler = fn;
  }
  send(channel, payload) {
    this.sent.push({ channel, payload });
  }
  reload() {}
  isDestroyed() {
    return false;
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents();
    this.loaded = [];
    record.windows.push(this);
  }
  loadURL(url) {
    this.loaded.push(url);
    return Promise.resolve();
  }
  show() {
    this.shown = true;
  }
  isDestroyed() {
    return false;
  }
  static getAllWindows() {
    return record.windows;
  }
}

export const Menu = {
  buildFromTemplate(template) {
    return { template };
  },
  setApplicationMenu(menu) {
    record.menus.push(menu);
  },
};

export const dialog = {
  showMessageBoxSync(_win, options) {
    record.dialogs.push(options);
    return record.nextDialogChoice ?? 1;
  },
  async showOpenDialog(...args) {
    record.openDialogs.push(args.at(-1));
    return record.nextOpenDialog ?? { canceled: true, filePaths: [] };
  },
};

export const shell = {
  async openExternal(url) {
    record.external.push(url);
  },
};

// Reversible but not plain text, like the OS keychain's: good enough to tell encrypted from not.
export const safeStorage = {
  isEncryptionAvailable: () => true,
  encryptString: (s) => Buffer.from(`enc:${Buffer.from(s).toString('base64').split('').reverse().join('')}`),
  decryptString: (b) => Buffer.from(b.toString().slice(4).split('').reverse().join(''), 'base64').toString(),
};

export default { app, protocol, net, ipcMain, BrowserWindow, Menu, dialog, shell, safeStorage };

// Main registers its scheme at import time; the app becomes ready after that, then the scenario runs.
setTimeout(async () => {
  record.readyFired = true;
  readyResolve();
  const { runScenario } = await import('./scenario.mjs');
  const report = await runScenario(record);
  process.stdout.write('REPORT ' + JSON.stringify(report) + '\n');
  process.exit(0);
}, 50);
