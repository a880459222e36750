// Open Folder in browser mode, as a user does it: browse from the open folder to another one under the home
// folder, open it (the page starts over on it), come back through the recent folders, be refused outside the
// home folder, and be asked before unsaved edits are given up. Electron has the system's own dialog instead
// (its requests are checked against the built main in test/app/electron-artifacts.test.ts). Each test starts
// its own server on its own home and state folders, with the folder it starts in and the recent folders it
// needs: each passes run alone.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecentFolders } from '../../app/service/folders/recent-folders.js';
import { FIXTURES } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Session } from '../support/browsers.js';

const reason = unavailable('browser');
/** Each test starts its own server and browser before it begins: that is in its time. */
const STARTED_TIMEOUT = 90_000;
if (reason) console.log(`open folder e2e skipped: ${reason}`);
describe.skipIf(reason !== undefined)('Open Folder in browser mode', () => {
  let session: Session | undefined;
  let home = '';
  let state = '';
  let page: InspectorPage;
  const folderShown = () => page.page.textContent('.topbar .folder');
  // The dialog lists folders by name as people sort them (numbers as numbers, any case).
  const firstFormat = () => readdirSync(join(home, 'work', 'formats'), { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name).sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }))[0];
  async function openDialog(): Promise<void> {
    await page.page.keyboard.press('Control+o');
    await page.page.waitForSelector('[data-testid="open-folder"]');
    await page.page.waitForFunction(() => !!(document.querySelector('[data-testid="folder-path"]') as HTMLInputElement | null)?.value);
  }
  async function startedOver(on: string): Promise<void> {
    await page.page.waitForFunction((p) => document.querySelector('.topbar .folder')?.textContent?.includes(p), on, { timeout: 30_000 });
    await page.ready();
  }

  /** The inspector opened on `at` (under home/work), the folders `recent` opened before it (oldest first). */
  async function start(at: 'swarms' | 'formats', recent: Array<'swarms' | 'formats'> = []): Promise<void> {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'ci-folders-home-')));
    cpSync(join(FIXTURES, 'swarms'), join(home, 'work', 'swarms'), { recursive: true });
    cpSync(join(FIXTURES, 'formats'), join(home, 'work', 'formats'), { recursive: true });
    mkdirSync(join(home, '.claude', 'projects', '-home-app'), { recursive: true });
    writeFileSync(join(home, '.claude', 'projects', '-home-app', 'one.jsonl'), '{"type":"user","message":{"role":"user","content":"hello"},"uuid":"1","timestamp":"2026-01-01T00:00:00Z"}\n');
    state = mkdtempSync(join(tmpdir(), 'ci-folders-state-'));
    // Kept as the app keeps them (serve reads this list from its state folder).
    mkdirSync(join(state, 'conversation-inspector'), { recursive: true, mode: 0o700 });
    const recents = new RecentFolders(join(state, 'conversation-inspector', 'recent-folders.json'));
    recent.forEach((name, k) => recents.add(join(home, 'work', name), Date.now() - 60_000 + k));
    session = await openInspector('browser', join(home, 'work', at), { HOME: home, XDG_STATE_HOME: state });
    page = new InspectorPage(session.page);
    await page.ready();
  }
  afterEach(async () => {
    await session?.close();
    session = undefined;
    for (const d of [home, state]) rmSync(d, { recursive: true, force: true });
  });

  it('browses from the open folder to its neighbour and opens it: the page starts over on that folder', async () => {
    await start('swarms');
    await openDialog();
    expect(await page.page.inputValue('[data-testid="folder-path"]')).toBe(join(home, 'work', 'swarms'));
    await page.page.click('button[aria-label="Parent folder"]');
    await page.page.waitForFunction((p) => (document.querySelector('[data-testid="folder-path"]') as HTMLInputElement).value === p, join(home, 'work'));
    expect(await page.page.$$eval('.folder-row .name', (els) => els.map((e) => e.textContent))).toEqual(['formats/', 'swarms/']);
    await page.page.locator('.folder-row:has-text("formats") [data-testid="folder-open-row"]').click({ force: true });
    await startedOver(join(home, 'work', 'formats'));
    const files = (await page.files()).map((f) => f.path.split('/')[0]);
    expect(new Set(files)).toEqual(new Set(readdirSync(join(home, 'work', 'formats'))));
  }, STARTED_TIMEOUT);

  it('works from the keyboard alone: into the list, up, down, in, open, and Esc wherever the focus went', async () => {
    await start('formats');
    await openDialog();
    const listed = (p: string) => page.page.waitForFunction((want) => (document.querySelector('[data-testid="folder-path"]') as HTMLInputElement).value === want, p, { timeout: 8000 });
    const focusOn = (name: string) => page.page.waitForFunction((n) => document.activeElement?.textContent?.includes(n), name, { timeout: 8000 });
    // From the path box (the open folder, formats: its subfolders listed) into the list, up, and down to swarms.
    const toSwarms = async () => {
      await page.page.keyboard.press('ArrowDown');
      await focusOn(`${firstFormat()}/`);
      await page.page.keyboard.press('Backspace');
      await listed(join(home, 'work'));
      await focusOn('formats/');
      await page.page.keyboard.press('ArrowDown');
      await focusOn('swarms/');
    };
    await toSwarms();
    await page.page.keyboard.press('Enter');
    await listed(join(home, 'work', 'swarms'));
    // swarms has no subfolders: the focus stays in the dialog, and Esc closes it.
    await page.page.keyboard.press('Escape');
    await page.page.waitForSelector('[data-testid="open-folder"]', { state: 'detached' });
    // Ctrl+Enter on a folder of the list opens it.
    await openDialog();
    await toSwarms();
    await page.page.keyboard.press('Control+Enter');
    await startedOver(join(home, 'work', 'swarms'));
  }, STARTED_TIMEOUT);

  it('offers the folder before as a recent one, and the agents’ session folders under home', async () => {
    await start('swarms', ['formats']);
    await openDialog();
    expect(await page.page.locator('[data-testid="folder-place"]').allTextContents()).toEqual([expect.stringContaining('Claude Code sessions')]);
    const recent = page.page.locator('[data-testid="folder-recent"]');
    expect(await recent.allTextContents()).toEqual([expect.stringContaining(join(home, 'work', 'formats'))]);
    await page.screenshot('open-folder-dialog');
    await recent.first().click();
    await startedOver(join(home, 'work', 'formats'));
    await openDialog();
    await page.page.locator('[data-testid="folder-recent"]').first().click();
    await startedOver(join(home, 'work', 'swarms'));
    expect(await folderShown()).toContain(join(home, 'work', 'swarms'));
  }, STARTED_TIMEOUT);

  it('refuses a folder outside the home folder, saying why, and goes nowhere', async () => {
    await start('swarms');
    await openDialog();
    await page.page.fill('[data-testid="folder-path"]', '/etc');
    await page.page.keyboard.press('Enter');
    await page.page.waitForSelector('[data-testid="folder-error"]');
    expect(await page.page.textContent('[data-testid="folder-error"]')).toMatch(/\/etc is outside what browser mode may open/);
    // The box goes back to the folder listed, so the box, the list and the button agree.
    expect(await page.page.inputValue('[data-testid="folder-path"]')).toBe(join(home, 'work', 'swarms'));
    await page.page.keyboard.press('Escape');
    await page.page.waitForSelector('[data-testid="open-folder"]', { state: 'detached' });
    expect(await folderShown()).toContain(join(home, 'work', 'swarms'));
  }, STARTED_TIMEOUT);

  it('asks before unsaved edits are lost; declining keeps everything as it was', async () => {
    await start('swarms', ['formats']);
    await page.open('conversation_demo.json');
    await page.page.click('[data-testid="row"][data-index="1"]');
    await page.page.keyboard.press('Delete');
    await page.page.waitForSelector('[data-testid="dirty"]');
    await openDialog();
    const asked: string[] = [];
    page.page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.page.locator('[data-testid="folder-recent"]').first().click();
    await page.page.waitForFunction(() => true);
    expect(asked[0]).toMatch(/unsaved edits \(conversation_demo\.json\)/);
    await page.page.keyboard.press('Escape');
    expect(await page.page.isVisible('[data-testid="dirty"]')).toBe(true);
    expect(await folderShown()).toContain(join(home, 'work', 'swarms'));
  }, STARTED_TIMEOUT);
});
