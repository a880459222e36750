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
// The page has no layout here: the list says it is 800 px tall, as a window on a laptop would make it.
const sized = (name: 'clientHeight' | 'clientWidth', px: (el: HTMLElement) => number | undefined) => {
  const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, name);
  Object.defineProperty(HTMLElement.prototype, name, {
    configurable: true,
    get(this: HTMLElement) {
      return px(this) ?? own?.get?.call(this) ?? 0;
    },
  });
  return () => own && Object.defineProperty(HTMLElement.prototype, name, own);
};
const list = (px: number) => (el: HTMLElement) => (el.dataset.testid === 'file-list' ? px : undefined);
let unsize: Array<() => unknown> = [];
beforeEach(() => {
  unsize = [sized('clientHeight', list(800)), sized('clientWidth', list(260))];
});
afterEach(() => {
  cleanup();
  unsize.forEach((f) => f());
});

describe('the sidebar at 10,000 files', () => {
  it('lists every file as a window of lines; a change elsewhere in the store renders none of it again; the filter and the open file do', () => {
    let commits = 0;
    render(
      <Profiler id="sidebar" onRender={() => commits++}>
        <Sidebar />
      </Profiler>,
    );
    const list = screen.getByTestId('file-list');
    // Every file and folder is a line of the list; only those in view (and a margin) are in the page.
    expect(list.getAttribute('data-rows')).toBe(String(N + 100));
    const shown = screen.getAllByTestId('file').length;
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(100);
    const before = commits;
    act(() => useApp.setState({ generation: useApp.getState().generation + 1, countProgress: { done: 10, total: 20 } }));
    expect(commits).toBe(before);
    act(() => useApp.setState({ openPath: 'agent-0/run7.json' }));
    expect(commits).toBe(before + 1);
    expect(document.querySelector('[data-path="agent-0/run7.json"]')!.getAttribute('aria-current')).toBe('true');
    act(() => {
      fireEvent.change(screen.getByLabelText('Filter conversations'), { target: { value: 'agent-42/' } });
    });
    expect(list.getAttribute('data-rows')).toBe('101');
    expect(screen.getAllByTestId('file').every((b) => b.getAttribute('data-path')!.startsWith('agent-42/'))).toBe(true);
  });

  it('scrolled to its end, the list shows the last files', () => {
    render(<Sidebar />);
    const list = screen.getByTestId('file-list');
    act(() => {
      list.scrollTop = 1e7;
      fireEvent.scroll(list);
    });
    const paths = screen.getAllByTestId('file').map((b) => b.getAttribute('data-path'));
    expect(paths).toContain('agent-99/run99.json');
    expect(paths).not.toContain('agent-0/run0.json');
  });

  it('a file of many conversations lists them as lines of their own when opened', () => {
    useApp.setState({ entries: [{ path: 'data.jsonl', name: 'data', bytes: 1, modified: 1, format: 'sharegpt-jsonl', conversations: 3, titles: ['a', 'b', 'c'], messages: 9 }] });
    render(<Sidebar />);
    expect(screen.queryAllByTestId('conversation-item')).toHaveLength(0);
    act(() => useApp.setState({ openPath: 'data.jsonl', openConversationIndex: 1 }));
    const items = screen.getAllByTestId('conversation-item');
    expect(items.map((b) => b.textContent)).toEqual(['a', 'b', 'c']);
    expect(items[1].getAttribute('aria-current')).toBe('true');
  });

  it("conversations whose titles share a long start are told apart by the rest, the whole title on hover", () => {
    const titles = ['aider chat started at 2025-03-15 14:30:55', 'aider chat started at 2025-03-16 09:12:00', 'aider chat started'];
    useApp.setState({ entries: [{ path: '.aider.chat.history.md', name: '.aider.chat.history', bytes: 1, modified: 1, format: 'aider-chat', conversations: 3, titles, messages: 9 }], openPath: '.aider.chat.history.md', openConversationIndex: 0 });
    render(<Sidebar />);
    const items = screen.getAllByTestId('conversation-item');
    // The start all three share goes (by whole words); the third, all start, keeps its title.
    expect(items.map((b) => b.textContent)).toEqual(['… at 2025-03-15 14:30:55', '… at 2025-03-16 09:12:00', 'aider chat started']);
    expect(items.map((b) => b.getAttribute('title'))).toEqual(titles);
    cleanup();
    useApp.setState({ entries: [{ path: 'a.md', name: 'a', bytes: 1, modified: 1, format: 'aider-chat', conversations: 2, titles: titles.slice(0, 2), messages: 9 }], openPath: 'a.md', openConversationIndex: 0 });
    render(<Sidebar />);
    expect(screen.getAllByTestId('conversation-item').map((b) => b.textContent)).toEqual(['… 2025-03-15 14:30:55', '… 2025-03-16 09:12:00']);
    cleanup();
    // A short shared start ("Lisbon in") says something: kept.
    useApp.setState({ entries: [{ path: 'conversations.json', name: 'conversations', bytes: 1, modified: 1, format: 'chatgpt-export', conversations: 2, titles: ['Lisbon in March', 'Lisbon in May'], messages: 9 }], openPath: 'conversations.json', openConversationIndex: 0 });
    render(<Sidebar />);
    expect(screen.getAllByTestId('conversation-item').map((b) => b.textContent)).toEqual(['Lisbon in March', 'Lisbon in May']);
  });

  it('orders names as people number runs: run2 before run10', () => {
    useApp.setState({ entries: ['run10.json', 'run2.json', 'run1.json'].map((path) => ({ path, name: path.slice(0, -5), bytes: 1, modified: 1 })) });
    render(<Sidebar />);
    expect(screen.getAllByTestId('file').map((b) => b.getAttribute('data-path'))).toEqual(['run1.json', 'run2.json', 'run10.json']);
  });
});

describe('a dataset’s conversations in the sidebar', () => {
  const dataset: DirEntry = {
    path: 'data/sft.jsonl',
    name: 'sft',
    bytes: 5000,
    modified: 1_700_000_000_000,
    format: 'openai-chat-jsonl',
    conversations: 3,
    messages: 14,
    titles: ['What is a monad?', 'Translate "good morning" to French', 'Bake bread without yeast'],
    conversationMessages: [4, 2, 8],
  };

  it('each with its first line and message count; its tokens once counted; sorted as the files are', () => {
    useApp.setState({ entries: [dataset], fileSort: 'name', openPath: 'data/sft.jsonl', root: '/r' });
    render(<Sidebar />);
    const rows = () => screen.getAllByTestId('conversation-item').map((b) => [b.getAttribute('data-index'), b.querySelector('[data-testid="conversation-meta"]')?.textContent]);
    // By name: as the file holds them.
    expect(rows()).toEqual([
      ['0', '4 msgs'],
      ['1', '2 msgs'],
      ['2', '8 msgs'],
    ]);
    act(() => useApp.setState({ fileSort: 'messages' }));
    expect(rows().map((r) => r[0])).toEqual(['2', '0', '1']);
    // Tokens are not known until the file is counted: the file's order holds until then.
    act(() => useApp.setState({ fileSort: 'tokens' }));
    expect(rows().map((r) => r[0])).toEqual(['0', '1', '2']);
    act(() => useApp.getState().applyDirDetails('/r', [{ ...dataset, tokens: 330, conversationTokens: [120, 200, 10] }]));
    expect(rows()).toEqual([
      ['1', '2 msgs · 200 tok'],
      ['0', '4 msgs · 120 tok'],
      ['2', '8 msgs · 10 tok'],
    ]);
  });
});

describe('long names', () => {
  const entry = (path: string): DirEntry => ({ path, name: path, bytes: 10, modified: 1_700_000_000_000, format: 'claude-code', messages: 3 });
  it('a name cut for room keeps in view the part that tells it from its neighbours, not a tail they all share', () => {
    const names = ['claude-code-session-ALPHA-export-final.json', 'claude-code-session-ALPHA-export-final.jsonl', 'claude-code-session-BETA-export-final.jsonl', 'claude-code-session-GAMMA-export-final.jsonl', 'notes.json'];
    useApp.setState({ entries: names.map(entry) });
    render(<Sidebar />);
    const parts = (name: string) => [...document.querySelectorAll(`[data-path="${name}"] .file-name > span`)].filter((s) => !s.classList.contains('badge')).map((s) => [s.className, s.textContent]);
    // The part that tells it apart starts its own span (which gives way from its end), and the ending never gives way.
    expect(parts(names[2])).toEqual([['file-stem', 'claude-code-session-'], ['file-tail', 'BETA-export-'], ['file-end', 'final.jsonl']]);
    expect(parts(names[3])).toEqual([['file-stem', 'claude-code-session-'], ['file-tail', 'GAMMA-export-'], ['file-end', 'final.jsonl']]);
    // .json beside .jsonl: their endings tell them apart.
    expect(parts(names[0]).at(-1)).toEqual(['file-end', 'final.json']);
    expect(parts(names[1]).at(-1)).toEqual(['file-end', 'final.jsonl']);
    // Every name is still there whole, for a reader and for the tooltip.
    for (const name of names) expect(document.querySelector(`[data-path="${name}"] .file-name`)!.textContent).toContain(name);
  });
});

describe('the figures of a file edited and not yet saved', () => {
  it('say the edited conversation: its message count and tokens follow the edits, marked unsaved', () => {
    const path = 'run.json';
    useApp.setState({ entries: [{ path, name: 'run', bytes: 100, modified: 1, format: 'swarms-json', messages: 3, tokens: 30 }], openPath: path, root: '/r', unsaved: new Set([path]) });
    const skeleton = { path, conversation: 0, conversations: 1, count: 2, version: 3, bytes: 100 } as never;
    useApp.setState({ skeleton, counts: { path, tokens: [10, 9], total: 19 } as never, edit: { dirty: true } as never });
    useApp.getState().syncEntry();
    render(<Sidebar />);
    expect(screen.getByTestId('file-messages').textContent).toBe('2');
    expect(screen.getByTestId('file-tokens').textContent).toBe('19');
    expect(screen.getByTestId('file-unsaved')).toBeTruthy();
  });
});

describe('a session read a part at a time', () => {
  it('opens its first part when clicked, and lists its parts, the open one marked', async () => {
    const parts = [1, 2, 3].map((n) => ({ path: `big.jsonl#part-${n}`, title: `part ${n} of 3 · ${(n - 1) * 96} MiB–${n * 96} MiB` }));
    useApp.setState({ entries: [{ path: 'big.jsonl', name: 'big', bytes: 300 * 1048576, modified: 1, format: 'claude-code', messages: 90_000, estimated: true, parts }], openPath: undefined, root: '/r' });
    render(<Sidebar />);
    await act(async () => {
      fireEvent.click(screen.getByTestId('file'));
    });
    expect(useApp.getState().openPath).toBe('big.jsonl#part-1');
    expect(screen.getByTestId('file-meta').textContent).toMatch(/^3 parts · ≈90,000 msgs/);
    const items = screen.getAllByTestId('conversation-item');
    expect(items.map((b) => b.textContent)).toEqual(parts.map((p) => p.title));
    expect(items[0].getAttribute('aria-current')).toBe('true');
    await act(async () => {
      fireEvent.click(items[2]);
    });
    expect(useApp.getState().openPath).toBe('big.jsonl#part-3');
    expect(screen.getAllByTestId('conversation-item')[2].getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('file').getAttribute('aria-current')).toBe('true');
  });
});

describe('the figures of a session shown as one of its threads, edited and not saved', () => {
  it("move the file's count (every thread's) by the messages the edits removed, as the header's does", () => {
    const path = 'session.jsonl';
    useApp.setState({ entries: [{ path, name: 'session', bytes: 100, modified: 1, format: 'claude-code', messages: 66 }], openPath: path, root: '/r', unsaved: new Set<string>(), edit: undefined, counts: undefined });
    const view = (count: number) => ({ path, conversation: 0, conversations: 2, count, version: count, bytes: 100, whole: true }) as never;
    useApp.setState({ skeleton: view(64) });
    useApp.getState().syncEntry();
    expect(useApp.getState().entries[0].messages).toBe(66);
    // Two messages deleted (a call and its result), not saved: 66 → 64 in the sidebar, 64 → 62 in the header.
    useApp.setState({ skeleton: view(62), edit: { dirty: true } as never, unsaved: new Set([path]) });
    useApp.getState().syncEntry();
    render(<Sidebar />);
    expect(screen.getByTestId('file-messages').textContent).toBe('64');
  });
});

describe('a link out of the opened folders', () => {
  it('is a row saying so (a folder link with its slash), with nothing of what it leads to; a click asks the service nothing', () => {
    const asked: string[] = [];
    setBridge({ request: async (channel: string) => (asked.push(channel), { ok: false, error: { code: 'INTERNAL', message: 'not in this test' } }), subscribe: () => () => {} });
    const note = 'a link outside the opened folders: not read';
    useApp.setState({
      entries: [
        { path: 'abs.json', name: 'abs', bytes: 0, modified: 1_700_000_000_000, outside: true, error: note },
        { path: 'outdir', name: 'outdir', bytes: 0, modified: 1_700_000_000_000, outside: true, folder: true, error: note },
      ],
    });
    render(<Sidebar />);
    const rows = screen.getAllByTestId('file');
    expect(rows.map((r) => [r.getAttribute('data-path'), r.getAttribute('data-outside')])).toEqual([
      ['abs.json', 'true'],
      ['outdir', 'true'],
    ]);
    expect(rows.map((r) => r.querySelector('[data-testid="file-error"]')!.textContent)).toEqual([note, note]);
    expect(rows[1].textContent).toContain('outdir/');
    fireEvent.click(rows[0]);
    expect(asked).toEqual([]);
  });
});
