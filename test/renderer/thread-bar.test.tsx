// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FLAGS, type Skeleton } from '../../app/shared/contract.js';
import { setBridge } from '../../app/renderer/api/client.js';
import { ThreadBar } from '../../app/renderer/features/tree/ThreadBar.js';

const base: Skeleton = {
  path: 's.jsonl',
  conversation: 0,
  conversations: 1,
  format: 'claude-code',
  formatLabel: 'Claude Code session',
  swarms: false,
  other: 0,
  usage: { at: [], values: [] },
  version: 1,
  count: 3,
  bytes: 1,
  roles: ['user', 'assistant'],
  normalRoles: ['user', 'assistant'],
  roleOf: [0, 1, 0],
  categories: [],
  categoryOf: [-1, -1, -1],
  flags: [0, 0, 0],
  storedTokens: [-1, -1, -1],
  lengths: [1, 1, 1],
  toolCalls: { at: [], values: [] },
  toolResults: { at: [], values: [] },
  forks: [{ at: 1, options: 2, chosen: 0 }],
  whole: true,
  earlier: 0,
};

beforeEach(() => setBridge({ request: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'not in this test' } }), subscribe: () => () => {} }));
afterEach(cleanup);

describe('the bar above a session', () => {
  it('a branch that never reached a compaction says nothing of "the whole session, compactions and all"', () => {
    render(<ThreadBar skeleton={base} />);
    expect(screen.queryByTestId('compaction-note')).toBeNull();
  });

  it('a path through a compaction, shown whole, offers what the model is sent now', () => {
    render(<ThreadBar skeleton={{ ...base, flags: [0, FLAGS.compaction, 0] }} />);
    expect(screen.getByTestId('compaction-note').textContent).toContain('compactions and all');
  });
});
