import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ROOT } from '../../test/paths.js';

export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

export interface TranscriptItem {
  index: number;
  turn: number;
  fate?: string;
  selected: boolean;
  matched: boolean;
  /** Where it is drawn, relative to the transcript's visible top. */
  top: number;
  bottom: number;
  text: string;
}

/** The inspector screen, as a user sees it. Every wait is on the app's readiness attribute, never a sleep. */
export class InspectorPage {
  private sidebarChosen: boolean;

  /**
   * `sidebar: 'files'` (the default): at the first `ready()` the sidebar is switched to Files through its switch,
   * as a user would, so that specs about files see files whatever the folder holds (a folder of agent sessions
   * opens on its sessions). `'as-opened'` leaves the sidebar as the app chose it.
   */
  constructor(
    readonly page: Page,
    opts: { sidebar?: 'files' | 'as-opened' } = {},
  ) {
    this.sidebarChosen = opts.sidebar === 'as-opened';
  }

  /** The page says it is ready; `timeout` for a document whose reading takes long (a 96 MB part: 28–30 s here). */
  async ready(timeout = 30_000): Promise<void> {
    await this.page.waitForSelector('body[data-ready="true"]', { timeout });
    if (!this.sidebarChosen) {
      this.sidebarChosen = true;
      await this.showFiles();
    }
  }

  /** The sidebar's Files, chosen with its switch (the choice then holds: the sidebar no longer turns to sessions). */
  async showFiles(): Promise<void> {
    this.sidebarChosen = true;
    const files = this.page.locator('[data-testid="sidebar-mode-files"]');
    // A sidebar closed (or a page without one): nothing to choose.
    if (!(await files.isVisible())) return;
    await files.click();
    // The switch keeps no focus a spec's keys would then go to.
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await this.page.waitForSelector('[data-testid="file-list"]');
  }

  /** The sidebar's Sessions, chosen with its switch. */
  async showSessions(): Promise<void> {
    this.sidebarChosen = true;
    await this.page.click('[data-testid="sidebar-mode-sessions"]');
    await this.page.waitForSelector('[data-testid="session-list"]');
  }

  file(path: string): Locator {
    return this.page.locator(`[data-testid="file"][data-path="${path}"]`);
  }

  /** The sidebar draws the rows in view: it is scrolled until the file's row is drawn (as a user scrolls to it). */
  async scrollToFile(path: string): Promise<void> {
    await this.page.waitForSelector('[data-testid="file"]');
    for (let step = 0; step < 500 && (await this.file(path).count()) === 0; step++) {
      const moved = await this.page.evaluate(() => {
        let box = document.querySelector('[data-testid="file"]')?.parentElement ?? null;
        while (box && box.scrollHeight <= box.clientHeight + 1) box = box.parentElement;
        if (!box || box.scrollTop + box.clientHeight >= box.scrollHeight - 1) return false;
        box.scrollTop += Math.max(40, box.clientHeight / 2);
        return true;
      });
      if (!moved) break;
      await this.page.waitForTimeout(30);
    }
  }

  /** The sidebar's files once the background read has filled them in; `tokens` only for files counted. */
  async files(): Promise<Array<{ path: string; messages: number; tokens?: number } | { path: string; error: string }>> {
    await this.ready();
    type Entry = { path: string; messages: number; tokens?: number } | { path: string; error: string };
    const seen = new Map<string, Entry>();
    // The sidebar draws the rows in view: it is scrolled through, and what each screen shows is read.
    for (let step = 0; step < 500; step++) {
      await this.page.waitForFunction(() => !document.querySelector('[data-testid="file"][data-pending]'), undefined, { timeout: 30_000 });
      const screen = await this.page.$$eval('[data-testid="file"]', (els) =>
        els.map((el) => {
          const path = el.getAttribute('data-path')!;
          const error = el.querySelector('[data-testid="file-error"]');
          if (error) return { path, error: error.textContent ?? '' };
          const num = (sel: string) => Number((el.querySelector(sel)?.textContent ?? '').replace(/,/g, ''));
          const tokens = el.querySelector('[data-testid="file-tokens"]') ? num('[data-testid="file-tokens"]') : undefined;
          return tokens === undefined ? { path, messages: num('[data-testid="file-messages"]') } : { path, messages: num('[data-testid="file-messages"]'), tokens };
        }),
      );
      for (const e of screen) seen.set(e.path, e);
      const moved = await this.page.evaluate(() => {
        let box = document.querySelector('[data-testid="file"]')?.parentElement ?? null;
        while (box && box.scrollHeight <= box.clientHeight + 1) box = box.parentElement;
        if (!box) return false;
        if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) {
          box.scrollTop = 0;
          return false;
        }
        box.scrollTop += Math.max(40, box.clientHeight / 2);
        return true;
      });
      if (!moved) break;
      await this.page.waitForTimeout(50);
    }
    return [...seen.values()];
  }


  async open(path: string): Promise<void> {
    await this.scrollToFile(path);
    await this.file(path).click();
    // The title holds the path whole (the screen shows its folders and name apart, each cut at its end).
    await this.page.waitForSelector(`[data-testid="conv-title"][title=${JSON.stringify(path)}], [data-testid="open-error"]`);
    await this.ready();
  }

  async visibleRows(): Promise<Array<{ index: number; tokens: number }>> {
    await this.ready();
    await this.page.waitForFunction(() => !document.querySelector('[data-testid="row"] .loading'));
    return this.page.$$eval('[data-testid="row"]', (rows) =>
      rows
        .map((r) => ({ index: Number(r.getAttribute('data-index')), tokens: Number((r.querySelector('[data-testid="row-tokens"]')?.textContent ?? 'NaN').replace(/,/g, '')) }))
        .sort((a, b) => a.index - b.index),
    );
  }

  async search(query: string): Promise<void> {
    await this.page.fill('[data-testid="search"]', query);
    await this.page.waitForFunction((q) => (q === '' ? true : !!document.querySelector('[data-testid="match-count"]')), query);
    await this.ready();
  }

  /** The transcript (R), once the messages it shows have their parts. */
  async transcript(): Promise<void> {
    if (!(await this.page.isVisible('[data-testid="transcript"]'))) await this.page.click('[data-testid="view-transcript"]');
    await this.page.waitForSelector('[data-testid="transcript"]');
    await this.transcriptSettled();
  }

  async table(): Promise<void> {
    if (!(await this.page.isVisible('[data-testid="message-grid"]'))) await this.page.click('[data-testid="view-table"]');
    await this.page.waitForSelector('[data-testid="message-grid"] [data-testid="row"]');
    await this.ready();
  }

  /** Every message on screen has its parts (none a row's preview) and the app is not loading. */
  async transcriptSettled(): Promise<void> {
    await this.ready();
    await this.page.waitForFunction(() => {
      const feed = document.querySelector('[data-testid="transcript"]');
      return !!feed && feed.getAttribute('aria-busy') !== 'true' && !feed.querySelector('.tx-preview');
    });
  }

  /** The transcript's messages drawn now (in view and a few around it). */
  async transcriptItems(): Promise<TranscriptItem[]> {
    return this.page.$$eval('[data-testid="tx-message"]', (els) => {
      const box = document.querySelector('[data-testid="transcript"]')!.getBoundingClientRect();
      return els
        .map((e) => {
          const r = e.getBoundingClientRect();
          const el = e as HTMLElement;
          return { index: Number(el.dataset.index), turn: Number(el.dataset.turn), fate: el.dataset.fate, selected: el.getAttribute('aria-current') === 'true', matched: el.classList.contains('matched'), top: Math.round(r.top - box.top), bottom: Math.round(r.bottom - box.top), text: el.textContent ?? '' };
        })
        .sort((a, b) => a.index - b.index);
    });
  }

  /** The messages in view in the transcript (partly or whole), by index. */
  async transcriptInView(): Promise<number[]> {
    const height = await this.page.$eval('[data-testid="transcript"]', (e) => e.clientHeight);
    return (await this.transcriptItems()).filter((it) => it.bottom > 0 && it.top < height).map((it) => it.index);
  }

  /** The table's rows in view, by index. */
  async rowsInView(): Promise<number[]> {
    return this.page.$$eval('[data-testid="row"]', (rows) => {
      const box = document.querySelector('[data-testid="grid-body"]')!.getBoundingClientRect();
      return rows
        .filter((r) => {
          const b = r.getBoundingClientRect();
          return b.bottom > box.top + 1 && b.top < box.bottom - 1;
        })
        .map((r) => Number(r.getAttribute('data-index')))
        .sort((a, b) => a - b);
    });
  }

  async screenshot(name: string): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await this.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  }
}
