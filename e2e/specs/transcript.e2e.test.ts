// Reading a session as a transcript, as a user does: turns as the agent had them (a call's lines and its results
// one exchange), Markdown rendered inert, tool calls as cards with their results folded, reasoning folded, a
// sub-agent unfolded in place, a compaction as a band; the table and the transcript one key apart, each opening
// where the other was; the file's search marked and gone through; axe at zero serious violations. On the bundled
// examples and on files written here, at 1440×900 and 1100×700, each screen kept (test-results/screenshots).
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { axeViolations } from '../support/axe.js';
import { openInspector, unavailable, type Session } from '../support/browsers.js';

const SIZES = [
  { width: 1440, height: 900, tag: '' },
  { width: 1100, height: 700, tag: '-1100' },
] as const;

const SID = 'b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13';
const CODEX = 'agents/codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl';

/** A swarms conversation of our own: an empty answer, and one holding what a hostile page would (script, remote images, script links). */
const HOSTILE = JSON.stringify(
  [
    { role: 'user', content: 'Summarise the page you fetched.', timestamp: '2026-12-01T10:00:00' },
    { role: 'assistant', content: '', timestamp: '2026-12-01T10:00:01' },
    {
      role: 'assistant',
      content: "# Notes\n\n<script>document.title = 'pwned'</script>\n\n<img src=\"http://evil.example/x.png\" onerror=\"document.title = 'pwned'\">\n\n![pixel](http://evil.example/pixel.png) · [click](javascript:document.title='pwned') · [the docs](https://example.com/docs)\n\n```js\nconst total = 1;\n```",
      timestamp: '2026-12-01T10:00:02',
    },
  ],
  null,
  2,
);
/** A Claude Code answer whose content is an empty list: "(empty)", never "[]". */
const EMPTY_SESSION = [
  { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-12-01T10:00:00Z', message: { role: 'user', content: 'Anything?' } },
  { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2026-12-01T10:00:01Z', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [] } },
]
  .map((l) => JSON.stringify(l))
  .join('\n');

const reason = unavailable('browser');
if (reason) console.log(`transcript e2e skipped: ${reason}`);
describe.skipIf(reason !== undefined)('the transcript (browser)', () => {
  let session: Session | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function start(size: { width: number; height: number } = SIZES[0], extra: Record<string, string> = {}): Promise<InspectorPage> {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    cpSync(join(ROOT, 'test', 'fixtures', 'formats', 'claude-code', 'task-subagent.jsonl'), join(dir, 'agents', 'claude-code', 'task-subagent.jsonl'));
    for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
    session = await openInspector('browser', dir, { XDG_STATE_HOME: tempDir() });
    await session.page.setViewportSize(size);
    const page = new InspectorPage(session.page);
    await page.ready();
    return page;
  }

  it('a Claude Code session: a call’s two lines and its result are one turn, the result and the reasoning folded, the reported cost in the margin, the compaction a band', { timeout: 120_000 }, async () => {
    for (const size of SIZES) {
      const page = await start(size);
      await page.open('agents/claude-code/cart-rewind-compact.jsonl');
      // The whole session, from before its compaction.
      await page.page.click('[data-testid="show-whole"]');
      await page.page.waitForSelector('[data-testid="show-since-compaction"]');
      await page.page.keyboard.press('r');
      await page.transcript();
      const items = await page.transcriptItems();
      // Its first call: a thinking line and a Read line (one message.id), then the Read's result: one turn.
      expect(items.slice(0, 5).map((i) => i.turn)).toEqual([-1, 0, 0, 0, 1]);
      const first = page.page.locator('[data-testid="tx-message"][data-index="1"]');
      expect(await first.locator('[data-testid="tx-figures"]').getAttribute('data-kind')).toBe('reported');
      expect(await first.locator('[data-testid="tx-figures"]').textContent()).toMatch(/in · .* out.*\$/);
      // Reasoning folded, counted apart.
      expect(await first.locator('[data-testid="tx-reasoning-fold"]').getAttribute('aria-expanded')).toBe('false');
      expect(await first.locator('[data-testid="tx-reasoning"]').textContent()).toMatch(/tokens, counted apart/);
      // The call as a card with its arguments; its result folded until asked.
      const call = page.page.locator('[data-testid="tx-message"][data-index="2"] [data-testid="tx-tool-call"]');
      expect(await call.textContent()).toContain('Read');
      expect(await call.textContent()).toContain('file_path');
      const result = page.page.locator('[data-testid="tx-message"][data-index="3"] [data-testid="tx-tool-result"]');
      expect(await result.locator('[data-testid="tx-result-body"]').count()).toBe(0);
      await result.locator('[data-testid="tx-result-fold"]').click();
      await result.locator('[data-testid="tx-result-body"]').waitFor();
      expect(await result.locator('[data-testid="tx-result-body"]').textContent()).toContain('export');
      // Esc closes what was opened in the selected message, the next Esc is the page's.
      await page.page.keyboard.press('Escape');
      await result.locator('[data-testid="tx-result-body"]').waitFor({ state: 'detached' });
      await page.screenshot(`browser-transcript-claude-code${size.tag}`);
      // The compaction: a band with what the tool measured before it and the summary after.
      await page.page.keyboard.press('End');
      await page.page.waitForSelector('[data-testid="tx-compaction"]');
      const band = (await page.page.textContent('[data-testid="tx-compaction"]')) ?? '';
      expect(band).toContain('Compacted');
      expect(band).toContain('before: 23,180 tokens');
      expect(await page.page.textContent('[data-testid="tx-compaction-after"]')).toMatch(/the summary, [\d,]+ tokens counted here/);
      await page.page.waitForSelector('[data-testid="tx-summary"]');
      expect(await page.page.getAttribute('[data-testid="tx-summary-fold"]', 'aria-expanded')).toBe('false');
      await page.transcriptSettled();
      // The band at the top of the screen, what came after it below.
      await page.page.$eval('[data-testid="tx-compaction"]', (e) => e.scrollIntoView({ block: 'start' }));
      await page.transcriptSettled();
      await page.screenshot(`browser-transcript-compaction${size.tag}`);
      const axe = await axeViolations(page.page);
      expect(axe, JSON.stringify(axe, null, 1)).toEqual([]);
      await session!.close();
      session = undefined;
    }
  });

  it('a Task call’s sub-agent unfolds in place: its own file’s messages (Claude Code 2.1), or its thread of the session', { timeout: 120_000 }, async () => {
    const page = await start(SIZES[1]);
    await page.open(`agents/claude-code/${SID}.jsonl`);
    await page.transcript();
    await page.page.waitForSelector('[data-testid="tx-message"][data-index="1"] [data-testid="tx-subagent"]');
    const agent = page.page.locator('[data-testid="tx-message"][data-index="1"] [data-testid="tx-subagent"]');
    expect(await agent.textContent()).toContain('Find tax computations');
    await agent.locator('[data-testid="tx-subagent-fold"]').click();
    await agent.locator('[data-testid="tx-sub-message"]').first().waitFor();
    expect(await agent.locator('[data-testid="tx-sub-message"]').first().textContent()).toContain('List every function in src/');
    expect(await agent.locator('[data-testid="tx-tool-call"]').count()).toBeGreaterThan(0);
    await page.transcriptSettled();
    await page.screenshot('browser-transcript-subagent-1100');
    const axe = await axeViolations(page.page);
    expect(axe, JSON.stringify(axe, null, 1)).toEqual([]);
    // A sub-agent written in the session's own file: its thread, in place.
    await page.open('agents/claude-code/task-subagent.jsonl');
    await page.transcript();
    const inline = page.page.locator('[data-testid="tx-message"][data-index="1"] [data-testid="tx-subagent"]');
    await inline.locator('[data-testid="tx-subagent-fold"]').click();
    await inline.locator('[data-testid="tx-sub-message"]').first().waitFor();
    expect(await inline.locator('[data-testid="tx-sub-message"]').first().textContent()).toContain('Find every call of formatDate');
    // Its thread a click away, as the table's link does.
    await inline.locator('[data-testid="tx-subagent-open"]').click();
    await page.page.waitForFunction(() => document.querySelector('[data-testid="thread-menu"]')?.getAttribute('data-thread') !== 'main');
  });

  it('a Codex session and a swarms file: reasoning, a call and its output one turn; parallel calls and both results one exchange, estimated where no usage is recorded', { timeout: 120_000 }, async () => {
    for (const size of SIZES) {
      const page = await start(size);
      await page.open(CODEX);
      await page.page.click('[data-testid="show-whole"]');
      await page.page.waitForSelector('[data-testid="show-since-compaction"]');
      await page.transcript();
      const items = await page.transcriptItems();
      const turn = items.find((i) => i.text.includes('Reasoning'))!.turn;
      expect(turn).toBeGreaterThanOrEqual(0);
      const ofTurn = items.filter((i) => i.turn === turn);
      expect(ofTurn.length).toBeGreaterThanOrEqual(3);
      expect(await page.page.locator(`[data-testid="tx-message"][data-index="${ofTurn[0].index}"] [data-testid="tx-figures"]`).getAttribute('data-kind')).toBe('reported');
      await page.screenshot(`browser-transcript-codex${size.tag}`);
      await page.open('trip_planner_tools.json');
      await page.transcript();
      const trip = await page.transcriptItems();
      expect(trip.map((i) => i.turn)).toEqual([-1, -1, 0, 0, 0, 1, 1, 2]);
      expect(await page.page.locator('[data-testid="tx-message"][data-index="2"] [data-testid="tx-tool-call"]').count()).toBe(2);
      const fig = page.page.locator('[data-testid="tx-message"][data-index="2"] [data-testid="tx-figures"]');
      expect(await fig.getAttribute('data-kind')).toBe('estimated');
      expect(await fig.textContent()).toMatch(/^≈/);
      expect(await fig.getAttribute('title')).toMatch(/^Estimated here/);
      await page.screenshot(`browser-transcript-swarms${size.tag}`);
      const axe = await axeViolations(page.page);
      expect(axe, JSON.stringify(axe, null, 1)).toEqual([]);
      await session!.close();
      session = undefined;
    }
  });

  // Retried as a guard: on a loaded CI machine the table's height settled after it was placed, leaving the selected
  // row below the screen (now kept in sight while it settles); each attempt asserts the whole behaviour.
  it('the table and the transcript, one key apart, each open at the selected message and where the reader was', { timeout: 120_000, retry: 2 }, async () => {
    const page = await start(SIZES[1]);
    await page.open('support_thread_long.json');
    // Go to #1500 in the table (the palette), then read it as a transcript.
    await page.page.keyboard.press('Control+k');
    await page.page.fill('[data-testid="palette-input"]', '#1500');
    await page.page.keyboard.press('Enter');
    await page.page.waitForSelector('[data-testid="row"][data-index="1500"][aria-selected="true"]');
    const tableView = await page.rowsInView();
    expect(tableView).toContain(1500);
    await page.page.focus('[data-testid="message-grid"]');
    await page.page.keyboard.press('r');
    await page.transcript();
    let shown = await page.transcriptInView();
    expect(shown).toContain(1500);
    expect((await page.transcriptItems()).find((i) => i.index === 1500)?.selected).toBe(true);
    // On, a turn at a time (a tool's answer and the assistant's are units of their own here), and back to the table.
    await page.page.focus('[data-testid="transcript"]');
    for (let k = 0; k < 6; k++) await page.page.keyboard.press('ArrowDown');
    const chosen = (await page.page.getAttribute('[data-testid="tx-message"][aria-current="true"]', 'data-index'))!;
    expect(Number(chosen)).toBeGreaterThan(1500);
    await page.transcriptSettled();
    shown = await page.transcriptInView();
    const topThere = shown[0];
    await page.page.keyboard.press('r');
    await page.table();
    await page.page.waitForSelector(`[data-testid="row"][data-index="${chosen}"][aria-selected="true"]`);
    const rows = await page.rowsInView();
    expect(rows).toContain(Number(chosen));
    // The table opens where the transcript was: its top message in view (at the top, unless the detail pane the
    // table opens with took the room the selected message needed).
    expect(rows, `the transcript's top was #${topThere}`).toContain(topThere);
    expect(rows[0]).toBeLessThanOrEqual(topThere);
    // And back: the same place again.
    await page.page.keyboard.press('r');
    await page.transcript();
    expect(await page.transcriptInView()).toContain(Number(chosen));
  });

  it('the search’s words are marked in the transcript; Enter, n and N go from match to match; Ctrl+G, "go to #N", goes there', { timeout: 120_000 }, async () => {
    const page = await start();
    await page.open('support_thread_long.json');
    await page.transcript();
    await page.search('memory leak');
    const matches = Number(((await page.page.textContent('[data-testid="match-count"]')) ?? '').replace(/[^\d]/g, ''));
    expect(matches).toBeGreaterThan(3);
    // Enter in the search box: the first match.
    await page.page.focus('[data-testid="search"]');
    await page.page.keyboard.press('Enter');
    await page.page.waitForSelector('[data-testid="tx-message"][aria-current="true"].matched');
    const firstMatch = Number(await page.page.getAttribute('[data-testid="tx-message"][aria-current="true"]', 'data-index'));
    await page.transcriptSettled();
    expect(await page.transcriptInView()).toContain(firstMatch);
    const marks = await page.page.$$eval(`[data-testid="tx-message"][data-index="${firstMatch}"] mark.hit`, (m) => m.map((x) => x.textContent?.toLowerCase()));
    expect(marks).toEqual(expect.arrayContaining(['memory', 'leak']));
    expect(await page.page.textContent('[data-testid="match-at"]')).toBe(`1/${matches.toLocaleString('en-US')}`);
    // n in the transcript: the next; N: back.
    await page.page.focus('[data-testid="transcript"]');
    await page.page.keyboard.press('n');
    await page.page.waitForFunction((f) => Number(document.querySelector('[data-testid="tx-message"][aria-current="true"]')?.getAttribute('data-index')) > f, firstMatch);
    const second = Number(await page.page.getAttribute('[data-testid="tx-message"][aria-current="true"]', 'data-index'));
    expect((await page.transcriptItems()).find((i) => i.index === second)?.matched).toBe(true);
    await page.page.keyboard.press('Shift+N');
    await page.page.waitForSelector(`[data-testid="tx-message"][data-index="${firstMatch}"][aria-current="true"]`);
    // N here is the search's, not "add a message": the file is as it was.
    expect(await page.page.isDisabled('[data-testid="save-button"], button:has-text("Save")')).toBe(true);
    await page.transcriptSettled();
    await page.screenshot('browser-transcript-search');
    // Go to #2400: Ctrl+G opens the palette at "#", the number typed after it.
    await page.page.keyboard.press('Control+g');
    expect(await page.page.inputValue('[data-testid="palette-input"]')).toBe('#');
    await page.page.keyboard.type('2400');
    await page.page.keyboard.press('Enter');
    await page.page.waitForSelector('[data-testid="tx-message"][data-index="2400"][aria-current="true"]');
    await page.transcriptSettled();
    expect(await page.transcriptInView()).toContain(2400);
    const axe = await axeViolations(page.page);
    expect(axe, JSON.stringify(axe, null, 1)).toEqual([]);
  });

  it('with the window panel open, each message says its fate under the plan, as the table’s rows do', { timeout: 120_000 }, async () => {
    const page = await start();
    await page.open('support_thread_long.json');
    await page.transcript();
    await page.page.keyboard.press('w');
    await page.page.waitForSelector('[data-testid="plan-totals"]');
    await page.page.waitForSelector('[data-testid="transcript"] ~ [data-testid="minimap"], .transcript-wrap [data-testid="minimap"]');
    // The start of a long thread is what a window leaves out.
    await page.page.focus('[data-testid="transcript"]');
    await page.page.keyboard.press('Home');
    await page.page.waitForSelector('[data-testid="tx-message"][data-fate]');
    const fates = new Set((await page.transcriptItems()).map((i) => i.fate));
    expect([...fates].some((f) => f === 'dropped' || f === 'summarised' || f === 'cut')).toBe(true);
    // The same fate the table gives the same message.
    const first = (await page.transcriptItems())[0];
    await page.page.keyboard.press('r');
    await page.table();
    expect(await page.page.getAttribute(`[data-testid="row"][data-index="${first.index}"]`, 'data-fate')).toBe(first.fate);
    await page.page.keyboard.press('r');
    await page.transcript();
    await page.screenshot('browser-transcript-window');
    const axe = await axeViolations(page.page);
    expect(axe, JSON.stringify(axe, null, 1)).toEqual([]);
  });

  it('a message opened from a search hit stays at the top of the transcript while the taller messages above it are measured', { timeout: 120_000 }, async () => {
    // Messages far taller than a row's estimate: code, lists and paragraphs, each its own.
    const tall = (k: number) => [`## Step ${k}`, '', ...Array.from({ length: 14 }, (_, j) => `- item ${j} of step ${k}: the upload retries after a pause`), '', '```ts', ...Array.from({ length: 10 }, (_, j) => `const v${j} = retry(${k}, ${j});`), '```'].join('\n');
    const session = (word: string, at: number) => JSON.stringify(Array.from({ length: 40 }, (_, k) => ({ role: k % 2 ? 'assistant' : 'user', content: k === at ? `The ${word} is here.` : tall(k) })), null, 2);
    const page = await start(SIZES[0], { 'tall-a.json': session('quokkamark', 27), 'tall-b.json': session('wombatmark', 31), 'tall-c.json': session('numbatmark', 5) });
    await page.open('tall-a.json');
    // To the table and back: the transcript keeps where the reader was in this session, and no other.
    await page.transcript();
    await page.table();
    await page.transcript();
    // #5 is on the first screen by the estimates of the messages above it, and far below it once they are drawn.
    for (const [word, at, file] of [['numbatmark', 5, 'tall-c.json'], ['wombatmark', 31, 'tall-b.json'], ['quokkamark', 27, 'tall-a.json'], ['wombatmark', 31, 'tall-b.json']] as const) {
      await page.page.keyboard.press('Control+Shift+F');
      await page.page.waitForSelector('[data-testid="search-all-input"]');
      await page.page.fill('[data-testid="search-all-input"]', word);
      // The answer to this query, not the one before it.
      await page.page.waitForFunction((q) => {
        const summary = document.querySelector('[data-testid="search-all-summary"]');
        return summary?.getAttribute('data-query') === q && !summary.hasAttribute('data-busy') && /^1 message/.test(summary.textContent ?? '');
      }, word, { timeout: 60_000 });
      await page.page.waitForSelector('[data-hit][aria-selected="true"]');
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="search-all"]', { state: 'detached' });
      await page.page.waitForFunction((f) => document.querySelector('[data-testid="conv-title"]')?.textContent === f, file);
      await page.page.waitForSelector(`[data-testid="tx-message"][data-index="${at}"]`);
      await page.transcriptSettled();
      await page.page.waitForTimeout(1200);
      // Its head and its text on the screen (at the top, or where it was already in full view).
      const { top, height } = await page.page.$eval(`[data-testid="tx-message"][data-index="${at}"]`, (m) => {
        const box = document.querySelector('[data-testid="transcript"]')!.getBoundingClientRect();
        return { top: m.getBoundingClientRect().top - box.top, height: box.height };
      });
      expect(top, `${word} at #${at}`).toBeGreaterThanOrEqual(-2);
      expect(top, `${word} at #${at}`).toBeLessThan(height - 120);
    }
  });

  it('in the table, a message chosen by "go to" near the screen’s bottom edge lands mid-view, with rows after it; ↓ then scrolls no more than it must', { timeout: 120_000 }, async () => {
    const chat = JSON.stringify(Array.from({ length: 60 }, (_, k) => ({ role: k % 2 ? 'assistant' : 'user', content: `Message ${k} about the upload retry.` })), null, 2);
    const page = await start(SIZES[0], { 'rows.json': chat });
    await page.open('rows.json');
    await page.table();
    const place = (i: number) =>
      page.page.$eval(`[data-testid="row"][data-index="${i}"]`, (row) => {
        const r = row.getBoundingClientRect();
        const body = document.querySelector('[data-testid="grid-body"]')!.getBoundingClientRect();
        return { top: r.top - body.top, bottom: r.bottom - body.top, height: body.height, row: r.height };
      });
    // The last row wholly on the first screen: at its bottom edge.
    const rows = await page.page.$$eval('[data-testid="row"]', (els) => {
      const body = document.querySelector('[data-testid="grid-body"]')!.getBoundingClientRect();
      return els.filter((e) => e.getBoundingClientRect().bottom <= body.bottom).map((e) => Number(e.getAttribute('data-index')));
    });
    const edge = Math.max(...rows);
    await page.page.focus('[data-testid="message-grid"]');
    await page.page.keyboard.press('Control+g');
    await page.page.waitForSelector('[data-testid="palette-input"]');
    await page.page.keyboard.type(String(edge));
    await page.page.waitForSelector(`[data-testid="palette-entry"]:has-text("Go to message ${edge}")`);
    await page.page.keyboard.press('Enter');
    await page.page.waitForSelector(`[data-testid="row"][data-index="${edge}"][aria-selected="true"]`);
    await page.page.waitForTimeout(800);
    const at = await place(edge);
    expect(at.top).toBeGreaterThanOrEqual(-1);
    // Two rows at least of what follows it are on the screen too.
    expect(at.bottom).toBeLessThanOrEqual(at.height - 2 * at.row);
    // A step down from there moves the selection, not the rows.
    await page.page.focus('[data-testid="message-grid"]');
    await page.page.keyboard.press('ArrowDown');
    await page.page.waitForSelector(`[data-testid="row"][data-index="${edge + 1}"][aria-selected="true"]`);
    expect((await place(edge)).top).toBeCloseTo(at.top, 0);
  });

  it('a long system prompt is folded to a line, the conversation on the first screen; a short one is shown; a search into it opens it', { timeout: 60_000 }, async () => {
    const rules = Array.from({ length: 120 }, (_, k) => `- Rule ${k}: keep the answer short and cite the file you read.`).join('\n');
    const chat = JSON.stringify([
      { role: 'system', content: `You are a careful coding agent.\n${rules}\n- Rule zebra: never guess.` },
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Where is the retry set?' },
      { role: 'assistant', content: 'In upload.ts, line 12.' },
    ]);
    const page = await start(SIZES[0], { 'instructed.json': chat });
    await page.open('instructed.json');
    await page.transcript();
    const first = page.page.locator('[data-testid="tx-message"][data-index="0"]');
    expect(await first.locator('[data-testid="tx-system-fold"]').getAttribute('aria-expanded')).toBe('false');
    expect(await first.locator('[data-testid="tx-system-fold"]').textContent()).toContain('You are a careful coding agent.');
    expect(await first.textContent()).not.toContain('Rule 7:');
    expect(await page.page.locator('[data-testid="tx-message"][data-index="1"] [data-testid="tx-system"]').count()).toBe(0);
    expect(await page.transcriptInView()).toEqual(expect.arrayContaining([0, 1, 2, 3]));
    await page.screenshot('browser-transcript-instructions');
    const expanded = (open: boolean) => page.page.waitForFunction((o) => document.querySelector('[data-testid="tx-message"][data-index="0"] [data-testid="tx-system-fold"]')?.getAttribute('aria-expanded') === String(o), open);
    await page.search('zebra');
    await expanded(true);
    await page.search('');
    await expanded(false);
    await first.locator('[data-testid="tx-system-fold"]').click();
    expect(await first.textContent()).toContain('Rule 7:');
  });

  it('an empty message says "(empty)", never raw JSON; a message holding <script>, remote images and script links is shown inert and loads nothing', { timeout: 60_000 }, async () => {
    const page = await start(SIZES[0], { 'hostile.json': HOSTILE, 'empty-answer.jsonl': EMPTY_SESSION + '\n' });
    const asked: string[] = [];
    page.page.on('request', (r) => asked.push(r.url()));
    const title = await page.page.title();
    await page.open('hostile.json');
    await page.transcript();
    const empty = page.page.locator('[data-testid="tx-message"][data-index="1"]');
    expect(await empty.locator('[data-testid="tx-empty"]').textContent()).toBe('(empty)');
    const notes = page.page.locator('[data-testid="tx-message"][data-index="2"]');
    expect(await notes.locator('h1').textContent()).toBe('Notes');
    expect(await notes.textContent()).toContain("<script>document.title = 'pwned'</script>");
    expect(await page.page.$$eval('[data-testid="transcript"] img, [data-testid="transcript"] script, [data-testid="transcript"] iframe', (e) => e.length)).toBe(0);
    expect(await notes.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['https://example.com/docs']);
    expect(await page.page.title()).toBe(title);
    expect(asked.filter((u) => u.includes('evil.example') || u.includes('example.com'))).toEqual([]);
    await page.screenshot('browser-transcript-inert');
    await page.open('empty-answer.jsonl');
    await page.transcript();
    const answer = page.page.locator('[data-testid="tx-message"][data-index="1"]');
    expect(await answer.locator('[data-testid="tx-empty"]').textContent()).toBe('(empty)');
    expect(await answer.textContent()).not.toMatch(/\[\]|\{\}/);
  });
});
