import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { InspectorPage } from '../pages/inspector.js';
import { openInspector, unavailable, type Mode, type Session } from '../support/browsers.js';
import { cliJson, openOnFormats } from '../support/formats-session.js';


for (const mode of ['browser', 'electron'] as Mode[]) {
  const reason = unavailable(mode);
  describe.skipIf(reason !== undefined)(`every format in the app (${mode})`, () => {
    let session: Session | undefined;
    afterEach(async () => {
      await session?.close();
      session = undefined;
    });

    async function start(): Promise<{ page: InspectorPage; dir: string }> {
      const opened = await openOnFormats(mode);
      session = opened.session;
      return opened;
    }

    it('a message of megabytes shows cut with Show all, and its editor gets all of it', async () => {
      const dir = tempDir();
      const huge = Array.from({ length: 60_000 }, (_, i) => `line ${i}: const x${i} = ${i};`).join('\n');
      const lines = [
        { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-11-30T10:00:00Z', message: { role: 'user', content: 'Paste it.' } },
        { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2026-11-30T10:00:01Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: huge }] } },
      ];
      writeFileSync(join(dir, 'long.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      session = await openInspector(mode, dir);
      const page = new InspectorPage(session.page);
      await page.ready();
      await page.open('long.jsonl');
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.waitForSelector('[data-testid="truncated-note"]');
      await page.screenshot(`${mode}-long-message-cut`);
      await page.page.click('[data-testid="show-all"]');
      await page.page.waitForSelector('[data-testid="truncated-note"]', { state: 'detached' });
      await page.page.click('[data-testid="row"][data-index="0"]');
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.waitForSelector('[data-testid="truncated-note"]');
      await page.page.click('[data-testid="edit-button"]');
      await page.page.waitForSelector('[data-testid="edit-content"]');
      expect(await page.page.$eval('[data-testid="edit-content"]', (t) => (t as HTMLTextAreaElement).value.length)).toBe(huge.length);
    });

    it('the sidebar is a tree of every format, with the counts the CLI gives', async () => {
      const { page, dir } = await start();
      const files = await page.files();
      const expected = cliJson('ls', dir).files as Array<{ path: string; messages: number; tokens: number }>;
      expect(files.map((f) => f.path).sort()).toEqual(expected.map((f) => f.path).sort());
      // Nothing is counted for a file that was not opened; the counts are the CLI's.
      for (const e of expected) expect(files.find((f) => f.path === e.path)).toEqual({ path: e.path, messages: e.messages });
      const session = expected.find((f) => f.path === 'claude-code/session.jsonl')!;
      await page.open(session.path);
      await page.page.waitForFunction((want) => document.querySelector('[data-testid="file"][data-path="claude-code/session.jsonl"] [data-testid="file-tokens"]')?.textContent === want, session.tokens.toLocaleString('en-US'));
      // Its model's tokenizer is not public: its figures say they are estimates, and what stands in for it.
      const standsIn = /o200k_base stands in for claude-/;
      expect(await page.page.getAttribute('[data-testid="file"][data-path="claude-code/session.jsonl"] [data-testid="file-tokens-estimate"]', 'title')).toMatch(standsIn);
      expect(await page.page.textContent('[data-testid="model-encoding"]')).toBe('≈ o200k_base');
      expect(await page.page.getAttribute('[data-testid="token-estimate"]', 'title')).toMatch(standsIn);
      // Folders are rows of the (virtual) list: those near the session are drawn; memory/empty's file is among those compared above.
      expect(await page.page.$$eval('[data-testid="folder"]', (els) => els.map((e) => e.getAttribute('data-path')))).toEqual(expect.arrayContaining(['claude-code', 'claude-code/subagents']));
      expect(files.some((f) => f.path === 'memory/empty/MEMORY.md')).toBe(true);
      await page.screenshot(`${mode}-formats-tree`);
    });

    it('a Claude Code session: its main thread since the compaction, the whole session a click away, tool calls as cards linked to their results, the sub-agent a thread of its own', async () => {
      const { page, dir } = await start();
      const file = join(dir, 'claude-code/session.jsonl');
      const rowsOf = (...args: string[]) => (cliJson('show', file, ...args).messages as Array<{ index: number; tokens: number }>).map((m) => ({ index: m.index, tokens: m.tokens }));
      await page.open('claude-code/session.jsonl');
      // What the model is sent now: the compaction and what followed it, as the CLI shows it.
      expect(await page.visibleRows()).toEqual(rowsOf());
      expect(await page.page.textContent('[data-testid="row"][data-index="0"]')).toContain('● Compacted · manual · 18,230 tokens before');
      await page.page.click('[data-testid="show-whole"]');
      const whole = rowsOf('--whole');
      await page.page.waitForFunction((n) => document.querySelectorAll('[data-testid="row"]').length === n, whole.length);
      expect(await page.visibleRows()).toEqual(whole);
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.waitForSelector('[data-testid="tool-call-card"]');
      expect(await page.page.textContent('[data-testid="tool-call-card"]')).toContain('Read');
      // Its arguments as a reader wants them: each key with its value as written.
      expect(await page.page.$$eval('[data-testid="tool-call-card"] .tx-arg', (els) => els.map((e) => [e.querySelector('dt')?.textContent, e.querySelector('dd')?.textContent]))).toContainEqual(['file_path', '/home/dev/app/test/date.test.ts']);
      await page.page.click('[data-testid="tool-call-card"] [data-testid="jump"]');
      await page.page.waitForSelector('[data-testid="tool-result-card"]');
      expect(await page.page.getAttribute('[data-testid="row"][aria-selected="true"]', 'data-index')).toBe('3');
      await page.screenshot(`${mode}-claude-code-tool-result`);
      // The call written as two lines (one message.id): its usage once, on its last line, the final figures.
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.waitForSelector('#detail [data-testid="detail-tokens"]');
      expect(await page.page.$('[data-testid="detail-usage"]')).toBeNull();
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.waitForSelector('[data-testid="detail-usage"]');
      expect(await page.page.textContent('[data-testid="detail-usage"]')).toContain('212 out');
      // The sub-agent's thread is a conversation of its own, as `show --thread` gives it.
      const side = (cliJson('show', file).threads as Array<{ thread: string }>).find((t) => t.thread !== 'main')!.thread;
      await page.page.click('[data-testid="thread-menu"]');
      await page.page.click(`[data-testid="thread"][data-thread="${side}"]`);
      const sub = rowsOf('--thread', side.replace('side:', ''));
      await page.page.waitForFunction((n) => document.querySelector('[data-testid="thread-menu"]')?.getAttribute('data-thread') !== 'main' && document.querySelectorAll('[data-testid="row"]').length === n, sub.length);
      expect(await page.visibleRows()).toEqual(sub);
      await page.screenshot(`${mode}-claude-code-sub-agent`);
      await page.page.click('[data-testid="thread-menu"]');
      await page.page.click('[data-testid="thread"][data-thread="main"]');
      await page.page.waitForSelector('[data-testid="thread-menu"][data-thread="main"]');
      await page.screenshot(`${mode}-claude-code`);
    });

    it('a dataset expands into its conversations; editing one line and saving writes a one-line diff', async () => {
      const { page, dir } = await start();
      const file = join(dir, 'openai/finetune.jsonl');
      const before = readFileSync(file, 'utf8');
      await page.open('openai/finetune.jsonl');
      await page.page.click('[data-testid="conversation-item"][data-index="2"]');
      await page.page.waitForFunction(() => document.querySelector('[data-testid="conv-title"]')?.parentElement?.textContent?.includes('conversation #2 (3 in the file)'));
      await page.ready();
      await page.page.click('[data-testid="row"][data-index="3"]');
      await page.page.click('[data-testid="edit-button"]');
      await page.page.fill('[data-testid="edit-content"]', 'About 384,400 km.');
      await page.page.keyboard.press('Control+s');
      await page.page.waitForSelector('[data-testid="editor"]', { state: 'detached' });
      await page.page.waitForFunction(() => !document.querySelector('[data-testid="dirty"]'));
      const changed = diffLines(before, readFileSync(file, 'utf8')).filter((p) => p.added || p.removed);
      expect(changed.map((p) => p.count)).toEqual([1, 1]);
      expect(changed[1].value).toContain('About 384,400 km.');
      await page.screenshot(`${mode}-dataset`);
    });

    it('another app’s database opens read-only, saying why; a dataset’s conversations say their messages and, once counted, their tokens', async () => {
      const { page } = await start();
      await page.open('cursor/globalStorage/state.vscdb');
      await page.page.click('[data-testid="conversation-item"][data-index="1"]');
      // Said on the header's notes button, and why in its notes.
      await page.page.waitForSelector('[data-testid="read-only-tag"]', { timeout: 8000 });
      await page.page.click('[data-testid="header-notes"]');
      expect(await page.page.textContent('[data-testid="read-only-banner"]')).toMatch(/Read-only: Cursor’s own database/);
      await page.page.keyboard.press('Escape');
      await page.ready();
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.waitForSelector('[data-testid="detail"]');
      expect(await page.page.$('[data-testid="edit-button"]')).toBeNull();
      await page.page.keyboard.press('Delete');
      expect(await page.page.$('[data-testid="dirty"]')).toBeNull();
      await page.screenshot(`${mode}-cursor-read-only`);
      await page.open('openai/finetune.jsonl');
      await page.page.waitForFunction(() => [...document.querySelectorAll('[data-testid="conversation-meta"]')].every((m) => / tok$/.test(m.textContent ?? '')) && document.querySelectorAll('[data-testid="conversation-meta"]').length === 3, undefined, { timeout: 8000 });
      await page.screenshot(`${mode}-dataset-conversations`);
    });

    it('a compressed rollout keeps its edits for Save As: the banner stays, the copy is named in the format’s own extension and said', async () => {
      const { page, dir } = await start();
      const path = 'compressed/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl.zst';
      await page.open(path);
      await page.page.click('[data-testid="row"][data-index="1"]');
      await page.page.keyboard.press('Delete');
      await page.page.waitForSelector('[data-testid="dirty"]');
      // Still read-only after the edit; the button is Save As, not Save.
      await page.page.waitForSelector('[data-testid="read-only-tag"]');
      expect(await page.page.$('[data-testid="save"]')).toBeNull();
      await page.page.click('[data-testid="save-as-button"]');
      const name = await page.page.inputValue('[aria-label="New file name"]');
      expect(name).toBe('compressed/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.copy.jsonl');
      await page.page.keyboard.press('Enter');
      await page.page.waitForSelector('[data-testid="saved-as-banner"]');
      expect(readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean).length).toBe(readFileSync(join(dir, 'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl'), 'utf8').split('\n').filter(Boolean).length - 1);
      await page.screenshot(`${mode}-zst-saved-as`);
      await page.page.click('[data-testid="open-saved-copy"]');
      await page.page.waitForSelector(`[data-testid="conv-title"][title="${name}"]`);
      expect(await page.page.$('[data-testid="read-only-tag"]')).toBeNull();
    });

    it('reasoning is folded and labelled; a Codex rollout shows its calls and reported usage', async () => {
      const { page } = await start();
      await page.open('codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');
      // The rollout was compacted: the reasoning and the calls came before it.
      expect(await page.page.textContent('[data-testid="row"][data-index="0"]')).toContain('● Compacted');
      await page.page.click('[data-testid="show-whole"]');
      await page.page.waitForFunction(() => document.querySelectorAll('[data-testid="row"]').length > 5);
      await page.page.click('[data-testid="row"][data-index="2"]');
      await page.page.waitForSelector('[data-testid="reasoning"]');
      expect(await page.page.$$eval('[data-testid="reasoning"] summary', (s) => s.map((x) => x.textContent))).toEqual(['Reasoning', 'Encrypted reasoning (shown as such, not counted)']);
      await page.page.click('[data-testid="row"][data-index="5"]');
      await page.page.waitForSelector('[data-testid="tool-call-card"]');
      expect(await page.page.textContent('[data-testid="tool-call-card"]')).toContain('apply_patch');
      await page.screenshot(`${mode}-codex`);
    });
  });
}
