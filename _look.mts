import { openInspector } from './e2e/support/browsers.js';
import { InspectorPage } from './e2e/pages/inspector.js';
const s = await openInspector('browser', '/tmp/w/look2');
const page = new InspectorPage(s.page);
await page.ready(60000);
await page.open('tall-a.json');
await page.transcript();
for (const [word, at] of [['wombatmark', 31], ['quokkamark', 27]] as const) {
  await s.page.keyboard.press('Control+Shift+F');
  await s.page.waitForSelector('[data-testid="search-all-input"]');
  await s.page.fill('[data-testid="search-all-input"]', word);
  await s.page.waitForSelector('[data-hit][aria-selected="true"]', { timeout: 60000 });
  await s.page.keyboard.press('Enter');
  const t0 = Date.now();
  for (let k = 0; k < 25; k++) {
    const st = await s.page.evaluate((at) => {
      const el = document.querySelector('[data-testid="transcript"]') as HTMLElement | null;
      const m = document.querySelector(`[data-testid="tx-message"][data-index="${at}"]`);
      const cur = document.querySelector('[data-testid="tx-message"][aria-current="true"]')?.getAttribute('data-index');
      return { title: document.querySelector('[data-testid="conv-title"]')?.textContent, scroll: el?.scrollTop, top: m && el ? Math.round(m.getBoundingClientRect().top - el.getBoundingClientRect().top) : null, cur };
    }, at);
    console.log(word, Date.now() - t0, JSON.stringify(st));
    await s.page.waitForTimeout(100);
  }
}
await s.close();
