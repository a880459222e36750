// Scrolling figures for `npm run bench` (where Chromium exists): a generated history of n messages opened in the
// real app (browser mode, the built document service on its own thread), scrolled with the mouse wheel in the
// table and then in the transcript from the same place, every frame's length measured while it scrolls.
// Printed only; never asserted. Alone: `npx tsx bench/scroll.ts 2000`.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { serviceWorkerUrl, startBackend } from '../app/service/backend/backend.js';
import { packageRoot } from '../app/service/package-root.js';
import { startServer } from '../app/server/server.js';
import { serializeConversation } from '../src/core/index.js';
import { realisticHistory } from './corpus.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Wheel steps per view, a step every 16 ms (about two seconds of a hand on the wheel). */
const STEPS = 120;
const STEP_PX = 400;
/** A frame at 60 Hz. */
const FRAME = 1000 / 60;

export async function scrollBench(n: number): Promise<string[]> {
  const staticDir = join(packageRoot(), 'dist', 'renderer');
  if (!existsSync(CHROMIUM)) return [`| (skipped: no Chromium at ${CHROMIUM}) | | | |`];
  if (!existsSync(join(staticDir, 'index.html'))) return ['| (skipped: run npm run build first) | | | |'];
  const dir = mkdtempSync(join(tmpdir(), 'ci-scrollbench-'));
  writeFileSync(join(dir, 'big.json'), serializeConversation(realisticHistory(n, 11), { format: 'json' }));
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
    await page.click('[data-testid="file"]');
    await page.waitForSelector('[data-testid="row"]', { timeout: 120_000 });
    await page.waitForSelector('[data-testid="reading-banner"]', { state: 'detached', timeout: 600_000 });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 600_000 });
    // From the middle of the history down: neither end's rows are cached from the opening.
    const middle = Math.floor(n / 2);
    await page.keyboard.press('Control+k');
    await page.fill('[data-testid="palette-input"]', `#${middle}`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="row"][data-index="${middle}"][aria-selected="true"]`, { timeout: 60_000 });
    const table = await wheel(page, '[data-testid="grid-body"]');
    // The transcript opens where the table was left; the wheel goes on from the same middle.
    await page.click('[data-testid="view-table"]');
    await page.keyboard.press('Control+k');
    // (the message after the middle: a "go to" the selection is at already moves nothing)
    await page.fill('[data-testid="palette-input"]', `#${middle + 1}`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="row"][data-index="${middle + 1}"][aria-selected="true"]`, { timeout: 60_000 });
    await page.click('[data-testid="view-transcript"]');
    await page.waitForSelector(`[data-testid="tx-message"][data-index="${middle + 1}"]`, { timeout: 60_000 });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    const transcript = await wheel(page, '[data-testid="transcript"]');
    const row = (what: string, f: Figures, moved: number) => `| ${what}, ${n.toLocaleString('en')} messages: frame times (${f.n} frames, ${STEPS} wheel steps of ${STEP_PX} px, ${moved.toLocaleString('en')} px scrolled) | median ${f.median.toFixed(1)} ms | p95 ${f.p95.toFixed(1)} ms | max ${f.max.toFixed(1)} ms |`;
    lines.push(row('table', table.frames, table.moved));
    lines.push(row('transcript', transcript.frames, transcript.moved));
    const beside = (transcript.frames.p95 - table.frames.p95) / FRAME;
    lines.push(`| transcript beside the table | p95 ${beside >= 0 ? '+' : ''}${beside.toFixed(2)} frames | | (goal: ≤ 2 frames, ${(2 * FRAME).toFixed(1)} ms at 60 Hz) |`);
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
  median: number;
  p95: number;
  max: number;
}

function figures(xs: number[]): Figures {
  const a = xs.slice().sort((x, y) => x - y);
  const at = (q: number) => (a.length ? a[Math.min(a.length - 1, Math.floor(q * a.length))] : NaN);
  return { n: a.length, median: at(0.5), p95: at(0.95), max: at(1) };
}

/**
 * The wheel turned over a scrolling element as a hand turns it (trusted input events, a step every 16 ms), and
 * every frame's length while it scrolls and until it settles; how far it went.
 */
async function wheel(page: Page, selector: string): Promise<{ frames: Figures; moved: number }> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on the page`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // A string, not a function: the bench's transpiler would wrap a function in helpers the page lacks.
  const from = (await page.evaluate(`(() => {
    const w = window;
    w.__frames = []; w.__scrolling = true;
    let last = performance.now();
    const frame = (now) => { w.__frames.push(now - last); last = now; if (w.__scrolling) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
    return document.querySelector('${selector}').scrollTop;
  })()`)) as number;
  for (let i = 0; i < STEPS; i++) {
    await page.mouse.wheel(0, STEP_PX);
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  const r = (await page.evaluate(`(() => { window.__scrolling = false; return { frames: window.__frames.slice(1), top: document.querySelector('${selector}').scrollTop }; })()`)) as { frames: number[]; top: number };
  return { frames: figures(r.frames), moved: Math.round(r.top - from) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = Number(process.argv[2] ?? 200_000);
  console.log('| what | median | p95 | max |');
  console.log('|---|---|---|---|');
  for (const line of await scrollBench(n)) console.log(line);
}
