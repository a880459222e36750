// Big files as a user meets them, in Chromium: `serve` started on a folder (the real bin, a fresh state folder),
// the page loaded, the file clicked as soon as the sidebar lists it (its details, the catalog and the search index
// still being made), then the time to its first rows on screen, and from End to the last message's text on screen.
// Beside a baseline measured in the same run; printed, never asserted.
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { serve } from '../e2e/support/serve.js';
import { packageRoot } from '../app/service/package-root.js';
import type { Message } from '../src/core/index.js';
import { claudeCodeLines } from './app.js';
import { realisticHistory } from './corpus.js';
import { streamedParse } from './huge.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MB = 1024 * 1024;

/** As Python's `json.dump(history, f, indent=4)` writes it: four spaces, `": "`, every non-ASCII character escaped. */
export function pythonJson(messages: readonly Message[]): string {
  return JSON.stringify(messages, null, 4).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A swarms history of `n` messages of real text, each cut to `cap` characters (216,296 of them make 100 MB). */
export function swarmsHistory(n: number, cap = 520): Message[] {
  return realisticHistory(n, 5).map((m) => {
    if (typeof m.content !== 'string' || m.content.length <= cap) return m;
    // Never between the halves of an astral character.
    const cut = /[\ud800-\udbff]/.test(m.content[cap - 1]) ? cap - 1 : cap;
    return { ...m, content: m.content.slice(0, cut) };
  });
}

function median(xs: number[]): number {
  return xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** What any viewer pays at least, in this run: the file read and JSON.parse'd (median of 3). */
function readAndParse(file: string): number {
  return median(
    [0, 1, 2].map(() => {
      const t = performance.now();
      JSON.parse(readFileSync(file, 'utf8'));
      return performance.now() - t;
    }),
  );
}

/** The floor for a file too big for one string: every line read and JSON.parse'd, streamed (median of 3). */
export function medianStreamedParse(file: string, runs = 3): number {
  return median(Array.from({ length: runs }, () => streamedParse(file)));
}

interface Met {
  firstRows: number;
  endPressedAt: number;
  lastShown: number;
  /** Where End left the page when the last message never showed. */
  instead?: string;
}

/**
 * In a fresh `serve` of `dir`: `name` clicked as soon as the sidebar lists it; the first row on screen; End pressed
 * at once; the last message's text (`lastText`) on screen in the detail pane.
 */
async function meet(dir: string, name: string, lastText: string, endTimeout = 600_000): Promise<Met> {
  const served = await serve(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const page: Page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    if (process.env.MET_TRACE) await traceRequests(page);
    await page.goto(served.url);
    await page.waitForSelector(`[data-testid="file"][data-path="${name}"]`, { timeout: 120_000 });
    // MET_PROFILE=FILE: the page's CPU profile from the click to the first rows, for Chrome's DevTools.
    const cdp = process.env.MET_PROFILE ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const t = performance.now();
    await page.click(`[data-testid="file"][data-path="${name}"]`);
    await page.waitForFunction(() => /\w/.test(document.querySelector('[data-testid="row"][data-index="0"] .col-preview')?.textContent ?? ''), undefined, { timeout: 300_000, polling: 'raf' });
    const firstRows = performance.now() - t;
    if (cdp) writeFileSync(process.env.MET_PROFILE!, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    await page.focus('[data-testid="message-grid"]');
    const end = performance.now();
    await page.keyboard.press('End');
    try {
      await page.waitForFunction((text) => document.querySelector('#detail')?.textContent?.includes(text), lastText, { timeout: endTimeout, polling: 'raf' });
    } catch {
      // Never there: what the page showed instead is said.
      const shown = await page.evaluate(() => document.querySelector('[data-testid="conv-title"]')?.textContent ?? '');
      return { firstRows, endPressedAt: end - t, lastShown: NaN, instead: shown };
    }
    return { firstRows, endPressedAt: end - t, lastShown: performance.now() - end };
  } finally {
    if (process.env.MET_TRACE) console.log(((await browser.contexts()[0]?.pages()[0]?.evaluate('window.__trace').catch(() => [])) as string[]).join('\n'));
    await browser.close();
    await served.stop();
  }
}

const ms = (x: number) => x.toFixed(0);

/** MET_TRACE=1: every request the page sends over its socket, when it went and when its answer came (ms since the click). */
async function traceRequests(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const trace = (window.__trace = []);
    const sent = new Map();
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      const m = JSON.parse(data);
      sent.set(m.id, { at: performance.now(), what: m.channel + ' ' + JSON.stringify(m.input).slice(0, 90) });
      return send.call(this, data);
    };
    addEventListener('message', () => {}, true);
    const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
    Object.defineProperty(WebSocket.prototype, 'onmessage', { set(f) { desc.set.call(this, (e) => { const m = JSON.parse(String(e.data)); const s = sent.get(m.id); if (s) trace.push(Math.round(s.at) + ' → ' + Math.round(performance.now()) + ' (' + String(e.data).length + ' B) ' + s.what); else trace.push(Math.round(performance.now()) + ' event ' + m.event + ' ' + String(e.data).length + ' B'); f(e); }); }, get() { return desc.get.call(this); } });
    document.addEventListener('click', () => trace.push(Math.round(performance.now()) + ' click'), true);
    document.addEventListener('keydown', (e) => trace.push(Math.round(performance.now()) + ' key ' + e.key), true);
  })()`);
}

/** A 100 MB swarms history written as Python writes it, and a 1 GB Claude Code session, met as a user meets them. */
export async function metBench(quick: boolean, only?: 'swarms' | 'session'): Promise<string[]> {
  if (!existsSync(CHROMIUM)) return [`| (skipped: no Chromium at ${CHROMIUM}) | | | |`];
  if (!existsSync(join(packageRoot(), 'dist', 'renderer', 'index.html'))) return ['| (skipped: run npm run build first) | | | |'];
  const lines: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ci-met-'));
  try {
    if (only !== 'session') for (const line of await swarmsMet(dir, quick)) lines.push(line);
    if (only !== 'swarms') for (const line of await sessionMet(dir, quick ? 300 * MB : 1024 * MB)) lines.push(line);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

async function swarmsMet(dir: string, quick: boolean): Promise<string[]> {
  const n = quick ? 40_000 : 216_296;
  const messages = swarmsHistory(n);
  const last = `The last thing said in this history, after ${n - 1} others.`;
  messages[n - 1] = { ...messages[n - 1], role: 'assistant', content: last };
  writeFileSync(join(dir, 'history.json'), pythonJson(messages));
  const size = statSync(join(dir, 'history.json')).size;
  const base = readAndParse(join(dir, 'history.json'));
  const met = await meet(dir, 'history.json', last);
  const what = `${(size / 1e6).toFixed(0)} MB swarms history, ${n.toLocaleString('en')} messages, indent=4`;
  rmSync(join(dir, 'history.json'));
  return [
    `| ${what}: first rows on screen after the click (clicked as soon as listed) | ${ms(met.firstRows)} | read + JSON.parse: ${ms(base)} | ${(met.firstRows / base).toFixed(2)}x (goal ≤ 0.25x) |`,
    `| the same: End (pressed ${ms(met.endPressedAt)} ms after the click) → the last message's text on screen | ${ms(met.lastShown)} | read + JSON.parse: ${ms(base)} | ${(met.lastShown / base).toFixed(2)}x (goal ≤ 1.5x) |`,
  ];
}

/** A Claude Code session read in parts: End must reach its last line, in its last part. */
async function sessionMet(dir: string, bytes: number): Promise<string[]> {
  const file = join(dir, 'session.jsonl');
  const block = claudeCodeLines(realisticHistory(60_000, 5));
  const fd = openSync(file, 'w');
  let k = 0;
  for (let written = 0; written < bytes; k++) written += writeSync(fd, k === 0 ? block : block.replaceAll('"u-', `"c${k}-u-`));
  const last = `The last thing said in this session, after ${k} blocks.`;
  const parent = k - 1 === 0 ? 'u-59999' : `c${k - 1}-u-59999`;
  writeSync(fd, JSON.stringify({ type: 'assistant', uuid: 'the-end', parentUuid: parent, sessionId: 'bench', timestamp: '2026-12-01T00:00:00Z', message: { id: 'msg_end', role: 'assistant', content: [{ type: 'text', text: last }] } }) + '\n');
  closeSync(fd);
  const size = statSync(file).size;
  const base = medianStreamedParse(file, 1);
  const met = await meet(dir, 'session.jsonl', last, Math.max(60_000, 5 * base));
  const what = `${(size / 1024 / MB).toFixed(2)} GB Claude Code session`;
  return [
    `| ${what}: first rows on screen after the click | ${ms(met.firstRows)} | streamed parse of every line: ${ms(base)} | ${(met.firstRows / base).toFixed(3)}x |`,
    Number.isNaN(met.lastShown)
      ? `| the same: End (pressed ${ms(met.endPressedAt)} ms after the click) → the session's last message never shown (${met.instead} shown instead) | never | streamed parse of every line: ${ms(base)} | - (goal ≤ 1.5x) |`
      : `| the same: End (pressed ${ms(met.endPressedAt)} ms after the click) → the session's last message's text on screen | ${ms(met.lastShown)} | streamed parse of every line: ${ms(base)} | ${(met.lastShown / base).toFixed(2)}x (goal ≤ 1.5x) |`,
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, '/'))) {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  console.log('| what | ms | baseline, same run | ratio |');
  console.log('|---|---|---|---|');
  for (const line of await metBench(process.argv.includes('--quick'), only as 'swarms' | 'session' | undefined)) console.log(line);
}
