// The sessions of a store shaped like ~/.claude/projects (and Codex rollouts beside it), in the real app: the
// sidebar opens on them, by project and by time, sub-agents folded under their session; the filters narrow the
// list; the Usage view adds costs up by day, project and model, a row a click from its session; search-all
// (answered from the catalog) shows hits while the query is typed, and a hit opens its message.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAgentStore, type StoreSession } from '../../test/support/agent-store.js';
import { InspectorPage } from '../pages/inspector.js';
import { axeViolations } from '../support/axe.js';
import { openInspector, unavailable, type Session } from '../support/browsers.js';

const reason = unavailable('browser');
if (reason) console.log(`sessions e2e skipped: ${reason}`);

describe.skipIf(reason !== undefined)('the sessions of an agent store (browser)', () => {
  let session: Session | undefined;
  let dir = '';
  let store: StoreSession[] = [];
  let page: InspectorPage;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ci-sessions-e2e-'));
    store = writeAgentStore(dir, Date.now());
    session = await openInspector('browser', dir);
    // The sidebar as the app opens it: the sessions, since the folder holds agent sessions.
    page = new InspectorPage(session.page, { sidebar: 'as-opened' });
    await page.ready();
  });
  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const p = () => page.page;
  /** The session and sub-agent lines listed, top to bottom. */
  const listed = () => p().$$eval('[data-testid="session-item"], [data-testid="agent-item"]', (els) => els.map((e) => `${e.getAttribute('data-testid') === 'agent-item' ? '  ' : ''}${e.getAttribute('data-path')}`));
  const status = () => p().textContent('[data-testid="session-status"]');
  /** The status line once it counts `sessions` and `agents` (sub-agents). */
  const waitForCount = (sessions: number, agents = 0) =>
    p().waitForFunction((want) => {
      const t = document.querySelector('[data-testid="session-status"]')?.textContent ?? '';
      // Exactly these, perhaps while the catalog still reads or looks for secrets.
      return t === want || t.startsWith(`${want} · reading`) || t.startsWith(`${want} · looking`);
    }, `${sessions} session${sessions === 1 ? '' : 's'}${agents ? ` · ${agents} sub-agent${agents === 1 ? '' : 's'}` : ''}`);

  it('opens on the sessions, by project: each project its decoded path, its sessions newest first, sub-agents folded', async () => {
    await p().waitForSelector('[data-testid="session-list"]', { timeout: 30_000 });
    expect(await p().getAttribute('[data-testid="sidebar-mode-sessions"]', 'aria-checked')).toBe('true');
    // Every session and sub-agent of the store, read.
    await waitForCount(4, 3);
    const groups = await p().$$eval('[data-testid="session-group"]', (els) => els.map((e) => ({ label: e.querySelector('.session-group-name')?.textContent, title: e.getAttribute('title') })));
    // A project is its path, not `-home-dev-code-shop`; two projects that share a start keep what tells them apart.
    expect(groups.map((g) => g.title)).toEqual(['/home/dev/code/shop', '/home/dev/cli', '/home/dev/code/shop-admin']);
    expect(new Set(groups.map((g) => g.label)).size).toBe(3);
    // A project's own name is never the part cut (its parent folders give way first).
    expect(await p().$$eval('.session-group-leaf', (els) => els.every((e) => e.scrollWidth <= e.clientWidth))).toBe(true);
    // Narrower than its folders and name: the folders are shown whole or not at all, never a fragment ("…/co… shop").
    await p().$$eval('[data-testid="session-group"]', (els) => els.forEach((e) => ((e as HTMLElement).style.maxWidth = '150px')));
    const parts = await p().$$eval('[data-testid="session-group"] .session-group-name', (els) =>
      els.map((e) => {
        const box = e.getBoundingClientRect();
        const parentEl = e.querySelector('.session-group-parent') as HTMLElement;
        const parent = parentEl.getBoundingClientRect();
        const onLine = parent.top < box.bottom;
        return { text: e.textContent, shown: onLine && parent.right <= box.right + 0.5 && parentEl.scrollWidth <= parentEl.clientWidth, hidden: parent.top >= box.bottom };
      }),
    );
    expect(parts.every((g) => g.shown || g.hidden)).toBe(true);
    expect(parts.some((g) => g.hidden)).toBe(true);
    await p().$$eval('[data-testid="session-group"]', (els) => els.forEach((e) => ((e as HTMLElement).style.maxWidth = '')));
    const titles = await p().$$eval('[data-testid="session-item"] .session-title', (els) => els.map((e) => e.textContent));
    expect(titles).toEqual(['Fix the checkout total rounding', 'Add a refund endpoint to the payments API', 'Why does cli --version print nothing', 'Why is the admin login slow on Mondays']);
    // Figures on the line: when, how many messages, what it cost, the tool.
    const first = await p().textContent('[data-testid="session-item"] .session-figures');
    expect(first).toMatch(/^[^·]+ · 6 msg · \$\d+\.\d{2} · 2 sub-agents · Claude Code$/);
    // Narrower than its figures: each shown whole or not at all (never "Claud…"), in their order.
    await p().$$eval('[data-testid="session-item"]', (els) => els.forEach((e) => ((e as HTMLElement).style.maxWidth = '170px')));
    const figures = await p().$$eval('[data-testid="session-item"] .session-figures', (els) =>
      els.map((e) => {
        const box = e.getBoundingClientRect();
        return [...e.children].slice(1).map((f) => {
          const r = f.getBoundingClientRect();
          return r.top >= box.bottom ? 'hidden' : r.right <= box.right + 0.5 ? 'shown' : 'cut';
        });
      }),
    );
    expect(figures.flat()).not.toContain('cut');
    expect(figures.flat()).toContain('hidden');
    expect(figures.every((f) => f.indexOf('hidden') === -1 || f.slice(f.indexOf('hidden')).every((x) => x === 'hidden'))).toBe(true);
    await p().$$eval('[data-testid="session-item"]', (els) => els.forEach((e) => ((e as HTMLElement).style.maxWidth = '')));
    await page.screenshot('sessions-by-project');
  });

  it('by time across projects, newest first; a session’s sub-agents unfold under it from the keyboard', async () => {
    await p().selectOption('[aria-label="Group sessions"]', 'time');
    const byTime = [...store].sort((a, b) => a.hoursAgo - b.hoursAgo).map((s) => s.path);
    await p().waitForFunction((want) => [...document.querySelectorAll('[data-testid="session-item"]')].map((e) => e.getAttribute('data-path')).join('\n') === want, byTime.join('\n'));
    // The list is one Tab stop: Tab from the control before it lands on its first session, Tab again leaves it.
    const focusedPath = () => p().evaluate(() => document.activeElement?.getAttribute('data-path'));
    const inList = () => p().evaluate(() => document.activeElement?.closest('[data-testid="session-list"]') !== null);
    expect(await p().locator('[data-testid="session-list"] [tabindex="0"]').count()).toBe(1);
    const stop = await p().locator('[data-testid="session-list"] [tabindex="0"]').getAttribute('data-path');
    await p().focus('[aria-label="Group sessions"]');
    for (let k = 0; k < 30 && !(await inList()); k++) await p().keyboard.press('Tab');
    expect(await focusedPath()).toBe(stop);
    await p().keyboard.press('Tab');
    expect(await inList()).toBe(false);
    await p().keyboard.press('Shift+Tab');
    expect(await focusedPath()).toBe(stop);
    // From anywhere, one key reaches it (the filters before it are many Tabs).
    await p().focus('[aria-label="Group sessions"]');
    await p().keyboard.press('Control+Shift+L');
    expect(await focusedPath()).toBe(stop);
    // ↓ moves between sessions; → unfolds a session's sub-agents, ← folds them.
    // Home from the second row: the first takes the focus (once drawn: a frame later).
    await p().keyboard.press('ArrowDown');
    await p().keyboard.press('Home');
    await p().waitForFunction((want) => document.activeElement?.getAttribute('data-path') === want, byTime[0]);
    await p().keyboard.press('ArrowDown');
    expect(await focusedPath()).toBe(byTime[1]);
    await p().keyboard.press('ArrowUp');
    await p().keyboard.press('ArrowRight');
    await p().waitForSelector('[data-testid="agent-item"]');
    expect(await p().evaluate(() => document.activeElement?.getAttribute('aria-expanded'))).toBe('true');
    await p().keyboard.press('ArrowLeft');
    await p().waitForFunction(() => document.querySelector('[data-testid="agent-item"]') === null);
    await p().keyboard.press('ArrowRight');
    await p().waitForSelector('[data-testid="agent-item"]');
    const fix = store[0];
    expect((await listed()).slice(0, 3)).toEqual([fix.path, ...fix.agents.map((a) => `  ${fix.path.replace(/\.jsonl$/, '')}/subagents/agent-${a}.jsonl`)]);
    expect(await axeViolations(p())).toEqual([]);
    await page.screenshot('sessions-by-time-subagents');
    // A sub-agent opens as its own session.
    await p().click('[data-testid="agent-item"]');
    await p().waitForSelector(`[data-testid="conv-title"][title=${JSON.stringify(`${fix.path.replace(/\.jsonl$/, '')}/subagents/agent-${fix.agents[0]}.jsonl`)}]`);
  });

  it('the filters narrow the list: tool, model, dates, and sessions where secrets were found', async () => {
    // The list once it holds exactly these sessions (a filter's answer, not the one before it).
    const listedAre = (paths: string[]) => p().waitForFunction((want) => [...document.querySelectorAll('[data-testid="session-item"]')].map((e) => e.getAttribute('data-path')).join('\n') === want, paths.join('\n'));
    await p().selectOption('[aria-label="Filter sessions by tool"]', 'Codex');
    await listedAre([store.find((s) => s.tool === 'Codex')!.path]);
    await waitForCount(1);
    await p().selectOption('[aria-label="Filter sessions by tool"]', '');
    await p().selectOption('[aria-label="Filter sessions by model"]', 'claude-sonnet-4-5-20250929');
    await listedAre([store[1].path]);
    await waitForCount(1);
    await p().selectOption('[aria-label="Filter sessions by model"]', '');
    // Begun 20 days ago or before: the admin session, its sub-agent under it.
    const d = new Date(Date.now() - 20 * 24 * 3_600_000);
    await p().fill('[aria-label="To: sessions begun on or before"]', `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`);
    await listedAre([store[2].path]);
    await waitForCount(1, 1);
    await p().click('text=Clear filters');
    await waitForCount(4, 3);
    // Secrets: the one session whose answer quotes a token (looked into once the list is read).
    await p().check('[data-testid="filter-secrets"]');
    await listedAre([store[1].path]);
    await p().waitForFunction(() => !/looking for secrets/.test(document.querySelector('[data-testid="session-status"]')?.textContent ?? ''));
    await waitForCount(1);
    expect(await listed()).toEqual([store[1].path]);
    expect(await p().textContent('[data-testid="session-item"] .session-figures')).toMatch(/ · ⚠ 1 secret · /);
    await page.screenshot('sessions-filter-secrets');
    await p().uncheck('[data-testid="filter-secrets"]');
    await waitForCount(4, 3);
    expect(await status()).toBe('4 sessions · 3 sub-agents');
  });

  it('the Usage view adds costs up by day, project and model; a costly session opens with a click', async () => {
    await p().click('text=Usage…');
    await p().waitForSelector('[data-testid="usage-view"] [data-testid="usage-row"]');
    const rows = () => p().$$eval('[data-testid="usage-row"]', (trs) => trs.map((tr) => ({ key: tr.querySelector('th')?.textContent ?? '', cost: tr.querySelector('td')?.textContent ?? '' })));
    // By day: one row per day something ran, newest first, each priced.
    const days = await rows();
    expect(days.length).toBeGreaterThanOrEqual(3);
    expect(days.every((r) => /^\$\d/.test(r.cost))).toBe(true);
    expect(days.map((r) => r.key)).toEqual([...days.map((r) => r.key)].sort().reverse());
    await p().click('[role="tab"]:has-text("Project")');
    await p().waitForFunction(() => [...document.querySelectorAll('[data-testid="usage-row"] th')].some((th) => th.textContent === '/home/dev/code/shop-admin'));
    expect((await rows()).map((r) => r.key).sort()).toEqual(['/home/dev/cli', '/home/dev/code/shop', '/home/dev/code/shop-admin']);
    await p().click('[role="tab"]:has-text("Model")');
    await p().waitForFunction(() => [...document.querySelectorAll('[data-testid="usage-row"] th')].some((th) => th.textContent === 'gpt-5-codex'));
    const models = await rows();
    expect(models.map((r) => r.key).sort()).toEqual(['claude-haiku-4-5-20251001', 'claude-opus-4-5-20251101', 'claude-sonnet-4-5-20250929', 'gpt-5-codex']);
    // The costliest first: opus, whose session is the costliest too.
    expect(models[0].key).toBe('claude-opus-4-5-20251101');
    expect(await axeViolations(p())).toEqual([]);
    await page.screenshot('usage-by-model');
    const costly = p().locator('[data-testid="costly-session"]').first();
    expect(await costly.getAttribute('title')).toBe(store[0].path);
    await costly.click();
    await p().waitForSelector('[data-testid="usage-view"]', { state: 'detached' });
    await p().waitForSelector(`[data-testid="conv-title"][title=${JSON.stringify(store[0].path)}]`);
  });

  it('search-all shows hits as the query is typed, and a hit opens its message', async () => {
    await p().keyboard.press('Control+Shift+F');
    await p().waitForSelector('[data-testid="search-all-input"]');
    // Typed a key at a time: the first letters already find the word each session says alone.
    await p().type('[data-testid="search-all-input"]', 'walr', { delay: 60 });
    await p().waitForFunction(() => /^1 message in 1 file/.test(document.querySelector('[data-testid="search-all-summary"]')?.textContent ?? ''));
    expect(await p().$$eval('.search-all-file .name', (els) => els.map((e) => e.textContent))).toEqual([store[1].path]);
    expect(await p().textContent('[data-hit]')).toMatch(/walrus case is handled/);
    await page.screenshot('search-all-while-typing');
    await p().keyboard.press('Enter');
    await p().waitForSelector('[data-testid="search-all"]', { state: 'detached' });
    await p().waitForSelector(`[data-testid="conv-title"][title=${JSON.stringify(store[1].path)}]`);
    await p().waitForSelector('[data-testid="row"][aria-selected="true"]');
    await p().waitForSelector('#detail mark.hit');
    expect(await p().$eval('#detail mark.hit', (m) => m.textContent?.toLowerCase())).toBe('walr');
  });

  it('before a session is chosen, the main area says what the folders hold; a session there opens with a click', async () => {
    await p().reload();
    await p().waitForSelector('[data-testid="store-overview"]', { timeout: 30_000 });
    await p().waitForFunction(() => /^4 sessions · 3 sub-agents/.test(document.querySelector('[data-testid="store-overview"] h2')?.textContent ?? ''));
    expect(await p().textContent('[data-testid="overview-tools"]')).toBe('Claude Code 3 · Codex 1');
    // The last active first, as the list by time has them.
    const newest = [...store].sort((a, b) => a.hoursAgo - b.hoursAgo).map((s) => s.path);
    const recent = await p().$$eval('[data-testid="store-overview"] h3 + ul', (uls) => [...uls[0].querySelectorAll('[data-testid="overview-session"]')].map((b) => b.getAttribute('data-path')));
    expect(recent).toEqual(newest);
    // What the sessions reported they cost, added up.
    expect(await p().textContent('[data-testid="overview-figures"]')).toMatch(/ messages in sessions · \$\d+\.\d+ at list prices · /);
    await page.screenshot('store-overview');
    // The list short enough to hide most sessions: the one opened is brought into its view.
    await p().$eval('[data-testid="session-list"]', (e) => {
      (e as HTMLElement).style.flex = 'none';
      (e as HTMLElement).style.height = '60px';
    });
    const last = await p().$$eval('[data-testid="session-item"]', (els) => els[els.length - 1].getAttribute('data-path')!);
    await p().click(`[data-testid="overview-session"][data-path=${JSON.stringify(last)}]`);
    await p().waitForSelector(`[data-testid="conv-title"][title=${JSON.stringify(last)}]`);
    expect(await p().$('[data-testid="store-overview"]')).toBeNull();
    await p().waitForFunction((path) => {
      const row = document.querySelector(`[data-testid="session-item"][data-path="${path}"]`)?.getBoundingClientRect();
      const list = document.querySelector('[data-testid="session-list"]')!.getBoundingClientRect();
      return row !== undefined && row.top >= list.top - 1 && row.bottom <= list.bottom + 1;
    }, last);
    // The palette's Overview closes it and comes back.
    await p().keyboard.press('Control+K');
    await p().keyboard.type('Overview of the opened');
    await p().keyboard.press('Enter');
    await p().waitForSelector('[data-testid="store-overview"]');
    expect(await p().$('[data-testid="session-header"]')).toBeNull();
  });
});
