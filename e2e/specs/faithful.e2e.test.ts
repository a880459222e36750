import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../test/helpers.js';
import { walkSession } from '../../test/support/claude-code-walker.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Mode, type Session } from '../support/browsers.js';

const CART = 'claude-code/cart-rewind-compact.jsonl';

/** The row index of the message whose preview holds `text`. */
async function rowOf(page: InspectorPage, text: string): Promise<number> {
  const index = await page.page.$$eval('[data-testid="row"]', (rows, t) => rows.find((r) => r.textContent?.includes(t))?.getAttribute('data-index'), text);
  expect(index, `a row holds "${text}"`).toBeTruthy();
  return Number(index);
}

for (const mode of ['browser', 'electron'] as Mode[]) {
  const reason = unavailable(mode);
  describe.skipIf(reason !== undefined)(`edits a file's own tool can still use (${mode})`, () => {
    let session: Session | undefined;
    afterEach(async () => {
      await session?.close();
      session = undefined;
    });

    async function start(file: string): Promise<{ page: InspectorPage; dir: string; path: string }> {
      const dir = tempDir();
      cpSync(join(FIXTURES, 'formats'), dir, { recursive: true });
      session = await openInspector(mode, dir);
      const page = new InspectorPage(session.page);
      await page.ready();
      await page.open(file);
      return { page, dir, path: join(dir, file) };
    }

    it('N adds a message to a Claude Code session; Ctrl+S writes a session that resumes through it', async () => {
      const { page, path } = await start(CART);
      const at = await rowOf(page, 'Now do the same for the tax line.');
      await page.page.click(`[data-testid="row"][data-index="${at}"]`);
      await page.page.keyboard.press('n');
      await page.page.waitForSelector('[data-testid="edit-content"]');
      await page.page.fill('[data-testid="edit-content"]', 'And the shipping line too.');
      await page.page.click('[data-testid="edit-apply"]');
      await page.page.waitForSelector('[data-testid="dirty"]');
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      const text = readFileSync(path, 'utf8');
      const walk = walkSession(text);
      expect(walk.errors).toEqual([]);
      const added = text.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.message?.content === 'And the shipping line too.');
      expect(added).toMatchObject({ sessionId: '7b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8', cwd: '/home/dev/shop' });
      expect(walk.path).toContain(added.uuid);
    });

    it('a save that would leave a tool result without its call says what, and writes only when told', async () => {
      const { page, path } = await start(CART);
      const before = readFileSync(path, 'utf8');
      const at = await rowOf(page, 'Grep');
      await page.page.click(`[data-testid="row"][data-index="${at}"]`);
      await page.page.keyboard.press('Delete');
      // Deleting half of a tool exchange asks first; the user insists.
      await page.page.click('[data-testid="integrity-banner"] button:has-text("Delete only the selected")');
      await page.page.waitForSelector('[data-testid="dirty"]');
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="invalid-banner"]');
      expect(await page.page.textContent('[data-testid="invalid-banner"]')).toMatch(/line \d+: a tool result answers toolu_03Grep, a call that is not before it/);
      expect(readFileSync(path, 'utf8')).toBe(before);
      await page.screenshot('browser-save-would-break-the-session');
      await page.page.click('[data-testid="invalid-save-anyway"]');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      expect(readFileSync(path, 'utf8')).not.toBe(before);
    });

    it('an agent wrote to the file while I edited: the save keeps both, and says so', async () => {
      const { page, path } = await start(CART);
      const at = await rowOf(page, 'Now do the same for the tax line.');
      await page.page.click(`[data-testid="row"][data-index="${at}"]`);
      await page.page.keyboard.press('e');
      await page.page.fill('[data-testid="edit-content"]', 'Now do the same for the tax and shipping lines.');
      await page.page.click('[data-testid="edit-apply"]');
      await page.page.waitForSelector('[data-testid="dirty"]');
      const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
      const last = JSON.parse(lines.at(-1)!);
      const appended = { ...last, parentUuid: last.uuid, uuid: 'a1000000-0000-4000-8000-000000000099', type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'You are welcome.' }] }, timestamp: '2026-11-24T09:12:00.000Z' };
      writeFileSync(path, readFileSync(path, 'utf8') + JSON.stringify(appended) + '\n');
      // An append is no conflict: the save merges the agent's line in as it writes, and says it kept it.
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="saved-note"]');
      expect(await page.page.textContent('[data-testid="saved-note"]')).toContain('kept 1 message added on disk by another program');
      expect(await page.page.$('[data-testid="conflict-banner"]')).toBeNull();
      await page.screenshot('browser-save-merges-an-append');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      const text = readFileSync(path, 'utf8');
      expect(text).toContain('Now do the same for the tax and shipping lines.');
      expect(text).toContain('You are welcome.');
      expect(walkSession(text).errors).toEqual([]);
    });

    it('the file changed on disk beside my edit: Merge keeps both', async () => {
      const { page, path } = await start(CART);
      const at = await rowOf(page, 'Now do the same for the tax line.');
      await page.page.click(`[data-testid="row"][data-index="${at}"]`);
      await page.page.keyboard.press('e');
      await page.page.fill('[data-testid="edit-content"]', 'Now do the same for the tax and shipping lines.');
      await page.page.click('[data-testid="edit-apply"]');
      await page.page.waitForSelector('[data-testid="dirty"]');
      // Another program changed a line the user did not touch: not merged unasked.
      const before = readFileSync(path, 'utf8');
      const first = before.split('\n').findIndex((l) => l.includes('"type":"user"') && !l.includes('tax line'));
      const changed = before.split('\n').map((l, i) => (i === first ? l.replace(/"timestamp":"[^"]*"/, '"timestamp":"2026-11-24T09:00:00.000Z"') : l)).join('\n');
      writeFileSync(path, changed);
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="conflict-banner"]');
      await page.page.click('[data-testid="conflict-merge"]');
      await page.page.waitForSelector('[data-testid="merge-summary"]');
      expect(await page.page.textContent('[data-testid="merge-summary"]')).toMatch(/1 edit of mine applies cleanly.*nothing collides/);
      await page.screenshot('browser-merge-onto-disk');
      await page.page.click('[data-testid="merge-apply"]');
      await page.page.waitForSelector('[data-testid="conflict-banner"]', { state: 'detached' });
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      const text = readFileSync(path, 'utf8');
      expect(text).toContain('Now do the same for the tax and shipping lines.');
      expect(text).toContain('"timestamp":"2026-11-24T09:00:00.000Z"');
      expect(walkSession(text).errors).toEqual([]);
    });

    it('a swarms agent’s state: the tokens pane says who the user and the assistant are, and why', async () => {
      const { page } = await start('swarms/pricing_agent_state.json');
      await page.page.waitForSelector('[data-testid="role-mapping"] li[data-role="swarms_corp"]');
      const row = (role: string) => page.page.textContent(`[data-testid="role-mapping"] li[data-role="${role}"]`);
      expect(await row('swarms_corp')).toContain('user_name');
      expect(await page.page.inputValue('[data-testid="role-mapping"] li[data-role="swarms_corp"] select')).toBe('user');
      expect(await page.page.inputValue('[data-testid="role-mapping"] li[data-role="PricingAgent"] select')).toBe('assistant');
      await page.screenshot('browser-role-mapping');
    });
  });
}
