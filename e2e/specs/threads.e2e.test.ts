// A file that is a tree, as a user meets it: ChatGPT's edited prompt and regenerated answer switched with the
// ‹ › of the row where the path forks, an OpenAssistant tree's ranked answers, a Claude Code session's
// compaction row and sub-agent thread, and the window panel's two curves (what the API reported beside what
// the chosen strategy would have sent).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InspectorPage } from '../pages/inspector.js';
import { unavailable, type Mode, type Session } from '../support/browsers.js';
import { cliJson, openOnFormats } from '../support/formats-session.js';


for (const mode of ['browser', 'electron'] as Mode[]) {
  const reason = unavailable(mode);
  describe.skipIf(reason !== undefined)(`threads and branches (${mode})`, () => {
    let session: Session | undefined;
    afterEach(async () => {
      await session?.close();
      session = undefined;
    });

    async function start(): Promise<{ page: InspectorPage; dir: string }> {
      const opened = await openOnFormats(mode);
      session = opened.session;
      return opened;
    }

    const rowTexts = (page: InspectorPage) => page.page.$$eval('[data-testid="row"]', (rows) => rows.map((r) => r.textContent ?? ''));

    it('a ChatGPT export shows the path current_node ends; ‹ › at a fork switch to the edited-away prompt and back', async () => {
      const { page, dir } = await start();
      await page.open('chatgpt/conversations.json');
      const cli = cliJson('show', join(dir, 'chatgpt/conversations.json')).messages.filter((m: { conversation: number }) => m.conversation === 0);
      expect((await page.visibleRows()).length).toBe(cli.length);
      // The header's fork navigator: the CLI's count, every one on this path.
      expect(await page.page.getAttribute('[data-testid="fork-nav"]', 'data-forks')).toBe('2');
      expect(await page.page.getAttribute('[data-testid="fork-nav"]', 'data-on-path')).toBe('2');
      expect(await page.page.textContent('[data-testid="fork-note"]')).toBe('2 forks');
      expect(await page.page.textContent('[data-testid="fork-switch"][data-at="2"]')).toContain('2/2');
      await page.screenshot(`${mode}-fork-navigator`);
      await page.page.click('[data-testid="fork-switch"][data-at="2"] [data-testid="fork-prev"]');
      await page.page.waitForFunction(() => document.querySelector('[data-testid="fork-switch"][data-at="2"]')?.textContent?.includes('1/2'));
      const before = await rowTexts(page);
      expect(before).toHaveLength(4);
      expect(before[2]).toContain('Plan three days in Lisbon.');
      expect(before[3]).toContain('Alfama');
      await page.screenshot(`${mode}-fork-other-branch`);
      await page.page.click('[data-testid="fork-switch"][data-at="2"] [data-testid="fork-next"]');
      await page.page.waitForFunction((n) => document.querySelectorAll('[data-testid="row"]').length === n, cli.length);
      expect((await rowTexts(page))[2]).toContain('with rain in mind');
    });

    it('a search hit on another branch opens that branch, and one in a sub-agent its thread', { timeout: 120_000 }, async () => {
      const { page } = await start();
      const openHit = async (query: string) => {
        if (!(await page.page.isVisible('[data-testid="search-all-input"]'))) {
          await page.page.keyboard.press('Control+Shift+F');
          await page.page.waitForSelector('[data-testid="search-all-input"]');
        }
        await page.page.fill('[data-testid="search-all-input"]', query);
        await page.page.waitForFunction(() => /indexed$/.test(document.querySelector('[data-testid="search-all-status"]')?.textContent ?? ''), null, { timeout: 60_000 });
        await page.page.waitForFunction((q) => document.querySelector('[data-testid="search-all-summary"]')?.getAttribute('data-query') === q && /^[\d,]+\+? messages? in/.test(document.querySelector('[data-testid="search-all-summary"]')?.textContent ?? ''), query, { timeout: 60_000 });
        await page.page.click('.search-all-hit');
        await page.page.waitForSelector('[data-testid="search-all"]', { state: 'detached' });
        await page.ready();
        await page.page.waitForSelector('[data-testid="row"][aria-selected="true"]');
        return page.page.textContent('[data-testid="row"][aria-selected="true"]');
      };
      // The first answer, edited away in the file: its branch is shown, the row chosen.
      expect(await openHit('Alfama castle')).toContain('Alfama');
      await page.screenshot(`${mode}-search-opens-branch`);
      // The path is now the one through the first prompt: four messages (the file's search filters them to the hit).
      expect(await page.page.textContent('[data-testid="shown-count"]')).toContain('1 of 4 shown');
      await page.screenshot(`${mode}-search-opens-branch`);
      // A sub-agent's message: its thread.
      expect(await openHit('found 2 more report')).toContain('src/report.ts');
      expect(await page.page.getAttribute('[data-testid="thread-menu"]', 'data-thread')).not.toBe('main');
    });

    it('a Task call’s row opens the sub-agent thread it ran', async () => {
      const { page } = await start();
      await page.open('claude-code/task-subagent.jsonl');
      await page.page.click('[data-testid="row"][data-index="1"] [data-testid="task-thread"]');
      await page.page.waitForFunction(() => document.querySelector('[data-testid="thread-menu"]')?.getAttribute('data-thread') !== 'main');
      // The thread's rows are drawn a moment after the header names it.
      await page.page.waitForFunction(() => document.querySelectorAll('[data-testid="row"]').length === 2);
      expect(await rowTexts(page)).toHaveLength(2);
      expect((await rowTexts(page))[0]).toContain('Find every call of formatDate');
      await page.screenshot(`${mode}-task-sub-agent`);
    });

    it('a Claude Code 2.1 session’s sub-agent in a file of its own: the Task row opens it, and it opens the session back at that row', async () => {
      const { page } = await start();
      const SID = 'b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13';
      await page.open(`claude-code/${SID}.jsonl`);
      await page.page.waitForSelector('[data-testid="row"][data-index="1"] [data-testid="task-file"]');
      // The session's threads and files are one menu in the header.
      await page.page.click('[data-testid="thread-menu"]');
      expect(await page.page.textContent('[data-testid="subagent-files"]')).toContain('Find tax computations');
      await page.screenshot(`${mode}-subagent-file-link`);
      await page.page.keyboard.press('Escape');
      await page.page.click('[data-testid="row"][data-index="1"] [data-testid="task-file"]');
      await page.page.waitForSelector(`[data-testid="conv-title"][title="claude-code/${SID}/subagents/agent-a3f9e1d2b7c40815.jsonl"]`);
      // The rows come with their content a moment after the file opens (placeholders until then).
      await page.page.waitForFunction(() => document.querySelector('[data-testid="row"][data-index="0"]')?.textContent?.includes('List every function in src/'));
      expect((await rowTexts(page))[0]).toContain('List every function in src/');
      await page.page.click('[data-testid="thread-menu"]');
      await page.page.waitForSelector('[data-testid="parent-session"]');
      await page.page.click('[data-testid="open-parent-session"]');
      await page.page.waitForSelector(`[data-testid="conv-title"][title="claude-code/${SID}.jsonl"]`);
      await page.page.waitForSelector('[data-testid="row"][data-index="1"][aria-selected="true"]');
    });

    it('every branch at once: the tree view lists the runs of a ChatGPT export, and a click shows the one chosen', async () => {
      const { page } = await start();
      await page.open('chatgpt/conversations.json');
      await page.page.click('[data-testid="fork-list-toggle"]');
      await page.page.click('[data-testid="show-branch-tree"]');
      await page.page.waitForSelector('[data-testid="branch-segment"]');
      const segments = await page.page.$$eval('[data-testid="branch-segment"]', (els) => els.map((e) => ({ shown: e.getAttribute('data-shown'), text: e.textContent ?? '' })));
      expect(segments.length).toBeGreaterThan(2);
      expect(segments.some((s) => s.shown === 'false')).toBe(true);
      await page.screenshot(`${mode}-branch-tree`);
      const before = await rowTexts(page);
      await page.page.click('[data-testid="branch-segment"][data-shown="false"] button >> nth=0');
      await page.page.waitForSelector('[data-testid="branch-tree"]', { state: 'detached' });
      await page.page.waitForFunction((b) => JSON.stringify([...document.querySelectorAll('[data-testid="row"]')].map((r) => r.textContent)) !== b, JSON.stringify(before));
    });

    it('the tree view keeps the keyboard: Tab goes round its own controls, arrows move between branches, Esc gives focus back to its button', async () => {
      const { page } = await start();
      await page.open('chatgpt/conversations.json');
      await page.page.click('[data-testid="fork-list-toggle"]');
      await page.page.focus('[data-testid="show-branch-tree"]');
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="branch-segment"]');
      const inDialog = () => page.page.evaluate(() => document.querySelector('[data-testid="branch-tree"]')?.contains(document.activeElement) ?? false);
      for (let k = 0; k < 12; k++) {
        await page.page.keyboard.press(k % 3 === 2 ? 'Shift+Tab' : 'Tab');
        expect(await inDialog()).toBe(true);
      }
      await page.page.focus('[data-testid="branch-segment"] button >> nth=0');
      await page.page.keyboard.press('ArrowDown');
      expect(await page.page.evaluate(() => [...document.querySelectorAll('[data-testid="branch-segment"] button')].indexOf(document.activeElement as Element))).toBe(1);
      await page.page.keyboard.press('Escape');
      await page.page.waitForSelector('[data-testid="branch-tree"]', { state: 'detached' });
      expect(await page.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('show-branch-tree');
    });

    it("a session's header says how its thread's count stands to the file's, which the sidebar counts", async () => {
      const { page, dir } = await start();
      const file = 'claude-code/cart-rewind-compact.jsonl';
      await page.open(file);
      const all = cliJson('show', join(dir, file), '--thread', 'all').messages.length;
      const shown = cliJson('show', join(dir, file)).messages.length;
      expect(shown).toBeLessThan(all);
      const sidebar = Number((await page.file(file).locator('[data-testid="file-messages"]').textContent())!.replace(/,/g, ''));
      expect(sidebar).toBe(all);
      const head = page.page.locator('[data-testid="file-count-note"]');
      // The file's tokens once the sidebar has them (the file is counted as it opens).
      await page.page.waitForFunction((p) => !!document.querySelector(`[data-testid="file"][data-path="${p}"] [data-testid="file-tokens"]`), file);
      const tokens = await page.file(file).locator('[data-testid="file-tokens"]').textContent();
      await page.page.waitForFunction((t) => (document.querySelector('[data-testid="file-count-note"]')?.textContent ?? '').includes(`${t} tok`), tokens);
      // The header counts the session as the sidebar does ("N of M msgs"): the note adds the file's tokens, not its count again.
      expect(await head.textContent()).toBe(` (the file: ${tokens} tok)`);
      expect(await head.getAttribute('title')).toMatch(/^The file holds \d+ messages/);
      // What the API reported leads where the file records it, then the count made here ("≈" where estimated).
      // The session's title first where it has one; its count of the session's messages where it shows part of it.
      expect(await page.page.textContent('.conv-head')).toMatch(new RegExp(`^${file}(.+ · )?${shown} of ${all} msgs · ([\\d,]+ in · [\\d,]+ out reported · )?(≈ )?[\\d,]+ tok \\(the file: ${tokens} tok\\)`));
      // A conversation of a file of several (a ChatGPT export): the sidebar's line for that conversation.
      await page.open('chatgpt/conversations.json');
      const line = await page.page.locator('[data-testid="conversation-item"][aria-current="true"] [data-testid="conversation-meta"]').textContent();
      const msgs = /^([\d,]+) msgs/.exec(line ?? '')![1];
      // The header counts it as that line does ("N of M msgs" where it shows one path of it), and says it once.
      expect(await page.page.textContent('[data-testid="conv-count"]')).toMatch(new RegExp(`^[\\d,]+ of ${msgs} msgs$`));
      expect(await page.page.textContent('.conv-head')).not.toContain(`this conversation: ${msgs} msgs`);
      await page.open(file);
      // The whole session shown: as many as the file holds less what is on no path of it (other branches).
      await page.page.click('[data-testid="show-whole"]');
      await page.page.waitForFunction((n) => document.querySelectorAll('[data-testid="row"]').length > n, shown);
    });

    it('at 1,100 × 700 with the window panel open, the table scrolls sideways to its last columns', async () => {
      const { page } = await start();
      await page.page.setViewportSize({ width: 1100, height: 700 });
      await page.open('claude-code/cart-rewind-compact.jsonl');
      await page.page.click('[data-testid="toggle-window"]');
      await page.page.waitForSelector('[data-testid="window-panel"], .window-panel');
      const body = page.page.locator('[data-testid="grid-body"]');
      const { scroll, client } = await body.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll).toBeGreaterThan(client);
      await body.evaluate((el) => (el.scrollLeft = el.scrollWidth));
      // The header follows the rows: its last title is over the last column.
      await page.page.waitForFunction(() => (document.querySelector('.grid-head')?.scrollLeft ?? 0) > 0);
      await page.screenshot(`${mode}-table-1100-window`);
    });

    it('with 500 px for the table (a 1,070 px window), a forked conversation shows each row\'s tokens without scrolling sideways; the content column gives way', async () => {
      const { page } = await start();
      await page.page.setViewportSize({ width: 1070, height: 700 });
      await page.open('chatgpt/conversations.json');
      const body = (await page.page.locator('[data-testid="grid-body"]').boundingBox())!;
      expect(Math.round(body.width)).toBe(500);
      const cell = (await page.page.locator('[data-testid="row"][data-index="3"] [data-testid="row-tokens"]').boundingBox())!;
      expect(cell.x + cell.width).toBeLessThanOrEqual(body.x + body.width);
    });

    it('a fork arrow from the keyboard: Enter on it switches the branch, not opens the row', async () => {
      const { page } = await start();
      await page.open('chatgpt/conversations.json');
      await page.page.focus('[data-testid="fork-switch"][data-at="2"] [data-testid="fork-prev"]');
      await page.page.keyboard.press('Enter');
      await page.page.waitForFunction(() => document.querySelector('[data-testid="fork-switch"][data-at="2"]')?.textContent?.includes('1/2'));
    });

    it('an OpenAssistant tree follows its best-ranked answers; the others are a click away', async () => {
      const { page } = await start();
      await page.open('oasst/2023-04-12_oasst_ready.trees.jsonl');
      expect(await rowTexts(page)).toHaveLength(4);
      expect(await page.page.textContent('[data-testid="fork-switch"][data-at="1"]')).toContain('1/3');
      await page.page.click('[data-testid="fork-switch"][data-at="1"] [data-testid="fork-next"]');
      await page.page.waitForFunction(() => document.querySelectorAll('[data-testid="row"]').length === 2);
      expect((await rowTexts(page))[1]).toContain('one large employer in a small town');
      await page.screenshot(`${mode}-oasst-ranked`);
    });

    it('a Claude Code session: the compaction row, the whole session, and the window panel’s reported curve beside the strategy’s', async () => {
      const { page } = await start();
      await page.open('claude-code/cart-rewind-compact.jsonl');
      expect(await page.page.textContent('[data-testid="row"][data-index="0"]')).toContain('● Compacted');
      await page.screenshot(`${mode}-compaction-row`);
      await page.page.click('[data-testid="show-whole"]');
      await page.page.waitForSelector('[data-testid="show-since-compaction"]');
      await page.page.keyboard.press('w');
      await page.page.waitForSelector('[data-testid="context-curve"]');
      // The agent's own default: compacting near the model's window, as Claude Code does.
      expect(await page.page.$eval('[data-testid="strategy"]', (s) => (s as HTMLSelectElement).value)).toBe('auto-compact');
      expect(await page.page.getAttribute('[data-testid="curve-actual"]', 'd')).toMatch(/^M/);
      expect(await page.page.getAttribute('[data-testid="curve-what-if"]', 'd')).toMatch(/^M/);
      // The whole session holds its compaction: the curve marks where the agent compacted.
      expect(await page.page.locator('[data-testid="curve-compaction"]').count()).toBeGreaterThan(0);
      // Its figures read at the size of the text around them, not scaled down to a panel's width.
      const tick = await page.page.$eval('[data-testid="context-curve"] .tick', (t) => (t as SVGTextElement).getBoundingClientRect().height);
      expect(tick).toBeGreaterThan(9);
      // The system prompt and tools are one figure in the panel: the curve adds what the setting says.
      const fixed = Number(await page.page.inputValue('[data-testid="input-fixedTokens"]'));
      expect(fixed).toBeGreaterThan(0);
      expect(await page.page.textContent('[data-testid="context-curve"] figcaption')).toContain(`with the ${fixed.toLocaleString('en')} tok of system prompt and tools set above`);
      await page.ready();
      await page.page.locator('[data-testid="context-curve"]').scrollIntoViewIfNeeded();
      await page.screenshot(`${mode}-context-curves`);
    });
  });
}
