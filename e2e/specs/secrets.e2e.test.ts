import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../../test/helpers.js';
import { walkSession } from '../../test/support/claude-code-walker.js';
import { InspectorPage, SCREENSHOTS } from '../pages/inspector.js';
import { CHROMIUM, openInspector, unavailable, type Session } from '../support/browsers.js';

const LEAK = 'agents/claude-code/deploy-db-timeout.jsonl';
/** What the example session leaks, as its lines hold them: tokens, keys, a password read from .env, an address. */
const SECRETS = (() => {
  const text = readFileSync(join(ROOT, 'examples', LEAK), 'utf8');
  return [/ghp_[A-Za-z0-9]{36}/, /sk_live_[A-Za-z0-9]{24}/, /Tr0ub4dor-[a-z0-9]{6}/, /sk-proj-[A-Za-z0-9_-]{40,}/, /maria\.keller@shop-mail\.de/].map((re) => text.match(re)![0]);
})();

const reason = unavailable('browser');
describe.skipIf(reason !== undefined)('secrets in the app: found, marked, shared redacted, redacted in place (browser)', () => {
  let session: Session | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function start(): Promise<{ page: InspectorPage; dir: string }> {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    session = await openInspector('browser', dir, { XDG_STATE_HOME: tempDir() });
    const page = new InspectorPage(session.page);
    await page.ready();
    return { page, dir };
  }

  it('the sidebar and rows say which hold secrets; the filter, the marks in the detail pane; a share downloads a redacted page that reads with scripts off', async () => {
    const { page } = await start();
    await page.scrollToFile(LEAK);
    // The listing's background pass finds them without the file being opened.
    await page.page.waitForSelector(`[data-testid="file"][data-path="${LEAK}"] [data-testid="file-secrets"]`, { timeout: 30_000 });
    expect(await page.file(LEAK).locator('[data-testid="file-secrets"]').textContent()).toMatch(/^\d+ secrets?$/);
    await page.open(LEAK);
    await page.page.waitForSelector('[data-testid="secrets-filter"]');
    // The chip that comes when the scan ends is the toolbar's last: nothing before it moved when it came.
    expect(await page.page.$eval('[data-testid="secrets-filter"]', (el) => el === el.parentElement!.lastElementChild)).toBe(true);
    const rows = await page.page.$$eval('[data-testid="row"]', (els) => els.length);
    const flagged = await page.page.$$eval('[data-testid="row"]:has([data-testid="secret-chip"])', (els) => els.map((e) => Number(e.getAttribute('data-index'))));
    expect(flagged.length).toBeGreaterThan(2);
    expect(flagged.length).toBeLessThan(rows);
    await page.page.click('[data-testid="secrets-filter"]');
    await page.page.waitForSelector('[data-testid="secrets-banner"]');
    await page.page.waitForFunction((n) => document.querySelectorAll('[data-testid="row"]').length === n, flagged.length);
    // Each flagged message: its findings listed under it, the spans marked in the detail pane with their rule.
    const marks: Array<{ title: string | null; text: string | null }> = [];
    let ghRow = -1;
    for (const i of flagged) {
      await page.page.click(`[data-testid="row"][data-index="${i}"]`);
      await page.page.waitForSelector('[data-testid="message-findings"]');
      const here = await page.page.$$eval('[data-testid="secret-mark"]', (els) => els.map((e) => ({ title: e.getAttribute('title'), text: e.textContent })));
      if (here.some((m) => m.title?.startsWith('GitHub token'))) ghRow = i;
      marks.push(...here);
    }
    expect(marks.find((m) => m.title?.startsWith('GitHub token'))?.text).toBe(SECRETS[0]);
    expect(marks.find((m) => m.title?.startsWith('Stripe key'))?.text).toBe(SECRETS[1]);
    await page.page.click(`[data-testid="row"][data-index="${ghRow}"]`);
    await page.page.waitForSelector('[data-testid="secret-mark"]');
    await page.screenshot('browser-secrets-detail');
    // At 1,100 × 700 the findings keep their buttons in view.
    await page.page.setViewportSize({ width: 1100, height: 700 });
    const box = await page.page.locator('[data-testid="dismiss-finding"]').first().boundingBox();
    const pane = await page.page.locator('[data-testid="message-findings"]').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(pane!.x + pane!.width + 1);
    await page.screenshot('browser-secrets-detail-1100');
    await page.page.setViewportSize({ width: 1440, height: 900 });

    // Share: the dialog's default is redacted HTML; the transcript and its report are downloaded.
    await page.page.click('[data-testid="share-redacted"]');
    await page.page.waitForSelector('[data-testid="share-dialog"]');
    expect(await page.page.isChecked('[data-testid="share-redact"]')).toBe(true);
    const downloads: Array<{ name: string; path: string }> = [];
    const into = tempDir();
    // Saved under the name the app gives it (a page is a page to Chromium by its extension).
    page.page.on('download', (d) => void d.saveAs(join(into, d.suggestedFilename())).then(() => downloads.push({ name: d.suggestedFilename(), path: join(into, d.suggestedFilename()) })));
    await page.page.click('[data-testid="share-export"]');
    await page.page.waitForSelector('[data-testid="share-done"]');
    await page.screenshot('browser-share-done');
    for (let i = 0; i < 100 && downloads.length < 2; i++) await page.page.waitForTimeout(50);
    const html = downloads.find((d) => d.name.endsWith('.html'))!;
    const report = downloads.find((d) => d.name.endsWith('.txt'))!;
    expect(html).toBeDefined();
    expect(report).toBeDefined();
    const text = readFileSync(html.path, 'utf8');
    for (const s of SECRETS) expect(text).not.toContain(s);
    for (const s of SECRETS) expect(readFileSync(report.path, 'utf8')).not.toContain(s);
    expect(text).toContain('[REDACTED:github]');

    // The page opens with JavaScript off, fetches nothing, and shows every message of the thread.
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
      const requests: string[] = [];
      const reader = await context.newPage();
      reader.on('request', (r) => requests.push(r.url()));
      await reader.goto(`file://${html.path}`);
      const articles = await reader.$$eval('article', (els) => els.filter((e) => (e as HTMLElement).offsetHeight > 0).length);
      expect(articles).toBe(rows);
      expect(await reader.textContent('body')).toContain('[REDACTED:github]');
      expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
      await reader.screenshot({ path: join(SCREENSHOTS, 'browser-shared-transcript.png'), fullPage: false });
    } finally {
      await browser.close();
    }
  });

  it('redact all in place, saved: none of the secrets on disk, the session still one chain', async () => {
    const { page, dir } = await start();
    const before = readFileSync(join(dir, LEAK), 'utf8');
    await page.open(LEAK);
    await page.page.click('[data-testid="secrets-filter"]');
    await page.page.click('[data-testid="redact-all"]');
    await page.page.waitForSelector('[data-testid="secrets-note"]');
    await page.page.waitForFunction(() => document.querySelectorAll('[data-testid="secret-chip"]').length === 0);
    await page.page.click('[data-testid="save"]');
    // Disabled while saving too: done when it says Save again with nothing to save.
    await page.page.waitForFunction(() => {
      const b = document.querySelector<HTMLButtonElement>('[data-testid="save"]');
      return b?.disabled === true && b.textContent === 'Save';
    });
    const after = readFileSync(join(dir, LEAK), 'utf8');
    for (const s of SECRETS) expect(after).not.toContain(s);
    expect(walkSession(after)).toEqual(walkSession(before));
    await page.screenshot('browser-secrets-redacted');
    // The sidebar's badge goes with them.
    await page.page.waitForSelector(`[data-testid="file"][data-path="${LEAK}"]:not(:has([data-testid="file-secrets"]))`);
  });
});
