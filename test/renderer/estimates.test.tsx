// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DirEntry, TokenCounts } from '../../app/shared/contract.js';
import { setBridge } from '../../app/renderer/api/client.js';
import { CountedTotal } from '../../app/renderer/features/ConversationView.js';
import { Sidebar } from '../../app/renderer/features/sidebar/Sidebar.js';
import { TokenSummary } from '../../app/renderer/features/summary/TokenSummary.js';
import { TopBar } from '../../app/renderer/features/topbar/TopBar.js';
import { useApp } from '../../app/renderer/store/index.js';
import { swarmsSkeleton } from '../support/skeleton.js';

// A Claude Code session of four messages, two model calls reported (the second with a 1-hour cache write).
const skeleton = swarmsSkeleton(4, {
  path: 's.jsonl',
  format: 'claude-code',
  formatLabel: 'Claude Code session (JSONL)',
  swarms: false,
  model: 'claude-opus-4-6',
  usage: {
    at: [1, 3],
    values: [
      { input: 12_000, cacheRead: 10_000, cacheWrite: 1_000, output: 300, model: 'claude-opus-4-6' },
      { input: 13_000, cacheRead: 11_000, cacheWrite: 1_500, cacheWrite1h: 1_500, output: 200, model: 'claude-opus-4-6' },
    ],
  },
});
const counts = (model: string, approximate: boolean): TokenCounts => ({ path: 's.jsonl', conversation: 0, model, encoding: 'o200k_base', approximate, tokens: [100, 2000, 300, 4000], toolTokens: [0, 0, 0, 0], reasoningTokens: [0, 0, 0, 0], renderedTokens: [0, 0, 0, 0], total: 6400 });

beforeEach(() => {
  setBridge({ request: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'not in this test' } }), subscribe: () => () => {} });
  useApp.setState({ skeleton, counts: counts('claude-opus-4-6', true), openPath: 's.jsonl', modelChoice: 'session', model: 'claude-opus-4-6' });
});
// The page has no layout here: the sidebar's list says it is 800 px tall, as a window on a laptop would make it.
const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.testid === 'file-list' ? 800 : (own?.get?.call(this) ?? 0);
    },
  });
});
afterEach(() => {
  cleanup();
  if (own) Object.defineProperty(HTMLElement.prototype, 'clientHeight', own);
});

describe("counts of a session whose model's tokenizer is not public say they are estimates", () => {
  it("the tokens pane: what the API reported first, then '≈' and the encoding that stands in; the cost names its price table's page and date", () => {
    render(<TokenSummary />);
    const pane = screen.getByTestId('summary');
    const reported = screen.getByTestId('reported-usage');
    const total = screen.getByTestId('total-tokens');
    expect(reported.compareDocumentPosition(total) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(total.textContent).toBe('≈ 6,400');
    expect(screen.getByTestId('count-basis').textContent).toBe('estimate: o200k_base stands in for claude-opus-4-6');
    // Opus 4.6 at $5/$25 (not Opus 4's $15/$75), its 1-hour write at $10.
    const usd = (1_500 * 5 + 21_000 * 0.5 + 1_000 * 6.25 + 1_500 * 10 + 500 * 25) / 1e6;
    expect(screen.getByTestId('reported-cost').textContent).toBe(`$${usd.toPrecision(2)}`);
    expect(screen.getByTestId('reported-cost-line').getAttribute('title')).toMatch(/claude-opus-4-6 \(Claude Opus 4\.6\): https:\/\/platform\.claude\.com\/docs\/en\/about-claude\/pricing, read \d{4}-\d{2}-\d{2}/);
    expect(pane.textContent).not.toContain('approximate');
  });

  it('a session shown since its last compaction says what the whole session cost, as the list of sessions shows it', () => {
    const entry = { id: 1, path: 's.jsonl', conversation: 0, kind: 'session' as const, models: ['claude-opus-4-6'], messages: 40, prompts: 4, calls: 9, inputCalls: 9, outputCalls: 9, input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 1.234, unpriced: [], modifiedMs: 0 };
    useApp.setState({ sessionsAnswer: { sessions: [entry], total: 1, tools: [], models: [], status: { files: 1, sessions: 1, done: 1, total: 1, building: false, secretsPending: 0 } } as never });
    render(<TokenSummary />);
    expect(screen.getByTestId('reported-session').textContent).toBe('The whole session: 9 model calls, $1.23 at list prices, as the list of sessions shows it');
    cleanup();
    // Nothing more to say where the list counts no more calls than are shown.
    useApp.setState({ sessionsAnswer: { sessions: [{ ...entry, calls: 2 }], total: 1, tools: [], models: [], status: { files: 1, sessions: 1, done: 1, total: 1, building: false, secretsPending: 0 } } as never });
    render(<TokenSummary />);
    expect(screen.queryByTestId('reported-session')).toBeNull();
    useApp.setState({ sessionsAnswer: undefined });
  });

  it('the header: the reported figures lead, the count says ≈ with the stand-in on hover', () => {
    render(<CountedTotal skeleton={skeleton} />);
    expect(screen.getByTestId('header-reported').textContent).toBe('25,000 in · 500 out reported');
    expect(screen.getByTestId('token-estimate').getAttribute('title')).toBe('An estimate: o200k_base stands in for claude-opus-4-6');
    expect(screen.getByTestId('token-total').textContent).toBe('6,400 tok');
  });

  it("the top bar: the session's own model is the pick, with '≈ o200k_base' that says what it stands in for", () => {
    render(<TopBar />);
    const select = screen.getByLabelText('Model or encoding for token counts') as HTMLSelectElement;
    expect(select.value).toBe('session');
    expect(select.selectedOptions[0].textContent).toBe("session's (claude-opus-4-6)");
    const note = screen.getByTestId('model-encoding');
    expect(note.textContent).toBe('≈ o200k_base');
    expect(note.getAttribute('title')).toMatch(/^o200k_base stands in for claude-opus-4-6/);
    cleanup();
    // An OpenAI session is counted with its own encoding: no estimate.
    useApp.setState({ skeleton: { ...skeleton, model: 'gpt-5.5' }, model: 'gpt-5.5' });
    render(<TopBar />);
    expect(screen.getByTestId('model-encoding').textContent).toBe('o200k_base');
  });

  it('a model picked for all sessions that stands in for a Claude one is still an estimate of it', () => {
    useApp.setState({ counts: counts('gpt-5.4', false), modelChoice: 'gpt-5.4', model: 'gpt-5.4' });
    render(<CountedTotal skeleton={skeleton} />);
    expect(screen.getByTestId('token-estimate').getAttribute('title')).toBe("An estimate: o200k_base (gpt-5.4's) stands in for claude-opus-4-6");
  });

  it('the sidebar: a session counted for a model whose tokenizer is not public has ≈ before its figure', () => {
    const entries: DirEntry[] = [
      { path: 'claude.jsonl', name: 'claude', bytes: 10, modified: 1, format: 'claude-code', messages: 4, tokens: 6400, model: 'claude-opus-4-6' },
      { path: 'codex.jsonl', name: 'codex', bytes: 10, modified: 1, format: 'codex-rollout', messages: 4, tokens: 5000, model: 'gpt-5.5' },
    ];
    useApp.setState({ entries, fileFilter: '', fileSort: 'name', openPath: undefined, listError: undefined, listing: false });
    render(<Sidebar />);
    const row = (path: string) => document.querySelector(`[data-testid="file"][data-path="${path}"]`)!;
    expect(row('claude.jsonl').querySelector('[data-testid="file-tokens-estimate"]')?.getAttribute('title')).toBe('An estimate: o200k_base stands in for claude-opus-4-6');
    expect(row('claude.jsonl').querySelector('[data-testid="file-tokens"]')?.textContent).toBe('6,400');
    expect(row('codex.jsonl').querySelector('[data-testid="file-tokens-estimate"]')).toBeNull();
  });
});
