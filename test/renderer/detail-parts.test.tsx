// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestOutput, Skeleton } from '../../app/shared/contract.js';
import { Parts } from '../../app/renderer/features/detail/Parts.js';
import { TranscriptParts } from '../../app/renderer/features/transcript/TranscriptParts.js';

type View = RequestOutput<'conversation:message'>['view'];
const skeleton = { toolCalls: { at: [], values: [] }, toolResults: { at: [], values: [] } } as unknown as Skeleton;
const view = (parts: unknown[]) => ({ parts }) as unknown as View;

afterEach(cleanup);

describe('the detail pane’s parts', () => {
  it('a search that matches inside the reasoning opens it, its words marked (the table found the message by them)', () => {
    render(<Parts view={view([{ kind: 'text', text: 'Pinned it.' }, { kind: 'reasoning', text: 'Check the version before pinning.' }])} skeleton={skeleton} query="version" />);
    const reasoning = screen.getByTestId('reasoning') as HTMLDetailsElement;
    expect(reasoning.open).toBe(true);
    expect([...reasoning.querySelectorAll('mark.hit')].map((m) => m.textContent)).toEqual(['version']);
  });

  it('reasoning stays folded when the search matches elsewhere, or there is none', () => {
    for (const query of ['pinned', '']) {
      render(<Parts view={view([{ kind: 'text', text: 'Pinned it.' }, { kind: 'reasoning', text: 'Check the version before pinning.' }])} skeleton={skeleton} query={query} />);
      expect((screen.getByTestId('reasoning') as HTMLDetailsElement).open, query).toBe(false);
      cleanup();
    }
  });

  it('reasoning the file keeps no text of (only its signature) says so, not an empty fold', () => {
    render(<Parts view={view([{ kind: 'reasoning', text: '', unkept: true }])} skeleton={skeleton} query="" />);
    expect(screen.getByTestId('reasoning').textContent).toBe('Reasoning not kept in the file (only its signature is)');
  });

  it('a tool call’s arguments read as written: a multi-line command as lines, not "\\n"; JSON that is not an object indented', () => {
    const command = 'cd app && \\\n  npm test -- --run\n\techo "done"';
    render(<Parts view={view([{ kind: 'tool-call', name: 'Bash', id: 'toolu_1', arguments: JSON.stringify({ command, description: 'Run the tests' }) }])} skeleton={skeleton} query="" />);
    const args = screen.getByTestId('tool-call-args');
    const pairs = [...args.querySelectorAll('.tx-arg')].map((e) => [e.querySelector('dt')?.textContent, e.querySelector('dd')?.textContent]);
    expect(pairs).toEqual([
      ['command', command],
      ['description', 'Run the tests'],
    ]);
    expect(args.textContent).not.toContain('\\n');
    cleanup();
    render(<Parts view={view([{ kind: 'tool-call', name: 'f', arguments: '[1,2]' }, { kind: 'tool-call', name: 'g', arguments: 'not json {' }])} skeleton={skeleton} query="" />);
    expect(screen.getAllByTestId('tool-call-args').map((e) => e.textContent)).toEqual(['[\n  1,\n  2\n]', 'not json {']);
  });

  // OpenCode writes a call and its result in one tool part: a turn of two reads holds both calls and both results.
  const twoReads = [
    { kind: 'tool-call', name: 'read', id: 'toolu_a', arguments: '{"filePath":"README.md"}' },
    { kind: 'tool-result', callId: 'toolu_a', text: 'first file' },
    { kind: 'tool-call', name: 'read', id: 'toolu_b', arguments: '{"filePath":"story.md"}' },
    { kind: 'tool-result', callId: 'toolu_b', text: 'second file' },
  ];
  // The skeleton knows one result per message (the first): the second call must not read as unanswered.
  const oneResult = { toolCalls: { at: [3], values: [['toolu_a', 'toolu_b']] }, toolResults: { at: [3], values: ['toolu_a'] } } as unknown as Skeleton;

  it('calls answered in their own message are paired in place, each with its own result, none an orphan', () => {
    render(<Parts view={view(twoReads)} skeleton={oneResult} query="" />);
    expect(screen.queryAllByTestId('orphan')).toEqual([]);
    expect(screen.queryAllByTestId('jump')).toEqual([]);
    expect(screen.getAllByTestId('tool-call-card').map((c) => c.textContent)).toEqual([expect.stringContaining('result below'), expect.stringContaining('result below')]);
    expect(screen.getAllByTestId('tool-result-card').map((c) => c.textContent)).toEqual([expect.stringContaining('call above'), expect.stringContaining('call above')]);
  });

  it('the transcript links no call of such a message to another, and says none is unanswered', () => {
    const ctx = { at: 3, query: '', resultOf: (id?: string) => (id === 'toolu_a' ? 3 : undefined), callOf: (id?: string) => (id ? 3 : undefined), callName: () => 'read', onGo: () => {} };
    render(<TranscriptParts parts={twoReads as never} ctx={ctx} tool={false} />);
    expect(screen.getAllByTestId('tx-tool-call')).toHaveLength(2);
    expect(screen.queryAllByTestId('tx-no-result')).toEqual([]);
    expect(screen.queryAllByTestId('tx-go-result')).toEqual([]);
    expect(screen.queryAllByTestId('tx-go-call')).toEqual([]);
    cleanup();
    // A call whose result is in another message still links to it.
    render(<TranscriptParts parts={[twoReads[0]] as never} ctx={ctx} tool={false} />);
    expect(screen.getByTestId('tx-go-result').textContent).toContain('#3');
  });
});
