import { describe, expect, it } from 'vitest';
import { paletteEntries } from '../../app/renderer/features/commands/palette-entries.js';
import type { AppState } from '../../app/renderer/store/index.js';

const state = (over: Partial<AppState> = {}) => ({ entries: [], skeleton: undefined, openPath: undefined, ...over }) as Pick<AppState, 'entries' | 'skeleton' | 'openPath' | 'folderChoices' | 'sessionsAnswer' | 'openConversationIndex'>;

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

  it('finds sessions by their titles, the most recently active first, never the open one; opening one opens its conversation', () => {
    const session = (path: string, conversation: number, title: string | undefined, lastAt: string, over: object = {}) => ({ id: 1, path, conversation, title, lastAt, kind: 'session', tool: 'Claude Code', models: [], messages: 3, prompts: 1, calls: 0, inputCalls: 0, outputCalls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, unpriced: [], modifiedMs: 0, ...over });
    const sessionsAnswer = {
      total: 4,
      tools: [],
      models: [],
      status: { files: 4, listed: true, building: false },
      sessions: [
        session('a.jsonl', 0, 'Initialize Project Setup', '2026-06-01T00:00:00Z'),
        session('b.jsonl', 0, 'Project review\nsecond line', '2026-06-08T00:00:00Z', { kind: 'subagent', tool: 'Codex' }),
        session('c.jsonl', 0, undefined, '2026-06-09T00:00:00Z'),
        session('d.jsonl', 2, 'Open project', '2026-06-10T00:00:00Z'),
      ],
    } as unknown as AppState['sessionsAnswer'];
    const found = paletteEntries('PROJECT', state({ sessionsAnswer, openPath: 'd.jsonl', openConversationIndex: 2 })).filter((e) => e.id.startsWith('session-'));
    expect(found.map((e) => e.label)).toEqual(['Open session “Project review second line” (sub-agent, Codex)', 'Open session “Initialize Project Setup” (Claude Code)']);
    const opened: unknown[] = [];
    found[1].run({ openConversation: async (...a: unknown[]) => void opened.push(a) } as unknown as AppState);
    expect(opened).toEqual([['a.jsonl', 0]]);
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
