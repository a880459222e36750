import { describe, expect, it } from 'vitest';
import { paletteEntries } from '../../app/renderer/features/commands/palette-entries.js';
import type { AppState } from '../../app/renderer/store/index.js';

const state = (over: Partial<AppState> = {}) => ({ entries: [], skeleton: undefined, openPath: undefined, ...over }) as Pick<AppState, 'entries' | 'skeleton' | 'openPath' | 'folderChoices'>;

describe('the palette’s entries', () => {
  it('a number with no conversation open says to open one first, and cannot run', () => {
    const [first] = paletteEntries('#123', state());
    expect(first.label).toBe('Go to message 123: open a conversation first');
    expect(first.enabled(state() as AppState)).toBe(false);
  });

  it('a number goes to that message of the open conversation, or says how many it has', () => {
    const skeleton = { count: 50 } as AppState['skeleton'];
    expect(paletteEntries('12', state({ skeleton }))[0].label).toBe('Go to message 12');
    expect(paletteEntries(':99', state({ skeleton }))[0].label).toBe('Go to message 99 (this conversation has 50)');
  });

  it('finds recent folders by name or path, never the open one', () => {
    const folderChoices = {
      current: ['/home/u/runs'],
      recent: [
        { path: '/home/u/runs', name: 'runs', openedAt: 2 },
        { path: '/home/u/old-runs', name: 'old-runs', openedAt: 1 },
      ],
      browse: true,
      places: [],
    };
    const labels = paletteEntries('runs', state({ folderChoices })).map((e) => e.label);
    expect(labels).toContain('Open Folder /home/u/old-runs');
    expect(labels).not.toContain('Open Folder /home/u/runs');
  });

  it("finds the agents' session folders by the tool's name", () => {
    const folderChoices = { current: ['/home/u/runs'], recent: [], browse: true, places: [{ name: 'Codex sessions', path: '/home/u/.codex/sessions' }, { name: 'Claude Code sessions', path: '/home/u/.claude/projects' }] };
    const labels = paletteEntries('codex', state({ folderChoices })).map((e) => e.label);
    expect(labels).toContain('Open Codex sessions (/home/u/.codex/sessions)');
    expect(labels.some((l) => l.includes('Claude Code'))).toBe(false);
    expect(paletteEntries('zzzz-nothing', state({ folderChoices }))).toEqual([]);
  });
});
