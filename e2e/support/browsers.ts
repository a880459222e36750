import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, _electron, type Browser, type ElectronApplication, type Page } from 'playwright-core';
import { ROOT } from '../../test/paths.js';
import { serve, type Served } from './serve.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The Electron binary: ELECTRON_PATH, or the one npm installed when its download was possible. */
export function electronBinary(): string | undefined {
  if (process.env.ELECTRON_PATH) return process.env.ELECTRON_PATH;
  const installed = join(ROOT, 'node_modules', 'electron', 'dist', 'electron');
  return existsSync(installed) ? installed : undefined;
}

export interface Session {
  page: Page;
  close(): Promise<void>;
}

export type Mode = 'browser' | 'electron';

/** Why a mode cannot run here, or undefined when it can. */
export function unavailable(mode: Mode): string | undefined {
  if (mode === 'browser') return existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (install Debian's chromium or set CHROMIUM_PATH)`;
  if (!electronBinary()) return 'no Electron binary (set ELECTRON_PATH; npm could not download one on this machine)';
  return undefined;
}

/** Opens the inspector on `dir`: browser mode through `serve`, or the Electron app. */
export async function openInspector(mode: Mode, dir: string, env: NodeJS.ProcessEnv = {}): Promise<Session> {
  if (mode === 'browser') {
    const served: Served = await serve(dir, env);
    // Scrollbars as a user's Chromium draws them (Playwright hides them by default): layout is tested with them.
    const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, ignoreDefaultArgs: ['--hide-scrollbars'] });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(served.url);
    return {
      page,
      close: async () => {
        await browser.close();
        await served.stop();
      },
    };
  }
  const app: ElectronApplication = await _electron.launch({
    executablePath: electronBinary(),
    args: [join(ROOT, 'dist', 'main', 'index.mjs'), dir],
    env: { ...process.env, ...env, INSPECTOR_DIR: dir },
  });
  const page = await app.firstWindow();
  await page.setViewportSize({ width: 1440, height: 900 });
  return { page, close: () => app.close() };
}

export interface Windows {
  pages: Page[];
  close(): Promise<void>;
}

/** Browser mode with `count` pages on one server: windows sharing its documents, as two tabs do. */
export async function openWindows(dir: string, count: number, env: NodeJS.ProcessEnv = {}): Promise<Windows> {
  const served: Served = await serve(dir, env);
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, ignoreDefaultArgs: ['--hide-scrollbars'] });
  const pages: Page[] = [];
  for (let k = 0; k < count; k++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(served.url);
    pages.push(page);
  }
  return {
    pages,
    close: async () => {
      await browser.close();
      await served.stop();
    },
  };
}
