import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../app/service/dispatch.js';
import { SettingsStore } from '../../app/service/state/settings-store.js';
import { InlineTokenService } from '../../app/service/tokens/token-service.js';
import { createRuntime, type Runtime } from '../../app/service/runtime.js';
import type { Result, Settings } from '../../app/shared/contract.js';
import { tempDir } from '../helpers.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  while (runtimes.length) await runtimes.pop()!.close();
});

const configured: Settings = { model: 'claude-sonnet-4-5', summaryBaseUrl: 'http://127.0.0.1:11434/v1', summaryModel: 'llama3.2', ui: { columns: { role: 140 }, detailCollapsed: true }, roleOverrides: { '/w/history.json': { swarms_corp: 'user' } }, prices: { 'claude-sonnet-4': { input: 2.5, cacheRead: 0.25, output: 12 } } };
const other: Settings = { model: 'gpt-4o', summaryBaseUrl: 'http://10.0.0.7:8080/v1', summaryModel: 'qwen2.5', ui: { layout: { sidebar: 300 } }, roleOverrides: {}, prices: {} };
const KEYS = Object.keys(configured) as Array<keyof Settings>;

/** Every subset of the settings' keys, the empty one included. */
function subsets(): Array<Array<keyof Settings>> {
  const out: Array<Array<keyof Settings>> = [];
  for (let mask = 0; mask < 1 << KEYS.length; mask++) out.push(KEYS.filter((_, i) => mask & (1 << i)));
  return out;
}

const ok = (r: Result<unknown>) => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as Settings;
};

describe('settings: a partial update changes only what it names', () => {
  it.each(subsets().map((s) => [s.join('+') || '(nothing)', s] as const))('patch of %s keeps every other field (through dispatch, and on disk)', async (_name, keys) => {
    const dir = tempDir();
    const settingsFile = join(dir, 'settings.json');
    const rt = createRuntime({ dirs: [dir], mode: 'browser', settingsFile, tokens: new InlineTokenService() });
    runtimes.push(rt);
    ok(await dispatch(rt.handlers, 'settings:set', configured));
    const patch = Object.fromEntries(keys.map((k) => [k, other[k]]));
    const expected = { ...configured, ...patch };
    expect(ok(await dispatch(rt.handlers, 'settings:set', patch))).toEqual(expected);
    expect(ok(await dispatch(rt.handlers, 'settings:get', {}))).toEqual(expected);
    // What a restart reads back.
    expect(new SettingsStore(settingsFile).get()).toEqual(expected);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(expected);
  });

  it('a patch with an explicit undefined or an unknown key changes nothing it does not name', async () => {
    const dir = tempDir();
    const rt = createRuntime({ dirs: [dir], mode: 'browser', tokens: new InlineTokenService() });
    runtimes.push(rt);
    ok(await dispatch(rt.handlers, 'settings:set', configured));
    expect(ok(await dispatch(rt.handlers, 'settings:set', { model: undefined }))).toEqual(configured);
    expect(await dispatch(rt.handlers, 'settings:set', { summaryBaseUrl: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(await dispatch(rt.handlers, 'settings:set', { apiKey: 'sk-x' })).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(ok(await dispatch(rt.handlers, 'settings:get', {}))).toEqual(configured);
  });

  it('one damaged field in the settings file falls back alone; the others are kept', () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(file, JSON.stringify({ model: 'gpt-4o', summaryBaseUrl: 42, summaryModel: 'llama3.2', ui: { columns: { role: 'wide' } } }));
    expect(new SettingsStore(file).get()).toEqual({ model: 'gpt-4o', summaryBaseUrl: 'https://api.openai.com/v1', summaryModel: 'llama3.2', ui: {}, roleOverrides: {}, prices: {} });
    writeFileSync(file, JSON.stringify({ model: 'gpt-4o', ui: { columns: { role: 150 }, detailCollapsed: true } }));
    expect(new SettingsStore(file).get().ui).toEqual({ columns: { role: 150 }, detailCollapsed: true });
  });
});
