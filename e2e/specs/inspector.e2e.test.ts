import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, tempDir } from '../../test/helpers.js';
import { termMatches } from '../../src/core/search/snippet.js';
import { queryTerms, textMatches } from '../../src/core/search/words.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Mode, type Session } from '../support/browsers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const cliJson = (...args: string[]) => JSON.parse(spawnSync(process.execPath, [BIN, ...args, '--json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).stdout);

/** A private copy of the examples (and, when asked, the malformed fixtures) for one test. */
function workspace(withMalformed = false): string {
  const dir = tempDir();
  cpSync(join(ROOT, 'examples'), dir, { recursive: true });
  if (withMalformed) {
    for (const f of ['truncated.json', 'missing_role.json', 'bad_indent.yaml', 'binary.json']) cpSync(join(FIXTURES, 'malformed', f), join(dir, f));
  }
  return dir;
}

for (const mode of ['browser', 'electron'] as Mode[]) {
  const reason = unavailable(mode);
  if (reason) console.log(`e2e (${mode}) skipped: ${reason}`);

  describe.skipIf(reason !== undefined)(`inspector e2e (${mode})`, () => {
    let session: Session | undefined;
    afterEach(async () => {
      await session?.close();
      session = undefined;
    });

    async function start(dir: string): Promise<InspectorPage> {
      session = await openInspector(mode, dir);
      const page = new InspectorPage(session.page);
      await page.ready();
      return page;
    }

    it('lists every file of the folder with the same counts as the CLI', async () => {
      const dir = workspace(true);
      const page = await start(dir);
      const files = await page.files();
      const expected = cliJson('ls', dir).files;
      expect(files.map((f) => f.path).sort()).toEqual(expected.map((f: { path: string }) => f.path).sort());
      for (const e of expected) {
        const shown = files.find((f) => f.path === e.path)!;
        if (e.error) expect('error' in shown && shown.error.length > 0).toBe(true);
        else expect(shown).toEqual({ path: shown.path, messages: e.messages });
      }
      // Opened, a file shows the total the CLI gives.
      const first = expected.find((e: { error?: string; conversations?: number }) => !e.error && e.conversations === 1);
      await page.open(first.path);
      await page.page.waitForFunction(([path, want]) => document.querySelector(`[data-testid="file"][data-path="${path}"] [data-testid="file-tokens"]`)?.textContent === want, [first.path, first.tokens.toLocaleString('en-US')]);
      await page.screenshot(`${mode}-folder`);
    });

    it('shows every message with the token count the CLI gives', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('coding_session.json');
      const rows = await page.visibleRows();
      const cli = cliJson('show', join(dir, 'coding_session.json')).messages;
      expect(rows).toEqual(cli.map((m: { index: number; tokens: number }) => ({ index: m.index, tokens: m.tokens })));
      await page.page.click('[data-testid="row"][data-index="3"]');
      await page.page.waitForSelector('[data-testid="detail-content"]');
      expect(await page.page.textContent('[data-testid="detail-content"]')).toBe(cli[3].content);
      await page.screenshot(`${mode}-conversation`);
    });

    it('a message whose content is empty shows it empty, its tool calls as cards only; a search in its reasoning opens the reasoning', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('trip_planner_tools.json');
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.waitForSelector('[data-testid="tool-call-card"]');
      expect(await page.page.textContent('[data-testid="detail-content"]')).toBe('(empty)');
      expect(await page.page.$$eval('[data-testid="tool-call-card"] strong', (els) => els.map((e) => e.textContent))).toEqual(['get_weather', 'get_weather']);
      // A Codex rollout's reasoning, found by the file's search: open, the word marked and counted.
      await page.open('agents/codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');
      await page.page.click('[data-testid="show-whole"]');
      await page.page.waitForFunction(() => document.querySelectorAll('[data-testid="row"]').length > 5);
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.waitForSelector('[data-testid="reasoning"]');
      const reasoning = await page.page.$eval('[data-testid="reasoning"] pre', (e) => e.textContent ?? '');
      const word = /[A-Za-z]{6,}/.exec(reasoning)![0];
      await page.search(word);
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.waitForSelector('[data-testid="reasoning"][open] mark.hit');
      await page.page.waitForFunction(() => /^match 1 of \d+ in this message/.test(document.querySelector('[data-testid="detail-hits"]')?.textContent ?? ''));
    });

    it('the column headers stand over their columns, with or without a scrollbar', async () => {
      const dir = workspace();
      const page = await start(dir);
      for (const file of ['support_thread_long.json', 'coding_session.json']) {
        await page.open(file);
        const lefts = await page.page.evaluate(() => {
          const x = (el: Element) => Math.round(el.getBoundingClientRect().left);
          return { head: [...document.querySelectorAll('.grid-head .cell')].map(x), row: [...document.querySelectorAll('[data-testid="row"] .cell')].slice(0, 7).map(x) };
        });
        expect(lefts.head.length).toBeGreaterThan(3);
        expect(lefts.row).toEqual(lefts.head);
      }
    });

    it('panes resize by dragging or with the arrow keys, the sizes kept after a reload; the detail folds away', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('coding_session.json');
      const width = () => page.page.$eval('.sidebar', (el) => Math.round(el.getBoundingClientRect().width));
      const before = await width();
      const bar = (await page.page.locator('[data-testid="split-sidebar"]').boundingBox())!;
      await page.page.mouse.move(bar.x + bar.width / 2, bar.y + 200);
      await page.page.mouse.down();
      await page.page.mouse.move(bar.x + bar.width / 2 + 120, bar.y + 200, { steps: 6 });
      await page.page.mouse.up();
      expect(await width()).toBe(before + 120);
      await page.page.focus('[data-testid="split-sidebar"]');
      await page.page.keyboard.press('ArrowLeft');
      expect(await width()).toBe(before + 120 - 16);
      // The detail pane: empty until a message is chosen, then its own height, folded with one click.
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.waitForSelector('[data-testid="split-detail"]');
      await page.page.click('[data-testid="detail-fold"]');
      await page.page.waitForSelector('[data-testid="detail"]', { state: 'detached' });
      expect(await page.page.textContent('[data-testid="detail-fold"]')).toBe('▸ message 2');
      // A column: dragged wider by its header's edge, its cells following, kept like the panes.
      const roleWidth = () => page.page.evaluate(() => ({ head: Math.round(document.querySelector('.grid-head .col-role')!.getBoundingClientRect().width), row: Math.round(document.querySelector('[data-testid="row"] .col-role')!.getBoundingClientRect().width) }));
      expect(await roleWidth()).toEqual({ head: 110, row: 110 });
      const edge = (await page.page.locator('[data-testid="col-resize-role"]').boundingBox())!;
      await page.page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
      await page.page.mouse.down();
      await page.page.mouse.move(edge.x + edge.width / 2 + 50, edge.y + edge.height / 2, { steps: 5 });
      await page.page.mouse.up();
      expect(await roleWidth()).toEqual({ head: 160, row: 160 });
      // Dragging a column's edge does not sort by it.
      expect(await page.page.getAttribute('.grid-head .col-role', 'aria-sort')).toBeNull();
      await page.page.reload();
      await page.ready();
      expect(await width()).toBe(before + 104);
      // The fold is remembered too: the detail stays folded to its line.
      await page.open('coding_session.json');
      expect(await roleWidth()).toEqual({ head: 160, row: 160 });
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.waitForSelector('[data-testid="detail-fold"]:has-text("▸ message 2")');
      await page.page.dblclick('[data-testid="col-resize-role"]');
      expect(await roleWidth()).toEqual({ head: 110, row: 110 });
    });

    it.skipIf(mode !== 'browser')('sizes outlive the address: a browser-mode restart (a new port) keeps the column widths', async () => {
      const dir = workspace();
      const state = mkdtempSync(join(tmpdir(), 'ci-sizes-state-'));
      try {
        session = await openInspector(mode, dir, { XDG_STATE_HOME: state });
        let page = new InspectorPage(session.page);
        await page.ready();
        await page.open('coding_session.json');
        await page.page.focus('[data-testid="col-resize-tokens"]');
        for (let k = 0; k < 3; k++) await page.page.keyboard.press('ArrowRight');
        const tokensWidth = () => page.page.evaluate(() => Math.round(document.querySelector('.grid-head .col-tokens')!.getBoundingClientRect().width));
        expect(await tokensWidth()).toBe(110 + 3 * 16);
        const before = new URL(page.page.url()).port;
        // Kept with the settings once the keys pause; then the server stops and another starts on another port.
        const settings = join(state, 'conversation-inspector', 'settings.json');
        await expect.poll(() => (existsSync(settings) ? JSON.parse(readFileSync(settings, 'utf8')).ui?.columns?.tokens : undefined), { timeout: 10_000 }).toBe(110 + 3 * 16);
        await session.close();
        session = await openInspector(mode, dir, { XDG_STATE_HOME: state });
        page = new InspectorPage(session.page);
        await page.ready();
        expect(new URL(page.page.url()).port).not.toBe(before);
        await page.open('coding_session.json');
        await page.page.waitForFunction((w) => Math.round(document.querySelector('.grid-head .col-tokens')!.getBoundingClientRect().width) === w, 110 + 3 * 16);
      } finally {
        // The server goes first: it keeps its catalog in the state folder, written while it runs.
        await session?.close();
        session = undefined;
        rmSync(state, { recursive: true, force: true });
      }
    });

    it('a narrow window: the header scrolls sideways with the rows; ↑/↓ still move after the editor closes', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('coding_session.json');
      await page.page.setViewportSize({ width: 900, height: 760 });
      const scrolled = await page.page.evaluate(() => {
        const body = document.querySelector<HTMLElement>('[data-testid="grid-body"]')!;
        body.scrollLeft = 120;
        body.dispatchEvent(new Event('scroll'));
        return body.scrollLeft;
      });
      expect(scrolled).toBeGreaterThan(0);
      await page.page.waitForFunction((want) => document.querySelector('.grid-head')!.scrollLeft === want, scrolled);
      const aligned = await page.page.evaluate(() => {
        const x = (el: Element) => Math.round(el.getBoundingClientRect().left);
        const row = document.querySelector('[data-testid="row"]')!;
        return { head: [...document.querySelectorAll('.grid-head .cell')].map(x), row: [...row.querySelectorAll('.cell')].map(x) };
      });
      expect(aligned.row).toEqual(aligned.head);
      // The editor takes the focus and gives it back to no one when it closes: the table's keys still work.
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.keyboard.press('e');
      await page.page.waitForSelector('[data-testid="edit-content"]');
      await page.page.keyboard.press('Escape');
      await page.page.waitForSelector('[data-testid="edit-content"]', { state: 'detached' });
      await page.page.keyboard.press('ArrowDown');
      await page.page.waitForSelector('[data-testid="row"][data-index="3"][aria-selected="true"]');
    });

    it('search filters the rows, including ones not rendered yet', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('support_thread_long.json');
      await page.search('timezone handling');
      // The rule of every search here: each word of the query begins a word of the message.
      const terms = queryTerms('timezone handling');
      const textOf = (m: { content: unknown }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
      const expected = cliJson('show', join(dir, 'support_thread_long.json')).messages.filter((m: { content: unknown }) => textMatches(textOf(m), terms));
      expect(await page.page.textContent('[data-testid="match-count"]')).toBe(`${expected.length.toLocaleString('en-US')} matches`);
      const rows = await page.visibleRows();
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(expected.map((m: { index: number }) => m.index)).toContain(r.index);
      // The filters say what they leave, and clear in one click.
      await page.page.waitForFunction((n) => document.querySelector('[data-testid="shown-count"]')?.textContent?.startsWith(`${n} of 3,000 shown`), expected.length.toLocaleString('en-US'));
      // The totals follow the filters, the whole conversation's beside: the CLI's counts of the same messages.
      const all = cliJson('show', join(dir, 'support_thread_long.json'));
      const shownTokens = expected.reduce((n: number, m: { tokens: number }) => n + m.tokens, 0);
      await page.page.waitForFunction((w) => document.querySelector('[data-testid="shown-tokens"]')?.textContent === w, ` · ${shownTokens.toLocaleString('en-US')} of ${all.totalTokens.toLocaleString('en-US')} tok`);
      // In the detail pane, the matches of the open message are marked, counted and stepped through.
      await page.page.click(`[data-testid="row"][data-index="${rows[0].index}"]`);
      await page.page.waitForSelector('[data-testid="detail-hits"]');
      const opened = textOf(expected.find((m: { index: number }) => m.index === rows[0].index));
      const marks = termMatches(opened, terms).map(([a, b]) => opened.slice(a, b).toLowerCase());
      const inMessage = marks.length;
      expect(await page.page.textContent('[data-testid="detail-hits"]')).toContain(`match 1 of ${inMessage} in this message`);
      expect(await page.page.$$eval('#detail mark.hit', (m) => m.map((x) => x.textContent?.toLowerCase()))).toEqual(marks);
      if (inMessage > 1) {
        await page.page.click('[data-testid="hit-next"]');
        await page.page.waitForFunction(() => document.querySelectorAll('#detail mark.hit')[1]?.classList.contains('current'));
      }
      await page.screenshot(`${mode}-search`);
      await page.page.click('[data-testid="clear-filters"]');
      await page.page.waitForSelector('[data-testid="shown-count"]', { state: 'detached' });
      expect(await page.page.inputValue('[data-testid="search"]')).toBe('');
      expect(await page.page.getAttribute('[data-testid="message-grid"]', 'aria-rowcount')).toBe('3000');
    });

    it('a message another process appends appears without a reload, keeping the scroll position', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('support_thread_long.json');
      const body = page.page.locator('[data-testid="grid-body"]');
      await body.evaluate((el) => (el.scrollTop = 12_000));
      await page.page.waitForFunction(() => document.querySelector('[data-testid="grid-body"]')!.scrollTop > 11_000);
      const before = await body.evaluate((el) => el.scrollTop);
      const file = join(dir, 'support_thread_long.json');
      // An agent writing its history: a separate process rewrites the file with one more message.
      const writer = spawnSync(
        process.execPath,
        ['-e', `const fs=require('fs');const f=process.argv[1];const h=JSON.parse(fs.readFileSync(f,'utf8'));h.push({role:'assistant',content:'Appended by another process.'});fs.writeFileSync(f,JSON.stringify(h,null,4))`, file],
        { encoding: 'utf8' },
      );
      expect(writer.status).toBe(0);
      await page.page.waitForSelector('[data-testid="conv-title"]');
      await page.page.waitForFunction(() => /3,001 msgs/.test(document.querySelector('.conv-head')?.textContent ?? ''), undefined, { timeout: 15_000 });
      await page.ready();
      expect(await body.evaluate((el) => el.scrollTop)).toBe(before);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(3001);
      await body.evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page.page.waitForSelector('[data-testid="row"][data-index="3000"]');
      expect(await page.page.textContent('[data-testid="row"][data-index="3000"]')).toContain('Appended by another process.');
      await page.screenshot(`${mode}-live-append`);
    });

    it('a new file written into the folder appears in the sidebar', async () => {
      const dir = workspace();
      const page = await start(dir);
      writeFileSync(join(dir, 'new_agent_run.json'), JSON.stringify([{ role: 'user', content: 'hello' }]));
      await page.page.waitForSelector('[data-testid="file"][data-path="new_agent_run.json"]', { timeout: 15_000 });
      await page.ready();
      const files = await page.files();
      expect(files.find((f) => f.path === 'new_agent_run.json')).toEqual({ path: 'new_agent_run.json', messages: 1 });
    });

    it('is usable from the keyboard: arrows, Home/End, Enter, / to search', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('coding_session.json');
      await page.page.focus('[data-testid="message-grid"]');
      for (let i = 0; i < 3; i++) await page.page.keyboard.press('ArrowDown');
      await page.page.waitForSelector('[data-testid="row"][data-index="2"][aria-selected="true"]');
      await page.page.keyboard.press('End');
      await page.page.waitForSelector('[data-testid="row"][data-index="7"][aria-selected="true"]');
      await page.page.keyboard.press('Home');
      await page.page.waitForSelector('[data-testid="row"][data-index="0"][aria-selected="true"]');
      await page.page.keyboard.press('Enter');
      expect(await page.page.evaluate(() => document.activeElement?.id)).toBe('detail');
      // Esc gives the keyboard back to the table, the row still chosen, and the arrows move it again.
      await page.page.keyboard.press('Escape');
      expect(await page.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('message-grid');
      await page.page.keyboard.press('ArrowDown');
      await page.page.waitForSelector('[data-testid="row"][data-index="1"][aria-selected="true"]');
      await page.page.keyboard.press('Enter');
      await page.page.keyboard.press('/');
      expect(await page.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search');
    });

    it('the model picker recounts every message in the chosen encoding', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('coding_session.json');
      await page.page.selectOption('select[aria-label="Model or encoding for token counts"]', 'cl100k_base');
      await page.page.waitForFunction(() => /cl100k_base/.test(document.querySelector('[data-testid="summary"]')?.textContent ?? ''));
      await page.ready();
      const rows = await page.visibleRows();
      const cli = cliJson('show', join(dir, 'coding_session.json'), '--model', 'cl100k_base').messages;
      expect(rows).toEqual(cli.map((m: { index: number; tokens: number }) => ({ index: m.index, tokens: m.tokens })));
    });

    it('an open file that is deleted says so', async () => {
      const dir = workspace();
      const page = await start(dir);
      await page.open('coding_session.json');
      rmSync(join(dir, 'coding_session.json'));
      await page.page.waitForSelector('[data-testid="open-error"]', { timeout: 15_000 });
      expect(await page.page.textContent('[data-testid="open-error"]')).toContain('coding_session.json was removed or renamed on disk.');
      await page.page.waitForFunction(() => !document.querySelector('[data-path="coding_session.json"]'));
    });

    it('a malformed file shows its error with line and column, never a blank screen', async () => {
      const dir = workspace(true);
      const page = await start(dir);
      await page.open('truncated.json');
      const alert = await page.page.textContent('[data-testid="open-error"]');
      expect(alert).toContain('truncated.json:23:7: invalid JSON: unexpected end of file');
      expect(alert).toContain('line 23, column 7');
      // The listing's quick pass may show the file's count before the whole read reports its error.
      await page.page.waitForFunction(() => /message 0 has no "role"/.test(document.querySelector('[data-testid="file"][data-path="missing_role.json"]')?.textContent ?? ''), undefined, { timeout: 15_000 });
      const entry = await page.file('missing_role.json').textContent();
      expect(entry).toContain('line 1, col 2: message 0 has no "role"');
      await page.screenshot(`${mode}-malformed`);
    });
  });
}
