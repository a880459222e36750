// The session list's note on what it leaves out (a tool's prompt log, a file of no message) leads to those files:
// the Files list narrowed to them, each saying why, until the reader asks for every file again.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Session } from '../support/browsers.js';

const reason = unavailable('browser');
if (reason) console.log(`not-listed e2e skipped: ${reason}`);
describe.skipIf(reason !== undefined)('what the session list leaves out (browser)', () => {
  let session: Session | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  it('"open them in Files" shows those files alone; "show every file" and the Files switch bring back the rest', { timeout: 90_000 }, async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'claude', 'projects', '-home-dev-shop'), { recursive: true });
    cpSync(join(FIXTURES, 'formats', 'claude-code', 'history.jsonl'), join(dir, 'claude', 'history.jsonl'));
    cpSync(join(FIXTURES, 'formats', 'claude-code', 'session.jsonl'), join(dir, 'claude', 'projects', '-home-dev-shop', '0000000a-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl'));
    writeFileSync(join(dir, 'empty.json'), '[]\n');
    session = await openInspector('browser', dir, { XDG_STATE_HOME: tempDir() });
    const page = new InspectorPage(session.page, { sidebar: 'as-opened' });
    await page.ready();
    const p = page.page;
    await p.waitForSelector('[data-testid="not-listed-files"]', { timeout: 60_000 });
    await p.click('[data-testid="not-listed-files"]');
    await p.waitForSelector('[data-testid="file-only"]');
    const shown = () => p.$$eval('[data-testid="file-list"] [data-testid="file"]', (els) => els.map((e) => e.getAttribute('data-path')).sort());
    await p.waitForFunction(() => document.querySelectorAll('[data-testid="file-list"] [data-testid="file"]').length > 0);
    expect(await shown()).toEqual(['claude/history.jsonl', 'empty.json']);
    expect(await p.textContent('[data-testid="file-only"]')).toMatch(/^The 2 files the session list leaves out, each with why/);
    await page.screenshot('browser-not-listed-files');
    await p.click('[data-testid="file-only-clear"]');
    await p.waitForFunction(() => !document.querySelector('[data-testid="file-only"]'));
    expect(await shown()).toContain('claude/projects/-home-dev-shop/0000000a-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl');
    // Followed again, then Sessions and back to Files by hand: every file.
    await p.click('[data-testid="sidebar-mode-sessions"]');
    await p.click('[data-testid="not-listed-files"]');
    await p.waitForSelector('[data-testid="file-only"]');
    await p.click('[data-testid="sidebar-mode-sessions"]');
    await p.click('[data-testid="sidebar-mode-files"]');
    await p.waitForFunction(() => !document.querySelector('[data-testid="file-only"]'));
    expect((await shown()).length).toBe(3);
  });
});
