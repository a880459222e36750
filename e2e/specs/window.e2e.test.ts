import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../../test/helpers.js';
import { readConversationFile } from '../../src/core/index.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Mode, type Session } from '../support/browsers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const plan = (file: string, strategy: string, ...set: string[]) =>
  JSON.parse(spawnSync(process.execPath, [BIN, 'plan', file, '--strategy', strategy, ...set.flatMap((s) => ['--set', s]), '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout);

for (const mode of ['browser', 'electron'] as Mode[]) {
  const reason = unavailable(mode);
  describe.skipIf(reason !== undefined)(`window panel e2e (${mode})`, () => {
    let session: Session | undefined;
    afterEach(async () => {
      await session?.close();
      session = undefined;
    });

    async function openWindow(file: string): Promise<{ page: InspectorPage; dir: string }> {
      const dir = tempDir();
      cpSync(join(ROOT, 'examples'), dir, { recursive: true });
      session = await openInspector(mode, dir);
      const page = new InspectorPage(session.page);
      await page.ready();
      await page.open(file);
      await page.page.keyboard.press('w');
      await page.page.waitForSelector('[data-testid="window-panel"] [data-testid="plan-totals"]');
      return { page, dir };
    }

    const fates = (page: InspectorPage) =>
      page.page.$$eval('[data-testid="row"]', (rows) => rows.map((r) => [Number(r.getAttribute('data-index')), r.getAttribute('data-fate')] as const).sort((a, b) => a[0] - b[0]).map(([, f]) => f));

    it('last-n = 4 marks exactly the last four rows kept, and the system prompt unless unticked', async () => {
      const { page } = await openWindow('trip_planner_tools.json');
      await page.page.selectOption('[data-testid="strategy"]', 'last-n');
      await page.page.fill('[data-testid="input-limit"]', '4');
      await page.page.waitForFunction(() => document.querySelector('[data-testid="count-kept"]')?.textContent === '5 kept');
      expect(await fates(page)).toEqual(['kept', 'dropped', 'dropped', 'dropped', 'kept', 'kept', 'kept', 'kept']);
      await page.page.click('[data-testid="check-keepStatic"]');
      await page.page.waitForFunction(() => document.querySelector('[data-testid="count-kept"]')?.textContent === '4 kept');
      expect(await fates(page)).toEqual(['dropped', 'dropped', 'dropped', 'dropped', 'kept', 'kept', 'kept', 'kept']);
      const labels = await page.page.$$eval('[data-testid="row"][data-fate="dropped"]', (rows) => rows.map((r) => r.getAttribute('aria-label')));
      expect(labels[0]).toBe('message 0, dropped');
      // Its detail pane says its fate, as a cut one's says its cut; a kept one says nothing of it.
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.waitForSelector('[data-testid="fate-note"][data-fate="dropped"]');
      expect(await page.page.textContent('[data-testid="fate-note"]')).toMatch(/Dropped under .*not sent this message/);
      await page.page.click('[data-testid="row"][data-index="5"]');
      await page.page.waitForSelector('[data-testid="fate-note"]', { state: 'detached' });
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.waitForSelector('[data-testid="fate-note"]');
      await page.screenshot(`${mode}-window-last-n`);
    });

    it('a token budget marks the rows the CLI plan marks, and the kept sum stays within it', async () => {
      const { page, dir } = await openWindow('coding_session.json');
      await page.page.selectOption('[data-testid="strategy"]', 'truncate');
      await page.page.fill('[data-testid="input-contextLength"]', '120');
      await page.page.waitForFunction(() => /→/.test(document.querySelector('[data-testid="plan-totals"]')?.textContent ?? ''));
      const expected = plan(join(dir, 'coding_session.json'), 'truncate', 'contextLength=120');
      await page.page.waitForFunction((n) => document.querySelector('[data-testid="count-kept"]')?.textContent === `${n} kept`, expected.counts.kept);
      expect(await fates(page)).toEqual(expected.messages.map((m: { fate: string }) => m.fate));
      const after = Number((await page.page.textContent('[data-testid="total-after"]'))!.replace(/,/g, ''));
      expect(after).toBeLessThanOrEqual(120);
      const cutIndex = expected.messages.findIndex((m: { fate: string }) => m.fate === 'cut');
      if (cutIndex !== -1) {
        await page.page.click(`[data-testid="row"][data-index="${cutIndex}"]`);
        // The exact cut, from the plan made with the text: the kept part is the CLI's, to the character.
        await page.page.waitForSelector('[data-testid="cut-note"][data-exact="true"]');
        expect(await page.page.textContent('[data-testid="cut-note"]')).toContain('is sent the first');
        const content = readConversationFile(join(dir, 'coding_session.json')).messages[cutIndex].content as string;
        const offset = expected.messages[cutIndex].cut.offset;
        expect(await page.page.textContent('[data-testid="cut-kept"]')).toBe(content.slice(0, offset));
        expect(await page.page.textContent('[data-testid="cut-away"]')).toBe(content.slice(offset));
      }
      await page.screenshot(`${mode}-window-truncate`);
    });

    it('compare lanes show each strategy\'s fate per message side by side', async () => {
      const { page, dir } = await openWindow('trip_planner_tools.json');
      // Each lane uses the parameters set in the panel for its strategy.
      await page.page.selectOption('[data-testid="strategy"]', 'sliding-window');
      await page.page.fill('[data-testid="input-windowSize"]', '3');
      await page.page.selectOption('[data-testid="strategy"]', 'truncate');
      await page.page.fill('[data-testid="input-contextLength"]', '60');
      await page.page.click('[data-testid="show-lanes"]');
      await page.page.waitForSelector('[data-testid="lanes"] [data-testid="lane-row"]');
      const file = join(dir, 'trip_planner_tools.json');
      // The default lanes: the dynamic window, truncation and the sliding window.
      const expected = [plan(file, 'dynamic-context-window'), plan(file, 'truncate', 'contextLength=60'), plan(file, 'sliding-window', 'windowSize=3')].map((p) => p.messages.map((m: { fate: string }) => m.fate));
      expect(expected[2]).not.toEqual(expected[1]);
      // Rows one by one where the lanes differ; runs they agree on folded, standing for each of their rows.
      const cells = await page.page.evaluate((lanes) => {
        const out: string[][] = [];
        for (const r of document.querySelectorAll('[data-testid="lane-row"]')) out[Number(r.getAttribute('data-index'))] = [...r.querySelectorAll('[data-fate]')].map((c) => c.getAttribute('data-fate')!);
        for (const run of document.querySelectorAll('[data-testid="lane-run"]')) for (let i = Number(run.getAttribute('data-start')); i < Number(run.getAttribute('data-end')); i++) out[i] = Array(lanes).fill(run.getAttribute('data-fate'));
        return out;
      }, 3);
      expect(cells.map((row) => row[0])).toEqual(expected[0]);
      expect(cells.map((row) => row[1])).toEqual(expected[1]);
      expect(cells.map((row) => row[2])).toEqual(expected[2]);
      expect(await page.page.$$eval('[data-testid="lane-row"].disagree', (rows) => rows.length)).toBeGreaterThan(0);
      await page.screenshot(`${mode}-compare-lanes`);
    });

    it('compare lanes at 3,000 messages: agreeing runs folded, next and previous difference, a content column', async () => {
      const { page, dir } = await openWindow('support_thread_long.json');
      // Two strategies that keep nearly the same messages: the last 40 and the last 10 (each with the system prompt).
      await page.page.selectOption('[data-testid="strategy"]', 'sliding-window');
      await page.page.click('[data-testid="show-lanes"]');
      await page.page.click('[data-testid="lane-toggle-dynamic-context-window"]');
      await page.page.click('[data-testid="lane-toggle-truncate"]');
      await page.page.click('[data-testid="lane-toggle-last-n"]');
      await page.page.waitForSelector('[data-testid="lanes"] [data-testid="lane-run"]');
      const file = join(dir, 'support_thread_long.json');
      const lanes = [plan(file, 'sliding-window'), plan(file, 'last-n')].map((p) => p.messages.map((m: { fate: string }) => m.fate));
      const differs = (i: number) => lanes.some((l) => l[i] !== lanes[0][i]);
      const n = lanes[0].length;
      const starts = Array.from({ length: n }, (_, i) => i).filter((i) => differs(i) && !(i > 0 && differs(i - 1)));
      const differ = Array.from({ length: n }, (_, i) => i).filter(differs).length;
      expect(differ).toBeGreaterThan(0);
      expect(await page.page.textContent('[data-testid="lanes-differences"]')).toMatch(new RegExp(`^${differ.toLocaleString('en-US')} messages? differ, in ${starts.length} place`));
      // Folded: the dropped middle is one line that says how many rows agree.
      expect(await page.page.$$eval('[data-testid="lane-run"]', (runs) => runs.map((r) => r.textContent))).toContainEqual(expect.stringMatching(/^1–[\d,]+ · [\d,]+ rows agree: ⨯ dropped in every lane$/));
      expect(await page.page.$$eval('[data-testid="lane-row"], [data-testid="lane-run"]', (r) => r.length)).toBeLessThan(200);
      // At 1,100 px with four lanes, each heading keeps to its column: no text runs into its neighbour's.
      await page.page.setViewportSize({ width: 1100, height: 700 });
      await page.page.click('[data-testid="lane-toggle-summarizing"]');
      await page.page.click('[data-testid="lane-toggle-dynamic-context-window"]');
      await page.page.waitForSelector('[data-testid="lane-head-summarizing"]');
      await page.page.waitForSelector('[data-testid="lane-head-dynamic-context-window"]');
      const heads = await page.page.$$eval('.lanes-head > span', (spans) =>
        spans.map((s) => {
          const range = document.createRange();
          range.selectNodeContents(s);
          const text = [...range.getClientRects()];
          const box = s.getBoundingClientRect();
          return { left: box.left, right: box.right, textLeft: Math.min(...text.map((r) => r.left)), textRight: Math.max(...text.map((r) => r.right)), overflows: s.scrollWidth > s.clientWidth + 1 };
        }),
      );
      expect(heads.length).toBe(8);
      for (const [i, h] of heads.entries()) {
        expect(h.overflows, `heading ${i}`).toBe(false);
        if (i > 0) expect(h.textLeft - heads[i - 1].textRight, `space between heading ${i - 1} and heading ${i}`).toBeGreaterThanOrEqual(6);
      }
      await page.screenshot(`${mode}-compare-lanes-1100`);
      await page.page.click('[data-testid="lane-toggle-summarizing"]');
      await page.page.click('[data-testid="lane-toggle-dynamic-context-window"]');
      await page.page.setViewportSize({ width: 1440, height: 900 });
      // N goes to each difference in turn (wrapping), centred and marked; P goes back.
      await page.page.focus('[data-testid="lanes-next"]');
      for (const k of [0, 1, 2]) {
        await page.page.keyboard.press('n');
        await page.page.waitForSelector(`[data-testid="lane-row"].current.disagree[data-index="${starts[k % starts.length]}"]`);
      }
      await page.page.keyboard.press('p');
      await page.page.waitForSelector(`[data-testid="lane-row"].current[data-index="${starts[(2 + starts.length - 1) % starts.length]}"]`);
      // The app behind the dialog took no key: nothing was added.
      expect(await page.page.isVisible('text=unsaved')).toBe(false);
      // The content column shows the message's text.
      await page.page.waitForFunction(() => (document.querySelector('[data-testid="lane-row"].current .lane-content')?.textContent ?? '').length > 0);
      await page.screenshot(`${mode}-compare-lanes-3000`);
      // A folded run opens into its rows.
      const run = page.page.locator('[data-testid="lane-run"]').first();
      const start = Number(await run.getAttribute('data-start'));
      await run.click();
      await page.page.waitForSelector(`[data-testid="lane-row"][data-index="${start}"]`);
      // The run clicked open took the focus with it: Esc still closes the dialog only, not the panel behind.
      await page.page.keyboard.press('Escape');
      await page.page.waitForSelector('[data-testid="lanes"]', { state: 'detached' });
      expect(await page.page.isVisible('[data-testid="window-panel"]')).toBe(true);
      await page.page.click('[data-testid="show-lanes"]');
      await page.page.click('[data-testid="lane-toggle-dynamic-context-window"]');
      await page.page.click('[data-testid="lane-toggle-truncate"]');
      await page.page.click('[data-testid="lane-toggle-last-n"]');
      // Back where it was: three differences on and one back, then the run opened.
      for (const key of ['n', 'n', 'n', 'p']) await page.page.keyboard.press(key);
      await page.page.locator('[data-testid="lane-run"]').first().click();
      await page.page.waitForSelector(`[data-testid="lane-row"][data-index="${start}"]`);
      // Unfolding moved the lines, not the place: N goes on from the same difference.
      await page.page.keyboard.press('n');
      await page.page.waitForSelector(`[data-testid="lane-row"].current.disagree[data-index="${starts[(2 + starts.length) % starts.length]}"]`);
    });

    it('the dynamic window: the detail pane dims exactly what “What the model sees” leaves out, header included', async () => {
      const { page, dir } = await openWindow('support_thread_long.json');
      await page.page.selectOption('[data-testid="strategy"]', 'dynamic-context-window');
      // The message gone to from the palette, and its exact cut as the detail pane dims it.
      const exactCutOf = async (index: number) => {
        await page.page.keyboard.press('Control+K');
        await page.page.fill('[data-testid="palette-input"]', String(index));
        await page.page.keyboard.press('Enter');
        await page.page.waitForSelector(`[data-testid="row"][data-index="${index}"][aria-selected="true"]`);
        await page.page.waitForSelector('[data-testid="cut-note"][data-exact="true"]');
        return { kept: (await page.page.textContent('[data-testid="cut-kept"]'))!, away: (await page.page.textContent('[data-testid="cut-away"]'))! };
      };
      for (const budget of ['8192', '3001', '517']) {
        await page.page.fill('[data-testid="input-contextLength"]', budget);
        await page.page.waitForFunction((b) => document.querySelector('[data-testid="total-after"]')?.textContent === Number(b).toLocaleString('en-US'), budget);
        // The message the exact plan cuts (the CLI's), gone to from the palette.
        const exact = plan(join(dir, 'support_thread_long.json'), 'dynamic-context-window', `contextLength=${budget}`);
        const index = exact.messages.findIndex((m: { fate: string }) => m.fate === 'cut');
        expect(index).toBeGreaterThan(0);
        const { kept, away } = await exactCutOf(index);
        await page.page.click('[data-testid="show-preview"]');
        const preview = (await page.page.textContent('[data-testid="preview-text"]'))!;
        // The model is sent the block from the cut on; the dimmed part is not sent.
        expect(preview.startsWith(kept)).toBe(true);
        expect(away.length).toBeGreaterThan(0);
        expect(preview.startsWith(away)).toBe(false);
        await page.page.keyboard.press('Escape');
        await page.page.waitForSelector('[data-testid="preview-text"]', { state: 'detached' });
      }
      await page.screenshot(`${mode}-window-dynamic-exact-cut`);
      // With the system prompt kept whole, the rest is still cut in its rendered text (here inside a header).
      await page.page.check('[data-testid="check-keepStatic"]');
      await page.page.fill('[data-testid="input-contextLength"]', '20000');
      const exact = plan(join(dir, 'support_thread_long.json'), 'dynamic-context-window', 'contextLength=20000', 'keepStatic=true');
      const index = exact.messages.findIndex((m: { fate: string }) => m.fate === 'cut');
      const { kept, away } = await exactCutOf(index);
      expect(away.length).toBeGreaterThan(0);
      await page.page.click('[data-testid="show-preview"]');
      const preview = (await page.page.textContent('[data-testid="preview-text"]'))!;
      // The system prompt first, whole; then the rest from the cut on.
      expect(preview.startsWith('[')).toBe(true);
      expect(preview).toContain(`\n\n${kept}`);
      expect(preview).not.toContain(away + kept);
      await page.page.keyboard.press('Escape');
    });

    it('the turn scrubber shows the window the strategy made of the history so far, as the CLI plans that history', async () => {
      const { page, dir } = await openWindow('support_thread_long.json');
      await page.page.selectOption('[data-testid="strategy"]', 'truncate');
      await page.page.fill('[data-testid="input-contextLength"]', '2000');
      await page.page.click('[data-testid="turns-details"] summary');
      await page.page.waitForSelector('[data-testid="milestone-trimmed"][data-turn]');
      const messages = JSON.parse(readFileSync(join(dir, 'support_thread_long.json'), 'utf8')) as Array<{ role: string }>;
      const ends = messages.flatMap((m, i) => (m.role.toLowerCase() === 'user' ? [i + 1] : []));
      if (ends[ends.length - 1] !== messages.length) ends.push(messages.length);
      // The turn where truncation first trims, then some turns later: each the CLI's plan of that many messages.
      const first = Number(await page.page.getAttribute('[data-testid="milestone-trimmed"]', 'data-turn'));
      await page.page.click('[data-testid="milestone-trimmed"]');
      for (const turn of [first, first - 1, first + 40]) {
        const slider = page.page.locator('[data-testid="turn-slider"]');
        await slider.evaluate((el, v) => {
          const input = el as HTMLInputElement;
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(v));
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }, turn);
        const t = ends[turn];
        const prefix = join(tempDir(), `prefix-${t}.json`);
        writeFileSync(prefix, JSON.stringify(messages.slice(0, t), null, 4));
        const cli = plan(prefix, 'truncate', 'contextLength=2000');
        // The same fates as the CLI's; with a cut, the renderer's kept total is the estimate the panel marks ≈
        // (the CLI cuts the text exactly).
        const after = cli.counts.cut ? '≈[\\d,]+' : cli.totalAfter.toLocaleString('en-US');
        const want = `^Prompt ${(turn + 1).toLocaleString('en-US')} of ${ends.length.toLocaleString('en-US')} · the model was sent messages 0–${(t - 1).toLocaleString('en-US')}: ${after} of ${cli.totalBefore.toLocaleString('en-US')} tok · ${cli.counts.kept.toLocaleString('en-US')} kept · ⨯ ${cli.counts.dropped.toLocaleString('en-US')} · ✂ ${cli.counts.cut} · Σ ${cli.counts.summarised}$`;
        await page.page.waitForFunction((w) => new RegExp(w).test(document.querySelector('[data-testid="turn-summary"]')?.textContent ?? ''), want, { timeout: 5000 }).catch(() => {});
        expect(await page.page.textContent('[data-testid="turn-summary"]')).toMatch(new RegExp(want));
        if (cli.counts.cut) {
          const shown = Number(/: ≈([\d,]+) of/.exec((await page.page.textContent('[data-testid="turn-summary"]'))!)![1].replace(/,/g, ''));
          expect(Math.abs(shown - cli.totalAfter)).toBeLessThanOrEqual(Math.max(20, cli.totalAfter * 0.02));
        }
        // Before its first trim, the plan kept everything; at it, it did not.
        if (turn === first - 1) expect(cli.counts.dropped + cli.counts.cut).toBe(0);
        if (turn === first) expect(cli.counts.dropped + cli.counts.cut).toBeGreaterThan(0);
        // The table follows the turn: the rows it has drawn carry that turn's fates, later messages not sent yet.
        await page.page.waitForFunction((w) => document.querySelector('[data-testid="turn-note"]')?.textContent?.startsWith(w), `the window at turn ${(turn + 1).toLocaleString('en-US')} of`);
        const drawn = await page.page.$$eval('[data-testid="row"]', (rows) => rows.map((r) => [Number(r.getAttribute('data-index')), r.getAttribute('data-fate')] as [number, string]));
        expect(drawn.length).toBeGreaterThan(0);
        for (const [i, fate] of drawn) expect(fate).toBe(i >= t ? 'future' : cli.messages[i].fate);
        // The warnings are that turn's: none names a message not sent yet; before the first trim, none at all.
        const warned = await page.page.$$eval('[data-testid="plan-warnings"] li[data-index]', (li) => li.map((l) => Number(l.getAttribute('data-index'))));
        expect(warned.filter((i) => i >= t)).toEqual([]);
        if (turn === first - 1) expect(warned).toEqual([]);
      }
      await page.page.locator('[data-testid="turns"]').scrollIntoViewIfNeeded();
      await page.screenshot(`${mode}-window-turns`);
      // At the last turn the table shows the panel's own plan again.
      const last = await page.page.locator('[data-testid="turn-slider"]').getAttribute('max');
      await page.page.locator('[data-testid="turn-slider"]').evaluate((el, v) => {
        const input = el as HTMLInputElement;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(v));
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }, last);
      await page.page.waitForSelector('[data-testid="turn-note"]', { state: 'detached' });
      expect(await page.page.$$eval('[data-testid="row"][data-fate="future"]', (r) => r.length)).toBe(0);
      // The last turn's plan has its own warnings (the ones the panel used to show at every turn).
      expect(await page.page.$$eval('[data-testid="plan-warnings"] li[data-index]', (li) => li.length)).toBeGreaterThan(0);
    });

    it('the minimap beside the table shows the plan by fate, and a click goes to the message there', async () => {
      const { page } = await openWindow('support_thread_long.json');
      await page.page.selectOption('[data-testid="strategy"]', 'sliding-window');
      await page.page.waitForSelector('[data-testid="minimap"]');
      const box = (await page.page.locator('[data-testid="minimap"]').boundingBox())!;
      expect(box.height).toBeGreaterThan(100);
      // Sliding window keeps the end: a click near the bottom lands in the kept part, far from the top.
      await page.page.mouse.click(box.x + box.width / 2, box.y + box.height - 2);
      const selected = Number(await page.page.getAttribute('[data-testid="row"][aria-selected="true"]', 'data-index'));
      expect(selected).toBeGreaterThan(2900);
      // And near the top, back to the first messages (a pixel stands for about seven of 3,000).
      await page.page.mouse.click(box.x + box.width / 2, box.y + 1);
      await page.page.waitForFunction(() => Number(document.querySelector('[data-testid="row"][aria-selected="true"]')?.getAttribute('data-index') ?? 1e9) < 15);
    });

    it('the cut chart opens in a larger view, and a click there goes to the message', async () => {
      const { page } = await openWindow('support_thread_long.json');
      await page.page.click('[data-testid="enlarge-chart"]');
      const box = (await page.page.locator('[data-testid="chart-large"] [data-testid="cumulative-chart"]').boundingBox())!;
      expect(box.width).toBeGreaterThan(600);
      await page.page.mouse.click(box.x + box.width - 3, box.y + box.height / 2);
      await page.page.waitForSelector('[data-testid="chart-large"]', { state: 'detached' });
      expect(Number(await page.page.getAttribute('[data-testid="row"][aria-selected="true"]', 'data-index'))).toBeGreaterThan(2950);
    });

    it('Esc closes the innermost layer only: the compare dialog, then the window panel', async () => {
      const { page } = await openWindow('trip_planner_tools.json');
      await page.page.click('[data-testid="show-lanes"]');
      await page.page.waitForSelector('[data-testid="lanes"]');
      await page.page.keyboard.press('Escape');
      await page.page.waitForSelector('[data-testid="lanes"]', { state: 'detached' });
      expect(await page.page.isVisible('[data-testid="window-panel"]')).toBe(true);
      await page.page.keyboard.press('Escape');
      await page.page.waitForSelector('[data-testid="window-panel"]', { state: 'detached' });
    });

    it('the chart stays put while a slider moves, as the plan gains and loses its summary message', async () => {
      const { page } = await openWindow('support_thread_long.json');
      for (const strategy of ['summarizing', 'auto-compact']) {
        await page.page.selectOption('[data-testid="strategy"]', strategy);
        const inserted = new Set<string>();
        const tops = new Set<number>();
        for (const range of await page.page.$$('[data-testid="window-panel"] input[type="range"]')) {
          const box = (await range.boundingBox())!;
          for (let f = 0; f <= 1; f += 0.1) {
            await page.page.mouse.click(box.x + 2 + f * (box.width - 4), box.y + box.height / 2);
            await page.ready();
            inserted.add(await page.page.evaluate(() => /\+ 1 summary message/.test(document.querySelector('[data-testid="plan-totals"]')!.textContent ?? '') ? 'one' : 'none'));
            tops.add(await page.page.evaluate(() => Math.round(document.querySelector('[data-testid="cumulative-frame"]')!.getBoundingClientRect().top)));
          }
        }
        // The sliders did reach settings with a summary and without one.
        expect([...inserted].sort()).toEqual(['none', 'one']);
        expect([...tops]).toHaveLength(1);
      }
    }, 90_000);

    it('the panel names the basis of its figures: the rendered history beside the contents\' total', async () => {
      const { page } = await openWindow('trip_planner_tools.json');
      await page.page.selectOption('[data-testid="strategy"]', 'dynamic-context-window');
      await page.page.waitForSelector('[data-testid="plan-basis"]');
      const header = (await page.page.textContent('[data-testid="token-total"]')) ?? '';
      const basis = (await page.page.textContent('[data-testid="plan-basis"]')) ?? '';
      expect(basis).toMatch(/rendered history/);
      expect(basis).toContain(header.replace(/\s*tok.*$/, '').trim());
      await page.page.selectOption('[data-testid="strategy"]', 'truncate');
      await page.page.waitForFunction(() => /message contents/.test(document.querySelector('[data-testid="plan-basis"]')?.textContent ?? ''));
      // On the contents' basis the panel's "before" is the header's figure.
      expect((await page.page.textContent('[data-testid="total-before"]'))?.trim()).toBe(header.replace(/\s*tok.*$/, '').trim());
    });

    it('compacting with a typed summary and saving writes the expected file', async () => {
      const { page, dir } = await openWindow('coding_session.json');
      await page.page.click('[data-testid="compact-all"]');
      await page.page.fill('[data-testid="compact-text"]', 'Refunds: amounts are now integer cents; 400 for more than two decimals.');
      await page.page.click('[data-testid="compact-preview"]');
      await page.page.waitForSelector('[data-testid="compact-result"]');
      expect(await page.page.textContent('[data-testid="compact-result"]')).toContain('7 messages → one summary');
      await page.screenshot(`${mode}-compact-preview`);
      await page.page.click('[data-testid="compact-apply"]');
      await page.page.waitForFunction(() => /2 msgs/.test(document.querySelector('.conv-head')?.textContent ?? ''));
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      const saved = readConversationFile(join(dir, 'coding_session.json')).messages;
      expect(saved.map((m) => [m.role, m.content])).toEqual([
        ['System', 'You are a careful coding assistant working in the repository `acme/payments`.'],
        ['System', 'Refunds: amounts are now integer cents; 400 for more than two decimals.'],
      ]);
      expect(saved[0].message_id).toBe('3f6c1a2e-9b7d-4c1e-8a2f-000000000001');
    });

    it('the dynamic window: the slider re-plans and "what the model sees" is the CLI-exact text within budget', async () => {
      const { page, dir } = await openWindow('coding_session.json');
      await page.page.fill('[data-testid="input-contextLength"]', '150');
      const expected = plan(join(dir, 'coding_session.json'), 'dynamic-context-window', 'contextLength=150');
      await page.page.waitForFunction((n) => document.querySelector('[data-testid="count-dropped"]')?.textContent === `⨯ ${n} dropped`, expected.counts.dropped);
      expect(await fates(page)).toEqual(expected.messages.map((m: { fate: string }) => m.fate));
      await page.page.click('[data-testid="show-preview"]');
      const text = await page.page.textContent('[data-testid="preview-text"]');
      expect(text?.length).toBeGreaterThan(0);
      expect(await page.page.textContent('[role="dialog"]')).toContain(`${expected.totalAfter} tokens`);
      await page.screenshot(`${mode}-window-dynamic`);
    });
  });
}
