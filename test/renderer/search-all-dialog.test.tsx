// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../../app/renderer/api/client.js';
import { SearchAllDialog } from '../../app/renderer/features/search/SearchAllDialog.js';
import { useApp } from '../../app/renderer/store/index.js';
import type { SearchAnswer } from '../../app/shared/contract.js';

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

  it("marks every word of the query in a hit's line, not only the first", () => {
    const answer: SearchAnswer = { ...none(0), query: 'Credit NOTE', total: 1, files: 1, fileTotals: { 'a.json': 1 }, hits: [{ path: 'a.json', format: 'openai-chat', conversation: 0, index: 3, role: 'user', snippet: 'The Credit Note for invoice 9 was issued.', match: [4, 10] }] };
    useApp.setState({ searchAllOpen: true, searchAllQuery: 'Credit NOTE', searchAllRegex: false, searchAllAnswer: answer, searchIndex: answer.status });
    render(<SearchAllDialog />);
    expect([...screen.getByTestId('search-snippet').querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Credit', 'Note']);
  });
});

