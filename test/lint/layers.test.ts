import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const eslint = new ESLint({ cwd: ROOT });

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${filePath}` });
  return result.messages.filter((m) => /no-restricted-imports/.test(m.ruleId ?? '')).map((m) => m.message);
}

describe('layering of ARCHITECTURE.md, enforced by lint', () => {
  it.each([
    ['src/core/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/core/x.ts', "import { x } from '../../app/shared/contract.js';\nexport const a = x;"],
    ['src/core/window/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    ['src/core/window/x.ts', "import { getTokenizer } from '../tokenizer/index.js';\nexport const a = getTokenizer;"],
    ['app/renderer/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    ['app/renderer/x.tsx', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;"],
    ['app/service/handlers/x.ts', "import { dialog } from 'electron';\nexport const a = dialog;"],
    ['app/server/x.ts', "import { BrowserWindow } from 'electron';\nexport const a = BrowserWindow;"],
    ['app/shared/x.ts', "import React from 'react';\nexport const a = React;"],
    ['src/cli/x.ts', "import { startServer } from '../../app/server/server.js';\nexport const a = startServer;"],
    ['src/cli/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['app/service/documents/skeleton.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['app/service/x.ts', "import { createMainWindow } from '../main/window.js';\nexport const a = createMainWindow;"],
    ['app/service/handlers/x.ts', "import { startServer } from '../../server/server.js';\nexport const a = startServer;"],
    ['app/main/x.ts', "import { parseWithCodecs } from '../../src/core/formats/registry.js';\nexport const a = parseWithCodecs;"],
    ['app/server/x.ts', "import { getTokenizer } from '../../src/core/tokenizer/index.js';\nexport const a = getTokenizer;"],
    ['app/server/x.ts', "import { registerIpc } from '../main/ipc.js';\nexport const a = registerIpc;"],
  ])('%s: a forbidden import is an error', async (file, code) => {
    expect(await violations(file, code)).toHaveLength(1);
  });

  it.each([
    ['src/core/window/x.ts', "import type { Tokenizer } from '../tokenizer/tokenizer.js';\nexport type A = Tokenizer;"],
    ['app/shared/x.ts', "import { z } from 'zod';\nexport const a = z;"],
    ['app/main/window.ts', "import { BrowserWindow } from 'electron';\nexport const a = BrowserWindow;"],
    ['src/core/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    ['app/server/x.ts', "import { main } from '../../src/cli/main.js';\nexport const a = main;"],
    ['app/main/x.ts', "import { startBackend } from '../service/backend/backend.js';\nexport const a = startBackend;"],
    ['app/main/x.ts', "import { writeFileAtomicSync } from '../../src/core/storage/atomic-write.js';\nexport const a = writeFileAtomicSync;"],
    ['app/service/x.ts', "import { parseWithCodecs } from '../../src/core/formats/registry.js';\nexport const a = parseWithCodecs;"],
  ])('%s: an allowed import passes', async (file, code) => {
    expect(await violations(file, code)).toEqual([]);
  });
});

describe('no history-sized array on the call stack, enforced by lint', () => {
  const spreadViolations = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${filePath}` });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };
  it.each([
    ['app/renderer/x.tsx', 'export const m = (t: number[]) => Math.max(1, ...t);'],
    ['src/core/x.ts', 'export const p = (a: number[], b: number[]) => a.push(...b);'],
    ['app/main/x.ts', 'export const m = (t: number[]) => Math.max.apply(null, t);'],
    ['src/core/window/x.ts', 'export const d = (t: number[]) => new Set(...[t]);'],
  ])('%s: spreading into a call is an error', async (file, code) => {
    expect(await spreadViolations(file, code)).toHaveLength(1);
  });
  it.each([
    ['src/core/x.ts', 'export const c = (a: number[], b: number[]) => [...a, ...b];'],
    ['app/main/x.ts', 'export const o = (a: object) => ({ ...a });'],
  ])('%s: array and object spreads are fine', async (file, code) => {
    expect(await spreadViolations(file, code)).toEqual([]);
  });
});

describe('components select what they read from the store, enforced by lint', () => {
  const storeViolations = async (code: string) => {
    const [result] = await eslint.lintText(code, { filePath: `${ROOT}/app/renderer/features/X.tsx` });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };
  it('the whole store is an error; a selector or named fields pass', async () => {
    const head = "import { useApp, useAppPick } from '../store/index.js';\n";
    expect(await storeViolations(`${head}export const A = () => useApp().skeleton;`)).toEqual([expect.stringMatching(/Select what the component reads/)]);
    expect(await storeViolations(`${head}export const A = () => useApp((s) => s.skeleton);\nexport const B = () => useAppPick('skeleton');`)).toEqual([]);
    // The spread rule still holds in the renderer alongside it.
    expect(await storeViolations(`${head}export const m = (t: number[]) => Math.max(1, ...t);`)).toHaveLength(1);
  });
});
