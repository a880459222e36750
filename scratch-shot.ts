// scratch (not committed): open a folder, a file, switch to the transcript, screenshot.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInspector } from './e2e/support/browsers.js';
import { InspectorPage } from './e2e/pages/inspector.js';
const [, , src, file, out, w, h, ...actions] = process.argv;
const dir = mkdtempSync(join(tmpdir(), 'shot-'));
cpSync(src, dir, { recursive: true });
const session = await openInspector('browser', dir);
try {
  const page = new InspectorPage(session.page);
  await session.page.setViewportSize({ width: Number(w), height: Number(h) });
  await page.ready();
  session.page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
  session.page.on('pageerror', (e) => console.log('pageerror:', e.message));
  await page.open(file);
  for (const a of actions) {
    if (a.startsWith('key:')) await session.page.keyboard.press(a.slice(4));
    else if (a.startsWith('click:')) await session.page.click(a.slice(6));
    else if (a.startsWith('fill:')) { const k = a.indexOf('=>'); const sel = a.slice(5, k), v = a.slice(k + 2); await session.page.fill(sel, v); }
    else if (a.startsWith('wait:')) await session.page.waitForTimeout(Number(a.slice(5)));
    else if (a.startsWith('eval:')) console.log(await session.page.evaluate(a.slice(5)));
  }
  await session.page.waitForTimeout(600);
  await session.page.screenshot({ path: out });
} finally {
  await session.close();
}
