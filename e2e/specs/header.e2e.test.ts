// The conversation header as a user meets it on a laptop's window (1100×700) and a desktop's (1440×900): two lines
// that leave the table at least 12 rows in every session of the examples and the fixtures; the forks of a session
// with a rewind as a navigator; each turn's bar a click away from its first row; and no serious accessibility fault.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { axeViolations } from '../support/axe.js';
import { CHROMIUM, unavailable } from '../support/browsers.js';
import { cliJson } from '../support/formats-session.js';
import { serve, type Served } from '../support/serve.js';
import { cpSync } from 'node:fs';
import { writeRewindSession } from '../support/rewind-session.js';

const SHOTS = '/tmp/shots-header';
const LAPTOP = { width: 1100, height: 700 };
const DESKTOP = { width: 1440, height: 900 };

const reason = unavailable('browser');

describe.skipIf(reason !== undefined)('a header that stays small (browser)', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'], ignoreDefaultArgs: ['--hide-scrollbars'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openOn(dir: string, viewport = LAPTOP): Promise<{ page: InspectorPage; served: Served; close(): Promise<void> }> {
    const served = await serve(dir);
    const context = await browser.newContext({ viewport });
    const p = await context.newPage();
    await p.goto(served.url);
    const page = new InspectorPage(p);
    await page.ready();
    return {
      page,
      served,
      close: async () => {
        await context.close();
        await served.stop();
      },
    };
  }

  /** Rows drawn wholly inside the table's scrolled area, and how many rows of that height it has room for. */
  const tableRoom = (p: Page) =>
    p.evaluate(() => {
      const body = document.querySelector<HTMLElement>('[data-testid="grid-body"]')!;
      const box = body.getBoundingClientRect();
      const bottom = box.top + body.clientHeight;
      const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="row"]')];
      const height = rows[0]?.getBoundingClientRect().height ?? 28;
      const shown = rows.filter((r) => {
        const b = r.getBoundingClientRect();
        return b.top >= box.top - 0.5 && b.bottom <= bottom + 0.5;
      }).length;
      return { shown, room: Math.floor(body.clientHeight / height), total: Number(document.querySelector('[data-testid="message-grid"]')?.getAttribute('aria-rowcount') ?? 0), windowOpen: !!document.querySelector('[data-testid="toggle-window"][aria-pressed="true"]') };
    });

  /** Every session of a folder opened in turn at 1100×700: the table shows 12 rows (or all of a shorter one) and has room for 12. */
  async function twelveRows(dir: string, name: string) {
    const { page, close } = await openOn(dir);
    const short: string[] = [];
    let opened = 0;
    try {
      const files = await page.files();
      for (const f of files) {
        if ('error' in f) continue;
        await page.open(f.path);
        if (await page.page.$('[data-testid="open-error"]')) continue;
        // A conversation with no messages says so in the table: its room is measured all the same.
        const drawn = await page.page.waitForSelector('[data-testid="row"], [data-testid="grid-body"] .empty', { timeout: 30_000 }).catch(() => null);
        if (!drawn) {
          short.push(`${f.path}: no table`);
          continue;
        }
        const r = await tableRoom(page.page);
        expect(r.windowOpen).toBe(false);
        opened++;
        if (r.room < 12 || r.shown < Math.min(12, r.total)) short.push(`${f.path}: ${r.shown} of ${r.total} rows shown, room for ${r.room}`);
        if (/cart-rewind|b7e2c9d4[^/]*\.jsonl$|5e55a0d1[^/]*\.jsonl$|rollout-2026|debate_multi_agent/.test(f.path)) await page.page.screenshot({ path: join(SHOTS, `${name}-${f.path.replace(/[^\w.-]+/g, '_')}-1100.png`) });
      }
    } finally {
      await close();
    }
    expect(short).toEqual([]);
    return opened;
  }

  it('at 1100×700, every session of examples/ shows at least 12 table rows (window panel closed), and one of 24 rewinds and 10 sub-agent files', { timeout: 300_000 }, async () => {
    // The examples as they ship, and beside them a session whose forks and sub-agent files once filled the header.
    const dir = tempDir();
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    writeRewindSession(dir, 24, 10);
    expect(await twelveRows(dir, 'examples')).toBeGreaterThanOrEqual(16);
  });

  it('at 1100×700, every session of test/fixtures shows at least 12 table rows', { timeout: 600_000 }, async () => {
    // A copy: opening a session never writes to it, and the fixtures stay as they are whatever happens.
    const dir = tempDir();
    cpSync(FIXTURES, dir, { recursive: true });
    expect(await twelveRows(dir, 'fixtures')).toBeGreaterThanOrEqual(40);
  });

  it('a Claude Code session with a rewind: the fork navigator counts what the CLI counts, steps between forks and lists them', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'agents', 'claude-code', 'cart-rewind-compact.jsonl'), join(dir, 'cart-rewind-compact.jsonl'));
    cpSync(join(FIXTURES, 'formats', 'chatgpt', 'conversations.json'), join(dir, 'conversations.json'));
    const rewinds = writeRewindSession(dir, 24, 10);
    for (const viewport of [DESKTOP, LAPTOP]) {
      const { page, close } = await openOn(dir, viewport);
      const p = page.page;
      const size = `${viewport.width}`;
      try {
        await page.open('cart-rewind-compact.jsonl');
        const cli = cliJson('show', join(dir, 'cart-rewind-compact.jsonl'));
        const nav = p.locator('[data-testid="fork-nav"]');
        expect(Number(await nav.getAttribute('data-forks'))).toBe(cli.forks);
        // Since the compaction the rewind is behind: none on this path, the steps are off, the popover says why.
        expect(await nav.getAttribute('data-on-path')).toBe('0');
        expect(await p.isDisabled('[data-testid="fork-next-place"]')).toBe(true);
        // The whole session: the rewind is on the path now, and › goes to it.
        await p.click('[data-testid="show-whole"]');
        await p.waitForSelector('[data-testid="show-since-compaction"]');
        await p.waitForFunction(() => document.querySelector('[data-testid="fork-nav"]')?.getAttribute('data-on-path') === '1');
        expect(Number(await nav.getAttribute('data-forks'))).toBe(cli.forks);
        await p.click('[data-testid="fork-next-place"]');
        const at = Number(await p.getAttribute('[data-testid="row"][aria-selected="true"]', 'data-index'));
        expect(await p.textContent('[data-testid="fork-note"]')).toBe('fork 1/1');
        expect(await p.$(`[data-testid="row"][data-index="${at}"] [data-testid="fork-switch"]`)).not.toBeNull();
        await p.click('[data-testid="fork-list-toggle"]');
        await p.waitForSelector('[data-testid="fork-list"]');
        expect(await p.$$eval('[data-testid="fork-place"]', (els) => els.map((e) => Number(e.getAttribute('data-at'))))).toEqual([at]);
        await p.screenshot({ path: join(SHOTS, `forks-rewind-${size}.png`) });
        expect(await axeViolations(p)).toEqual([]);
        // Every branch, from the list; Esc closes it and leaves the focus where it was.
        await p.focus('[data-testid="show-branch-tree"]');
        await p.keyboard.press('Enter');
        await p.waitForSelector('[role="dialog"][aria-label="Every branch of this thread"]');
        await p.keyboard.press('Escape');
        await p.waitForSelector('[role="dialog"][aria-label="Every branch of this thread"]', { state: 'detached' });
        expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('show-branch-tree');
        await p.keyboard.press('Escape');
        await p.waitForSelector('[data-testid="fork-list"]', { state: 'detached' });
        expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('fork-list-toggle');

        // 24 rewinds, every one on the path: the CLI's count, stepped through and listed.
        await page.open(rewinds);
        const many = cliJson('show', join(dir, rewinds)).forks;
        expect(many).toBe(24);
        await p.waitForFunction((n) => document.querySelector('[data-testid="fork-nav"]')?.getAttribute('data-forks') === String(n), many);
        expect(await nav.getAttribute('data-on-path')).toBe('24');
        expect(await p.textContent('[data-testid="fork-note"]')).toBe('24 forks');
        await p.click('[data-testid="fork-next-place"]');
        await p.click('[data-testid="fork-next-place"]');
        await p.waitForFunction(() => document.querySelector('[data-testid="fork-note"]')?.textContent === 'fork 2/24');
        const second = Number(await p.getAttribute('[data-testid="row"][aria-selected="true"]', 'data-index'));
        expect(await p.textContent(`[data-testid="row"][data-index="${second}"] [data-testid="fork-switch"]`)).toContain('2/2');
        await p.click('[data-testid="fork-list-toggle"]');
        const places = await p.$$eval('[data-testid="fork-place"]', (els) => els.map((e) => Number(e.getAttribute('data-at'))));
        expect(places).toHaveLength(24);
        expect(places[1]).toBe(second);
        await p.click(`[data-testid="fork-place"][data-at="${places[20]}"]`);
        await p.waitForSelector(`[data-testid="row"][data-index="${places[20]}"][aria-selected="true"]`);
        expect(await p.textContent('[data-testid="fork-note"]')).toBe('fork 21/24');
        await p.screenshot({ path: join(SHOTS, `forks-24-rewinds-${size}.png`) });
        // Its ten sub-agent files: one menu, not ten chips.
        await p.click('[data-testid="thread-menu"]');
        expect(await p.$$eval('[data-testid="subagent-file"]', (els) => els.length)).toBe(10);
        expect(await axeViolations(p)).toEqual([]);
        await p.screenshot({ path: join(SHOTS, `threads-10-subagents-${size}.png`) });
        await p.keyboard.press('Escape');

        // An edited prompt and a regenerated answer (ChatGPT): two forks on the path, ‹ › step from one to the other.
        await page.open('conversations.json');
        await p.waitForFunction(() => document.querySelector('[data-testid="fork-nav"]')?.getAttribute('data-forks') === '2');
        await p.click('[data-testid="fork-next-place"]');
        await p.waitForFunction(() => document.querySelector('[data-testid="fork-note"]')?.textContent === 'fork 1/2');
        await p.click('[data-testid="fork-next-place"]');
        await p.waitForFunction(() => document.querySelector('[data-testid="fork-note"]')?.textContent === 'fork 2/2');
        expect(await p.isDisabled('[data-testid="fork-next-place"]')).toBe(true);
        await p.click('[data-testid="fork-prev-place"]');
        await p.waitForFunction(() => document.querySelector('[data-testid="fork-note"]')?.textContent === 'fork 1/2');
        await p.screenshot({ path: join(SHOTS, `forks-chatgpt-${size}.png`) });
      } finally {
        await close();
      }
    }
  });

  it('the turn strip: a bar per API call; a click selects its first row in view; the costliest turns listed first, each a jump', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    for (const viewport of [DESKTOP, LAPTOP]) {
      const { page, close } = await openOn(dir, viewport);
      const p = page.page;
      const size = `${viewport.width}`;
      try {
        const path = 'agents/codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';
        await page.open(path);
        // Since its compaction the rollout has made one call: the whole of it has four.
        await p.click('[data-testid="show-whole"]');
        await p.waitForSelector('[data-testid="show-since-compaction"]');
        await p.waitForFunction(() => document.querySelectorAll('[data-testid="turn-bar"]').length === 4, null, { timeout: 30_000 });
        const bars = await p.$$eval('[data-testid="turn-bar"]', (els) => els.map((e) => ({ first: Number(e.getAttribute('data-first')), label: e.getAttribute('aria-label') ?? '' })));
        expect(bars.length).toBeGreaterThanOrEqual(2);
        // Codex reports usage per call: the bars say so, without "≈".
        expect(bars.some((b) => !b.label.includes('estimated'))).toBe(true);
        const last = bars[bars.length - 1];
        await p.click(`[data-testid="turn-bar"][data-first="${last.first}"]`);
        await p.waitForSelector(`[data-testid="row"][data-index="${last.first}"][aria-selected="true"]`);
        expect(await p.getAttribute(`[data-testid="turn-bar"][data-first="${last.first}"]`, 'aria-current')).toBe('true');
        await p.screenshot({ path: join(SHOTS, `turns-codex-${size}.png`) });
        // By cost: the list is in the order of the figures it shows, and an entry selects its turn's first row.
        await p.click('[data-testid="turns-by-cost"]');
        await p.waitForSelector('[data-testid="turn-list"]');
        const entries = await p.$$eval('[data-testid="turn-entry"]', (els) => els.map((e) => ({ first: Number(e.getAttribute('data-first')), cost: Number((e.querySelector('.num')?.textContent ?? '').replace(/[^\d.]/g, '')) })));
        expect(entries.length).toBe(bars.length);
        for (let k = 1; k < entries.length; k++) expect(entries[k].cost).toBeLessThanOrEqual(entries[k - 1].cost);
        expect(await axeViolations(p)).toEqual([]);
        await p.screenshot({ path: join(SHOTS, `turns-by-cost-${size}.png`) });
        const pick = entries[entries.length - 1];
        await p.click(`[data-testid="turn-entry"][data-first="${pick.first}"]`);
        await p.waitForSelector(`[data-testid="row"][data-index="${pick.first}"][aria-selected="true"]`);

        // A swarms file has no usage: every bar is an estimate, and says so.
        await page.open('debate_multi_agent.json');
        await p.waitForSelector('[data-testid="turn-bar"]', { timeout: 30_000 });
        const labels = await p.$$eval('[data-testid="turn-bar"]', (els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
        expect(labels.every((l) => l.includes('≈') && l.includes('estimated'))).toBe(true);
        // Threads as a menu, notes folded: a Claude Code session with a sub-agent file.
        await page.open('agents/claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13.jsonl');
        await p.click('[data-testid="thread-menu"]');
        await p.waitForSelector('[data-testid="subagent-file"]');
        // The sub-agent's name is cut at its end, whole on hover.
        expect(await p.getAttribute('[data-testid="subagent-file"]', 'title')).toContain('agent-a3f9e1d2b7c40815');
        expect(await axeViolations(p)).toEqual([]);
        await p.screenshot({ path: join(SHOTS, `threads-menu-${size}.png`) });
        await p.keyboard.press('Escape');
        const notes = await p.$('[data-testid="header-notes"]');
        if (notes) {
          await notes.click();
          await p.waitForSelector('[data-testid="header-notes-panel"]');
          expect(await axeViolations(p)).toEqual([]);
          await p.screenshot({ path: join(SHOTS, `notes-${size}.png`) });
          // Notes are text alone: Esc still closes them, and the focus goes back to their button.
          await p.keyboard.press('Escape');
          await p.waitForSelector('[data-testid="header-notes-panel"]', { state: 'detached' });
          expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('header-notes');
        }
        // The header is two lines: figures, then controls (each about a line high at this width).
        const lines = await p.evaluate(() => {
          const h = document.querySelector('[data-testid="session-header"]')!.getBoundingClientRect().height;
          const t = document.querySelector('.toolbar')!.getBoundingClientRect().height;
          return { h, t };
        });
        expect(lines.h).toBeLessThan(34);
        if (viewport === DESKTOP) expect(lines.t).toBeLessThan(40);
      } finally {
        await close();
      }
    }
  });

  it('each figure of the header is shown whole or not at all: at a desktop and a laptop width, the window panel open or not', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    const { page, close } = await openOn(dir, DESKTOP);
    const p = page.page;
    try {
      await page.open('agents/claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13.jsonl');
      await p.waitForSelector('[data-testid="header-reported"]');
      for (const width of [DESKTOP.width, LAPTOP.width]) {
        await p.setViewportSize({ width, height: DESKTOP.height });
        for (const panel of [false, true]) {
          if (panel !== (await p.isVisible('[data-testid="window-panel"]'))) await p.keyboard.press('w');
          await p.waitForTimeout(300);
          const figures = await p.evaluate(() => {
            const box = document.querySelector('[data-testid="conv-figures"]')!.getBoundingClientRect();
            return [...document.querySelectorAll<HTMLElement>('[data-testid="conv-figures"] .fig')].map((f) => {
              const r = f.getBoundingClientRect();
              // On the header's line, or on the next one, which it hides.
              const shown = r.top < box.bottom - 0.5;
              return { text: f.textContent ?? '', shown, whole: !shown || (r.right <= box.right + 0.5 && r.left >= box.left - 0.5 && r.bottom <= box.bottom + 0.5) };
            });
          });
          const at = `${width} px, window panel ${panel ? 'open' : 'closed'}`;
          expect(figures.filter((f) => !f.whole), at).toEqual([]);
          // How much of the session is shown is always said; what is hidden is the last of the figures.
          expect(figures[0], at).toMatchObject({ shown: true });
          expect(figures.map((f) => f.shown).indexOf(false) === -1 || figures.slice(figures.map((f) => f.shown).indexOf(false)).every((f) => !f.shown), at).toBe(true);
          await p.screenshot({ path: join(SHOTS, `figures-${width}-${panel ? 'panel' : 'none'}.png`) });
        }
      }
    } finally {
      await close();
    }
  });
});
