// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../../app/renderer/api/client.js';
import { SessionList } from '../../app/renderer/features/sessions/SessionList.js';
import { useApp } from '../../app/renderer/store/index.js';
import type { NotListed, SessionEntry } from '../../app/shared/contract.js';

const status = { files: 14, sessions: 1, done: 14, total: 14, building: false, listed: true, secretsPending: 0 };
const session: SessionEntry = { id: 1, path: 'claude/s.jsonl', conversation: 0, kind: 'session', title: 'Fix the cart', models: [], messages: 4, prompts: 1, calls: 0, inputCalls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, unpriced: [], modifiedMs: 0 } as unknown as SessionEntry;
const notListed: NotListed = {
  databases: [{ label: 'Goose sessions', files: 1 }, { label: 'Zed threads', files: 2 }],
  logs: 9,
  empty: 1,
  unreadable: 0,
  files: [
    { path: 'goose/sessions/sessions.db', why: 'unread', label: 'Goose sessions' },
    { path: 'claude/history.jsonl', why: 'log', label: 'Claude Code prompt history (history.jsonl)' },
  ],
};

beforeEach(() => {
  setBridge({ request: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'not in this test' } }), subscribe: () => () => {} });
  useApp.setState({ sidebarMode: 'sessions', catalogStatus: status, sessionFilters: {} });
});
afterEach(cleanup);

describe('the session list says what the folders hold that it does not show', () => {
  it('in one quiet line: the databases of tools not read here by what they hold, then how many logs and files of no message; each file on hover; the way to them in Files', () => {
    useApp.setState({ sessionsAnswer: { sessions: [session], total: 1, tools: [], models: [], status, notListed } });
    render(<SessionList />);
    const line = screen.getByTestId('session-not-listed');
    expect(line.textContent).toBe('Not listed: 3 databases not read (Goose sessions, Zed threads ×2) · 9 logs and indexes · 1 file of no message — open them in Files');
    expect(line.getAttribute('title')).toBe(
      'Files under the opened folders that this list does not show:\ngoose/sessions/sessions.db: Goose sessions, a database of a tool not read here\nclaude/history.jsonl: Claude Code prompt history (history.jsonl), a log or index kept beside sessions (searched, not a session)\n… and 11 more',
    );
    act(() => fireEvent.click(screen.getByRole('button', { name: 'open them in Files' })));
    expect(useApp.getState().sidebarMode).toBe('files');
  });

  it('says nothing where there is nothing to say', () => {
    useApp.setState({ sessionsAnswer: { sessions: [session], total: 1, tools: [], models: [], status } });
    render(<SessionList />);
    expect(screen.queryByTestId('session-not-listed')).toBeNull();
    cleanup();
    useApp.setState({ sessionsAnswer: { sessions: [session], total: 1, tools: [], models: [], status, notListed: { databases: [], logs: 0, empty: 0, unreadable: 1, files: [{ path: 'chat.json', why: 'unreadable' }] } } });
    render(<SessionList />);
    expect(screen.getByTestId('session-not-listed').textContent).toBe('Not listed: 1 file that does not read — open it in Files');
  });
});
