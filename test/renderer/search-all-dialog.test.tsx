// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../../app/renderer/api/client.js';
import { SearchAllDialog } from '../../app/renderer/features/search/SearchAllDialog.js';
import { useApp } from '../../app/renderer/store/index.js';
import type { SearchAnswer } from '../../app/shared/contract.js';
import type { SessionsAnswer } from '../../app/renderer/store/catalog.js';

const none = (pending: number): SearchAnswer => ({ query: 'invoice', hits: [], total: 0, files: 0, atLeast: false, fileTotals: {}, truncated: false, status: { files: 40, messages: 900, pending, building: pending > 0 } });

beforeEach(() => {
  setBridge({ request: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'not in this test' } }), subscribe: () => () => {} });
});
afterEach(cleanup);

describe('search across conversations while the index is built', () => {
  it('says "no match yet" with the files still to read, and "No messages match" only once every file is read', () => {
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'invoice', searchAllAnswer: none(12), searchIndex: none(12).status });
    render(<SearchAllDialog />);
    const summary = () => screen.getByTestId('search-all-summary').textContent;
    expect(summary()).toBe('No match yet: 12 files still to index');
    expect(screen.getByTestId('search-all-status').textContent).toMatch(/^Indexing… 40 files, 900 messages indexed, 12 files to go$/);
    act(() => useApp.setState({ searchAllAnswer: none(0), searchIndex: none(0).status }));
    expect(summary()).toBe('No messages match');
  });

  it('dims the figures of the words last searched while words typed since are not asked yet', () => {
    const answer: SearchAnswer = { ...none(0), query: 'invoice', total: 3, files: 1, fileTotals: { 'a.json': 3 }, hits: [] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'invoice', searchAllRegex: false, searchAllAnswer: answer, searchIndex: answer.status });
    render(<SearchAllDialog />);
    const summary = screen.getByTestId('search-all-summary');
    expect(summary.className).toBe('');
    fireEvent.change(screen.getByTestId('search-all-input'), { target: { value: 'invoices' } });
    expect(summary.className).toBe('stale');
    expect(summary.textContent).toBe('3 messages in 1 file');
    act(() => useApp.setState({ searchAllAnswer: { ...answer, query: 'invoices', total: 1 } }));
    expect(summary.className).toBe('');
  });

  it('says a regular expression stopped at its time limit, with what it found counted as found', () => {
    const hit = (index: number) => ({ path: 'a.json', format: 'openai-chat', conversation: 0, index, role: 'user', snippet: 'xx', match: [0, 2] as [number, number] });
    const stopped: SearchAnswer = { ...none(0), query: 'x+', total: 37, files: 2, atLeast: true, truncated: true, outOfTime: 4000, hits: Array.from({ length: 37 }, (_, i) => hit(i)) };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'x+', searchAllRegex: true, searchAllAnswer: stopped, searchIndex: stopped.status });
    render(<SearchAllDialog />);
    const summary = () => screen.getByTestId('search-all-summary').textContent;
    expect(summary()).toBe('37+ messages in 2+ files · stopped at its 4 s limit: not every file was searched');
    act(() => useApp.setState({ searchAllAnswer: { ...stopped, total: 0, files: 0, hits: [] } }));
    expect(summary()).toBe('No messages match · stopped at its 4 s limit: not every file was searched');
  });

  it("marks every word of the query in a hit's line, not only the first", () => {
    const answer: SearchAnswer = { ...none(0), query: 'Credit NOTE', total: 1, files: 1, fileTotals: { 'a.json': 1 }, hits: [{ path: 'a.json', format: 'openai-chat', conversation: 0, index: 3, role: 'user', snippet: 'The Credit Note for invoice 9 was issued.', match: [4, 10] }] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'Credit NOTE', searchAllRegex: false, searchAllAnswer: answer, searchIndex: answer.status });
    render(<SearchAllDialog />);
    expect([...screen.getByTestId('search-snippet').querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Credit', 'Note']);
  });

  it("names a file's group by its format's name, and a part of a file by its place in the file", () => {
    const hit = (path: string, format: string) => ({ path, format, conversation: 0, index: 1, role: 'user', snippet: 'an invoice', match: [3, 10] as [number, number] });
    const answer: SearchAnswer = { ...none(0), total: 2, files: 2, fileTotals: {}, hits: [hit('chat.json', 'openai-chat'), hit('big/session.jsonl#part-4', 'claude-code')] };
    useApp.setState({
      searchAllOpen: true,
      searchAllQuery: 'invoice',
      searchAllAnswer: answer,
      searchIndex: answer.status,
      entries: [
        { path: 'chat.json', name: 'chat', bytes: 10, modified: 0, format: 'openai-chat', formatLabel: 'OpenAI chat messages (JSON)' },
        { path: 'big/session.jsonl', name: 'session', bytes: 4e8, modified: 0, format: 'claude-code', formatLabel: 'Claude Code session (JSONL)', parts: [{ path: 'big/session.jsonl#part-4', title: 'part 4 of 4 (288–381 MiB)' }] },
      ],
    });
    render(<SearchAllDialog />);
    expect(screen.getAllByTestId('search-all-file-name').map((e) => e.textContent)).toEqual(['chat.json', 'big/session.jsonl · part 4 of 4 (288–381 MiB)']);
    expect(screen.getAllByTestId('search-all-file-count').map((e) => e.textContent)).toEqual(['1 match · OpenAI chat messages (JSON)', '1 match · Claude Code session (JSONL)']);
  });

  it("heads a file's hits with the title of the session it holds, as the session list names it, its path below", () => {
    const hit = (path: string, format: string) => ({ path, format, conversation: 0, index: 1, role: 'user', snippet: 'an invoice', match: [3, 10] as [number, number] });
    const answer: SearchAnswer = { ...none(0), total: 4, files: 4, fileTotals: {}, hits: [hit('p/6f82b87c.jsonl', 'claude-code'), hit('p/6f82b87c/subagents/agent-a1.jsonl', 'claude-code'), hit('export.json', 'chatgpt-export'), hit('p/untitled.jsonl', 'claude-code')] };
    const session = (path: string, over: Partial<SessionsAnswer['sessions'][number]>): SessionsAnswer['sessions'][number] => ({ id: 1, path, conversation: 0, kind: 'session', models: [], messages: 3, prompts: 1, calls: 0, inputCalls: 0, outputCalls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, unpriced: [], modifiedMs: Date.parse('2025-06-22T10:00:00Z'), ...over });
    useApp.setState({
      searchAllOpen: true,
      searchAllQuery: 'invoice',
      searchAllAnswer: answer,
      searchIndex: answer.status,
      entries: [],
      sessionsAnswer: {
        total: 5,
        tools: [],
        models: [],
        status: { files: 4, listed: true, building: false } as SessionsAnswer['status'],
        sessions: [
          session('p/6f82b87c.jsonl', { title: 'NVIDIA PRIME sync', project: '/home/b/system-conf', tool: 'Claude Code', lastAt: '2025-06-22T10:00:00Z' }),
          session('p/6f82b87c/subagents/agent-a1.jsonl', { kind: 'subagent', title: 'Find the config files', tool: 'Claude Code' }),
          // A file of several sessions is named by its path: no one title is its.
          session('export.json', { title: 'First chat' }),
          session('export.json', { conversation: 1, title: 'Second chat' }),
          session('p/untitled.jsonl', { title: '…' }),
        ],
      },
    });
    render(<SearchAllDialog />);
    const titles = screen.getAllByTestId('search-all-session').map((e) => e.querySelector('.title')!.textContent);
    expect(titles).toEqual(['NVIDIA PRIME sync', 'sub-agent · Find the config files']);
    expect(screen.getAllByTestId('search-all-session')[0].textContent).toMatch(/system-conf · .*2025 · Claude Code$/);
    // Every group still shows its path (the session's below its title), and the format only where no session says its tool.
    expect(screen.getAllByTestId('search-all-file-name').map((e) => e.textContent)).toEqual(['p/6f82b87c.jsonl', 'p/6f82b87c/subagents/agent-a1.jsonl', 'export.json', 'p/untitled.jsonl']);
    expect(screen.getAllByTestId('search-all-file-count').map((e) => e.textContent)).toEqual(['1 match', '1 match', '1 match · chatgpt-export', '1 match · claude-code']);
    // A hit of a file of several sessions says which, by the session's title (a Crush database's "2:2" said nothing).
    expect(screen.getAllByTestId('search-hit-session').map((e) => e.textContent)).toEqual(['First chat · ']);
  });

  it("numbers a hit as the table will: its thread's row, or none where it is on a path the table does not show", () => {
    const hit = (index: number, shown: { conversation: number; index: number } | null | undefined) => ({ path: 'session.jsonl', format: 'claude-code', conversation: 0, index, role: 'user', snippet: 'an invoice', match: [3, 10] as [number, number], ...(shown !== undefined ? { shown } : {}) });
    const answer: SearchAnswer = { ...none(0), total: 3, files: 1, fileTotals: {}, hits: [hit(6, { conversation: 0, index: 3 }), hit(9, null), hit(12, { conversation: 0, index: 7 })] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'invoice', searchAllAnswer: answer, searchIndex: answer.status, entries: [] });
    render(<SearchAllDialog />);
    expect(screen.getAllByTestId('search-hit-number').map((e) => e.textContent)).toEqual(['3', '⤷', '7']);
    expect(screen.getAllByTestId('search-hit-number')[1].getAttribute('title')).toMatch(/^Not on the path the table opens at \(before a compaction, or on a branch the session left\)/);
  });

  it('says in words why a hit has no row (⤷): before a compaction, or on a branch the session left; the mark is named for a screen reader and the keys line says what it means', () => {
    const hit = (index: number, shown: { conversation: number; index: number } | null, offPath?: 'earlier' | 'branch') => ({ path: 'session.jsonl', format: 'claude-code', conversation: 0, index, role: 'user', snippet: `an invoice ${index}`, match: [3, 10] as [number, number], shown, ...(offPath ? { offPath } : {}) });
    const answer: SearchAnswer = { ...none(0), total: 3, files: 1, fileTotals: {}, hits: [hit(2, null, 'earlier'), hit(9, null, 'branch'), hit(12, { conversation: 0, index: 7 })] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'invoice', searchAllAnswer: answer, searchIndex: answer.status, entries: [] });
    render(<SearchAllDialog />);
    const marks = screen.getAllByRole('img');
    expect(marks.map((m) => m.textContent?.trim())).toEqual(['⤷', '⤷']);
    expect(screen.getByRole('img', { name: /^Before a compaction: the model no longer sees this message\. Opening it shows the whole session/ })).toBe(marks[0]);
    expect(screen.getByRole('img', { name: /^On a branch the session did not go on with \(a rewind, an edited prompt/ })).toBe(marks[1]);
    // At a glance: two words before the line, the hit's own line after them; none where the hit has its row.
    const rows = [...document.querySelectorAll('.search-all-hit')];
    expect(rows.map((r) => r.querySelector('[data-testid="search-hit-off-path"]')?.textContent ?? null)).toEqual(['before compaction', 'other branch', null]);
    expect(rows.map((r) => r.querySelector('[data-testid="search-snippet"]')?.textContent)).toEqual(['an invoice 2', 'an invoice 9', 'an invoice 12']);
    expect(screen.getByTestId('search-all-keys').textContent).toContain('⤷ not on the path the table opens at: Enter shows it where it is');
    cleanup();
    // No such hit: no word of it.
    useApp.setState({ searchAllAnswer: { ...answer, total: 1, hits: [hit(12, { conversation: 0, index: 7 })] } });
    render(<SearchAllDialog />);
    expect(screen.queryAllByRole('img')).toEqual([]);
    expect(screen.getByTestId('search-all-keys').textContent).not.toContain('⤷');
  });

  it("numbers a hit of a file of several conversations as the header and the CLI number them, its row as the table (each from 0)", () => {
    const hit = (conversation: number, index: number) => ({ path: 'dataset.jsonl', format: 'sharegpt-jsonl', conversation, index, role: 'user', snippet: 'an invoice', match: [3, 10] as [number, number] });
    const answer: SearchAnswer = { ...none(0), total: 2, files: 1, fileTotals: {}, hits: [hit(0, 3), hit(1, 0)] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'invoice', searchAllAnswer: answer, searchIndex: answer.status, entries: [] });
    render(<SearchAllDialog />);
    expect(screen.getAllByTestId('search-hit-number').map((e) => e.textContent)).toEqual(['0:3', '1:0']);
    expect(screen.getAllByTestId('search-hit-number')[1].getAttribute('title')).toBe('conversation #1 of the file, row 0 (both counted from 0, as the table and the CLI number them)');
    cleanup();
    // Found in the first conversation only, a file of two still says which.
    useApp.setState({ searchAllAnswer: { ...answer, total: 1, hits: [hit(0, 3)] }, entries: [{ path: 'dataset.jsonl', name: 'dataset', bytes: 10, modified: 0, conversations: 2 }] });
    render(<SearchAllDialog />);
    expect(screen.getAllByTestId('search-hit-number').map((e) => e.textContent)).toEqual(['0:3']);
  });

  it('shows a hit\'s role as the file spells it, as the table does', () => {
    const answer: SearchAnswer = { ...none(0), total: 1, files: 1, fileTotals: {}, hits: [{ path: '.aider.chat.history.md', format: 'aider-chat', conversation: 0, index: 4, role: 'other', spelled: 'tool', snippet: 'Applied edit', match: [0, 7] }] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'applied', searchAllAnswer: answer, searchIndex: answer.status, entries: [] });
    render(<SearchAllDialog />);
    expect(document.querySelector('.search-all-hit .role-chip')?.textContent).toBe('tool');
  });
});

describe('the place in the list of hits', () => {
  it('stays on the hit the user moved to while the lines of later hits come in; a new query starts at its first hit', () => {
    const hit = (index: number, snippet?: string) => ({ path: 'a.json', format: 'openai-chat', conversation: 0, index, role: 'user', ...(snippet ? { snippet, match: [0, 2] as [number, number] } : {}) });
    const bare: SearchAnswer = { ...none(0), query: 'invoice', total: 4, files: 1, hits: [hit(0, 'invoice 0'), hit(1), hit(2), hit(3)] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'invoice', searchAllRegex: false, searchAllAnswer: bare, searchIndex: bare.status, entries: [] });
    render(<SearchAllDialog />);
    const input = screen.getByTestId('search-all-input');
    act(() => {
      fireEvent.keyDown(input, { key: 'ArrowDown' });
      fireEvent.keyDown(input, { key: 'ArrowDown' });
    });
    const selected = () => document.querySelector('[data-hit][aria-selected="true"]')?.getAttribute('data-hit');
    expect(selected()).toBe('2');
    // The lines the first answer had no time for arrive: the same query, a new answer object.
    act(() => useApp.setState({ searchAllAnswer: { ...bare, hits: bare.hits.map((h) => ({ ...h, snippet: `invoice ${h.index}`, match: [0, 7] as [number, number] })) } }));
    expect(selected()).toBe('2');
    act(() => useApp.setState({ searchAllAnswer: { ...bare, query: 'invoices' } }));
    expect(selected()).toBe('0');
  });

  it('a hit scrolled under a pointer at rest is not picked (↓ then Enter opens the hit ↓ reached); a pointer that moves picks its hit', () => {
    const hit = (index: number) => ({ path: 'a.json', format: 'openai-chat', conversation: 0, index, role: 'user', snippet: `invoice ${index}`, match: [0, 7] as [number, number] });
    const answer: SearchAnswer = { ...none(0), query: 'invoice', total: 6, files: 1, hits: [0, 1, 2, 3, 4, 5].map(hit) };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'invoice', searchAllRegex: false, searchAllAnswer: answer, searchIndex: answer.status, entries: [] });
    render(<SearchAllDialog />);
    const input = screen.getByTestId('search-all-input');
    const selected = () => document.querySelector('[data-hit][aria-selected="true"]')?.getAttribute('data-hit');
    const row = (i: number) => document.querySelector(`[data-hit="${i}"]`)!;
    act(() => fireEvent.keyDown(input, { key: 'ArrowDown' }));
    // What Chromium sends once the list scrolled under a pointer that did not move: enter, and a move of nothing.
    act(() => {
      fireEvent.mouseEnter(row(4), { clientX: 300, clientY: 200 });
      fireEvent.mouseMove(row(4), { clientX: 300, clientY: 200 });
    });
    expect(selected()).toBe('1');
    act(() => fireEvent.mouseMove(row(5), { clientX: 300, clientY: 200 }));
    expect(selected()).toBe('1');
    // The user moves the pointer: its hit is picked.
    act(() => fireEvent.mouseMove(row(3), { clientX: 300, clientY: 230 }));
    expect(selected()).toBe('3');
  });

  it("a group's file keeps its own name whole and lets its folders give way, so a session and its sub-agents read apart", () => {
    const at = (path: string) => ({ path, format: 'claude-code', conversation: 0, index: 0, role: 'user', snippet: 'invoice', match: [0, 7] as [number, number] });
    const session = 'claude-code/project-with-a-long-name/801ea086-c461-45be-aac3-f4b46d4a1c1a.jsonl';
    const agent = 'claude-code/project-with-a-long-name/801ea086-c461-45be-aac3-f4b46d4a1c1a/subagents/agent-ad34c691aafe3ca3f.jsonl';
    const answer: SearchAnswer = { ...none(0), query: 'invoice', total: 2, files: 2, fileTotals: {}, hits: [at(session), at(agent)] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'invoice', searchAllRegex: false, searchAllAnswer: answer, searchIndex: answer.status, entries: [] });
    render(<SearchAllDialog />);
    const names = screen.getAllByTestId('search-all-file-name');
    expect(names.map((n) => n.textContent)).toEqual([session, agent]);
    expect(names.map((n) => n.querySelector('.base')?.textContent)).toEqual(['801ea086-c461-45be-aac3-f4b46d4a1c1a.jsonl', 'agent-ad34c691aafe3ca3f.jsonl']);
  });
});
