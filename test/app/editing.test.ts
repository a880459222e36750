import { diffLines } from 'diff';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchNow } from '../support/current-version.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result } from '../../app/shared/contract.js';
import { readConversationFile } from '../../src/core/index.js';
import { readDocumentFile } from '../../src/core/formats/document-file.js';
import { FIXTURES, ROOT, SWARMS, read, tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function setup() {
  const dir = tempDir();
  cpSync(SWARMS, dir, { recursive: true });
  const historyDir = tempDir();
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService(), historyDir });
  runtimes.push(rt);
  const call = async <T = Record<string, unknown>>(channel: string, input: unknown): Promise<T> => {
    const r: Result<unknown> = await dispatchNow(rt.handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.value as T;
  };
  return { dir, historyDir, call, rt };
}

const changes = (before: string, after: string) => diffLines(before, after).filter((p) => p.added || p.removed).map((p) => p.value);

describe('editing through the handlers', () => {
  it('edit → save: the file differs only in that message; undo → save restores it byte for byte', async () => {
    const { dir, call } = setup();
    const file = join(dir, 'conversation_demo.json');
    const before = read(file);
    await call('conversation:open', { path: 'conversation_demo.json' });
    const state = await call<{ dirty: boolean; canUndo: string }>('edit:apply', { path: 'conversation_demo.json', command: { type: 'update', index: 3, patch: { content: 'Paris is the capital.' } } });
    expect(state).toMatchObject({ dirty: true, canUndo: 'edit message 3' });
    expect(read(file)).toBe(before);
    expect(await call('edit:save', { path: 'conversation_demo.json' })).toMatchObject({ dirty: false });
    // The content line, and the stored token_count recounted for it (a stale count would be wrong data).
    expect(changes(before, read(file))).toEqual([
      '        "content": "The capital of France is Paris.",\n',
      '        "content": "Paris is the capital.",\n',
      '        "token_count": 7\n',
      '        "token_count": 5\n',
    ]);
    await call('edit:undo', { path: 'conversation_demo.json' });
    await call('edit:save', { path: 'conversation_demo.json' });
    expect(read(file)).toBe(before);
  });

  it('add, duplicate, move and delete, each undoable and redoable', async () => {
    const { dir, call } = setup();
    const path = 'tool_calls.json';
    const file = join(dir, path);
    const before = read(file);
    await call('edit:apply', { path, command: { type: 'insert', index: 1, messages: [{ role: 'user', content: 'inserted' }] } });
    await call('edit:apply', { path, command: { type: 'duplicate', indexes: [0] } });
    await call('edit:apply', { path, command: { type: 'move', indexes: [0], to: 3 } });
    await call('edit:apply', { path, command: { type: 'delete', indexes: [5, 6] } });
    await call('edit:save', { path });
    const contents = readConversationFile(file).messages.map((m) => m.content);
    expect(contents.slice(0, 4)).toEqual(['You can call get_weather(city).', 'inserted', 'What\'s the weather in Tokyo and Osaka?', 'You can call get_weather(city).']);
    expect(contents).toHaveLength(6);
    for (let i = 0; i < 4; i++) await call('edit:undo', { path });
    expect(await call('edit:state', { path })).toMatchObject({ dirty: true, canUndo: undefined, canRedo: 'add a message at 1' });
    await call('edit:save', { path });
    expect(read(file)).toBe(before);
    await call('edit:redo', { path });
    expect(await call('edit:state', { path })).toMatchObject({ count: 7, dirty: true });
  });

  it('a change on disk while editing is a conflict: nothing is overwritten until the user chooses', async () => {
    const { dir, call } = setup();
    const path = 'conversation_demo.json';
    const file = join(dir, path);
    await call('conversation:open', { path });
    await call('edit:apply', { path, command: { type: 'delete', indexes: [0] } });
    const external = read(file).replace('Answer in one sentence.', 'Changed by an agent.');
    writeFileSync(file, external);
    await expect(call('edit:save', { path })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(read(file)).toBe(external);
    expect(await call('edit:state', { path })).toMatchObject({ conflict: true, dirty: true });
    // The document keeps the user's edits while the disk version differs.
    expect((await call<{ count: number }>('conversation:open', { path })).count).toBe(4);
    await call('edit:save', { path, force: true });
    expect(readConversationFile(file).messages).toHaveLength(4);
    expect(await call('edit:state', { path })).toMatchObject({ conflict: false, dirty: false });
  });

  it('Revert (Reload) takes the disk version and drops the edits and the undo history', async () => {
    const { call } = setup();
    const path = 'conversation_demo.json';
    await call('edit:apply', { path, command: { type: 'delete', indexes: [0, 1] } });
    expect(await call('edit:revert', { path })).toMatchObject({ count: 5, dirty: false, canUndo: undefined });
  });

  it('every save records the previous version in local history (the last 20)', async () => {
    const { historyDir, call } = setup();
    const path = 'conversation_demo.json';
    for (let i = 0; i < 22; i++) {
      await call('edit:apply', { path, command: { type: 'update', index: 2, patch: { content: `v${i}` } } });
      await call('edit:save', { path });
    }
    const [folder] = readdirSync(historyDir);
    expect(readdirSync(join(historyDir, folder))).toHaveLength(20);
  });

  it('a read-only file gives a clear error and keeps the edits', async () => {
    if (process.getuid?.() === 0) {
      // root ignores file permissions: an unwritable target here is a path whose parent is a file.
      const { dir, call } = setup();
      const path = 'conversation_demo.json';
      await call('edit:apply', { path, command: { type: 'delete', indexes: [0] } });
      await expect(call('edit:save-as', { path, target: 'tool_calls.json/x.json' })).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('Your edits are kept') });
      expect(await call('edit:state', { path })).toMatchObject({ dirty: true, count: 4 });
      expect(readConversationFile(join(dir, 'tool_calls.json')).messages).toHaveLength(6);
      return;
    }
    const { dir, call } = setup();
    const path = 'conversation_demo.json';
    await call('edit:apply', { path, command: { type: 'delete', indexes: [0] } });
    chmodSync(dir, 0o555);
    try {
      await expect(call('edit:save', { path })).rejects.toMatchObject({ code: 'IO' });
      expect(await call('edit:state', { path })).toMatchObject({ dirty: true });
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it('Save As writes a new file inside the folder and refuses paths outside it', async () => {
    const { dir, call } = setup();
    await call('edit:apply', { path: 'conversation_demo.json', command: { type: 'delete', indexes: [0] } });
    expect(await call('edit:save-as', { path: 'conversation_demo.json', target: 'copy.json' })).toEqual({ target: 'copy.json' });
    expect(readConversationFile(join(dir, 'copy.json')).messages).toHaveLength(4);
    await expect(call('edit:save-as', { path: 'conversation_demo.json', target: '../escape.json' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call('edit:save-as', { path: 'conversation_demo.json', target: 'copy.yaml' })).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('exports JSON, YAML, a Markdown transcript and plain text', async () => {
    const { call } = setup();
    const path = 'conversation_demo.json';
    const md = await call<{ filename: string; text: string }>('edit:export', { path, format: 'markdown' });
    expect(md.filename).toBe('conversation_demo.md');
    expect(md.text).toContain('### 3 · assistant · 2026-01-15T10:00:07.000005\n\nThe capital of France is Paris.');
    // The tool's message is its result, shown as a result block with its JSON.
    expect(md.text).toContain('**Tool result**\n\n```\n{"name":"lookup"');
    const text = await call<{ text: string }>('edit:export', { path, format: 'text' });
    expect(text.text.split('\n')[2]).toBe('user: What is the capital of France?');
    const yaml = await call<{ filename: string }>('edit:export', { path, format: 'yaml' });
    expect(yaml.filename).toBe('conversation_demo.yaml');
  });

  it('bad commands are BAD_INPUT and change nothing', async () => {
    const { call } = setup();
    const path = 'conversation_demo.json';
    await expect(call('edit:apply', { path, command: { type: 'delete', indexes: [99] } })).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(call('edit:apply', { path, command: { type: 'insert', index: 0, messages: [{ content: 'no role' }] } })).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(call('edit:apply', { path, command: { type: 'update', index: 0, patch: { role: '' } } })).rejects.toMatchObject({ code: 'BAD_INPUT' });
    expect(await call('edit:state', { path })).toMatchObject({ dirty: false, count: 5 });
  });
});

describe('crash safety', () => {
  it('a process killed between writing the temp file and renaming it leaves the original intact', async () => {
    const dir = tempDir();
    const file = join(dir, 'conversation.json');
    cpSync(join(SWARMS, 'conversation_demo.json'), file);
    const before = read(file);
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const fs = require('fs');
      // Stop forever at the rename: the temp file is written, the original not yet replaced.
      fs.renameSync = () => { process.stdout.write('temp-written\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); };
      require('node:module').syncBuiltinESMExports();
      const { writeFileAtomicSync } = await import(${JSON.stringify(join(ROOT, 'src/core/storage/atomic-write.ts'))});
      writeFileAtomicSync(process.argv[1], '[]\\n');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('temp-written') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    const leftovers = readdirSync(dir).filter((f) => f !== 'conversation.json');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(leftovers.length).toBe(1);
    expect(read(file)).toBe(before);
    expect(readConversationFile(file).messages).toHaveLength(5);
  });
});

describe('compaction', () => {
  it('previews a typed summary of everything but the static context, then applies it as one undoable edit', async () => {
    const { dir, call } = setup();
    const path = 'conversation_demo.json';
    const params = {};
    const preview = await call<{ summary: string; replaced: number; messagesAfter: number; tokensAfter: number; state?: unknown }>('window:compact', { path, model: 'gpt-5.4', mode: 'all', strategy: 'summarizing', params, summarizer: { kind: 'text', text: 'User asked for the capital of France: Paris.' } });
    expect(preview).toMatchObject({ replaced: 4, messagesAfter: 2 });
    expect('state' in preview).toBe(false);
    expect(await call('edit:state', { path })).toMatchObject({ dirty: false, count: 5 });
    const applied = await call<{ state: { dirty: boolean; count: number; canUndo: string } }>('window:compact', { path, model: 'gpt-5.4', mode: 'all', strategy: 'summarizing', params, summarizer: { kind: 'text', text: 'User asked for the capital of France: Paris.' }, apply: true });
    expect(applied.state).toMatchObject({ dirty: true, count: 2, canUndo: 'compact 4 messages into a summary' });
    await call('edit:save', { path });
    const saved = readConversationFile(join(dir, path)).messages;
    expect(saved.map((m) => [m.role, m.content])).toEqual([
      ['System', 'You are a helpful assistant.'],
      ['System', 'User asked for the capital of France: Paris.'],
    ]);
    await call('edit:undo', { path });
    expect(await call('edit:state', { path })).toMatchObject({ count: 5 });
  });

  it('a Claude Code session: the preview measures what the model is sent after the boundary, not the file that keeps its history', async () => {
    const { dir, call } = setup();
    cpSync(join(ROOT, 'examples', 'agents', 'claude-code', 'deploy-db-timeout.jsonl'), join(dir, 'session.jsonl'));
    const path = 'session.jsonl';
    const before = await call<{ count: number }>('conversation:open', { path });
    const preview = await call<{ replaced: number; messagesAfter: number; tokensBefore: number; tokensAfter: number; summaryTokens: number }>('window:compact', { path, model: 'gpt-5.4', mode: 'all', strategy: 'null', params: {}, summarizer: { kind: 'text', text: 'Deploy failed on a DB timeout; the pool was raised to 20.' } });
    expect(preview.replaced).toBeGreaterThan(2);
    // Sent after: the static context and the summary, not the history the file keeps before the boundary.
    expect(preview.messagesAfter).toBeLessThan(before.count);
    expect(preview.tokensAfter).toBeLessThan(preview.tokensBefore);
    expect(preview.tokensAfter).toBeLessThanOrEqual(preview.tokensBefore - preview.replaced + preview.summaryTokens + 40);
  });

  it('summarises only what a strategy drops, in its place, with the offline summariser', async () => {
    const { call } = setup();
    const path = 'tool_calls.json';
    const r = await call<{ summary: string; replaced: number; messagesAfter: number }>('window:compact', { path, model: 'gpt-5.4', mode: 'dropped', strategy: 'last-n', params: { limit: 2, keepStatic: false }, summarizer: { kind: 'offline' }, apply: true });
    expect(r.replaced).toBe(4);
    expect(r.summary.startsWith('Summary of 4 earlier messages:')).toBe(true);
    // The offline summary names the tools the range called.
    expect(r.summary).toContain('Tools: get_weather ×2');
    const { rows } = await call<{ rows: Array<{ role: string; preview: string }> }>('conversation:rows', { path, start: 0, count: 10 });
    expect(rows.map((x) => x.role)).toEqual(['System', 'tool', 'assistant']);
    expect(rows[0].preview.startsWith('Summary of 4')).toBe(true);
  });

  it('by default the system prompt stays: the summary follows it, and is static context for the next plan', async () => {
    const { call } = setup();
    const path = 'tool_calls.json';
    const r = await call<{ summary: string; replaced: number }>('window:compact', { path, model: 'gpt-5.4', mode: 'dropped', strategy: 'last-n', params: { limit: 2 }, summarizer: { kind: 'offline' }, apply: true });
    expect(r.replaced).toBe(3);
    const { rows } = await call<{ rows: Array<{ role: string; preview: string }> }>('conversation:rows', { path, start: 0, count: 10 });
    expect(rows.map((x) => x.role)).toEqual(['System', 'System', 'tool', 'assistant']);
    expect(rows[1].preview.startsWith('Summary of 3')).toBe(true);
    const again = await call<{ replaced: number }>('window:compact', { path, model: 'gpt-5.4', mode: 'dropped', strategy: 'last-n', params: { limit: 1 }, summarizer: { kind: 'offline' } });
    expect(again.replaced).toBe(1);
  });

  it('uses the API key set in main with an OpenAI-compatible endpoint; the key never comes back', async () => {
    const { call } = setup();
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      req.resume();
      req.on('end', () => {
        res.writeHead(req.headers.authorization === 'Bearer sk-secret' ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { content: 'A model summary.' } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await call('settings:set', { summaryBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, summaryModel: 'llama3.2' });
      expect(await call('settings:set-api-key', { apiKey: 'sk-secret' })).toEqual({ set: true, storage: 'memory' });
      const r = await call<{ summary: string }>('window:compact', { path: 'conversation_demo.json', model: 'gpt-5.4', mode: 'all', strategy: 'summarizing', params: {}, summarizer: { kind: 'openai' } });
      expect(r.summary).toBe('A model summary.');
      expect(seen).toEqual(['Bearer sk-secret']);
      expect(JSON.stringify(await call('settings:get', {}))).not.toContain('sk-secret');
      expect(JSON.stringify(await call('settings:api-key-status', {}))).not.toContain('sk-secret');
    } finally {
      server.close();
    }
  });

  it('archives and re-seeds the MEMORY.md beside the conversation when asked', async () => {
    const { dir, call } = setup();
    cpSync(join(FIXTURES, 'memory', 'MEMORY.md'), join(dir, 'MEMORY.md'));
    const before = read(join(dir, 'MEMORY.md'));
    const preview = await call<{ memory?: { path: string } }>('window:compact', { path: 'conversation_demo.json', model: 'gpt-5.4', mode: 'all', strategy: 'summarizing', params: {}, summarizer: { kind: 'text', text: 'S' } });
    expect(preview.memory).toEqual({ path: 'MEMORY.md' });
    const r = await call<{ memory: { archivedTo: string } }>('window:compact', { path: 'conversation_demo.json', model: 'gpt-5.4', mode: 'all', strategy: 'summarizing', params: {}, summarizer: { kind: 'text', text: 'S' }, apply: true, archiveMemory: true });
    expect(r.memory.archivedTo).toMatch(/^archive\/history_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.md$/);
    expect(read(join(dir, r.memory.archivedTo))).toBe(before);
    expect(read(join(dir, 'MEMORY.md'))).toMatch(/^# Agent Memory\n\n\*\*Conversation:\*\* conversation_demo\n/);
  });

  it('a failing summariser changes nothing and says why', async () => {
    const { call } = setup();
    const path = 'conversation_demo.json';
    await call('settings:set', { summaryBaseUrl: 'http://127.0.0.1:9/v1' });
    await expect(call('window:compact', { path, model: 'gpt-5.4', mode: 'all', strategy: 'summarizing', params: {}, summarizer: { kind: 'openai' }, apply: true })).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('Nothing was changed') });
    expect(await call('edit:state', { path })).toMatchObject({ dirty: false, count: 5 });
  });
});

describe("a file's own stored-count encoding", () => {
  it('an edited message is recounted in the encoding the file stores its token_count in, and the state says so', async () => {
    const { dir, call } = setup();
    cpSync(join(ROOT, 'examples', 'support_thread_long.json'), join(dir, 'long.json'));
    await call('conversation:open', { path: 'long.json', conversation: 0, model: 'gpt-5.4' });
    const text = '数据库连接池耗尽，夜间备份任务失败。请检查 Refunds over £1,000 — 🧾 §4.2.';
    const state = await call<{ storedCounts?: { encoding: string; picked: string } }>('edit:apply', { path: 'long.json', conversation: 0, command: { type: 'update', index: 2, patch: { content: text } } });
    // The examples' counts are cl100k_base counts (o200k_base gives other figures for some of them).
    expect(state.storedCounts).toMatchObject({ encoding: 'cl100k_base', picked: 'o200k_base' });
    await call('edit:save', { path: 'long.json' });
    const saved = readConversationFile(join(dir, 'long.json')).messages[2];
    const { getTokenizer } = await import('../../src/core/index.js');
    expect(saved.token_count).toBe(getTokenizer('cl100k_base').countContent(text));
    expect(saved.token_count).not.toBe(getTokenizer('o200k_base').countContent(text));
  });

  it('a file whose counts no encoding explains keeps the picked model for edits, and nothing is said', async () => {
    const { call } = setup();
    // conversation_demo.json: counts of the Python class (quoted strings), which neither encoding gives.
    await call('conversation:open', { path: 'conversation_demo.json', conversation: 0, model: 'gpt-5.4' });
    const state = await call<{ storedCounts?: unknown }>('edit:apply', { path: 'conversation_demo.json', conversation: 0, command: { type: 'update', index: 1, patch: { content: 'Hello there, a changed line.' } } });
    expect(state.storedCounts).toBeUndefined();
  });

  it('a ShareGPT system prompt emptied is deleted (the format keeps no empty prompt), saved, and undone byte for byte', async () => {
    const { dir, call } = setup();
    cpSync(join(FIXTURES, 'formats/sharegpt/dataset.json'), join(dir, 'dataset.json'));
    const file = join(dir, 'dataset.json');
    const before = read(file);
    const opened = await call<{ count: number }>('conversation:open', { path: 'dataset.json', conversation: 0 });
    expect(opened.count).toBe(3);
    const state = await call<{ canUndo: string }>('edit:apply', { path: 'dataset.json', conversation: 0, command: { type: 'set-text', index: 0, text: '' } });
    expect(state.canUndo).toMatch(/delete/);
    await call('edit:save', { path: 'dataset.json' });
    const saved = JSON.parse(read(file)) as Record<string, unknown>[];
    expect(saved[0]).not.toHaveProperty('system');
    expect(saved[0].conversations).toEqual((JSON.parse(before) as Record<string, unknown>[])[0].conversations);
    expect(readDocumentFile(file).doc.conversations[0].records).toHaveLength(2);
    await call('edit:undo', { path: 'dataset.json' });
    await call('edit:save', { path: 'dataset.json' });
    expect(read(file)).toBe(before);
  });
});
