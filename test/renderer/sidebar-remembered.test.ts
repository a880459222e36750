// @vitest-environment happy-dom
// The list the user chose in the sidebar holds across a reload: the catalog finding sessions does not switch it.
import { describe, expect, it, vi } from 'vitest';

describe('the sidebar’s list, chosen once', () => {
  it('is the one the page starts on after a reload, and is never switched to the sessions under the user', async () => {
    localStorage.clear();
    vi.resetModules();
    let { useApp } = await import('../../app/renderer/store/index.js');
    expect(useApp.getState()).toMatchObject({ sidebarMode: 'files', sidebarChosen: false });
    useApp.getState().setSidebarMode('files');
    // The page loads again: a store made afresh.
    vi.resetModules();
    ({ useApp } = await import('../../app/renderer/store/index.js'));
    expect(useApp.getState()).toMatchObject({ sidebarMode: 'files', sidebarChosen: true });
    const { setBridge } = await import('../../app/renderer/api/client.js');
    setBridge({
      request: async () => ({ ok: true, value: { sessions: [{ id: 0, path: 'p/1.jsonl', conversation: 0, kind: 'session', sessionId: 'a1', models: [], messages: 3, prompts: 1, calls: 0, inputCalls: 0, outputCalls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, unpriced: [], modifiedMs: 0 }], total: 1, tools: [], models: [], status: { files: 1, sessions: 1, done: 1, total: 1, building: false, secretsPending: 0 } } }),
      subscribe: () => () => {},
    } as never);
    await useApp.getState().loadSessions();
    expect(useApp.getState().sidebarMode).toBe('files');
    useApp.getState().setSidebarMode('sessions');
    vi.resetModules();
    ({ useApp } = await import('../../app/renderer/store/index.js'));
    expect(useApp.getState().sidebarMode).toBe('sessions');
  });

  it('the sessions grouped by time stay so after a reload; by project is the start', async () => {
    localStorage.clear();
    vi.resetModules();
    let { useApp } = await import('../../app/renderer/store/index.js');
    expect(useApp.getState().sessionGroup).toBe('project');
    useApp.getState().setSessionGroup('time');
    vi.resetModules();
    ({ useApp } = await import('../../app/renderer/store/index.js'));
    expect(useApp.getState().sessionGroup).toBe('time');
  });
});
