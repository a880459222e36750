// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DirEntry } from '../../app/shared/contract.js';
import { setBridge } from '../../app/renderer/api/client.js';
import { Sidebar } from '../../app/renderer/features/sidebar/Sidebar.js';
import { useApp } from '../../app/renderer/store/index.js';

const N = 10_000;
const entries: DirEntry[] = Array.from({ length: N }, (_, i) => ({ path: `agent-${Math.floor(i / 100)}/run${i % 100}.json`, name: `run${i % 100}`, bytes: 1000 + i, modified: 1_700_000_000_000, format: 'swarms-json', messages: 1 + (i % 9) }));

beforeEach(() => {
  setBridge({ request: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'not in this test' } }), subscribe: () => () => {} });
  useApp.setState({ entries, fileFilter: '', fileSort: 'name', openPath: undefined, listError: undefined, listing: false });
});
afterEach(cleanup);

describe('the sidebar at 10,000 files', () => {
  it('lists every file; a change elsewhere in the store renders none of it again; the filter and the open file do', () => {
    let commits = 0;
    render(
      <Profiler id="sidebar" onRender={() => commits++}>
        <Sidebar />
      </Profiler>,
    );
    expect(screen.getAllByTestId('file')).toHaveLength(N);
    const before = commits;
    act(() => useApp.setState({ generation: useApp.getState().generation + 1, countProgress: { done: 10, total: 20 } }));
    expect(commits).toBe(before);
    act(() => useApp.setState({ openPath: 'agent-3/run7.json' }));
    expect(commits).toBe(before + 1);
    expect(document.querySelector('[data-path="agent-3/run7.json"]')!.getAttribute('aria-current')).toBe('true');
    act(() => {
      fireEvent.change(screen.getByLabelText('Filter conversations'), { target: { value: 'agent-42/' } });
    });
    expect(screen.getAllByTestId('file')).toHaveLength(100);
  });

  it('orders names as people number runs: run2 before run10', () => {
    useApp.setState({ entries: ['run10.json', 'run2.json', 'run1.json'].map((path) => ({ path, name: path.slice(0, -5), bytes: 1, modified: 1 })) });
    render(<Sidebar />);
    expect(screen.getAllByTestId('file').map((b) => b.getAttribute('data-path'))).toEqual(['run1.json', 'run2.json', 'run10.json']);
  });
});
