// The sidebar opens on the sessions when the catalog finds agent sessions in the opened folders, and on the files
// otherwise; a list the user chose (or a file opened from the files) is never switched under them.
import { beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../../app/renderer/api/client.js';
import { useApp } from '../../app/renderer/store/index.js';
import type { SessionEntry } from '../../app/shared/contract.js';

const entry = (path: string, more: Partial<SessionEntry> = {}): SessionEntry => ({ id: 0, path, conversation: 0, kind: 'session', models: [], messages: 3, prompts: 1, calls: 0, inputCalls: 0, outputCalls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, unpriced: [], modifiedMs: 0, ...more });

function catalogHolds(sessions: SessionEntry[]) {
  const asked: unknown[] = [];
  setBridge({
    request: async (channel: string, input: unknown) => {
      if (channel !== 'catalog:sessions') return { ok: false, error: { code: 'INTERNAL', message: 'not in this test' } };
      asked.push(input);
      return { ok: true, value: { sessions, total: sessions.length, tools: [], models: [], status: { files: sessions.length, sessions: sessions.length, done: 1, total: 1, building: false, secretsPending: 0 } } };
    },
    subscribe: () => () => {},
  } as never);
  return asked;
}

beforeEach(() => useApp.setState({ sidebarMode: 'files', sidebarChosen: false, openPath: undefined, sessionFilters: {} }));

describe('the sidebar’s first list', () => {
  it('is the sessions when the folders hold agent sessions', async () => {
    catalogHolds([entry('projects/-home-u-shop/1.jsonl', { sessionId: 'a1', tool: 'Claude Code' })]);
    await useApp.getState().loadSessions();
    expect(useApp.getState().sidebarMode).toBe('sessions');
  });

  it('stays the files for conversations no agent wrote (a chat export, a dataset)', async () => {
    catalogHolds([entry('chat.json', { tool: 'ChatGPT' }), entry('run.json')]);
    await useApp.getState().loadSessions();
    expect(useApp.getState().sidebarMode).toBe('files');
  });

  it('is never switched once the user chose the files, or opened one', async () => {
    catalogHolds([entry('projects/-home-u-shop/1.jsonl', { sessionId: 'a1' })]);
    useApp.getState().setSidebarMode('files');
    await useApp.getState().loadSessions();
    expect(useApp.getState().sidebarMode).toBe('files');
    useApp.setState({ sidebarChosen: false, openPath: 'notes/run.json' });
    await useApp.getState().loadSessions();
    expect(useApp.getState().sidebarMode).toBe('files');
  });

  it('is not switched under a user at work in the files (scrolling, clicking, typing in the list)', async () => {
    catalogHolds([entry('projects/-home-u-shop/1.jsonl', { sessionId: 'a1' })]);
    useApp.getState().holdSidebar();
    await useApp.getState().loadSessions();
    expect(useApp.getState().sidebarMode).toBe('files');
    // Not remembered as a choice: the next window opens on the sessions again.
    expect(globalThis.localStorage?.getItem('inspector.sidebarMode') ?? null).toBe(null);
  });

  it('asks the catalog with every filter set, dates and secrets included', async () => {
    const asked = catalogHolds([]);
    useApp.getState().setSessionFilters({ from: '2026-11-01', to: '2026-11-30', secrets: true });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked.at(-1)).toMatchObject({ from: '2026-11-01', to: '2026-11-30', secrets: true });
  });
});
