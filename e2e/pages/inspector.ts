import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ROOT } from '../../test/paths.js';

export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

/** The inspector screen, as a user sees it. Every wait is on the app's readiness attribute, never a sleep. */
export class InspectorPage {
  constructor(readonly page: Page) {}

  async ready(): Promise<void> {
    await this.page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  }

  file(path: string): Locator {
    return this.page.locator(`[data-testid="file"][data-path="${path}"]`);
  }

  /** The sidebar's files once the background read has filled them in; `tokens` only for files counted. */
  async files(): Promise<Array<{ path: string; messages: number; tokens?: number } | { path: string; error: string }>> {
    await this.ready();
    await this.page.waitForFunction(() => !document.querySelector('[data-testid="file"][data-pending]'), undefined, { timeout: 30_000 });
    return this.page.$$eval('[data-testid="file"]', (els) =>
      els.map((el) => {
        const path = el.getAttribute('data-path')!;
        const error = el.querySelector('[data-testid="file-error"]');
        if (error) return { path, error: error.textContent ?? '' };
        const num = (sel: string) => Number((el.querySelector(sel)?.textContent ?? '').replace(/,/g, ''));
        const tokens = el.querySelector('[data-testid="file-tokens"]') ? num('[data-testid="file-tokens"]') : undefined;
        return tokens === undefined ? { path, messages: num('[data-testid="file-messages"]') } : { path, messages: num('[data-testid="file-messages"]'), tokens };
      }),
    );
  }

  async open(path: string): Promise<void> {
    await this.file(path).click();
    await this.page.waitForSelector(`[data-testid="conv-title"]:text-is("${path}"), [data-testid="open-error"]`);
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

  async screenshot(name: string): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await this.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  }
}
