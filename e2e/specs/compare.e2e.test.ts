// Compare, as a user meets it: the two branches of a Claude Code session that was rewound (the Compare
// Branches command), and two sessions picked in the list with Ctrl+click; side by side, aligned by turn, the
// changed words marked, N and P through the differences, Esc back; at 1440×900 and 1100×700, axe clean.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { axeViolations } from '../support/axe.js';
import { openInspector, unavailable, type Session } from '../support/browsers.js';
import { cliJson } from '../support/formats-session.js';

const SHOTS = '/tmp/shots-compare';
const SESSION = 'cart-rewind-compact.jsonl';
/** The prompt of the branch the session was rewound past. */
const OTHER_BRANCH = 'a1000000-0000-4000-8000-000000000006';
const SIZES = [
  [1440, 900],
  [1100, 700],
] as const;

const reason = unavailable('browser');
describe.skipIf(reason !== undefined)('compare (browser)', () => {
  let session: Session | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function start(): Promise<{ page: InspectorPage; dir: string }> {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'formats/claude-code', SESSION), join(dir, SESSION));
    const a = [
      { role: 'System', content: 'You are a terse travel planner.' },
      { role: 'User', content: 'Plan a trip to Lisbon for three days.\nKeep it cheap.' },
      { role: 'Assistant', content: 'Day 1: Alfama and the castle. Day 2: Belém. Day 3: Sintra by train.' },
    ];
    const b = [a[0], { role: 'User', content: 'Plan a trip to Porto for three days.\nKeep it cheap.' }, { role: 'Assistant', content: 'Day 1: Ribeira and the castle. Day 2: Gaia. Day 3: Douro by train.' }, { role: 'User', content: 'And where to eat?' }, { role: 'Assistant', content: 'A francesinha at Café Santiago.' }];
    writeFileSync(join(dir, 'trip-a.json'), JSON.stringify(a, null, 2));
    writeFileSync(join(dir, 'trip-b.json'), JSON.stringify(b, null, 2));
    session = await openInspector('browser', dir);
    const page = new InspectorPage(session.page);
    await page.ready();
    mkdirSync(SHOTS, { recursive: true });
    return { page, dir };
  }

  async function look(page: InspectorPage, name: string): Promise<void> {
    for (const [width, height] of SIZES) {
      await page.page.setViewportSize({ width, height });
      await page.page.waitForSelector('[data-testid="compare-body"][data-ready="true"]');
      await page.page.screenshot({ path: join(SHOTS, `${name}-${width}x${height}.png`) });
      // The view fits the window: nothing past its right edge.
      expect(await page.page.evaluate(() => document.querySelector('[data-testid="compare-view"]')!.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await axeViolations(page.page)).toEqual([]);
    }
  }

  const summary = (page: InspectorPage) => page.page.textContent('[data-testid="compare-summary"]');

  it('compares the two branches of a rewound session, the same figures as the CLI, N and P through the differences', { timeout: 120_000 }, async () => {
    const { page, dir } = await start();
    await page.open(SESSION);
    await page.page.keyboard.press('Control+K');
    await page.page.keyboard.type('Compare Branches');
    await page.page.keyboard.press('Enter');
    await page.page.waitForSelector('[data-testid="compare-body"][data-ready="true"]');
    const cli = cliJson('diff', join(dir, SESSION), '--at', OTHER_BRANCH) as { counts: Record<string, number>; delta: { tokens: number }; turns: Array<{ differs: boolean }>; differences: number[] };
    expect(await summary(page)).toContain(`${cli.counts.same} same · ${cli.counts.changed} changed · ${cli.counts['only-left']} only in A · ${cli.counts['only-right']} only in B · ${cli.turns.filter((t) => t.differs).length} of ${cli.turns.length} turns differ`);
    expect(await page.page.textContent('[data-testid="compare-delta"]')).toContain(`−${Math.abs(cli.delta.tokens)} tok`);
    expect(await page.page.textContent('[data-testid="compare-side-a"]')).toContain('main thread');
    expect(await page.page.textContent('[data-testid="compare-side-b"]')).toContain('the branch from #5 (not the way the session went on)');
    // After the fork, each way's prompt faces the other's on one line.
    const facing = page.page.locator('[data-testid="compare-row"][data-kind="replaced"]').first();
    expect(await facing.locator('[data-testid="compare-cell-a"]').textContent()).toContain('Sum integer cents then');
    expect(await facing.locator('[data-testid="compare-cell-b"]').textContent()).toContain('Use a decimal library instead');
    // A turn that differs says B less A in tokens and cost.
    expect(await page.page.locator('[data-testid="compare-turn-delta"]').first().textContent()).toMatch(/Δ [−+±][\d,]+ tok · [−+±]\$[\d.]+/);
    await page.page.keyboard.press('n');
    // A difference a turn: N goes from one turn that differs to the next.
    await page.page.waitForFunction((n) => document.querySelector('[data-testid="compare-position"]')?.textContent === `Difference 1 of ${n}`, cli.differences.length);
    expect(cli.differences.length).toBe(cli.turns.filter((t) => t.differs).length);
    const first = await page.page.evaluate(() => document.activeElement?.getAttribute('data-row'));
    expect(Number(first)).toBe(cli.differences[0]);
    await page.page.keyboard.press('n');
    expect(await page.page.textContent('[data-testid="compare-position"]')).toBe(`Difference 2 of ${cli.differences.length}`);
    expect(Number(await page.page.evaluate(() => document.activeElement?.getAttribute('data-row')))).toBe(cli.differences[1]);
    await page.page.keyboard.press('p');
    expect(await page.page.textContent('[data-testid="compare-position"]')).toBe(`Difference 1 of ${cli.differences.length}`);
    await look(page, 'branches');
    await page.page.keyboard.press('Escape');
    await page.page.waitForSelector('[data-testid="compare-view"]', { state: 'detached' });
    await page.page.waitForSelector('[data-testid="message-grid"]');
  });

  it('compares two sessions picked with Ctrl+click: the edited prompt changed with its words marked, the added turn only in B', { timeout: 120_000 }, async () => {
    const { page } = await start();
    await page.scrollToFile('trip-a.json');
    await page.file('trip-a.json').click({ modifiers: ['Control'] });
    await page.file('trip-b.json').click({ modifiers: ['Control'] });
    await page.page.waitForSelector('[data-testid="compare-marks"]');
    expect(await page.file('trip-a.json').locator('[data-testid="file-picked"]').textContent()).toBe('A');
    await page.page.screenshot({ path: join(SHOTS, 'sessions-picked-1440x900.png') });
    await page.page.click('[data-testid="compare-marked"]');
    await page.page.waitForSelector('[data-testid="compare-body"][data-ready="true"]');
    const changed = page.page.locator('[data-testid="compare-row"][data-kind="changed"]');
    expect(await changed.count()).toBe(2);
    expect(await changed.first().locator('del').allTextContents()).toEqual(['Lisbon']);
    expect(await changed.first().locator('ins').allTextContents()).toEqual(['Porto']);
    expect(await page.page.locator('[data-testid="compare-row"][data-kind="only-right"]').count()).toBe(2);
    expect(await summary(page)).toContain('1 same · 2 changed · 0 only in A · 2 only in B');
    await look(page, 'sessions');
    await page.page.click('[data-testid="compare-close"]');
    await page.page.waitForSelector('[data-testid="compare-view"]', { state: 'detached' });
  });
});
