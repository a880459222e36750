// A search hit is numbered as the table numbers it: the row of its thread that opening it lands on.
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import '../../src/core/index.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { searchableMessages } from '../../src/core/search/index.js';
import { dispatch } from '../../app/service/dispatch.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { markShownRows } from '../../app/service/search/shown-rows.js';
import { revealRecord, viewsOf } from '../../app/service/documents/conversation-views.js';
import { defaultLeaf } from '../../src/core/tree/thread-paths.js';
import { threadRows } from '../../src/core/tree/thread-rows.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';
import { fixtureFiles } from '../support/fixture-files.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

describe("search hits numbered as the table's rows", () => {
  // Every example and fixture whose conversations are trees (sessions with rewinds and compactions, exports with branches).
  const files = [...fixtureFiles(join(ROOT, 'examples')).map((f) => join(ROOT, 'examples', f)), ...fixtureFiles(FIXTURES).map((f) => join(FIXTURES, f))].filter((f) => {
    try {
      return readDocumentFile(f).codec.tree !== undefined;
    } catch {
      return false;
    }
  });

  it('the CLI numbers them as the app does: the same thread and row, or none, for every message', () => {
    let compared = 0;
    for (const file of files) {
      const { codec, doc } = readDocumentFile(file);
      const { messages } = searchableMessages(codec, doc);
      markShownRows(codec, doc, messages);
      const views = viewsOf(codec, doc);
      const rows = threadRows(codec, doc)!;
      for (const m of messages) {
        const cli = rows[m.conversation].rows[m.index];
        const app = m.shown ? { thread: views[m.shown.conversation].view!.thread.replace(/^side:/, ''), index: m.shown.index } : null;
        expect(cli, `${file} ${m.conversation}:${m.index}`).toEqual(app);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('give each message the thread and row that revealing it opens at, whatever was revealed before, or none where it is on no thread shown', async () => {
    expect(files.length).toBeGreaterThan(3);
    let moved = 0;
    let hidden = 0;
    for (const file of files) {
      const { codec, doc } = readDocumentFile(file);
      const { messages } = searchableMessages(codec, doc);
      markShownRows(codec, doc, messages);
      const dir = join(file, '..');
      const rt = createRuntime({ dirs: [dir], mode: 'browser', watch: false, tokens: new InlineTokenService(), historyDir: tempDir() });
      runtimes.push(rt);
      const path = relative(dir, file);
      // In the file's order, off-thread ones too: revealing one of those moves its view (to a branch, or to the
      // whole session), and a hit opened after it must still land on the row it was numbered by.
      for (const m of messages) {
        if (m.shown === null) {
          hidden++;
          await dispatch(rt.handlers, 'conversation:reveal', { path, conversation: m.conversation, index: m.index });
          continue;
        }
        expect(m.shown, `${file} ${m.conversation}:${m.index}`).toBeDefined();
        const r = await dispatch(rt.handlers, 'conversation:reveal', { path, conversation: m.conversation, index: m.index });
        expect(r.ok).toBe(true);
        const at = r.ok ? (r.value as { conversation: number; index: number }) : undefined;
        expect({ conversation: at?.conversation, index: at?.index }, `${file} ${m.conversation}:${m.index}`).toEqual(m.shown);
        if (m.shown!.index !== m.index || m.shown!.conversation !== m.conversation) moved++;
      }
    }
    // The files do number their rows otherwise than their records, and hold messages off the threads shown.
    expect(moved).toBeGreaterThan(5);
    expect(hidden).toBeGreaterThan(0);
  });

  it('say why a message is on no thread shown: "earlier" opens the whole session at its thread\'s own leaf, "branch" opens another branch', () => {
    const seen = { earlier: 0, branch: 0 };
    for (const file of files) {
      const { codec, doc } = readDocumentFile(file);
      const { messages } = searchableMessages(codec, doc);
      markShownRows(codec, doc, messages);
      for (const m of messages) {
        if (m.shown !== null) {
          expect(m.offPath, `${file} ${m.conversation}:${m.index}`).toBeUndefined();
          continue;
        }
        // Revealed in the views as the file opens, as opening the hit does.
        const views = viewsOf(codec, doc);
        const at = revealRecord(views, m.conversation, m.index)!;
        const view = views[at.conversation].view!;
        const tree = views[at.conversation].store!.tree;
        const where = `${file} ${m.conversation}:${m.index}`;
        if (m.offPath === 'earlier') {
          expect({ whole: view.whole, leaf: view.leaf }, where).toEqual({ whole: true, leaf: defaultLeaf(tree, view.thread) });
        } else {
          expect(m.offPath, where).toBe('branch');
          expect(view.leaf, where).not.toBe(defaultLeaf(tree, view.thread));
        }
        seen[m.offPath ?? 'branch']++;
      }
    }
    expect(seen.earlier).toBeGreaterThan(0);
    expect(seen.branch).toBeGreaterThan(0);
  });

  it('the search answers with them: a hit of a compacted session names the row it opens at', async () => {
    const dir = join(ROOT, 'examples', 'agents', 'claude-code');
    const rt = createRuntime({ dirs: [dir], mode: 'browser', watch: false, tokens: new InlineTokenService(), historyDir: tempDir() });
    runtimes.push(rt);
    const { codec, doc } = readDocumentFile(join(dir, 'cart-rewind-compact.jsonl'));
    const { messages } = searchableMessages(codec, doc);
    markShownRows(codec, doc, messages);
    // A word of a message the table shows at another row than the file's.
    const m = messages.find((x) => x.shown && x.shown.index !== x.index && /\b[a-z]{6,}\b/i.test(x.text))!;
    const word = m.text.match(/\b[a-z]{6,}\b/i)![0];
    let answer;
    // The index is built at the first search; asked again until it holds the folder.
    for (let k = 0; k < 100; k++) {
      const r = await dispatch(rt.handlers, 'search:query', { query: word, limit: 2000 });
      answer = r.ok ? (r.value as { hits: Array<{ path: string; conversation: number; index: number; shown?: unknown }>; status: { pending: number } }) : undefined;
      if (answer && answer.status.pending === 0 && answer.hits.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const hit = answer!.hits.find((h) => h.path === 'cart-rewind-compact.jsonl' && h.conversation === m.conversation && h.index === m.index);
    expect(hit?.shown).toEqual(m.shown);
    const lines = await dispatch(rt.handlers, 'search:snippets', { query: word, hits: [{ path: 'cart-rewind-compact.jsonl', conversation: m.conversation, index: m.index }] });
    expect(lines.ok && (lines.value as { hits: Array<{ shown?: unknown }> }).hits[0].shown).toEqual(m.shown);
    // A hit on no thread shown says why, in the answer and with its line (the catalog keeps it).
    for (const off of ['earlier', 'branch'] as const) {
      const hidden = messages.find((x) => x.offPath === off && /\b[a-z]{7,}\b/i.test(x.text))!;
      const hiddenWord = hidden.text.match(/\b[a-z]{7,}\b/i)![0];
      const r = await dispatch(rt.handlers, 'search:query', { query: hiddenWord, limit: 2000 });
      const found = r.ok ? (r.value as { hits: Array<{ path: string; conversation: number; index: number; shown?: unknown; offPath?: string }> }).hits.find((h) => h.path === 'cart-rewind-compact.jsonl' && h.index === hidden.index) : undefined;
      expect(found, `${off}: ${hiddenWord}`).toMatchObject({ shown: null, offPath: off });
      const line = await dispatch(rt.handlers, 'search:snippets', { query: hiddenWord, hits: [{ path: 'cart-rewind-compact.jsonl', conversation: hidden.conversation, index: hidden.index }] });
      expect(line.ok && (line.value as { hits: Array<{ offPath?: string }> }).hits[0].offPath).toBe(off);
    }
  });
});
