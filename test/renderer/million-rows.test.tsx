// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Skeleton, TokenCounts } from '../../app/shared/contract.js';
import { setBridge } from '../../app/renderer/api/client.js';
import { MessageTable } from '../../app/renderer/features/table/MessageTable.js';
import { TokenSummary } from '../../app/renderer/features/summary/TokenSummary.js';
import { WindowPanel } from '../../app/renderer/features/window/WindowPanel.js';
import { useApp } from '../../app/renderer/store/index.js';
import { swarmsSkeleton } from '../support/skeleton.js';

// A million messages: past ~150k, any `Math.max(...tokens)` or `push(...rows)` throws RangeError.
const N = 1_000_000;
let skeleton: Skeleton;
let counts: TokenCounts;

beforeAll(() => {
  const tokens = new Array<number>(N);
  for (let i = 0; i < N; i++) tokens[i] = 1 + ((i * 7919) % 400);
  tokens[N - 1] = 5000;
  skeleton = swarmsSkeleton(N, {
    path: 'big.json',
    bytes: 100 * 1024 * 1024,
    roles: ['system', 'user', 'assistant'],
    normalRoles: ['system', 'user', 'assistant'],
    roleOf: Array.from({ length: N }, (_, i) => (i === 0 ? 0 : 1 + (i % 2))),
    flags: Array.from({ length: N }, (_, i) => (i === 0 ? 20 : 0)),
    lengths: new Array(N).fill(400),
  });

  let total = 0;
  for (const t of tokens) total += t;
  counts = { path: 'big.json', conversation: 0, model: 'gpt-5.4', encoding: 'o200k_base', approximate: false, tokens, toolTokens: new Array(N).fill(0), reasoningTokens: new Array(N).fill(0), renderedTokens: tokens.map((t) => t + 3), total };
});

afterEach(cleanup);

function serveRows() {
  setBridge({
    request: async (channel, input) => {
      if (channel !== 'conversation:rows') return { ok: false, error: { code: 'INTERNAL', message: 'not in this test' } };
      const { start, count } = input as { start: number; count: number };
      const rows = [];
      for (let i = start; i < Math.min(N, start + count); i++) rows.push({ index: i, role: i % 2 ? 'user' : 'assistant', preview: `message ${i}` });
      return { ok: true, value: { rows } };
    },
    subscribe: () => () => {},
  });
}

describe('a million rows', () => {
  it('the table, the token summary and the window panel render, and End reaches the last message', async () => {
    serveRows();
    useApp.setState({ skeleton, counts, openPath: 'big.json', pages: new Map(), selected: undefined, windowOpen: true, strategyId: 'sliding-window', windowParams: {} });
    render(
      <>
        <MessageTable />
        <TokenSummary />
        <WindowPanel />
      </>,
    );
    expect(screen.getByTestId('message-grid').getAttribute('aria-rowcount')).toBe(String(N));
    expect(screen.getByTestId('summary').textContent).toContain(counts.total.toLocaleString('en-US'));
    // The last 40, and the system prompt the sliding window keeps by default.
    expect(screen.getByTestId('count-kept').textContent).toBe('41 kept');
    await act(async () => {
      fireEvent.keyDown(screen.getByTestId('message-grid'), { key: 'End' });
    });
    expect(useApp.getState().selected).toBe(N - 1);
    await act(async () => {
      fireEvent.keyDown(screen.getByTestId('message-grid'), { key: 'ArrowUp' });
    });
    expect(useApp.getState().selected).toBe(N - 2);
  });
});
