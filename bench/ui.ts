// UI figures for `npm run bench` (where Chromium exists): open a generated history in the real app and drag
// the window panel's budget slider with the mouse, measuring each input's time to its paint and the frames.
// Printed only; never asserted.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { pathToFileURL } from 'node:url';
import { serviceWorkerUrl, startBackend } from '../app/service/backend/backend.js';
import { packageRoot } from '../app/service/package-root.js';
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
  const backend = startBackend({ dirs: [dir], mode: 'browser', historyDir: join(dir, '.history'), tokenCacheDir: join(dir, '.token-cache'), listingFile: join(dir, '.listing.json') }, undefined, url);
  if (backend.kind !== 'worker') return ['| (skipped: the built document service is missing; run npm run build first) | | | |'];
  const server = await startServer({ request: (channel, input) => backend.request(channel, input), staticDir });
  backend.onEvent = (e, p) => server.broadcast(e, p);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const lines: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
    // The baseline: what any viewer must do at least, in this run (read and JSON.parse the file, median of 3).
    const base: number[] = [];
    for (let k = 0; k < 3; k++) {
      const b = performance.now();
      JSON.parse(readFileSync(join(dir, 'big.json'), 'utf8'));
      base.push(performance.now() - b);
    }
    const baseline = base.sort((a, b) => a - b)[1];
    // The first rows and End as a user meets them (clicked as soon as listed, a fresh service) are met.ts's rows;
    // here the file is only opened for what follows.
    const t = Date.now();
    await page.click('[data-testid="file"]');
    await page.waitForSelector('[data-testid="row"]', { timeout: 120_000 });
    await page.focus('[data-testid="message-grid"]');
    await page.keyboard.press('End');
    await page.waitForSelector(`[data-testid="row"][data-index="${n - 1}"][aria-selected="true"]`, { timeout: 120_000 });
    await page.waitForSelector('[data-testid="reading-banner"]', { state: 'detached', timeout: 120_000 });
    lines.push(`| every row there (the whole file read) | ${Date.now() - t} ms | read + JSON.parse: ${baseline.toFixed(0)} ms | ${((Date.now() - t) / baseline).toFixed(2)}x |`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 600_000 });
    // What the renderer holds with every row placed (the file read, its last rows on screen), after a collection.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const fileBytes = statSync(join(dir, 'big.json')).size;
    lines.push(`| the renderer's JS heap, the file read and its last rows on screen (after a collection) | ${(usedSize / 1e6).toFixed(0)} MB | the file: ${(fileBytes / 1e6).toFixed(0)} MB | ${(usedSize / fileBytes).toFixed(2)}x (goal: the rows on screen and the per-message skeleton, not the file) |`);
    await page.keyboard.press('w');
    await page.waitForSelector('[data-testid="plan-totals"]');
    for (const strategy of ['dynamic-context-window', 'truncate', 'sliding-window']) {
      await page.selectOption('[data-testid="strategy"]', strategy);
      const key = strategy === 'sliding-window' ? 'windowSize' : 'contextLength';
      const r = await dragSlider(page, key);
      lines.push(`| slider drag, ${strategy}: input to its paint (${r.latency.n} inputs) | median ${r.latency.median} ms | p95 ${r.latency.p95} ms | max ${r.latency.max} ms (goal p95 ≤ 2 frames, 33.3 ms at 60 Hz) |`);
      lines.push(`| the same drag: frame times (${r.frames.n} frames) | median ${r.frames.median} ms | p95 ${r.frames.p95} ms | max ${r.frames.max} ms |`);
    }
  } finally {
    await browser.close();
    await server.close();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

interface Figures {
  n: number;
  median: string;
  p95: string;
  max: string;
}

function figures(xs: number[]): Figures {
  const a = xs.slice().sort((x, y) => x - y);
  const at = (q: number) => (a.length ? a[Math.min(a.length - 1, Math.floor(q * a.length))].toFixed(1) : '-');
  return { n: a.length, median: at(0.5), p95: at(0.95), max: at(1) };
}

/**
 * A drag as a hand makes it: the mouse held on the slider's thumb and moved across it, a move every 16 ms
 * (trusted input events, which the page cannot tell from a user's). For each `input` event, the time from the
 * event to the end of the frame that paints its result (a task queued from the next frame's callback runs after
 * that frame's paint); and every frame's length while the drag lasts.
 */
async function dragSlider(page: Page, key: string): Promise<{ latency: Figures; frames: Figures }> {
  // A string, not a function: the bench's transpiler would wrap a function in helpers the page lacks.
  await page.evaluate(`(() => {
    const w = window;
    w.__latency = []; w.__frames = []; w.__dragging = true;
    const slider = document.querySelector('[data-testid="slider-${key}"]');
    if (!slider.__measured) {
      slider.__measured = true;
      // Captured on the slider: before React's listener at the root renders the step.
      slider.addEventListener('input', (e) => {
        const t0 = e.timeStamp;
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => w.__latency.push(performance.now() - t0);
          ch.port2.postMessage(0);
        });
      }, { capture: true });
    }
    let last = performance.now();
    const frame = (now) => { w.__frames.push(now - last); last = now; if (w.__dragging) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  })()`);
  const box = await page.locator(`[data-testid="slider-${key}"]`).boundingBox();
  if (!box) throw new Error(`the slider ${key} is not on the page`);
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 2, y);
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) {
    await page.mouse.move(box.x + 2 + ((box.width - 4) * i) / 60, y);
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  await page.mouse.up();
  const r = (await page.evaluate(`(() => { window.__dragging = false; return { latency: window.__latency, frames: window.__frames.slice(1) }; })()`)) as { latency: number[]; frames: number[] };
  await new Promise((resolve) => setTimeout(resolve, 300));
  const late = (await page.evaluate('window.__latency')) as number[];
  return { latency: figures(late.length > r.latency.length ? late : r.latency), frames: figures(r.frames) };
}
