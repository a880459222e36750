import { diffLines } from 'diff';
import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getTokenizer, readConversationFile } from '../../src/core/index.js';
import { FIXTURES, tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Mode, type Session } from '../support/browsers.js';

for (const mode of ['browser', 'electron'] as Mode[]) {
  const reason = unavailable(mode);
  describe.skipIf(reason !== undefined)(`editing e2e (${mode})`, () => {
    let session: Session | undefined;
    afterEach(async () => {
      await session?.close();
      session = undefined;
    });

    async function start(file: string): Promise<{ page: InspectorPage; path: string; before: string }> {
      const dir = tempDir();
      cpSync(join(FIXTURES, 'swarms'), dir, { recursive: true });
      session = await openInspector(mode, dir);
      const page = new InspectorPage(session.page);
      await page.ready();
      await page.open(file);
      const path = join(dir, file);
      return { page, path, before: readFileSync(path, 'utf8') };
    }

    async function editContent(page: InspectorPage, index: number, text: string) {
      await page.page.click(`[data-testid="row"][data-index="${index}"]`);
      await page.page.click('[data-testid="edit-button"]');
      await page.page.fill('[data-testid="edit-content"]', text);
      await page.page.click('[data-testid="edit-apply"]');
      await page.page.waitForSelector('[data-testid="dirty"]');
      await page.ready();
    }

    it('a double click on a row opens its editor', async () => {
      const { page } = await start('conversation_demo.json');
      await page.page.dblclick('[data-testid="row"][data-index="1"]');
      await page.page.waitForSelector('[data-testid="edit-content"]');
      expect(await page.page.getAttribute('[data-testid="row"][data-index="1"]', 'aria-selected')).toBe('true');
    });

    it('the editor counts the tokens of what is typed, as the table would count it', async () => {
      const { page } = await start('conversation_demo.json');
      await page.page.dblclick('[data-testid="row"][data-index="1"]');
      const typed = 'Refunds over £1,000 need a second approver — see 🧾 policy §4.2.';
      await page.page.fill('[data-testid="edit-content"]', typed);
      const want = getTokenizer('gpt-5.4').countContent(typed);
      await page.page.waitForFunction((w) => document.querySelector('[data-testid="live-tokens"][data-fresh="true"]')?.textContent?.startsWith(`${w} tokens (o200k_base)`), want);
      await page.page.fill('[data-testid="edit-content"]', '');
      await page.page.waitForFunction(() => document.querySelector('[data-testid="live-tokens"][data-fresh="true"]')?.textContent?.startsWith('0 tokens'));
    });

    it('the palette goes to message N and opens a file by name', async () => {
      const { page } = await start('conversation_demo.json');
      await page.page.keyboard.press('Control+K');
      await page.page.fill('[data-testid="palette-input"]', '#3');
      await page.page.waitForSelector('[data-testid="palette-entry"]:has-text("Go to message 3")');
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="row"][data-index="3"][aria-selected="true"]');
      await page.page.keyboard.press('Control+K');
      await page.page.fill('[data-testid="palette-input"]', 'multi_agent');
      await page.page.waitForSelector('[data-testid="palette-entry"]:has-text("Open multi_agent_turns.json")');
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="conv-title"][title="multi_agent_turns.json"]');
    });

    it('N adds a message after the selected one and opens its editor; Esc leaves the editor, not the panel behind it', async () => {
      const { page } = await start('conversation_demo.json');
      const rows = await page.page.$$eval('[data-testid="row"]', (r) => r.length);
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.keyboard.press('w');
      await page.page.waitForSelector('[data-testid="window-panel"]');
      await page.page.focus('[data-testid="message-grid"]');
      await page.page.keyboard.press('n');
      await page.page.waitForSelector('[data-testid="edit-content"]');
      expect(await page.page.$$eval('[data-testid="row"]', (r) => r.length)).toBe(rows + 1);
      expect(await page.page.getAttribute('[data-testid="row"][data-index="2"]', 'aria-selected')).toBe('true');
      await page.page.fill('[data-testid="edit-content"]', 'typed, then thought better of');
      // Esc asks before typed text goes; yes, let it go.
      page.page.once('dialog', (d) => void d.accept());
      await page.page.keyboard.press('Escape');
      await page.page.waitForSelector('[data-testid="edit-content"]', { state: 'detached' });
      expect(await page.page.isVisible('[data-testid="window-panel"]')).toBe(true);
      // Cancelled, the message added to be edited goes too: nothing is left to save.
      await page.page.waitForFunction((n) => document.querySelectorAll('[data-testid="row"]').length === n, rows);
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      expect(await page.page.isDisabled('[data-testid="save"]')).toBe(true);
    });

    it('with nothing to save, Save is not offered and Ctrl+S writes nothing (nor opens the browser\'s own dialog)', async () => {
      const { page, path, before } = await start('conversation_demo.json');
      expect(await page.page.isDisabled('[data-testid="save"]')).toBe(true);
      expect(await page.page.getAttribute('[data-testid="save"]', 'title')).toBe('Nothing to save');
      const mtime = statSync(path).mtimeMs;
      const prevented = await page.page.evaluate(() => {
        const e = new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true, cancelable: true });
        window.dispatchEvent(e);
        return e.defaultPrevented;
      });
      expect(prevented).toBe(true);
      await page.page.keyboard.press('Control+k');
      await page.page.fill('[data-testid="palette-input"]', 'Save');
      const save = await page.page.$$eval('[role="listbox"] [role="option"]', (o) => o.filter((x) => x.querySelector('span')?.textContent === 'Save').map((x) => x.getAttribute('aria-disabled')));
      expect(save).toEqual(['true']);
      await page.page.keyboard.press('Escape');
      expect(statSync(path).mtimeMs).toBe(mtime);
      expect(readFileSync(path, 'utf8')).toBe(before);
    });

    it('a file left with unsaved edits keeps a mark in the sidebar until it is saved', async () => {
      const { page } = await start('conversation_demo.json');
      await editContent(page, 3, 'Paris, of course.');
      const others = await page.page.$$eval('[data-testid="file"]', (f) => f.map((x) => x.getAttribute('data-path')!).filter((p) => p !== 'conversation_demo.json'));
      await page.open(others[0]);
      await page.page.waitForSelector('[data-testid="file"][data-path="conversation_demo.json"] [data-testid="file-unsaved"]');
      expect(await page.page.$$eval('[data-testid="file-unsaved"]', (m) => m.length)).toBe(1);
      await page.open('conversation_demo.json');
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="file-unsaved"]', { state: 'detached' });
    });

    it('edit → save: the file on disk differs only in that message', async () => {
      const { page, path, before } = await start('conversation_demo.json');
      await editContent(page, 3, 'Paris, of course.');
      expect(readFileSync(path, 'utf8')).toBe(before);
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      const changed = diffLines(before, readFileSync(path, 'utf8')).filter((p) => p.added || p.removed).map((p) => p.value);
      // The content line, and the stored token_count refreshed for the new content.
      expect(changed).toEqual([
        '        "content": "The capital of France is Paris.",\n',
        '        "content": "Paris, of course.",\n',
        '        "token_count": 7\n',
        '        "token_count": 5\n',
      ]);
      await page.screenshot(`${mode}-edit-saved`);
    });

    it('Ctrl+S in the editor applies what was typed and saves it; the sidebar shows the new figures', async () => {
      const { page, path } = await start('conversation_demo.json');
      // The open file's total appears in the sidebar once it is counted.
      const tokensBefore = await page.page.locator('[data-testid="file"][data-path="conversation_demo.json"] [data-testid="file-tokens"]').textContent({ timeout: 15_000 });
      await page.page.click('[data-testid="row"][data-index="3"]');
      await page.page.click('[data-testid="edit-button"]');
      await page.page.fill('[data-testid="edit-content"]', 'A much longer answer: the capital of France is Paris, on the Seine, as everyone knows.');
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="editor"]', { state: 'detached' });
      await page.page.waitForFunction(() => !document.querySelector('[data-testid="dirty"]'));
      expect(readConversationFile(path).messages[3].content).toBe('A much longer answer: the capital of France is Paris, on the Seine, as everyone knows.');
      await page.page.waitForFunction(
        (before) => document.querySelector('[data-testid="file"][data-path="conversation_demo.json"] [data-testid="file-tokens"]')?.textContent !== before,
        tokensBefore,
      );
    });

    it('leaving the editor with changes not applied asks first; declining keeps them', async () => {
      const { page } = await start('conversation_demo.json');
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.click('[data-testid="edit-button"]');
      // The editor opens with the caret at the end of the text, where typing goes on.
      const [startAt, endAt, length] = await page.page.$eval('[data-testid="edit-content"]', (t) => { const a = t as HTMLTextAreaElement; return [a.selectionStart, a.selectionEnd, a.value.length]; });
      expect(length).toBeGreaterThan(0);
      expect([startAt, endAt]).toEqual([length, length]);
      await page.page.fill('[data-testid="edit-content"]', 'typed, not applied');
      const asked: string[] = [];
      page.page.once('dialog', (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      await page.file('tool_calls.json').click();
      await page.page.waitForFunction(() => true);
      expect(asked[0]).toMatch(/not applied/);
      expect(await page.page.inputValue('[data-testid="edit-content"]')).toBe('typed, not applied');
      await expect(page.page.locator('[data-testid="conv-title"]').textContent()).resolves.toBe('conversation_demo.json');
      // Esc asks too: declining keeps the editor and its text; accepting closes it.
      page.page.once('dialog', (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      await page.page.focus('[data-testid="edit-content"]');
      await page.page.keyboard.press('Escape');
      expect(asked[1]).toMatch(/not applied/);
      expect(await page.page.inputValue('[data-testid="edit-content"]')).toBe('typed, not applied');
      page.page.once('dialog', (d) => void d.accept());
      await page.page.keyboard.press('Escape');
      await page.page.waitForSelector('[data-testid="editor"]', { state: 'detached' });
      await page.open('tool_calls.json');
    });

    it('undo and redo', async () => {
      const { page, path, before } = await start('conversation_demo.json');
      await editContent(page, 2, 'First edit');
      await page.page.click('[data-testid="row"][data-index="0"]');
      await page.page.keyboard.press('Delete');
      await page.page.waitForFunction(() => /4 msgs/.test(document.querySelector('.conv-head')?.textContent ?? ''));
      await page.page.keyboard.press('Control+z');
      await page.page.waitForFunction(() => /5 msgs/.test(document.querySelector('.conv-head')?.textContent ?? ''));
      await page.page.keyboard.press('Control+z');
      await page.page.waitForFunction(() => /What is the capital of France/.test(document.querySelector('[data-testid="row"][data-index="2"]')?.textContent ?? ''));
      await page.page.keyboard.press('Control+Shift+z');
      await page.page.waitForFunction(() => /First edit/.test(document.querySelector('[data-testid="row"][data-index="2"]')?.textContent ?? ''));
      await page.page.keyboard.press('Control+z');
      await page.ready();
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      expect(readFileSync(path, 'utf8')).toBe(before);
    });

    it('a change on disk while editing shows the conflict banner and overwrites nothing until asked', async () => {
      const { page, path } = await start('conversation_demo.json');
      await editContent(page, 1, 'Mine');
      const theirs = readFileSync(path, 'utf8').replace('You are a helpful assistant.', 'Theirs');
      writeFileSync(path, theirs);
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="conflict-banner"]', { timeout: 15_000 });
      expect(readFileSync(path, 'utf8')).toBe(theirs);
      await page.screenshot(`${mode}-conflict`);
      await page.page.click('[data-testid="conflict-keep"]');
      await page.page.waitForSelector('[data-testid="conflict-banner"]', { state: 'detached' });
      const saved = readConversationFile(path).messages;
      expect(saved[1].content).toBe('Mine');
      // Keep mine keeps my edits; the other side's change to a message I left alone is not thrown away.
      expect(saved[0].content).toBe('Theirs');
    });

    it('restores an earlier version from local history, as an undoable edit', async () => {
      const { page, path, before } = await start('conversation_demo.json');
      await editContent(page, 3, 'Version two.');
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      await page.page.keyboard.press('Control+k');
      await page.page.fill('[data-testid="palette-input"]', 'local history');
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="history-version"]');
      expect(await page.page.textContent('[data-testid="history-version"]')).toContain('5 messages');
      // Its diff against the file now: the old line removed, the new one added, nothing else.
      await page.page.click('[data-testid="history-version"] [data-testid="history-diff-button"]');
      await page.page.waitForSelector('[data-testid="history-diff"]');
      const changed = await page.page.$$eval('[data-testid="history-diff"] .diff-line[data-kind="added"], [data-testid="history-diff"] .diff-line[data-kind="removed"]', (ls) => ls.map((l) => `${l.getAttribute('data-kind')}:${l.textContent}`));
      // The content line and its recounted token_count, each removed and added; nothing else.
      expect(changed.filter((l) => /^removed:− .*"content": "The capital of France is Paris/.test(l))).toHaveLength(1);
      expect(changed.filter((l) => /^added:\+ .*"content": "Version two\."/.test(l))).toHaveLength(1);
      expect(changed.filter((l) => !/"content": |"token_count": /.test(l))).toEqual([]);
      await page.page.click('[data-testid="history-version"] button:has-text("Restore")');
      await page.page.waitForFunction(() => /The capital of France is Paris/.test(document.querySelector('[data-testid="row"][data-index="3"]')?.textContent ?? ''));
      await page.page.waitForSelector('[data-testid="dirty"]');
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      expect(readFileSync(path, 'utf8')).toBe(before);
      await page.page.keyboard.press('Control+z');
      await page.page.waitForFunction(() => /Version two/.test(document.querySelector('[data-testid="row"][data-index="3"]')?.textContent ?? ''));
    });

    it('marks several messages with Ctrl-click and deletes them together', async () => {
      const { page, path } = await start('conversation_demo.json');
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.click('[data-testid="row"][data-index="1"]', { modifiers: ['Control'] });
      await page.page.click('[data-testid="row"][data-index="2"]', { modifiers: ['Control'] });
      expect(await page.page.$$eval('[data-testid="row"][data-marked]', (rows) => rows.map((r) => r.getAttribute('data-index')))).toEqual(['1', '2']);
      await page.page.keyboard.press('Delete');
      await page.page.waitForFunction(() => /3 msgs/.test(document.querySelector('.conv-head')?.textContent ?? ''));
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      expect(readConversationFile(path).messages.map((m) => m.message_id?.slice(-1))).toEqual(['1', '4', '5']);
    });

    it('Compare shows the disk version beside mine', async () => {
      const { page } = await start('conversation_demo.json');
      await editContent(page, 2, 'Changed question?');
      await page.page.keyboard.press('Control+k');
      await page.page.fill('[data-testid="palette-input"]', 'compare');
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="compare-dialog"] [data-kind="changed"]');
      expect(await page.page.textContent('[data-testid="compare-dialog"] h2')).toContain('1 message differ');
      await page.screenshot(`${mode}-compare`);
    });

    it('deleting a tool call offers to take its results along', async () => {
      const { page, path } = await start('tool_calls.json');
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.keyboard.press('Delete');
      await page.page.waitForSelector('[data-testid="integrity-banner"]');
      expect(await page.page.textContent('[data-testid="integrity-banner"]')).toContain('Message 2 belongs to a tool exchange with messages 3, 4');
      await page.page.click('[data-testid="with-partners"]');
      await page.page.waitForFunction(() => /3 msgs/.test(document.querySelector('.conv-head')?.textContent ?? ''));
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="dirty"]', { state: 'detached' });
      expect(readConversationFile(path).messages.map((m) => m.role)).toEqual(['System', 'user', 'assistant']);
    });

    it('exports a Markdown transcript as a download in browser mode', async () => {
      if (mode !== 'browser') return;
      const { page } = await start('conversation_demo.json');
      const download = page.page.waitForEvent('download');
      await page.page.keyboard.press('Control+k');
      await page.page.fill('[data-testid="palette-input"]', 'markdown');
      await page.page.keyboard.press('Enter');
      const file = await download;
      expect(file.suggestedFilename()).toBe('conversation_demo.md');
      const saved = join(tempDir(), 'x.md');
      await file.saveAs(saved);
      expect(readFileSync(saved, 'utf8')).toContain('### 3 · assistant');
    });
  });
}
