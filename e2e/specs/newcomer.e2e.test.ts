// What a newcomer trips over, each screen checked: the search of one file stays with it, and every screen
// passes axe-core's WCAG A/AA checks with no serious or critical violation.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { axeViolations } from '../support/axe.js';
import { openInspector, unavailable, type Session } from '../support/browsers.js';

const reason = unavailable('browser');
if (reason) console.log(`newcomer e2e skipped: ${reason}`);
describe.skipIf(reason !== undefined)('the screens a newcomer meets (browser)', () => {
  let session: Session | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function start(extra: Record<string, string> = {}): Promise<InspectorPage> {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
    session = await openInspector('browser', dir, { XDG_STATE_HOME: tempDir() });
    const page = new InspectorPage(session.page);
    await page.ready();
    return page;
  }

  it("a file's search does not follow to the next file opened", async () => {
    const page = await start();
    await page.open('agents/claude-code/deploy-db-timeout.jsonl');
    await page.search('database');
    expect(await page.page.inputValue('[data-testid="search"]')).toBe('database');
    await page.open('agents/codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');
    expect(await page.page.inputValue('[data-testid="search"]')).toBe('');
    expect(await page.page.$$eval('[data-testid="row"]', (r) => r.length)).toBeGreaterThan(0);
  });

  it('a failed tool call looks failed in its row: is_error and <tool_use_error> results get an error chip', async () => {
    const refused = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-12-01T10:00:00Z', message: { role: 'user', content: 'Edit it.' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2026-12-01T10:00:01Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Edit', input: { file_path: '/x.ts' } }] } },
      { type: 'user', uuid: 'u2', parentUuid: 'a1', sessionId: 's', timestamp: '2026-12-01T10:00:02Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>' }] } },
    ];
    const page = await start({ 'refused.jsonl': refused.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    await page.open('agents/claude-code/deploy-db-timeout.jsonl');
    const errored = await page.page.$$eval('[data-testid="row"]:has([data-testid="tool-error-chip"])', (rows) => rows.map((r) => Number(r.getAttribute('data-index'))));
    // The psql call timed out (is_error: true); the .env read and the CI answer succeeded.
    expect(errored).toEqual([4]);
    await page.open('refused.jsonl');
    expect(await page.page.$$eval('[data-testid="row"]:has([data-testid="tool-error-chip"])', (rows) => rows.map((r) => Number(r.getAttribute('data-index'))))).toEqual([2]);
  });

  it('Content and Raw keep the reader as far through a long message as they were', async () => {
    const body = Array.from({ length: 240 }, (_, i) => `Step ${i + 1}: checked the deploy log for the database timeout and noted the pool size.`).join('\n');
    const page = await start({ 'long.json': JSON.stringify([{ role: 'user', content: 'What happened?' }, { role: 'assistant', content: body }], null, 2) });
    await page.open('long.json');
    await page.page.click('[data-testid="row"][data-index="1"]');
    await page.page.waitForSelector('[data-testid="detail-content"]');
    const share = () => page.page.$eval('[data-testid="detail"]', (el) => el.scrollTop / (el.scrollHeight - el.clientHeight));
    await page.page.$eval('[data-testid="detail"]', (el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 2));
    await page.page.click('[data-testid="view-raw"]');
    await page.page.waitForSelector('[data-testid="detail-raw"]');
    // Raw is the JSON line (its line breaks escaped): much shorter; the same pixel would be its end.
    expect(await share()).toBeCloseTo(0.5, 1);
    await page.page.click('[data-testid="view-content"]');
    await page.page.waitForSelector('[data-testid="detail-content"]');
    expect(await share()).toBeCloseTo(0.5, 1);
  });

  it('a summary that would grow the history is said, and Apply is not offered', async () => {
    const tiny = JSON.stringify([{ role: 'user', content: 'no' }, { role: 'assistant', content: 'On' }, { role: 'user', content: '0777' }, { role: 'assistant', content: '~' }], null, 2);
    const page = await start({ 'tiny.json': tiny });
    // On a laptop's window: the preview is read whole, in view, not in the bottom of the narrow panel.
    await page.page.setViewportSize({ width: 1100, height: 700 });
    await page.open('tiny.json');
    await page.page.keyboard.press('w');
    await page.page.waitForSelector('[data-testid="window-panel"] [data-testid="plan-totals"]');
    await page.page.click('[data-testid="compact-all"]');
    await page.page.selectOption('[data-testid="compact-source"]', 'offline');
    await page.page.click('[data-testid="compact-preview"]');
    await page.page.waitForSelector('[data-testid="compact-result"]');
    // The offline summary quotes what was said, however short: never "no text" for "no" or "0777".
    const summary = (await page.page.textContent('[data-testid="compact-result"] pre')) ?? '';
    expect(summary).not.toContain('no text');
    expect(summary).toMatch(/"no"|"0777"|"On"|"~"/);
    await page.page.waitForSelector('[data-testid="compact-grows"]');
    expect(await page.page.isDisabled('[data-testid="compact-apply"]')).toBe(true);
    const box = (await page.page.locator('[data-testid="compact-result"]').boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(600);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(700);
    expect(box.x + box.width).toBeLessThanOrEqual(1100);
    await page.screenshot('newcomer-compact-preview-1100');
    // Escape closes the preview and leaves the conversation as it was.
    await page.page.keyboard.press('Escape');
    await page.page.waitForSelector('[data-testid="compact-result"]', { state: 'detached' });
    expect(await page.page.isVisible('[data-testid="window-panel"]')).toBe(true);
  });

  it('at 1,100 × 700 the tokens pane can be put away, the table taking its width; T brings it back (remembered)', async () => {
    const page = await start();
    await page.page.setViewportSize({ width: 1100, height: 700 });
    await page.open('agents/claude-code/deploy-db-timeout.jsonl');
    await page.page.waitForSelector('[data-testid="summary"]');
    const before = (await page.page.locator('[data-testid="message-grid"]').boundingBox())!.width;
    // With a message open below, a screen of rows still shows above it, the title on one line.
    await page.page.click('[data-testid="row"][data-index="1"]');
    await page.page.waitForSelector('[data-testid="detail"]');
    const rowsInView = await page.page.$$eval('[data-testid="row"]', (rows) => {
      const body = document.querySelector('[data-testid="grid-body"]')!.getBoundingClientRect();
      return rows.filter((r) => r.getBoundingClientRect().top >= body.top - 1 && r.getBoundingClientRect().bottom <= body.bottom + 1).length;
    });
    expect(rowsInView).toBeGreaterThanOrEqual(8);
    const title = (await page.page.locator('[data-testid="conv-title"]').boundingBox())!;
    expect(title.height).toBeLessThan(30);
    await page.page.click('[data-testid="hide-tokens"]');
    await page.page.waitForSelector('[data-testid="show-tokens"]');
    const after = (await page.page.locator('[data-testid="message-grid"]').boundingBox())!.width;
    expect(after - before).toBeGreaterThan(200);
    await page.screenshot('browser-tokens-hidden-1100');
    // Remembered across a reload; T (outside a text field) brings it back.
    await page.page.reload();
    await page.ready();
    await page.open('agents/claude-code/deploy-db-timeout.jsonl');
    await page.page.waitForSelector('[data-testid="show-tokens"]');
    await page.page.locator('[data-testid="message-grid"]').focus();
    await page.page.keyboard.press('t');
    await page.page.waitForSelector('[data-testid="summary"]');
  });

  it('Raw lays a JSONL line out one key a line, the file\'s own bytes a click away', async () => {
    const page = await start();
    await page.open('agents/claude-code/deploy-db-timeout.jsonl');
    await page.page.click('[data-testid="row"][data-index="1"]');
    await page.page.click('[role="tab"]:text-is("Raw")');
    const laid = (await page.page.textContent('[data-testid="detail-raw"]')) ?? '';
    expect(laid.split('\n').length).toBeGreaterThan(10);
    expect(laid).toContain('  "parentUuid": "c0000001-0000-4000-8000-000000000001"');
    await page.page.click('[data-testid="raw-as-file"]');
    const line = readFileSync(join(ROOT, 'examples', 'agents/claude-code/deploy-db-timeout.jsonl'), 'utf8').split('\n')[2];
    await page.page.waitForFunction((l) => document.querySelector('[data-testid="detail-raw"]')?.textContent === l, line);
  });

  it("a match in a tool card is counted: the detail pane says where, not that the word is absent", async () => {
    const billing = JSON.stringify([
      { role: 'user', content: 'Bill the customer for March.', timestamp: '2026-12-01T10:00:00' },
      { role: 'assistant', content: '', timestamp: '2026-12-01T10:00:01', metadata: { tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'create_invoice', arguments: '{"customer": "acme", "month": "2026-03"}' } }] } },
      { role: 'tool', content: '{"id": "inv_1"}', timestamp: '2026-12-01T10:00:02', metadata: { tool_call_id: 'call_1' } },
    ], null, 2);
    const session = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-12-01T10:00:00Z', message: { role: 'user', content: 'Bill acme for March.' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2026-12-01T10:00:01Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'mcp__billing__create_invoice', input: { customer: 'acme', month: '2026-03' } }] } },
      { type: 'user', uuid: 'u2', parentUuid: 'a1', sessionId: 's', timestamp: '2026-12-01T10:00:02Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{"id": "inv_1"}' }] } },
    ];
    const page = await start({ 'billing.json': billing, 'billing-session.jsonl': session.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    for (const file of ['billing.json', 'billing-session.jsonl']) {
      await page.open(file);
      await page.search('invoice');
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.waitForFunction(() => /match 1 of \d+/.test(document.querySelector('[data-testid="detail-hits"]')?.textContent ?? ''));
      expect(await page.page.$$eval('#detail mark.hit', (m) => m.length), file).toBeGreaterThan(0);
    }
  });

  it("a swarms tool message's result is shown once: its content, and a card that links it to its call", async () => {
    const page = await start();
    await page.open('trip_planner_tools.json');
    await page.page.click('[data-testid="row"][data-index="3"]');
    await page.page.waitForSelector('[data-testid="tool-result-card"]');
    expect(await page.page.textContent('[data-testid="detail-content"]')).toContain('Lisbon');
    expect(await page.page.$$eval('[data-testid="tool-result-card"] pre', (p) => p.length)).toBe(0);
    expect(await page.page.textContent('[data-testid="tool-result-card"]')).toMatch(/call in message 2/);
  });

  it('every screen: no serious or critical accessibility violation (axe-core, WCAG 2.1 A/AA)', async () => {
    const page = await start();
    const screens: Record<string, Awaited<ReturnType<typeof axeViolations>>> = {};
    screens['folder'] = await axeViolations(page.page);
    await page.open('agents/claude-code/deploy-db-timeout.jsonl');
    await page.page.click('[data-testid="row"][data-index="2"]');
    screens['file with detail pane'] = await axeViolations(page.page);
    await page.page.keyboard.press('w');
    screens['window panel'] = await axeViolations(page.page);
    await page.page.keyboard.press('Escape');
    await page.page.click('[data-testid="share-button"]');
    await page.page.waitForSelector('[data-testid="share-dialog"]');
    screens['share dialog'] = await axeViolations(page.page);
    await page.page.keyboard.press('Escape');
    await page.page.keyboard.press('Control+k');
    screens['palette'] = await axeViolations(page.page);
    await page.page.keyboard.press('Escape');
    for (const [name, v] of Object.entries(screens)) console.log(`axe ${name}: ${v.length ? JSON.stringify(v, null, 1) : 'none'}`);
    expect(screens).toEqual(Object.fromEntries(Object.keys(screens).map((k) => [k, []])));
  });
});
