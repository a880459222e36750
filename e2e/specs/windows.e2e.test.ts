// Two windows on one document (two tabs of browser mode on one server): each shows the other's changes as they
// are made; an edit made on what a window showed before another window changed it is refused with a calm
// notice, the current state shown and the typed text kept; Reload asks before it drops another window's edits.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openWindows, unavailable, type Windows } from '../support/browsers.js';

const reason = unavailable('browser');
/** Two pages of one server, each reading the file and each told of the other's changes: twice a page's work. */
const WINDOWS_TIMEOUT = 120_000;
if (reason) console.log(`two-window e2e skipped: ${reason}`);
describe.skipIf(reason !== undefined)('one document in two windows (browser mode)', () => {
  let windows: Windows | undefined;
  afterEach(async () => {
    await windows?.close();
    windows = undefined;
  });

  async function start(): Promise<{ a: InspectorPage; b: InspectorPage; path: string; before: string }> {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'swarms'), dir, { recursive: true });
    windows = await openWindows(dir, 2);
    const [a, b] = windows.pages.map((p) => new InspectorPage(p));
    for (const w of [a, b]) {
      await w.ready();
      await w.open('conversation_demo.json');
    }
    const path = join(dir, 'conversation_demo.json');
    return { a, b, path, before: readFileSync(path, 'utf8') };
  }
  const rowText = (w: InspectorPage, i: number) => w.page.textContent(`[data-testid="row"][data-index="${i}"]`);
  const count = (w: InspectorPage, n: number) => w.page.waitForFunction((want) => new RegExp(`(^|\\D)${want} msgs`).test(document.querySelector('.conv-head')?.textContent ?? ''), n);

  it("a draft made before another window changed its message is refused with a calm notice, and kept; applied again, it goes in", async () => {
    const { a, b, path } = await start();
    // B starts editing message 2.
    await b.page.click('[data-testid="row"][data-index="2"]');
    await b.page.click('[data-testid="edit-button"]');
    await b.page.fill('[data-testid="edit-content"]', 'What is the capital of Portugal?');
    // Meanwhile A changes that message and applies it.
    await a.page.click('[data-testid="row"][data-index="2"]');
    await a.page.click('[data-testid="edit-button"]');
    await a.page.fill('[data-testid="edit-content"]', 'What is the capital of Spain?');
    await a.page.click('[data-testid="edit-apply"]');
    await a.page.waitForSelector('[data-testid="dirty"]');
    // B is told: its table shows A's edit, its own draft is still in its editor.
    await b.page.waitForFunction(() => /capital of Spain/.test(document.querySelector('[data-testid="row"][data-index="2"]')?.textContent ?? ''));
    await b.page.waitForSelector('[data-testid="dirty"]');
    expect(await b.page.inputValue('[data-testid="edit-content"]')).toBe('What is the capital of Portugal?');

    await b.page.click('[data-testid="edit-apply"]');
    await b.page.waitForSelector('[data-testid="stale-notice"]');
    const notice = (await b.page.textContent('[data-testid="stale-notice"]')) ?? '';
    expect(notice).toMatch(/conversation_demo\.json changed since this window showed it .*the edit was not done/);
    expect(notice).toMatch(/Your text is still in the editor: check that message 2 is the one you meant/);
    expect(notice).not.toMatch(/Error|\bat .*\.(js|ts):\d+/);
    expect(await b.page.getAttribute('[data-testid="stale-notice"]', 'role')).toBe('status');
    expect(await b.page.inputValue('[data-testid="edit-content"]')).toBe('What is the capital of Portugal?');
    expect(await rowText(b, 2)).toContain('capital of Spain');
    await b.screenshot('two-windows-stale-notice');

    // Told, B applies its text again: it goes in, and A is shown it.
    await b.page.click('[data-testid="edit-apply"]');
    await b.page.waitForSelector('[data-testid="edit-content"]', { state: 'detached' });
    await b.page.waitForFunction(() => /capital of Portugal/.test(document.querySelector('[data-testid="row"][data-index="2"]')?.textContent ?? ''));
    await a.page.waitForFunction(() => /capital of Portugal/.test(document.querySelector('[data-testid="row"][data-index="2"]')?.textContent ?? ''));
    await a.ready();
    await a.page.keyboard.press('Control+s');
    await a.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
    await b.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
    const saved = JSON.parse(readFileSync(path, 'utf8')) as Array<{ content: unknown }>;
    expect(saved[2].content).toBe('What is the capital of Portugal?');
  }, WINDOWS_TIMEOUT);

  it("Reload asks before it drops another window's unsaved edits; kept, they stay in both windows", async () => {
    const { a, b, path, before } = await start();
    await a.page.click('[data-testid="row"][data-index="0"]');
    await a.page.keyboard.press('Delete');
    await count(a, 4);
    // B shows A's delete, and that the file has unsaved edits.
    await count(b, 4);
    await b.page.waitForSelector('[data-testid="dirty"]');
    await b.ready();
    await b.page.keyboard.press('Control+k');
    await b.page.fill('[data-testid="palette-input"]', 'Revert');
    await b.page.keyboard.press('Enter');
    await b.page.waitForSelector('[data-testid="reload-others"]');
    expect(await b.page.textContent('[data-testid="reload-others"]')).toMatch(/conversation_demo\.json has unsaved edits made in another window/);
    await b.screenshot('two-windows-reload-asks');
    await b.page.click('[data-testid="reload-others-keep"]');
    await b.page.waitForSelector('[data-testid="reload-others"]', { state: 'detached' });
    expect(await a.page.isVisible('[data-testid="dirty"]')).toBe(true);
    await count(b, 4);
    // Asked again and confirmed: the file as it is on disk, in both windows.
    await b.page.keyboard.press('Control+k');
    await b.page.fill('[data-testid="palette-input"]', 'Revert');
    await b.page.keyboard.press('Enter');
    await b.page.click('[data-testid="reload-others-confirm"]');
    await count(b, 5);
    await count(a, 5);
    await a.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
    expect(readFileSync(path, 'utf8')).toBe(before);
  }, WINDOWS_TIMEOUT);
});
