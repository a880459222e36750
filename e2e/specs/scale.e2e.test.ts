// A 100 MB file of real text in the real app (opened, scrolled, edited and planned with the slider) and a tree
// of 10,000 files (filled, filtered, scrolled). The page's long tasks (Chromium's Long Tasks API, observed from
// before the page loads) are printed per phase; tests do not assert on time (a shared 2-core runner makes any
// limit a coin toss): `npm run bench` measures responsiveness beside its baselines.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeConversation } from '../../src/core/index.js';
import { realisticHistory } from '../../bench/corpus.js';
import { tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Mode, type Session } from '../support/browsers.js';

const MESSAGES = 150_000;

declare global {
  interface Window {
    __longTasks: number[];
  }
}

for (const mode of ['browser', 'electron'] as Mode[]) {
  const reason = unavailable(mode);
  describe.skipIf(reason !== undefined)(`at the sizes users have: a 100 MB file, a 10,000-file tree (${mode})`, () => {
    let session: Session | undefined;
    let dir = '';
    beforeAll(() => {
      // Not tempDir(): that one is removed after each test, and every test here opens this file.
      dir = mkdtempSync(join(tmpdir(), 'ci-scale-'));
      writeFileSync(join(dir, 'big.json'), serializeConversation(realisticHistory(MESSAGES, 11), { format: 'json' }));
      console.log(`big.json: ${(statSync(join(dir, 'big.json')).size / 1e6).toFixed(0)} MB, ${MESSAGES.toLocaleString('en')} messages`);
    });
    afterAll(async () => {
      await session?.close();
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it('opens, scrolls, edits and drags the budget slider, the renderer holding less than the file', async () => {
      // A count cache of its own: the first count is a cold one, as on a new machine.
      session = await openInspector(mode, dir, { XDG_STATE_HOME: tempDir() });
      const page = new InspectorPage(session.page);
      const longTasks = () => page.page.evaluate(() => window.__longTasks.splice(0));
      await page.page.addInitScript(() => {
        window.__longTasks = [];
        new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__longTasks.push(Math.round(e.duration)))).observe({ type: 'longtask', buffered: true });
      });
      await page.page.reload();
      await page.ready();
      const phases: Record<string, number[]> = {};

      const clicked = Date.now();
      await page.file('big.json').click();
      // The first messages come from the file's head while the whole file is read.
      await page.page.waitForSelector('[data-testid="reading-banner"]');
      await page.page.waitForSelector('[data-testid="row"][data-index="0"]');
      const firstRows = Date.now() - clicked;
      await page.page.waitForSelector('[data-testid="reading-banner"]', { state: 'detached', timeout: 120_000 });
      console.log(`first rows after ${firstRows} ms, the whole file read after ${Date.now() - clicked} ms`);
      // Rows scrolled to during the long first count get their counts with the rows, ahead of the rest.
      await page.page.waitForSelector('[data-testid="row"][data-index="0"]');
      await page.page.focus('[data-testid="message-grid"]');
      await page.page.keyboard.press('End');
      const last = `[data-testid="row"][data-index="${MESSAGES - 1}"] [data-testid="row-tokens"]`;
      await page.page.waitForFunction((sel) => /\d/.test(document.querySelector(sel)?.textContent ?? ''), last, { timeout: 240_000 });
      const counting = await page.page.$('[role="progressbar"][aria-label="Counting tokens"]');

      console.log(`the last row counted after ${Date.now() - clicked} ms, ${counting ? 'while the whole count was still running' : 'after the whole count'}`);
      await page.page.keyboard.press('Home');
      // Every count is in once the progress is gone and the first row has its figure.
      await page.page.waitForFunction(() => !document.querySelector('[role="progressbar"][aria-label="Counting tokens"]') && /\d/.test(document.querySelector('[data-testid="row"][data-index="0"] [data-testid="row-tokens"]')?.textContent ?? ''), undefined, { timeout: 240_000 });
      phases.open = await longTasks();

      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.focus('[data-testid="message-grid"]');
      for (let k = 0; k < 8; k++) await page.page.keyboard.press('PageDown');
      await page.page.keyboard.press('End');
      await page.page.waitForSelector(`[data-testid="row"][data-index="${MESSAGES - 1}"]`);
      await page.page.keyboard.press('Home');
      await page.page.waitForSelector('[data-testid="row"][data-index="0"]');
      const table = page.page.locator('[data-testid="grid-body"]');
      await table.hover();
      for (let k = 0; k < 20; k++) await page.page.mouse.wheel(0, 4000);
      await page.ready();
      phases.scroll = await longTasks();

      // The wheel's scrolling may still be running (a loaded machine takes its 20 turns late): Home once it has stopped.
      const scrollTop = () => page.page.$eval('[data-testid="grid-body"]', (b) => b.scrollTop);
      for (let before = -1, now = await scrollTop(); now !== before; before = now, now = await scrollTop()) await page.page.waitForTimeout(250);
      await page.page.keyboard.press('Home');
      // The rows of the top are drawn a frame after the scroll: the click is for the row drawn there.
      await page.page.waitForSelector('[data-testid="row"][data-index="3"]');
      await page.page.click('[data-testid="row"][data-index="3"]');
      await page.page.click('[data-testid="edit-button"]');
      await page.page.fill('[data-testid="edit-content"]', 'Edited in a file of a hundred megabytes.');
      await page.page.click('[data-testid="edit-apply"]');
      await page.page.waitForSelector('[data-testid="dirty"]');
      await page.page.waitForFunction(() => /Edited in a file/.test(document.querySelector('[data-testid="row"][data-index="3"]')?.textContent ?? ''));
      phases.edit = await longTasks();

      await page.page.keyboard.press('w');
      await page.page.waitForSelector('[data-testid="window-panel"] [data-testid="plan-totals"]');
      const slider = page.page.locator('[data-testid^="slider-"]').first();
      const box = (await slider.boundingBox())!;
      await page.page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
      await page.page.mouse.down();
      for (let k = 0; k <= 30; k++) await page.page.mouse.move(box.x + box.width * (0.9 - (0.8 * k) / 30), box.y + box.height / 2);
      await page.page.mouse.up();
      await page.ready();
      phases.slider = await longTasks();
      await page.screenshot(`${mode}-100mb`);

      // What the page holds after a collection: the skeleton, counts and the rows shown, not the contents.
      const cdp = await page.page.context().newCDPSession(page.page);
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const fileBytes = statSync(join(dir, 'big.json')).size;
      console.log(`renderer heap ${(usedSize / 1e6).toFixed(0)} MB for a ${(fileBytes / 1e6).toFixed(0)} MB file`);
      expect(usedSize, 'the renderer heap, at most the file size').toBeLessThanOrEqual(fileBytes);

      console.log(`long tasks (ms) by phase: ${JSON.stringify(phases)}`);

      // Another model counts the 200,000 messages again: its progress comes and goes without moving anything in
      // the top bar (it used to push the bar's buttons aside, and at 1,100 px wrap them onto a second line).
      const bar = () => page.page.evaluate(() => ({ height: document.querySelector('.topbar')!.getBoundingClientRect().height, share: document.querySelector('[data-testid="share-button"]')!.getBoundingClientRect().x, open: document.querySelector('[data-testid="open-folder-button"]')!.getBoundingClientRect().x }));
      for (const width of [1440, 1100]) {
        await page.page.setViewportSize({ width, height: 800 });
        const idle = await bar();
        const select = page.page.locator('select[aria-label="Model or encoding for token counts"]');
        // Not the session's own model nor the default a file that names none is counted for: that is what is counted already.
        const other = await select.evaluate((el: HTMLSelectElement) => [...el.options].map((o) => o.value).find((v) => v !== el.value && v !== 'session' && v !== 'gpt-5.4')!);
        await select.selectOption(other);
        await page.page.waitForSelector('[data-testid="count-progress"]', { timeout: 60_000 });
        expect(await bar(), `at ${width} px`).toEqual(idle);
        await page.page.waitForSelector('[data-testid="count-progress"]', { state: 'detached', timeout: 240_000 });
      }
    }, 600_000);

    it('End pressed as soon as the first rows show lands on the last message while the file is still read; the rows past the head get their content', async () => {
      await session?.close();
      session = await openInspector(mode, dir, { XDG_STATE_HOME: tempDir() });
      const page = new InspectorPage(session.page);
      await page.ready();
      // What the page showed when the last row first came selected with its content: whether the file was still read.
      await page.page.evaluate(`(() => {
        const seen = () => {
          const row = document.querySelector('[data-testid="row"][data-index="${MESSAGES - 1}"][aria-selected="true"]');
          if (!row || row.querySelector('.col-preview .loading') || !/\\w/.test(row.querySelector('.col-preview')?.textContent ?? '')) return;
          window.__lastSeen = { reading: document.querySelector('[data-testid="reading-banner"]')?.textContent ?? null };
          observer.disconnect();
        };
        const observer = new MutationObserver(seen);
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      })()`);
      const clicked = Date.now();
      await page.file('big.json').click();
      await page.page.waitForSelector('[data-testid="reading-banner"]');
      await page.page.waitForSelector('[data-testid="row"][data-index="0"]');
      await page.page.focus('[data-testid="message-grid"]');
      await page.page.keyboard.press('End');
      const last = MESSAGES - 1;
      await page.page.waitForSelector(`[data-testid="row"][data-index="${last}"][aria-selected="true"]`, { timeout: 120_000 });
      console.log(`End during the read: on the last message ${Date.now() - clicked} ms after the click`);
      // Esc with the window panel open closes the panel, not the file being read.
      await page.page.keyboard.press('w');
      await page.page.waitForSelector('[data-testid="plan-totals"], [data-testid="window-panel"]');
      const stillReading = (await page.page.$('[data-testid="reading-banner"]')) !== null;
      await page.page.keyboard.press('Escape');
      await page.page.waitForFunction(() => document.querySelector('[data-testid="toggle-window"]')?.getAttribute('aria-pressed') === 'false');
      if (stillReading) expect(await page.page.$('[data-testid="conv-title"]'), 'the file stays open').not.toBeNull();
      else console.log('(the file was read before Esc: the panel closed; whether the read went on was not seen)');
      await page.page.focus('[data-testid="message-grid"]');
      await page.page.waitForFunction(() => (window as unknown as { __lastSeen?: unknown }).__lastSeen !== undefined, undefined, { timeout: 120_000 });
      const seen = (await page.page.evaluate('window.__lastSeen')) as { reading: string | null };
      console.log(`when the last message showed: ${seen.reading ?? '(the file was read)'}`);
      // The last message came from the file's end, before the whole file was parsed: the banner said so.
      expect(seen.reading, 'the last message shown while the file was still read').toMatch(new RegExp(`the first [\\d,]+ and the last [\\d,]+ of its ${MESSAGES.toLocaleString('en-US')} messages are shown; those between`));
      await page.page.waitForSelector('[data-testid="reading-banner"]', { state: 'detached', timeout: 120_000 });
      await page.page.waitForSelector(`[data-testid="row"][data-index="${last}"][aria-selected="true"]`);
      // Its row and those above it have their content (no placeholder outlives the read; its tokens are counted
      // after the read, which on a loaded machine takes longer than this wait).
      await page.page.waitForFunction((i) => {
        const row = document.querySelector(`[data-testid="row"][data-index="${i}"]`);
        return row !== null && row.querySelector('.col-preview .loading') === null;
      }, last, { timeout: 30_000 });
      // Where the head ended: the rows just past it are filled, not left as the head's half page.
      await page.page.keyboard.press('Control+k');
      await page.page.keyboard.type('#1100');
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="row"][data-index="1100"][aria-selected="true"]');
      await page.page.waitForFunction(() => [...document.querySelectorAll('[data-testid="row"]')].every((r) => r.querySelector('.col-preview .loading') === null), undefined, { timeout: 30_000 });
      await page.screenshot(`${mode}-end-during-read`);
      await session.close();
      session = undefined;
    }, 300_000);

    it('a tree of 10,000 files: the sidebar fills, filters as keys are typed and scrolls to the last file, which opens', async () => {
      const tree = tempDir();
      for (let f = 0; f < 10_000; f++) {
        const folder = join(tree, `agent-${Math.floor(f / 100)}`);
        if (f % 100 === 0) mkdirSync(folder);
        writeFileSync(join(folder, `run-${f}.json`), JSON.stringify([{ role: 'user', content: `run ${f}: what changed?` }, { role: 'assistant', content: 'The listing.' }], null, 2));
      }
      const s = await openInspector(mode, tree);
      try {
        const page = new InspectorPage(s.page);
        await page.page.addInitScript(() => {
          window.__longTasks = [];
          new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__longTasks.push(Math.round(e.duration)))).observe({ type: 'longtask', buffered: true });
        });
        await page.page.reload();
        await page.ready();
        await page.page.waitForFunction(() => document.querySelector('[data-testid="file-list"]')?.getAttribute('data-rows') === '10100', undefined, { timeout: 60_000 });
        await page.page.waitForFunction(() => !document.querySelector('[data-testid="file"][data-pending="true"]'), undefined, { timeout: 60_000 });
        const filling = await page.page.evaluate(() => window.__longTasks.splice(0));
        await page.page.click('[aria-label="Filter conversations"]');
        await page.page.keyboard.type('run-42', { delay: 80 });
        // run-42, run-420…429, run-4200…4299: 111 files in their folders.
        await page.page.waitForFunction(() => document.querySelectorAll('[data-testid="file"]').length > 0 && [...document.querySelectorAll('[data-testid="file"]')].every((f) => /\/run-42\d*\.json$/.test(f.getAttribute('data-path') ?? '')));
        const typing = await page.page.evaluate(() => window.__longTasks.splice(0));
        await page.page.fill('[aria-label="Filter conversations"]', '');
        await page.page.waitForFunction(() => document.querySelector('[data-testid="file-list"]')?.getAttribute('data-rows') === '10100');
        await page.page.locator('[data-testid="file-list"]').hover();
        for (let k = 0; k < 30; k++) await page.page.mouse.wheel(0, 3000);
        // Then the scrollbar dragged to its end.
        await page.page.$eval('[data-testid="file-list"]', (l) => l.scrollTo({ top: l.scrollHeight }));
        await page.page.waitForSelector('[data-testid="file"][data-path="agent-99/run-9999.json"]');
        await page.file('agent-99/run-9999.json').click();
        await page.page.waitForSelector('[data-testid="conv-title"][title="agent-99/run-9999.json"]');
        const scrolling = await page.page.evaluate(() => window.__longTasks.splice(0));
        await page.screenshot(`${mode}-10k-tree`);
        // A filter typed with the list scrolled far down shows its first matches, not the place it was scrolled to.
        await page.page.fill('[aria-label="Filter conversations"]', 'run-42');
        await page.page.waitForFunction(() => document.querySelector('[data-testid="file-list"]')!.scrollTop === 0 && !!document.querySelector('[data-testid="file"][data-path="agent-0/run-42.json"]'), undefined, { timeout: 10_000 });
        console.log(`10,000-file tree, long tasks (ms): filling ${JSON.stringify(filling)}, typing ${JSON.stringify(typing)}, scrolling ${JSON.stringify(scrolling)}`);
      } finally {
        await s.close();
      }
    }, 300_000);
  });
}
