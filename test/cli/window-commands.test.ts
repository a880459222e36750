import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConversationFile, strategies } from '../../src/core/index.js';
import { MALFORMED, ROOT, SWARMS, fixtureCopy, read, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');

/** Runs the real bin asynchronously (the test's own HTTP server must keep serving meanwhile). */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: tempDir(), env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('plan', () => {
  const files = readdirSync(SWARMS);
  const ids = strategies.list().map((s) => s.id);
  it.each(files.flatMap((f) => ids.map((id) => [f, id])))('%s under %s: the fate of every message', async (file, id) => {
    const r = await cli(['plan', join(SWARMS, file), '--strategy', id, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const count = readConversationFile(join(SWARMS, file)).messages.length;
    expect(out.messages.map((m: { index: number }) => m.index)).toEqual([...Array(count).keys()]);
    for (const m of out.messages) expect(['kept', 'dropped', 'cut', 'summarised']).toContain(m.fate);
    expect(typeof out.totalBefore).toBe('number');
    expect(typeof out.totalAfter).toBe('number');
    expect(out.strategy).toBe(id);
  });

  it('last-n with limit=4 keeps exactly the last four, and the system prompt unless told not to', async () => {
    const out = JSON.parse((await cli(['plan', join(SWARMS, 'tool_calls.json'), '--strategy', 'last-n', '--set', 'limit=4', '--json'])).stdout);
    expect(out.messages.map((m: { fate: string }) => m.fate)).toEqual(['kept', 'dropped', 'kept', 'kept', 'kept', 'kept']);
    expect(out.params).toEqual({ limit: 4, keepStatic: true });
    const bare = JSON.parse((await cli(['plan', join(SWARMS, 'tool_calls.json'), '--strategy', 'last-n', '--set', 'limit=4', '--set', 'keepStatic=false', '--json'])).stdout);
    expect(bare.messages.map((m: { fate: string }) => m.fate)).toEqual(['dropped', 'dropped', 'kept', 'kept', 'kept', 'kept']);
    expect(bare.warnings).toContainEqual(expect.objectContaining({ code: 'static-dropped', index: 0 }));
  });

  it('sliding window moves past tool results whose call fell out', async () => {
    const out = JSON.parse((await cli(['plan', join(SWARMS, 'tool_calls.json'), '--strategy', 'sliding-window', '--set', 'windowSize=3', '--set', 'keepStatic=false', '--json'])).stdout);
    expect(out.messages.map((m: { fate: string }) => m.fate)).toEqual(['dropped', 'dropped', 'dropped', 'dropped', 'dropped', 'kept']);
  });

  it('refuses a setting the strategy does not have, or a value of the wrong kind, naming what it takes', async () => {
    const file = join(SWARMS, 'tool_calls.json');
    const typo = await cli(['plan', file, '--strategy', 'sliding-window', '--set', 'window=3']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--set window: this strategy has no such setting (it takes: windowSize');
    const bad = await cli(['plan', file, '--strategy', 'sliding-window', '--set', 'windowSize=abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--set windowSize=abc: takes a whole number');
    const choice = await cli(['plan', file, '--strategy', 'dynamic-context-window', '--set', 'boundary=word']);
    expect(choice.code).toBe(2);
    expect(choice.stderr).toContain('takes one of text, message');
  });

  it('a model name it does not know is counted approximately, and said so', async () => {
    const r = await cli(['plan', join(SWARMS, 'tool_calls.json'), '--strategy', 'null', '--model', 'gpt4o', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('"gpt4o" is not a model or encoding this tool knows');
    expect((await cli(['plan', join(SWARMS, 'tool_calls.json'), '--strategy', 'null', '--model', 'claude-sonnet-4-5', '--json'])).stderr).toBe('');
  });

  it('a token budget: the kept sum stays within it', async () => {
    const out = JSON.parse((await cli(['plan', join(ROOT, 'examples', 'support_thread_long.json'), '--strategy', 'truncate', '--set', 'contextLength=5000', '--json'])).stdout);
    expect(out.totalAfter).toBeLessThanOrEqual(5000);
    expect(out.messages.reduce((n: number, m: { tokensAfter: number }) => n + m.tokensAfter, 0)).toBe(out.totalAfter);
  });

  it('prints a readable table with totals and warnings', async () => {
    const r = await cli(['plan', join(SWARMS, 'tool_calls.json'), '--strategy', 'last-n', '--set', 'limit=2', '--set', 'keepStatic=false']);
    expect(r.stdout).toMatch(/^#\s+ROLE\s+FATE\s+TOKENS\s+AFTER\s+NOTE/);
    expect(r.stdout).toContain('⨯ dropped');
    // 72 content tokens plus the two get_weather calls (19 tokens: names and arguments).
    expect(r.stdout).toMatch(/last-n \{"limit":2,"keepStatic":false\}: 91 → \d+ tokens \(content\); 2 kept, 0 cut, 4 dropped, 0 summarised/);
    expect(r.stdout).toContain('warning: message 4 is a tool result whose call (message 2) is not kept');
    expect(r.stdout).toContain('warning: message 0 (System, static context) is dropped');
  });

  it('bad usage and bad input', async () => {
    expect((await cli(['plan', join(SWARMS, 'tool_calls.json')])).code).toBe(2);
    expect((await cli(['plan', join(SWARMS, 'tool_calls.json'), '--strategy', 'nope'])).code).toBe(2);
    expect((await cli(['plan', join(SWARMS, 'tool_calls.json'), '--strategy', 'last-n', '--set', 'limit'])).code).toBe(2);
    const bad = await cli(['plan', join(MALFORMED, 'truncated.json'), '--strategy', 'null']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('truncated.json:23:7');
  });
});

describe('compact', () => {
  let server: Server;
  let baseUrl = '';
  let status = 200;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status === 200 ? JSON.stringify({ choices: [{ message: { content: 'The model summary.' } }] }) : '{"error":"bad key"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('--summary TEXT -o OUT: static context then the summary; the input is untouched', async () => {
    const input = fixtureCopy('swarms/conversation_demo.json');
    const before = read(input);
    const out = join(tempDir(), 'compact.json');
    const r = await cli(['compact', input, '--summary', 'User asked about France; the answer was Paris.', '-o', out]);
    expect(r.code).toBe(0);
    expect(read(input)).toBe(before);
    const messages = readConversationFile(out).messages;
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['System', 'You are a helpful assistant.'],
      ['System', 'User asked about France; the answer was Paris.'],
    ]);
    expect(read(out).startsWith(before.slice(0, before.indexOf('    },') + 6))).toBe(true);
    expect(r.stderr).toMatch(/Compacted 5 → 2 messages/);
  });

  it('without -o it prints, and --in-place rewrites the file keeping its style', async () => {
    const input = fixtureCopy('swarms/tool_calls.json');
    const before = read(input);
    const printed = await cli(['compact', input, '--summarizer', 'offline', '--keep-recent', '1']);
    expect(printed.code).toBe(0);
    expect(read(input)).toBe(before);
    expect(JSON.parse(printed.stdout)).toHaveLength(3);
    const r = await cli(['compact', input, '--summary', 'Weather checked.', '--keep-recent', '1', '--in-place']);
    expect(r.code).toBe(0);
    const after = read(input);
    const firstElement = before.slice(0, before.indexOf('    },') + 6);
    expect(after.startsWith(firstElement)).toBe(true);
    expect(readConversationFile(input).messages.map((m) => m.content)).toEqual(['You can call get_weather(city).', 'Weather checked.', 'Tokyo is clear at 18 °C; Osaka has rain at 20 °C.']);
  });

  it('says so when the summary is not shorter than what it replaces', async () => {
    const input = join(tempDir(), 'tiny.json');
    writeFileSync(input, JSON.stringify([{ role: 'user', content: 'no' }, { role: 'assistant', content: 'On' }], null, 2));
    const r = await cli(['compact', input, '--summary', 'The user said no, and the assistant answered with the single word On, which is all that happened here.']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^warning: the summary is not shorter than the messages it replaces \(\d+ → \d+ tokens\)/m);
    const shorter = await cli(['compact', fixtureCopy('swarms/conversation_demo.json'), '--summary', 'Paris.']);
    expect(shorter.stderr).not.toMatch(/warning/);
  });

  it('--summarizer openai uses an OpenAI-compatible endpoint; a refused key changes nothing', async () => {
    const input = fixtureCopy('swarms/conversation_demo.json');
    const before = read(input);
    status = 200;
    const ok = await cli(['compact', input, '--summarizer', 'openai', '--summary-model', 'llama3.2'], { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: 'k' });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)[1].content).toBe('The model summary.');
    status = 401;
    const refused = await cli(['compact', input, '--summarizer', 'openai', '--in-place'], { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: 'wrong' });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/refused the API key \(HTTP 401\)/);
    expect(read(input)).toBe(before);
  });

  it('bad usage exits 2', async () => {
    const input = fixtureCopy('swarms/conversation_demo.json');
    expect((await cli(['compact', input])).code).toBe(2);
    expect((await cli(['compact', input, '--summary', 'x', '--summarizer', 'offline'])).code).toBe(2);
    expect((await cli(['compact', input, '--summary', 'x', '--in-place', '-o', 'y.json'])).code).toBe(2);
  });
});
