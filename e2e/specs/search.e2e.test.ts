// Search across every conversation, in the real app over a generated tree of every format: the counts the
// app gives are the CLI's (an index on one side, a plain scan on the other), Enter opens the message, and a
// file an agent writes while the search is open is found.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeConversation } from '../../src/core/index.js';
import { writeSearchTree } from '../../bench/search.js';
import { FIXTURES, ROOT } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Mode, type Session } from '../support/browsers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
function cliSearch(dir: string, ...args: string[]): { hits: Array<{ path: string; conversation: number; index: number; role: string }> } {
  const run = spawnSync(process.execPath, [BIN, 'search', dir, ...args, '--json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`search ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

for (const mode of ['browser', 'electron'] as Mode[]) {
  const reason = unavailable(mode);
  if (reason) console.log(`search e2e (${mode}) skipped: ${reason}`);
  describe.skipIf(reason !== undefined)(`search across every conversation (${mode})`, () => {
    let session: Session | undefined;
    let dir = '';
    let state = '';
    let page: InspectorPage;
    beforeAll(async () => {
      // Kept for the whole file (a tempDir() goes after each test).
      dir = mkdtempSync(join(tmpdir(), 'ci-search-e2e-'));
      cpSync(join(FIXTURES, 'formats'), join(dir, 'formats'), { recursive: true });
      mkdirSync(join(dir, 'runs'));
      writeSearchTree(join(dir, 'runs'), 300, 9);
      state = mkdtempSync(join(tmpdir(), 'ci-search-state-'));
      session = await openInspector(mode, dir, { XDG_STATE_HOME: state });
      page = new InspectorPage(session.page);
      await page.ready();
    });
    afterAll(async () => {
      await session?.close();
      for (const d of [dir, state]) rmSync(d, { recursive: true, force: true });
    });

    const summary = () => page.page.textContent('[data-testid="search-all-summary"]');
    async function searchFor(query: string): Promise<number> {
      if (!(await page.page.isVisible('[data-testid="search-all-input"]'))) {
        await page.page.keyboard.press('Control+Shift+F');
        await page.page.waitForSelector('[data-testid="search-all-input"]');
      }
      await page.page.fill('[data-testid="search-all-input"]', query);
      // Settled: the whole tree indexed and the answer for this query shown.
      await page.page.waitForFunction(() => /indexed$/.test(document.querySelector('[data-testid="search-all-status"]')?.textContent ?? ''), null, { timeout: 60_000 });
      // The answer for this query (not the one before it) is shown.
      await page.page.waitForFunction((q) => {
        const summary = document.querySelector('[data-testid="search-all-summary"]');
        // Not busy: the answer asked for once the last of the folder was read is in (search-all is the catalog's).
        return summary?.getAttribute('data-query') === q && !summary.hasAttribute('data-busy') && /^(No messages match|[\d,]+\+? messages? in)/.test(summary.textContent ?? '');
      }, query);
      await page.page.waitForTimeout(300);
      const text = (await summary()) ?? '';
      return text.startsWith('No messages') ? 0 : Number(/^([\d,]+)/.exec(text)![1].replace(/,/g, ''));
    }

    it('finds what the CLI finds, in every format, tool calls included', { timeout: 90_000 }, async () => {
      for (const query of ['read', 'token budget', 'install', 'zzzqqq']) {
        const shown = await searchFor(query);
        expect(shown, query).toBe(cliSearch(dir, query).hits.length);
      }
      // A tool call's name (Claude Code's Read tool) is a hit in that file.
      await searchFor('read');
      const files = await page.page.$$eval('.search-all-file .name', (els) => els.map((e) => e.textContent));
      expect(files).toContain('formats/claude-code/session.jsonl');
      await page.screenshot(`${mode}-search-all`);
    });

    it('opens the message with Enter, the word highlighted', async () => {
      const cli = cliSearch(dir, 'install');
      expect(cli.hits.length).toBeGreaterThan(1);
      await searchFor('install');
      // A hit far down the list, in a file with many: the table scrolls to it in the filtered rows.
      const k = Math.min(20, cli.hits.length - 1);
      for (let i = 0; i < k; i++) await page.page.keyboard.press('ArrowDown');
      // The hit chosen, by its file (its group's heading) and row: the app lists the newest sessions first, the CLI by path.
      const chosen = await page.page.$eval('[data-hit][aria-selected="true"]', (el) => {
        let heading = el.previousElementSibling;
        while (heading && !heading.classList.contains('search-all-file')) heading = heading.previousElementSibling;
        return { path: heading?.getAttribute('title') ?? '', row: el.querySelector('[data-testid="search-hit-number"]')?.getAttribute('title') ?? '' };
      });
      const second = cli.hits.find((h) => h.path === chosen.path && chosen.row === `row ${h.index}`)!;
      expect(second, JSON.stringify(chosen)).toBeDefined();
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="search-all"]', { state: 'detached' });
      await page.page.waitForFunction((path) => document.querySelector('[data-testid="conv-title"]')?.textContent === path, second.path);
      await page.page.waitForSelector(`[data-testid="row"][data-index="${second.index}"][aria-selected="true"]`);
      // In view, not only rendered.
      const inView = await page.page.$eval(`[data-testid="row"][data-index="${second.index}"]`, (row) => {
        const r = row.getBoundingClientRect();
        const body = document.querySelector('[data-testid="grid-body"]')!.getBoundingClientRect();
        return r.top >= body.top - 1 && r.bottom <= body.bottom + 1;
      });
      expect(inView).toBe(true);
      // The word marked in the message: in the detail pane, which shows it whole (the row's preview may end before it).
      await page.page.waitForSelector('#detail mark.hit');
      expect(await page.page.$eval('#detail mark.hit', (m) => m.textContent?.toLowerCase())).toBe('install');
      // The file's search filtered the rows to the hits; cleared, the message stays selected and in view, with
      // the messages around it.
      await page.page.click('[data-testid="clear-filters"]');
      await page.page.waitForSelector('[data-testid="shown-count"]', { state: 'detached' });
      await page.page.waitForFunction((i) => {
        const row = document.querySelector(`[data-testid="row"][data-index="${i}"][aria-selected="true"]`);
        const body = document.querySelector('[data-testid="grid-body"]')?.getBoundingClientRect();
        if (!row || !body) return false;
        const r = row.getBoundingClientRect();
        return r.top >= body.top - 1 && r.bottom <= body.bottom + 1;
      }, second.index);
    });

    it("numbers each hit of a session shown by threads as the row it opens at", { timeout: 90_000 }, async () => {
      await searchFor('the');
      const hits = await page.page.$$eval('[data-hit]', (els) =>
        els.map((el) => {
          let head = el.previousElementSibling;
          while (head && !head.classList.contains('search-all-file')) head = head.previousElementSibling;
          return { i: Number(el.getAttribute('data-hit')), file: head?.getAttribute('title') ?? '', number: el.querySelector('[data-testid="search-hit-number"]')?.textContent ?? '' };
        }),
      );
      // Sessions and exports whose table shows a thread: their rows are not numbered as the file holds them.
      const threaded = hits.filter((h) => /claude-code|chatgpt|codex/.test(h.file) && /^\d+$/.test(h.number));
      expect(threaded.length).toBeGreaterThan(2);
      const picked = [...new Map(threaded.map((h) => [h.file, h])).values()].slice(0, 4);
      for (const h of picked) {
        await searchFor('the');
        await page.page.click(`[data-hit="${h.i}"]`);
        await page.page.waitForSelector('[data-testid="search-all"]', { state: 'detached' });
        await page.page.waitForFunction((path) => document.querySelector('[data-testid="conv-title"]')?.textContent === path, h.file);
        await page.page.waitForSelector('[data-testid="row"][aria-selected="true"]');
        expect(await page.page.getAttribute('[data-testid="row"][aria-selected="true"]', 'data-index'), `${h.file}, hit ${h.number}`).toBe(h.number);
      }
    });

    it('finds a file an agent writes while the search is open', { timeout: 60_000 }, async () => {
      // A word made now: the generated tree's text comes from node_modules, which holds this repository too.
      const word = `zq${Math.random().toString(36).slice(2, 10).replace(/\d/g, 'x')}`;
      expect(await searchFor(word)).toBe(0);
      writeFileSync(join(dir, 'runs', 'late.json'), serializeConversation([{ role: 'user', content: `Plan the ${word} rollout` }, { role: 'assistant', content: `Rolling out ${word} in two steps.` }], { format: 'json' }));
      await page.page.waitForFunction(() => /^2 messages in 1 file/.test(document.querySelector('[data-testid="search-all-summary"]')?.textContent ?? ''), null, { timeout: 30_000 });
      expect(await page.page.$$eval('.search-all-file .name', (els) => els.map((e) => e.textContent))).toEqual(['runs/late.json']);
    });

    it('a query of several words opens its hit with the whole query in the file search, which finds the same messages', { timeout: 60_000 }, async () => {
      const word = `zq${Math.random().toString(36).slice(2, 10).replace(/\d/g, 'x')}`;
      writeFileSync(join(dir, 'runs', 'words.json'), serializeConversation([{ role: 'user', content: `Rollout ${word} plan` }, { role: 'assistant', content: `Noted.` }, { role: 'assistant', content: `The plans: ${word.toUpperCase()} first.` }, { role: 'user', content: `Only ${word} here` }], { format: 'json' }));
      await page.page.waitForFunction(() => /indexed$/.test(document.querySelector('[data-testid="search-all-status"]')?.textContent ?? ''), null, { timeout: 30_000 });
      const query = `${word} plan`;
      await searchFor(query);
      await page.page.waitForFunction(() => /^2 messages in 1 file/.test(document.querySelector('[data-testid="search-all-summary"]')?.textContent ?? ''), null, { timeout: 30_000 });
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="search-all"]', { state: 'detached' });
      expect(await page.page.inputValue('[data-testid="search"]')).toBe(query);
      // The file's search shows the two messages the search across conversations found, every word marked.
      await page.page.waitForFunction(() => document.querySelectorAll('[data-testid="row"]').length === 2);
      expect(await page.page.$$eval('[data-testid="row"]', (rows) => rows.map((r) => Number(r.getAttribute('data-index'))).sort())).toEqual([0, 2]);
      await page.page.waitForSelector('#detail mark.hit');
      expect(await page.page.$$eval('#detail mark.hit', (ms) => ms.map((m) => m.textContent?.toLowerCase()))).toEqual([word, 'plan']);
      await page.page.click('[data-testid="clear-filters"]');
    });

    it('says what is wrong with a regular expression, and searches with one', async () => {
      await searchFor('zzz');
      await page.page.check('.search-all-bar input[type="checkbox"]');
      await page.page.fill('[data-testid="search-all-input"]', 'zq(');
      await page.page.waitForFunction(() => /regular expression/.test(document.querySelector('[data-testid="search-all-summary"]')?.textContent ?? ''));
      expect(await summary()).not.toMatch(/at .*\.js|Error:/);
      expect(await searchFor('zq\\w+ roll')).toBe(1);
      await page.page.keyboard.press('Escape');
      await page.page.waitForSelector('[data-testid="search-all"]', { state: 'detached' });
    });
  });
}
