// UI figures for `npm run bench` (where Chromium exists): open a generated history in the real app and drag
// the window panel's budget slider, measuring frames. Printed only; never asserted.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';
import { serviceWorkerUrl, startBackend } from '../app/main/backend/backend.js';
import { packageRoot } from '../app/server/package-root.js';
import { startServer } from '../app/server/server.js';
import { serializeConversation } from '../src/core/index.js';
import { realisticHistory } from './corpus.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function uiBench(n: number): Promise<string[]> {
  const staticDir = join(packageRoot(), 'dist', 'renderer');
  if (!existsSync(CHROMIUM)) return [`| (skipped: no Chromium at ${CHROMIUM}) | | | |`];
  if (!existsSync(join(staticDir, 'index.html'))) return ['| (skipped: run npm run build first) | | | |'];
  const dir = mkdtempSync(join(tmpdir(), 'ci-uibench-'));
  writeFileSync(join(dir, 'big.json'), serializeConversation(realisticHistory(n, 5), { format: 'json' }));
  // As `serve` runs it: the document service on its own thread (the built one), this thread serving the page.
  const url = serviceWorkerUrl(pathToFileURL(join(packageRoot(), 'dist', 'cli.mjs')).href);
  const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.token-cache') }, undefined, url);
  if (backend.kind !== 'worker') return ['| (skipped: the built document service is missing; run npm run build first) | | | |'];
  const server = await startServer({ request: (channel, input) => backend.request(channel, input), staticDir });
  backend.onEvent = (e, p) => server.broadcast(e, p);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const lines: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
    const t = Date.now();
    await page.click('[data-testid="file"]');
    await page.waitForSelector('[data-testid="row"]', { timeout: 120_000 });
    lines.push(`| first rows after the click, ${n.toLocaleString('en')} messages of real text | ${Date.now() - t} ms | | |`);
    await page.waitForSelector('[data-testid="reading-banner"]', { state: 'detached', timeout: 120_000 });
    lines.push(`| every row there (the whole file read) | ${Date.now() - t} ms | | |`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 600_000 });
    await page.keyboard.press('w');
    await page.waitForSelector('[data-testid="plan-totals"]');
    for (const strategy of ['dynamic-context-window', 'truncate', 'sliding-window']) {
      await page.selectOption('[data-testid="strategy"]', strategy);
      const key = strategy === 'sliding-window' ? 'windowSize' : 'contextLength';
      const r = await page.evaluate(async (k) => {
        const slider = document.querySelector(`[data-testid="slider-${k}"]`) as HTMLInputElement;
        const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        const max = Number(slider.max);
        const frames: number[] = [];
        let last = performance.now();
        for (let i = 0; i < 60; i++) {
          set.call(slider, String(Math.round((max * i) / 60)));
          slider.dispatchEvent(new Event('input', { bubbles: true }));
          await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
          const now = performance.now();
          frames.push(now - last);
          last = now;
        }
        frames.sort((a, b) => a - b);
        return { median: frames[30], p95: frames[57], max: frames[59] };
      }, key);
      lines.push(`| slider drag, ${strategy} (60 steps, 2 frames each) | median ${r.median.toFixed(1)} ms | p95 ${r.p95.toFixed(1)} ms | max ${r.max.toFixed(1)} ms (2 frames = 33.3 ms at 60 Hz) |`);
    }
  } finally {
    await browser.close();
    await server.close();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
