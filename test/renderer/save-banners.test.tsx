// @vitest-environment happy-dom
// What the save's answers say in the page: another program holding the file open (BUSY, with Save As and a
// retry), what a save merged in, a session being written, and Keep mine saying what it keeps.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EditState } from '../../app/shared/contract.js';
import { setBridge } from '../../app/renderer/api/client.js';
import { Banners } from '../../app/renderer/features/commands/Banners.js';
import { savedNoteOf } from '../../app/renderer/store/editing.js';
import { useApp } from '../../app/renderer/store/index.js';

const asked: Array<{ channel: string; input: unknown }> = [];
const edit: EditState = { path: 'session.jsonl', conversation: 0, version: 1, count: 12, dirty: true, conflict: false };

beforeEach(() => {
  asked.length = 0;
  setBridge({
    request: async (channel: string, input: unknown) => {
      asked.push({ channel, input });
      return { ok: false, error: { code: 'BUSY', message: 'session.jsonl was not saved: node (pid 42) still has it open for writing.' } };
    },
    subscribe: () => () => {},
  });
  useApp.setState({ openPath: 'session.jsonl', edit, saveError: undefined, savedNote: undefined, saveAsName: undefined, saving: false, skeleton: undefined });
});
afterEach(cleanup);

describe('what a save says', () => {
  it('BUSY: the reason, Save again, and Save as… with a name beside the file', async () => {
    render(<Banners />);
    act(() => useApp.setState({ saveError: { code: 'BUSY', message: 'session.jsonl was not saved: node (pid 42) still has it open for writing.' } }));
    expect(screen.getByTestId('busy-banner').textContent).toContain('node (pid 42)');
    // Not shown again as a bare error.
    expect(screen.queryByTestId('save-error')).toBeNull();
    fireEvent.click(screen.getByTestId('busy-save-as'));
    expect(useApp.getState().saveAsName).toBe('session.mine.jsonl');
    fireEvent.click(screen.getByTestId('busy-retry'));
    await act(async () => {});
    expect(asked.some((a) => a.channel === 'edit:save')).toBe(true);
  });

  it('what a save merged in, in words; nothing when it merged nothing', () => {
    expect(savedNoteOf({ added: 12, changed: 0, removed: 0 }, undefined)).toBe('Saved: kept 12 messages added on disk by another program meanwhile.');
    expect(savedNoteOf({ added: 1, changed: 1, removed: 0 }, true)).toBe('Saved: kept 1 message added, 1 message changed on disk by another program meanwhile; added your messages at the end of the file, which stays the one the other program writes.');
    expect(savedNoteOf({ added: 0, changed: 0, removed: 0 }, false)).toBeUndefined();
    expect(savedNoteOf(undefined, undefined)).toBeUndefined();
    render(<Banners />);
    act(() => useApp.setState({ savedNote: savedNoteOf({ added: 3, changed: 0, removed: 0 }, undefined) }));
    expect(screen.getByTestId('saved-note').textContent).toContain('kept 3 messages added on disk');
  });

  it('a session another program is writing says so while it has edits, and who has it open', () => {
    render(<Banners />);
    act(() => useApp.setState({ edit: { ...edit, live: { appendedAt: Date.now(), writers: [{ pid: 42, name: 'claude' }] } } }));
    expect(screen.getByTestId('live-note').textContent).toContain('claude (pid 42) has this file open for writing: a save keeps what it adds');
    act(() => useApp.setState({ edit: { ...edit, live: { appendedAt: Date.now(), writers: [] } } }));
    expect(screen.getByTestId('live-note').textContent).toContain('Another program is adding to this file');
  });

  it('Keep mine says what it keeps', () => {
    render(<Banners />);
    act(() => useApp.setState({ edit: { ...edit, conflict: true } }));
    const keep = screen.getByTestId('conflict-keep');
    expect(keep.textContent).toBe('Keep mine');
    expect(keep.getAttribute('title')).toContain('what was added on disk stays');
  });
});
