import fc from 'fast-check';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import { listFully } from '../support/listing.js';
import { dispatch } from '../../app/service/dispatch.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { REQUEST_NAMES, type Result } from '../../app/shared/contract.js';
import { FOLDER_REQUEST_NAMES } from '../../app/shared/channels.js';
import { MALFORMED, SWARMS, tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

function runtime(): { dir: string; rt: Runtime } {
  const dir = tempDir();
  cpSync(SWARMS, dir, { recursive: true });
  cpSync(join(MALFORMED, 'truncated.json'), join(dir, 'truncated.json'));
  const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService() });
  runtimes.push(rt);
  return { dir, rt };
}

const ok = <T>(r: Result<unknown>) => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
};

describe('dispatch: every channel answers malformed input with BAD_INPUT and never throws', () => {
  // The folder requests are the shell's (test/app/folders.test.ts fuzzes them there).
  it.each(REQUEST_NAMES.filter((n) => !['app:info', 'settings:get', 'dir:list', 'settings:set', 'settings:api-key-status', ...FOLDER_REQUEST_NAMES].includes(n)))('%s', async (channel) => {
    const { rt } = runtime();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.anything(), fc.record({ path: fc.anything(), start: fc.anything(), count: fc.anything(), index: fc.anything(), query: fc.anything(), model: fc.anything() })), async (input) => {
        const result = await dispatch(rt.handlers, channel, input);
        expect(typeof result.ok).toBe('boolean');
        if (!result.ok) expect(['BAD_INPUT', 'NOT_FOUND', 'FORBIDDEN', 'PARSE_ERROR']).toContain(result.error.code);
      }),
      { numRuns: 60 },
    );
    expect((await dispatch(rt.handlers, channel, { path: 42 })).ok).toBe(false);
    expect(await dispatch(rt.handlers, channel, 'nonsense')).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });

  it('unknown channels and prototype names are refused', async () => {
    const { rt } = runtime();
    for (const name of ['nope', '__proto__', 'constructor', 42, undefined]) {
      expect(await dispatch(rt.handlers, name, {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    }
  });
});

describe('path confinement', () => {
  it('refuses .., absolute paths outside the opened folder and symlinks out with FORBIDDEN', async () => {
    const { dir, rt } = runtime();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.json'), '[{"role":"user","content":"secret"}]');
    symlinkSync(join(outside, 'secret.json'), join(dir, 'link.json'));
    mkdirSync(join(dir, 'sub'));
    symlinkSync(outside, join(dir, 'sub', 'escape'));
    for (const path of ['../secret.json', join(outside, 'secret.json'), 'link.json', 'sub/escape/secret.json', '/etc/passwd', 'sub/../../x.json']) {
      const r = await dispatch(rt.handlers, 'conversation:open', { path });
      expect(r, path).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect((await dispatch(rt.handlers, 'dir:list', { root: outside })).ok).toBe(false);
  });

  it('allows files inside, by relative or absolute path', async () => {
    const { dir, rt } = runtime();
    expect(ok<{ count: number }>(await dispatch(rt.handlers, 'conversation:open', { path: 'conversation_demo.json' })).count).toBe(5);
    expect(ok<{ count: number }>(await dispatch(rt.handlers, 'conversation:open', { path: join(dir, 'tool_calls.json') })).count).toBe(6);
  });
});

describe('handlers', () => {
  it('lists the folder with counts and errors', async () => {
    const { rt } = runtime();
    // The first answer comes from stat alone; formats and counts follow as events.
    const first = ok<{ entries: Array<{ path: string; messages?: number; pending?: boolean }> }>(await dispatch(rt.handlers, 'dir:list', {}));
    expect(first.entries.find((e) => e.path === 'conversation_demo.json')).toMatchObject({ pending: true });
    expect(first.entries.find((e) => e.path === 'conversation_demo.json')?.messages).toBeUndefined();
    const entries = await listFully(rt);
    expect(entries.find((e) => e.path === 'conversation_demo.json')).toMatchObject({ messages: 5, format: 'swarms-json' });
    // Nothing is counted for a file no one opened; once counted, the listing has its total.
    expect(entries.find((e) => e.path === 'conversation_demo.json')?.tokens).toBeUndefined();
    expect(entries.find((e) => e.path === 'truncated.json')).toMatchObject({ errorLine: 23, error: expect.stringContaining('unexpected end of file') });
    await dispatch(rt.handlers, 'tokens:count', { path: 'conversation_demo.json', model: 'gpt-5.4' });
    expect((await listFully(rt)).find((e) => e.path === 'conversation_demo.json')).toMatchObject({ messages: 5, tokens: 46 });
  });

  it('opens a skeleton, pages rows, fetches one message with its raw text, searches and counts', async () => {
    const { rt } = runtime();
    const sk = ok<{ count: number; roles: string[]; roleOf: number[]; storedTokens: number[]; flags: number[] }>(await dispatch(rt.handlers, 'conversation:open', { path: 'tool_calls.json' }));
    expect(sk.count).toBe(6);
    expect(sk.roleOf.map((k) => sk.roles[k])).toEqual(['System', 'user', 'assistant', 'tool', 'tool', 'assistant']);
    const { rows } = ok<{ rows: Array<{ index: number; preview: string }> }>(await dispatch(rt.handlers, 'conversation:rows', { path: 'tool_calls.json', start: 4, count: 10 }));
    expect(rows.map((r) => r.index)).toEqual([4, 5]);
    const detail = ok<{ raw: string; text: string }>(await dispatch(rt.handlers, 'conversation:message', { path: 'tool_calls.json', index: 3 }));
    expect(detail.raw.startsWith('{\n        "role": "tool"')).toBe(true);
    expect(detail.text).toBe('{"city": "Tokyo", "temp_c": 18, "sky": "clear"}');
    // Search covers tool calls too: message 2 calls get_weather for Osaka.
    expect(await dispatch(rt.handlers, 'conversation:message', { path: 'tool_calls.json', index: 99 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(ok<{ matches: number[] }>(await dispatch(rt.handlers, 'conversation:search', { path: 'tool_calls.json', query: 'OSAKA' })).matches).toEqual([1, 2, 4, 5]);
    const counts = ok<{ tokens: number[]; total: number; encoding: string }>(await dispatch(rt.handlers, 'tokens:count', { path: 'conversation_demo.json', model: 'cl100k_base' }));
    expect(counts.encoding).toBe('cl100k_base');
    expect(counts.tokens[0]).toBe(6);
  });

  it('a malformed file is a PARSE_ERROR with file, line and column, and no stack', async () => {
    const { rt } = runtime();
    const r = await dispatch(rt.handlers, 'conversation:open', { path: 'truncated.json' });
    expect(r).toMatchObject({ ok: false, error: { code: 'PARSE_ERROR', line: 23, column: 7 } });
    if (!r.ok) expect(r.error.message).not.toMatch(/\n\s+at /);
  });

  it('streams token progress as events', async () => {
    const { rt } = runtime();
    const events: unknown[] = [];
    rt.onEvent = (event, payload) => events.push({ event, payload });
    await dispatch(rt.handlers, 'tokens:count', { path: 'conversation_demo.json', model: 'gpt-5.4' });
    expect(events).toContainEqual({ event: 'tokens:progress', payload: { path: 'conversation_demo.json', done: 5, total: 5 } });
  });

  it('settings round trip', async () => {
    const { rt } = runtime();
    expect(ok(await dispatch(rt.handlers, 'settings:set', { model: 'gpt-4o' }))).toEqual({ model: 'gpt-4o', summaryBaseUrl: 'https://api.openai.com/v1', summaryModel: 'gpt-5.4-mini', ui: {}, roleOverrides: {}, prices: {} });
    expect(ok(await dispatch(rt.handlers, 'settings:get', {}))).toMatchObject({ model: 'gpt-4o' });
    // The API key is never a setting (it would reach the renderer): only the endpoint and model are.
    expect(Object.keys(ok<Record<string, unknown>>(await dispatch(rt.handlers, 'settings:get', {})))).not.toContain('apiKey');
  });
});

describe('tool calls count what the model is sent', () => {
  it('an assistant message that only calls tools counts the calls’ names and arguments', async () => {
    const { rt } = runtime();
    const counts = ok<{ tokens: number[]; toolTokens: number[] }>(await dispatch(rt.handlers, 'tokens:count', { path: 'tool_calls.json', model: 'gpt-5.4' }));
    // Message 2 has empty content and two get_weather calls.
    expect(counts.toolTokens[2]).toBeGreaterThan(0);
    expect(counts.tokens[2]).toBe(counts.toolTokens[2]);
    expect(counts.toolTokens.filter((t) => t > 0)).toHaveLength(1);
    const plan = ok<{ tokens: number }>(await dispatch(rt.handlers, 'window:preview', { path: 'tool_calls.json', model: 'gpt-5.4', strategy: 'null', params: {} }));
    expect(plan.tokens).toBeGreaterThan(0);
  });
});

describe('long texts without spaces no longer stall a request', () => {
  it('a 900 KB summary made of long unbroken runs (minified, encoded data) previews and counts', async () => {
    const { rt } = runtime();
    // Letters only, so each 6,000-character run is one pre-tokenizer piece: quadratic merging took minutes here.
    let seed = 7;
    const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2147483648) % 26));
    const summary = Array.from({ length: 150 }, () => Array.from({ length: 6000 }, letter).join('')).join(' ');
    expect(summary.length).toBeGreaterThan(900_000);
    const r = ok<{ summaryTokens: number; replaced: number }>(
      await dispatch(rt.handlers, 'window:compact', { path: 'conversation_demo.json', model: 'gpt-5.4', mode: 'all', strategy: 'null', params: {}, summarizer: { kind: 'text', text: summary.slice(0, 1_000_000) } }),
    );
    expect(r.summaryTokens).toBeGreaterThan(100_000);
    expect(r.replaced).toBeGreaterThan(0);
  }, 60_000);
});
