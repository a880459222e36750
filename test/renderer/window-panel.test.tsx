// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TokenCounts } from '../../app/shared/contract.js';
import { swarmsSkeleton } from '../support/skeleton.js';
import { setBridge } from '../../app/renderer/api/client.js';
import { CompareLanes } from '../../app/renderer/features/window/CompareLanes.js';
import { WindowPanel } from '../../app/renderer/features/window/WindowPanel.js';
import { useApp } from '../../app/renderer/store/index.js';

// Ten messages: a system prompt, then a tool exchange (2 calls 3,4), then chat.
const skeleton = swarmsSkeleton(10, {
  roles: ['System', 'user', 'assistant', 'tool'],
  normalRoles: ['system', 'user', 'assistant', 'tool'],
  roleOf: [0, 1, 2, 3, 3, 2, 1, 2, 1, 2],
  flags: [20, 0, 1, 2, 2, 0, 0, 0, 0, 0],
  lengths: Array(10).fill(40),
  toolCalls: { at: [2], values: [['c1', 'c2']] },
  toolResults: { at: [3, 4], values: ['c1', 'c2'] },
});
const counts: TokenCounts = { path: 'x.json', conversation: 0, model: 'gpt-5.4', encoding: 'o200k_base', approximate: false, tokens: [5, 10, 10, 20, 20, 10, 10, 10, 10, 10], toolTokens: Array(10).fill(0), reasoningTokens: Array(10).fill(0), renderedTokens: [8, 13, 13, 23, 23, 13, 13, 13, 13, 12], total: 115 };

beforeEach(() => {
  setBridge({ request: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'not in this test' } }), subscribe: () => () => {} });
  useApp.setState({ skeleton, counts, openPath: 'x.json', windowOpen: true, strategyId: 'last-n', windowParams: {} });
});
afterEach(cleanup);

describe('WindowPanel', () => {
  it('plans as parameters change and states the totals and counts', () => {
    render(<WindowPanel />);
    expect(screen.getByTestId('total-before').textContent).toBe('115');
    expect(screen.getByTestId('count-kept').textContent).toBe('10 kept');
    act(() => {
      fireEvent.change(screen.getByTestId('input-limit'), { target: { value: '4' } });
    });
    // The last four, and the system prompt, kept by default.
    expect(screen.getByTestId('count-kept').textContent).toBe('5 kept');
    expect((screen.getByTestId('check-keepStatic') as HTMLInputElement).checked).toBe(true);
    act(() => {
      fireEvent.click(screen.getByTestId('check-keepStatic'));
    });
    expect(screen.getByTestId('count-kept').textContent).toBe('4 kept');
    expect(screen.getByTestId('total-after').textContent).toBe('40');
    expect(screen.getByText(/static context\) is dropped/)).toBeTruthy();
  });

  it('a plan left over its budget says so at its total, in the totals\' place (nothing below it moves)', () => {
    // Summarising all but the last 3 at a 20-token window leaves 35 tokens (the system prompt too): over.
    useApp.setState({ strategyId: 'summarizing', windowParams: { summarizing: { contextWindowTokens: 20, keepRecentMessages: 3, softThresholdTokens: 0 } } });
    render(<WindowPanel />);
    const after = screen.getByTestId('total-after');
    expect(after.textContent).toBe('35');
    expect(after.classList.contains('over')).toBe(true);
    expect(after.getAttribute('title')).toBe('after summarising, 35 tokens still exceed the 20-token window');
    expect(screen.getByTestId('over-budget').textContent).toBe(' (over the budget)');
    cleanup();
    useApp.setState({ windowParams: { summarizing: { contextWindowTokens: 200, keepRecentMessages: 3, softThresholdTokens: 0 } } });
    render(<WindowPanel />);
    expect(screen.getByTestId('total-after').classList.contains('over')).toBe(false);
    expect(screen.queryByTestId('over-budget')).toBeNull();
    cleanup();
    // Auto-compact: a window of 100 with 90 of system prompt and tools leaves room for 10; the plan says it is over.
    useApp.setState({ strategyId: 'auto-compact', windowParams: { 'auto-compact': { contextWindowTokens: 100, fixedTokens: 90, keepRecentMessages: 2 } } });
    render(<WindowPanel />);
    expect(screen.getByTestId('total-after').classList.contains('over')).toBe(true);
    expect(screen.getByTestId('total-after').getAttribute('title')).toMatch(/^after compacting, \d+ tokens and the 90 of the system prompt and tools exceed the 100-token window$/);
  });

  it("a budget slider's end is past the conversation's total, far enough that auto-compact (at 80–95% of its window) sends it all", () => {
    useApp.setState({ strategyId: 'auto-compact', windowParams: {} });
    render(<WindowPanel />);
    // Down the track (the default 200,000 is past its end), then to its end.
    act(() => {
      fireEvent.change(screen.getByTestId('slider-contextWindowTokens'), { target: { value: '500' } });
    });
    expect(screen.getByTestId('plan-inserted').textContent).toMatch(/^\+ 1 summary message/);
    act(() => {
      fireEvent.change(screen.getByTestId('slider-contextWindowTokens'), { target: { value: '1000' } });
    });
    expect(screen.getByTestId('plan-inserted').textContent).toBe('the plan writes no summary of its own at these settings');
    expect(screen.getByTestId('total-after').textContent).toBe('115');
  });

  it('warns about a tool result left without its call, and lists it by name', () => {
    useApp.setState({ windowParams: { 'last-n': { limit: 6 } } });
    render(<WindowPanel />);
    expect(screen.getByRole('list', { name: 'Warnings' }).textContent).toContain('message 4 is a tool result whose call (message 2) is not kept');
  });

  it('every strategy is offered, and switching keeps each strategy’s own parameters', () => {
    useApp.setState({ windowParams: { 'last-n': { limit: 3 } } });
    render(<WindowPanel />);
    const options = [...(screen.getByTestId('strategy') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(['dynamic-context-window', 'truncate', 'last-n', 'sliding-window', 'summarizing', 'auto-compact', 'null']);
    act(() => {
      fireEvent.change(screen.getByTestId('strategy'), { target: { value: 'sliding-window' } });
    });
    expect((screen.getByTestId('input-windowSize') as HTMLInputElement).value).toBe('40');
    act(() => {
      fireEvent.change(screen.getByTestId('strategy'), { target: { value: 'last-n' } });
    });
    expect((screen.getByTestId('input-limit') as HTMLInputElement).value).toBe('3');
  });

  it('[ and ] move the budget a twentieth of the way along the slider\'s scale, and back', () => {
    useApp.setState({ strategyId: 'truncate', windowParams: { truncate: { contextLength: 60 } } });
    render(<WindowPanel />);
    const at = () => useApp.getState().windowParams.truncate.contextLength as number;
    act(() => {
      fireEvent.keyDown(window, { key: ']' });
    });
    const up = at();
    expect(up).toBeGreaterThan(60);
    act(() => {
      fireEvent.keyDown(window, { key: '[' });
      fireEvent.keyDown(window, { key: '[' });
    });
    expect(at()).toBeLessThan(60);
    const slider = screen.getByTestId('slider-contextLength') as HTMLInputElement;
    expect(Number(slider.value)).toBeGreaterThan(0);
  });

  it('per-message bars name each message and its fate, and select it on click', () => {
    useApp.setState({ windowParams: { 'last-n': { limit: 2 } } });
    render(<WindowPanel />);
    const bar = screen.getByRole('button', { name: 'message 3: 20 tokens, dropped' });
    act(() => {
      fireEvent.click(bar);
    });
    expect(useApp.getState().selected).toBe(3);
  });
});

describe('CompareLanes', () => {
  it('a lane per strategy with its totals, and every message’s fate in each', () => {
    useApp.setState({ strategyId: 'sliding-window', windowParams: { 'sliding-window': { windowSize: 3 }, truncate: { contextLength: 30 } } });
    render(<CompareLanes onClose={() => {}} />);
    // The last three, and the system prompt (5 tokens), which the sliding window keeps by default.
    expect(screen.getByTestId('lane-head-sliding-window').textContent).toContain('115 → 35');
    expect(screen.getByTestId('lane-head-truncate').textContent).toContain('115 → 30');
    // The third default lane: the dynamic window (on the rendered history); summarizing is not one.
    expect(screen.getByTestId('lane-head-dynamic-context-window')).toBeTruthy();
    expect(screen.queryByTestId('lane-head-summarizing')).toBeNull();
  });

  it('the strategy in the panel is one of the lanes', () => {
    useApp.setState({ strategyId: 'last-n', windowParams: { 'last-n': { limit: 2 } } });
    render(<CompareLanes onClose={() => {}} />);
    expect(screen.getByTestId('lane-head-last-n')).toBeTruthy();
    // In place of the first default lane.
    expect(screen.queryByTestId('lane-head-dynamic-context-window')).toBeNull();
    expect(screen.getByTestId('lane-head-sliding-window')).toBeTruthy();
  });

  it('a fifth strategy is not taken silently: it says four is the most, until one is put away', () => {
    useApp.setState({ strategyId: 'last-n', windowParams: { 'last-n': { limit: 2 } } });
    render(<CompareLanes onClose={() => {}} />);
    const on = () => screen.getAllByRole('button', { pressed: true }).length;
    for (const id of ['summarizing', 'null', 'auto-compact']) fireEvent.click(screen.getByTestId(`lane-toggle-${id}`));
    expect(on()).toBe(4);
    expect(screen.getByTestId('lanes-full').textContent).toMatch(/Four lanes at most/);
    fireEvent.click(screen.getByTestId('lane-toggle-summarizing'));
    expect(screen.queryByTestId('lanes-full')).toBeNull();
  });
});

