// "Go to #N" in a Claude Code session too big to read whole (some 290 MB, read in four parts), in the served page:
// from the first part, Ctrl+G and a number of the session's numbering open the last part at that message, and a
// number past the session's last says how many messages it has. Each line of this session is one message, so
// message N says "Turn N". Times are printed, never asserted.
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Session } from '../support/browsers.js';

/** Past the service's whole-read limit (256 MiB), short of a fifth part (96 MiB each). */
const BYTES = 290 * 1024 * 1024;

/** One line of the session: message `i`, its parent the one before (one thread through all the parts). */
function line(i: number, filler: string): string {
  const text = `Turn ${i}: went through the release notes, "quoted" {braces} ünïcödé 🎉 ${filler}`;
  return JSON.stringify({ type: i % 2 ? 'assistant' : 'user', uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, sessionId: 's-goto', timestamp: `2026-12-01T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`, message: i % 2 ? { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text }] } : { role: 'user', content: text } }) + '\n';
}

const reason = unavailable('browser');
if (reason) console.log(`parted go-to e2e skipped: ${reason}`);
describe.skipIf(reason !== undefined)('"go to #N" in a session read a part at a time (browser)', () => {
  let session: Session | undefined;
  let dir = '';
  let count = 0;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ci-parted-goto-e2e-'));
    const filler = 'and checked each entry against the changelog before moving on. '.repeat(30);
    const fd = openSync(join(dir, 'session.jsonl'), 'w');
    for (let written = 0; written < BYTES; ) {
      let batch = '';
      for (let k = 0; k < 1000; k++) batch += line(count++, filler);
      written += writeSync(fd, batch);
    }
    closeSync(fd);
    console.log(`session.jsonl: ${(statSync(join(dir, 'session.jsonl')).size / 1e6).toFixed(0)} MB, ${count} messages`);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('Ctrl+G from the first part goes to a message of the last part by the session\'s number, and says so past the last', { timeout: 300_000 }, async () => {
    session = await openInspector('browser', dir, { XDG_STATE_HOME: tempDir() });
    const page = new InspectorPage(session.page);
    await page.ready();
    await page.page.waitForFunction(() => !!document.querySelector('[data-testid="file"][data-path="session.jsonl"]:not([data-pending])'), null, { timeout: 60_000 });
    await page.file('session.jsonl').click();
    await page.page.waitForSelector('[data-testid="row"][data-index="0"]', { timeout: 120_000 });
    expect(await page.page.$$eval('[data-testid="conversation-item"]', (items) => items.length)).toBe(4);
    // Far into the last part: a few messages before the session's last.
    const n = count - 5;
    await page.page.focus('[data-testid="message-grid"]');
    const asked = Date.now();
    await page.page.keyboard.press('Control+g');
    await page.page.waitForSelector('[data-testid="palette-input"]');
    await page.page.keyboard.type(String(n));
    await page.page.waitForSelector(`[data-testid="palette-entry"]:has-text("Go to message ${n} of the session")`);
    await page.page.keyboard.press('Enter');
    await page.page.waitForFunction((text) => document.querySelector('#detail')?.textContent?.includes(text), `Turn ${n}: went through`, { timeout: 240_000 });
    console.log(`message ${n} of ${count} shown ${Date.now() - asked} ms after Ctrl+G from the first part`);
    expect(await page.page.textContent('[data-testid="conv-title"]')).toBe('session.jsonl#part-4');
    expect(await page.page.$$eval('[data-testid="conversation-item"]', (items) => items.map((i) => i.getAttribute('aria-current')))).toEqual([null, null, null, 'true']);
    expect(await page.page.textContent('[data-testid="go-to-note"]')).toMatch(new RegExp(`Message #${n.toLocaleString('en-US')} of the session is #[\\d,]+ of part 4 of 4`));
    // Its row is the one selected in the table.
    const selected = await page.page.getAttribute('[data-testid="row"][aria-selected="true"]', 'data-index');
    expect(await page.page.textContent('[data-testid="go-to-note"]')).toContain(`is #${Number(selected).toLocaleString('en-US')} of part 4`);
    await page.screenshot('browser-parted-go-to');
    // Past the session's last message: said, with how many there are; the part and the message stay.
    await page.page.focus('[data-testid="message-grid"]');
    await page.page.keyboard.press('Control+g');
    await page.page.keyboard.type(String(count + 10));
    await page.page.keyboard.press('Enter');
    await page.page.waitForFunction(() => document.querySelector('[data-testid="go-to-note"]')?.getAttribute('role') === 'alert', null, { timeout: 120_000 });
    expect(await page.page.textContent('[data-testid="go-to-note"]')).toContain(`This session has ${count.toLocaleString('en-US')} messages (#0 to #${(count - 1).toLocaleString('en-US')}, in 4 parts): there is no message #${(count + 10).toLocaleString('en-US')}.`);
    expect(await page.page.textContent('[data-testid="conv-title"]')).toBe('session.jsonl#part-4');
    expect(await page.page.textContent('#detail')).toContain(`Turn ${n}: went through`);
  });
});
