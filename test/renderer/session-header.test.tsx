// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FLAGS, type TokenCounts, type TurnFiguresData } from '../../app/shared/contract.js';
import { setBridge } from '../../app/renderer/api/client.js';
import { ForkNavigator, forkSteps } from '../../app/renderer/features/header/ForkNavigator.js';
import { HeaderNotes } from '../../app/renderer/features/header/HeaderNotes.js';
import { splitPath } from '../../app/renderer/features/header/names.js';
import { CompactionToggle } from '../../app/renderer/features/header/SessionControls.js';
import { ThreadMenu } from '../../app/renderer/features/header/ThreadMenu.js';
import { TurnStrip, barsOf } from '../../app/renderer/features/header/TurnStrip.js';
import { useApp } from '../../app/renderer/store/index.js';
import { swarmsSkeleton } from '../support/skeleton.js';

const session = swarmsSkeleton(12, { path: 's.jsonl', format: 'claude-code', formatLabel: 'Claude Code session', swarms: false });
let turnsAsked = 0;
let turns: TurnFiguresData[] = [];
let sessionUsd: number | undefined;

beforeEach(() => {
  turnsAsked = 0;
  sessionUsd = undefined;
  setBridge({
    request: async (name: string) => {
      if (name === 'conversation:turns') {
        turnsAsked++;
        return { ok: true, value: { turns, pricesDated: '2026-12-05', ...(sessionUsd !== undefined ? { sessionUsd } : {}) } };
      }
      return { ok: false, error: { code: 'INTERNAL', message: 'not in this test' } };
    },
    subscribe: () => () => {},
  });
  useApp.setState({ skeleton: session, selected: undefined, links: undefined, entries: [], counts: undefined, openPath: 's.jsonl' });
});
afterEach(cleanup);

describe('names are cut at their end, never inside what tells them apart', () => {
  it('the folders and the file name apart, the uuid whole in the name', () => {
    expect(splitPath('claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13/subagents/agent-a3f9e1d2b7c40815.jsonl')).toEqual({ dir: 'claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13/subagents/', base: 'agent-a3f9e1d2b7c40815.jsonl' });
    expect(splitPath('session.jsonl')).toEqual({ dir: '', base: 'session.jsonl' });
  });
});

describe('forks as a navigator', () => {
  const forks = [
    { at: 7, options: 2, chosen: 1, continued: 1 },
    { at: 2, options: 3, chosen: 0 },
  ];

  it('where the selection stands: before the first, on one, between, after the last', () => {
    expect(forkSteps(forks, undefined)).toEqual({ at: -1, prev: undefined, next: 2 });
    expect(forkSteps(forks, 2)).toEqual({ at: 0, prev: undefined, next: 7 });
    expect(forkSteps(forks, 5)).toEqual({ at: -1, prev: 2, next: 7 });
    expect(forkSteps(forks, 9)).toEqual({ at: -1, prev: 7, next: undefined });
  });

  it('counts every fork of the thread (forkCount), steps between those on the path, lists them with the way to every branch', () => {
    useApp.setState({ skeleton: { ...session, forks, forkCount: 3 } });
    render(<ForkNavigator skeleton={{ ...session, forks, forkCount: 3 }} />);
    const nav = screen.getByTestId('fork-nav');
    expect(nav.getAttribute('data-forks')).toBe('3');
    expect(nav.getAttribute('data-on-path')).toBe('2');
    expect(screen.getByTestId('fork-note').textContent).toBe('3 forks');
    expect((screen.getByTestId('fork-prev-place') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('fork-next-place'));
    expect(useApp.getState().selected).toBe(2);
    expect(screen.getByTestId('fork-note').textContent).toBe('fork 1/2');
    fireEvent.click(screen.getByTestId('fork-next-place'));
    expect(useApp.getState().selected).toBe(7);
    expect((screen.getByTestId('fork-next-place') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('fork-list-toggle'));
    expect(screen.getAllByTestId('fork-place').map((b) => b.getAttribute('data-at'))).toEqual(['2', '7']);
    expect(screen.getByTestId('show-branch-tree').textContent).toContain('1 fork off this path');
    fireEvent.click(screen.getAllByTestId('fork-place')[0]);
    expect(useApp.getState().selected).toBe(2);
    expect(screen.queryByTestId('fork-list')).toBeNull();
    // Compare, from a fork: the branch shown beside the one the session went on with (or the next one).
    const asked: unknown[] = [];
    useApp.setState({ openCompare: async (sides) => void asked.push(sides) });
    fireEvent.click(screen.getByTestId('fork-list-toggle'));
    fireEvent.click(screen.getAllByTestId('fork-compare')[0]);
    expect(asked).toEqual([{ a: { path: 's.jsonl', conversation: 0, branch: { at: 2, option: 0 } }, b: { path: 's.jsonl', conversation: 0, branch: { at: 2, option: 1 } } }]);
  });

  it('a thread that never forks has no navigator', () => {
    const { container } = render(<ForkNavigator skeleton={session} />);
    expect(container.textContent).toBe('');
  });
});

describe('threads as a menu', () => {
  const threads = [
    { thread: 'main', title: 'Fix the cart', messages: 10, conversation: 0 },
    { thread: 'side:a3f9e1d2b7c40815', title: 'Sub-agent a3f9e1d2b7c40815', messages: 4, conversation: 1 },
    { thread: 'side:0c1d2e3f4a5b6c7d', title: 'Sub-agent 0c1d2e3f4a5b6c7d', messages: 2, conversation: 2 },
  ];

  it('one button naming the thread shown and how many others; the menu lists each with its size, the id whole on hover', () => {
    render(<ThreadMenu skeleton={{ ...session, threads }} />);
    const button = screen.getByTestId('thread-menu');
    expect(button.textContent).toBe('Main thread · 2 others ▾');
    expect(button.getAttribute('data-thread')).toBe('main');
    expect(screen.queryAllByTestId('thread')).toHaveLength(0);
    fireEvent.click(button);
    const items = screen.getAllByTestId('thread');
    expect(items.map((b) => [b.getAttribute('data-thread'), b.getAttribute('aria-pressed')])).toEqual([
      ['main', 'true'],
      ['side:a3f9e1d2b7c40815', 'false'],
      ['side:0c1d2e3f4a5b6c7d', 'false'],
    ]);
    expect(items[1].textContent).toBe('↳ sub-agent a3f9e1d2b7c408154 msgs');
    expect(items[1].getAttribute('title')).toBe('Sub-agent a3f9e1d2b7c40815 (id a3f9e1d2b7c40815)');
    // Esc closes the menu and gives the focus back to its button.
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Threads of this session' }), { key: 'Escape' });
    expect(screen.queryAllByTestId('thread')).toHaveLength(0);
    expect(document.activeElement).toBe(button);
  });

  it('a file of one thread and no files beside it has no menu', () => {
    const { container } = render(<ThreadMenu skeleton={{ ...session, threads: threads.slice(0, 1) }} />);
    expect(container.textContent).toBe('');
  });
});

describe('notes folded into one button', () => {
  it('read-only, a cut line, unread parts and records that are no message: one button that says read-only and how many notes', () => {
    const skeleton = { ...session, readOnly: { reason: 'Cursor’s own database', edits: false }, cutLine: 40, other: 3, flags: session.flags.map((f, i) => (i < 2 ? f | FLAGS.unread : f)) };
    render(<HeaderNotes skeleton={skeleton} parted={false} />);
    const button = screen.getByTestId('header-notes');
    expect(button.textContent).toBe('read-only4 notes');
    expect(button.getAttribute('aria-label')).toBe('Read-only; 4 notes about this file');
    fireEvent.click(button);
    expect(screen.getByTestId('read-only-banner').textContent).toBe('Read-only: Cursor’s own database.');
    expect(screen.getByTestId('cut-line-note').textContent).toMatch(/^Line 40 is not whole JSON/);
    expect(screen.getByTestId('unread-note').textContent).toMatch(/^2 of 12 messages have parts this reader does not know/);
    expect(screen.getByTestId('other-records-note').textContent).toBe('3 records of the file are not a message (kept as they are, not shown).');
  });

  it('an estimate is a note once counted; a file with nothing to say has no button', () => {
    const { container, rerender } = render(<HeaderNotes skeleton={{ ...session, model: 'claude-opus-4-6' }} parted={false} />);
    expect(container.textContent).toBe('');
    const counts: TokenCounts = { path: 's.jsonl', conversation: 0, model: 'claude-opus-4-6', encoding: 'o200k_base', approximate: true, tokens: [], toolTokens: [], reasoningTokens: [], renderedTokens: [], total: 0 };
    act(() => useApp.setState({ counts }));
    rerender(<HeaderNotes skeleton={{ ...session, model: 'claude-opus-4-6' }} parted={false} />);
    fireEvent.click(screen.getByTestId('header-notes'));
    expect(screen.getByTestId('estimate-note').textContent).toBe('The token counts are estimates: o200k_base stands in for claude-opus-4-6.');
  });

  it('a part of a big file keeps its banner (with the way to the other parts): no read-only note twice', () => {
    const { container } = render(<HeaderNotes skeleton={{ ...session, readOnly: { reason: 'part 1 of 4', edits: false } }} parted />);
    expect(container.textContent).toBe('');
  });
});

describe('the compaction as one chip', () => {
  it('a branch that never reached a compaction says nothing; one through a compaction offers the other view', () => {
    const { container, rerender } = render(<CompactionToggle skeleton={{ ...session, whole: true, earlier: 0 }} />);
    expect(container.textContent).toBe('');
    rerender(<CompactionToggle skeleton={{ ...session, whole: true, earlier: 0, flags: session.flags.map((f, i) => (i === 3 ? f | FLAGS.compaction : f)) }} />);
    expect(screen.getByTestId('show-since-compaction').getAttribute('title')).toContain('compactions and all');
    rerender(<CompactionToggle skeleton={{ ...session, whole: false, earlier: 11 }} />);
    // What the rows left out are, said on the chip, not only on hover: "19 of 581 msgs" read as most of a session missing.
    expect(screen.getByTestId('show-whole').textContent).toBe('+11 before the compaction');
    rerender(<CompactionToggle skeleton={{ ...session, whole: false, earlier: 11, earlierBy: 'clear' }} />);
    expect(screen.getByTestId('show-whole').textContent).toBe('+11 before the /clear');
  });
});

describe('turns at a glance', () => {
  const counts: TokenCounts = { path: 's.jsonl', conversation: 0, model: 'claude-sonnet-4-5', encoding: 'o200k_base', approximate: true, tokens: [], toolTokens: [], reasoningTokens: [], renderedTokens: [], total: 0 };

  it('a bar per turn, asked of the service once the counts are in; a click selects its first row; the list puts the costliest first', async () => {
    turns = [
      { first: 1, last: 3, input: 1000, cacheRead: 800, output: 50, usd: 0.002, estimated: false },
      { first: 4, last: 6, input: 3000, cacheRead: 2000, output: 400, usd: 0.011, estimated: false },
      { first: 8, last: 8, input: 500, output: 20, usd: 0.0009, estimated: true },
    ];
    const { rerender } = render(<TurnStrip skeleton={session} />);
    expect(turnsAsked).toBe(0);
    act(() => useApp.setState({ counts }));
    rerender(<TurnStrip skeleton={session} />);
    await waitFor(() => expect(screen.getAllByTestId('turn-bar')).toHaveLength(3));
    const bars = screen.getAllByTestId('turn-bar');
    expect(bars.map((b) => b.style.height)).toEqual([`${(0.002 / 0.011) * 100}%`, '100%', '15%']);
    expect(bars[2].getAttribute('aria-label')).toBe('Turn 3 (#8): ≈500 in · ≈20 out · ≈$0.00090 — estimated, the file reports no usage for it');
    fireEvent.click(bars[1]);
    expect(useApp.getState().selected).toBe(4);
    rerender(<TurnStrip skeleton={session} />);
    expect(screen.getAllByTestId('turn-bar')[1].getAttribute('aria-current')).toBe('true');
    // The reported turns' cost is the session list's; the estimate of the one the file reports nothing of is beside it.
    expect(screen.getByTestId('turns-by-cost').textContent).toBe('3 turns · $0.013 + ≈$0.00090 ▾');
    expect(screen.getByTestId('turns-by-cost').getAttribute('title')).toContain('$0.013 reported and ≈$0.00090 estimated for the turns the file reports no usage of');
    fireEvent.click(screen.getByTestId('turns-by-cost'));
    const entries = screen.getAllByTestId('turn-entry');
    expect(entries.map((e) => e.getAttribute('data-first'))).toEqual(['4', '1', '8']);
    fireEvent.click(entries[2]);
    expect(useApp.getState().selected).toBe(8);
    // Shown since its last compaction: the turns say they are not the whole session's.
    rerender(<TurnStrip skeleton={{ ...session, earlier: 40 }} />);
    await waitFor(() => expect(screen.getByTestId('turns-by-cost').textContent).toBe('3 turns since the compaction · $0.013 + ≈$0.00090 ▾'));
  });

  it('since its last compaction, the strip says what the whole session cost as the session list does', async () => {
    turns = [
      { first: 1, last: 3, input: 1000, output: 50, usd: 0.002, estimated: false },
      { first: 4, last: 6, input: 3000, output: 400, usd: 0.011, estimated: false },
    ];
    const row = { id: 1, path: 's.jsonl', conversation: 0, kind: 'session' as const, models: [], messages: 40, prompts: 3, calls: 9, inputCalls: 9, outputCalls: 9, input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 9.83, unpriced: [], modifiedMs: 0 };
    useApp.setState({ counts, sessionsAnswer: { sessions: [row] } as never });
    render(<TurnStrip skeleton={{ ...session, earlier: 40 }} />);
    await waitFor(() => expect(screen.getByTestId('turns-by-cost').textContent).toBe('2 turns since the compaction · $0.013 · session $9.83 ▾'));
    expect(screen.getByTestId('turns-by-cost').getAttribute('title')).toBe('2 turns (API calls) since the last compaction, $0.013 at list prices: the costliest first. The whole session (“+40 before the compaction”) cost $9.83, as the session list says.');
    cleanup();
    // A part a /clear began (Claude Code 1.0.x went on in the same file): said so, not a compaction.
    render(<TurnStrip skeleton={{ ...session, earlier: 40, earlierBy: 'clear' }} />);
    await waitFor(() => expect(screen.getByTestId('turns-by-cost').textContent).toBe('2 turns since the /clear · $0.013 · session $9.83 ▾'));
    expect(screen.getByTestId('turns-by-cost').getAttribute('title')).toContain('since the last /clear');
    cleanup();
    // The whole session shown: its turns are the session's.
    render(<TurnStrip skeleton={session} />);
    await waitFor(() => expect(screen.getByTestId('turns-by-cost').textContent).toBe('2 turns · $0.013 ▾'));
    useApp.setState({ sessionsAnswer: undefined });
  });

  it("where the file reports its runs' totals (Copilot CLI), a turn's figure is its output's, said as a floor, and the strip says why", async () => {
    turns = [
      { first: 1, last: 3, output: 300, usd: 0.0045, estimated: false },
      { first: 4, last: 6, output: 200, usd: 0.003, estimated: false },
    ];
    sessionUsd = 0.28;
    render(<TurnStrip skeleton={session} />);
    act(() => useApp.setState({ counts }));
    await waitFor(() => expect(screen.getByTestId('turns-by-cost').textContent).toBe('2 turns · $0.28 ▾'));
    fireEvent.click(screen.getByTestId('turns-by-cost'));
    expect(screen.getAllByTestId('turn-entry').map((e) => e.querySelector('.num')?.textContent)).toEqual(['≥$0.0045', '≥$0.0030']);
    expect(screen.getByTestId('turns-from-runs').textContent).toMatch(/\$0\.28 is the runs' totals/);
    expect(screen.getAllByTestId('turn-bar')[0].getAttribute('aria-label')).toMatch(/its output alone: the file records each call's output, its input only in the run's total$/);
  });

  it('turns of no list price (a router that names no model) come after the priced ones, which stay in order of cost', async () => {
    turns = [
      { first: 0, last: 0, input: 400, output: 39, estimated: true },
      { first: 1, last: 2, input: 800, output: 88, estimated: true },
      { first: 3, last: 4, input: 9000, output: 300, usd: 0.024, estimated: false },
      { first: 5, last: 6, input: 2000, output: 900, usd: 0.0027, estimated: false },
      { first: 7, last: 8, input: 1000, output: 40, usd: 0.0031, estimated: false },
    ];
    render(<TurnStrip skeleton={session} />);
    act(() => useApp.setState({ counts }));
    await waitFor(() => expect(screen.getAllByTestId('turn-bar').length).toBeGreaterThan(1));
    fireEvent.click(screen.getByTestId('turns-by-cost'));
    // $0.024, $0.0031, $0.0027, then by tokens: 888, 439 (tokens had put $0.0027's 2,900 above $0.0031's 1,040).
    expect(screen.getAllByTestId('turn-entry').map((e) => e.getAttribute('data-first'))).toEqual(['3', '7', '5', '1', '0']);
    expect(screen.getByText(/The costliest turns first/).textContent).toMatch(/^The costliest turns first, then those of no list price by tokens;/);
  });

  it('a history of many turns: a bar per run of turns, each the costliest of its run', () => {
    const many: TurnFiguresData[] = Array.from({ length: 1000 }, (_, k) => ({ first: k * 2, last: k * 2 + 1, usd: k % 7, estimated: false }));
    const bars = barsOf(many, true, 160);
    expect(bars).toHaveLength(Math.ceil(1000 / Math.ceil(1000 / 160)));
    expect(bars[0]).toBe(6);
    for (const k of bars) expect(many[k].usd).toBe(Math.max(...many.slice(k - (k % 7), Math.min(1000, k - (k % 7) + 7)).map((t) => t.usd!)));
  });
});

describe('the header names the session', () => {
  it('a session its file gives no title is named as the session list names it', async () => {
    const { SessionHeader } = await import('../../app/renderer/features/header/SessionHeader.js');
    const untitled = { ...session, title: undefined };
    useApp.setState({ sessionsAnswer: { sessions: [{ path: 's.jsonl', conversation: 0, title: 'Fix the tax rounding in the cart' }], total: 1, tools: [], models: [], status: {} } as never });
    render(<SessionHeader skeleton={untitled} />);
    expect(screen.getByTestId('conv-figures').textContent).toContain('Fix the tax rounding in the cart');
    expect(screen.getByTestId('conv-title').textContent).toBe('s.jsonl');
    expect(screen.getByTestId('session-header').className).toContain('titled');
  });

  it('a title that is only the folder it ran in (Codex) gives way to the list\'s title', async () => {
    const { SessionHeader } = await import('../../app/renderer/features/header/SessionHeader.js');
    useApp.setState({ sessionsAnswer: { sessions: [{ path: 's.jsonl', conversation: 0, title: 'Explain this codebase to me.' }], total: 1, tools: [], models: [], status: {} } as never });
    render(<SessionHeader skeleton={{ ...session, title: '/Users/dev/dotfiles' }} />);
    expect(screen.getByTestId('conv-figures').textContent).toContain('Explain this codebase to me.');
    expect(screen.getByTestId('conv-figures').textContent).not.toContain('/Users/dev/dotfiles');
    cleanup();
    // Not listed: the folder is all there is to say.
    useApp.setState({ sessionsAnswer: undefined });
    render(<SessionHeader skeleton={{ ...session, title: '/Users/dev/dotfiles' }} />);
    expect(screen.getByTestId('conv-figures').textContent).toContain('/Users/dev/dotfiles');
  });

  it('the main thread of a session whose sub-agents ran in its file is named by the session, not "Main thread"; a sub-agent\'s by its own', async () => {
    const { SessionHeader } = await import('../../app/renderer/features/header/SessionHeader.js');
    const threads = [
      { thread: 'main', title: 'Main thread', messages: 10, conversation: 0 },
      { thread: 'side:a3f9e1d2b7c40815', title: 'Sub-agent 1: Analyze this codebase', messages: 4, conversation: 1 },
    ];
    useApp.setState({ sessionsAnswer: { sessions: [{ path: 's.jsonl', conversation: 0, title: 'Debug the suspend' }], total: 1, tools: [], models: [], status: {} } as never });
    render(<SessionHeader skeleton={{ ...session, title: undefined, threads }} />);
    expect(screen.getByTestId('conv-figures').textContent).toContain('Debug the suspend');
    expect(screen.getByTestId('conv-figures').textContent).not.toContain('Main thread');
    cleanup();
    render(<SessionHeader skeleton={{ ...session, title: undefined, threads, conversation: 1 }} />);
    expect(screen.getByTestId('conv-figures').textContent).toContain('Sub-agent 1: Analyze this codebase');
  });

  it("a title that is only when it started (Aider's) gives way to the list's title, in a file of several conversations too", async () => {
    const { SessionHeader } = await import('../../app/renderer/features/header/SessionHeader.js');
    const started = 'aider chat started at 2025-12-03 14:43:45';
    useApp.setState({ sessionsAnswer: { sessions: [{ path: 's.jsonl', conversation: 1, title: 'Add a retry to the upload' }], total: 1, tools: [], models: [], status: {} } as never });
    render(<SessionHeader skeleton={{ ...session, title: started, conversation: 1, conversations: 3 }} />);
    expect(screen.getByTestId('conv-figures').textContent).toContain('conversation #1 (3 in the file) · Add a retry to the upload');
    expect(screen.getByTestId('conv-figures').textContent).not.toContain(started);
  });
});

describe("the header's count of messages is the session list's", () => {
  it('shows "N of M msgs" with M as the list counts the session (its other branches and threads too), what the rest are on hover, and the file note says no number twice', async () => {
    const { SessionHeader } = await import('../../app/renderer/features/header/SessionHeader.js');
    const big = swarmsSkeleton(19, { path: 's.jsonl', format: 'claude-code', formatLabel: 'Claude Code session', swarms: false });
    const compacted = { ...big, whole: false, earlier: 560, session: { messages: 581, branches: 2, threads: 0 } };
    useApp.setState({ entries: [{ path: 's.jsonl', name: 's', bytes: 10, modified: 0, messages: 581, tokens: 89066 }] });
    render(<SessionHeader skeleton={compacted} />);
    const figures = () => screen.getByTestId('conv-figures').textContent ?? '';
    expect(screen.getByTestId('conv-count').textContent).toBe('19 of 581 msgs');
    expect(screen.getByTestId('conv-count').getAttribute('title')).toBe(
      '581 messages in all, as the list of sessions counts them: 19 messages since the last compaction (what the model is sent now); 560 messages before it ("+560 before the compaction" shows them); 2 messages on branches not taken (a rewind, an edited prompt, a regenerated answer: ‹ › at the forks).',
    );
    expect(screen.getByTestId('file-count-note').textContent).toBe(' (the file: 89,066 tok)');
    expect(figures()).not.toMatch(/581 msgs.*581 msgs/);
    cleanup();
    // The whole session shown: what is left are the other branches; inline sub-agents' threads are said too.
    render(<SessionHeader skeleton={{ ...compacted, count: 579, whole: true, earlier: 0, session: { messages: 620, branches: 2, threads: 39 } }} />);
    expect(screen.getByTestId('conv-count').textContent).toBe('579 of 620 msgs');
    expect(screen.getByTestId('conv-count').getAttribute('title')).toMatch(/: 579 messages shown; 2 messages on branches .*; 39 messages in its sub-agents' threads \(the thread menu\)\.$/);
    cleanup();
    // All of it shown: one number.
    render(<SessionHeader skeleton={{ ...big, whole: true, earlier: 0, session: { messages: 19, branches: 0, threads: 0 } }} />);
    expect(screen.getByTestId('conv-count').textContent).toBe('19 msgs');
  });
});
