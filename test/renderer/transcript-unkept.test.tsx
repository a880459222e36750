// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TranscriptParts } from '../../app/renderer/features/transcript/TranscriptParts.js';

afterEach(cleanup);

const ctx = { at: 3, query: '', callName: () => undefined, resultOf: () => undefined, callOf: () => undefined, onGo: () => undefined };

describe('the transcript and thinking the file keeps no text of', () => {
  it('says the reasoning was not kept (only its signature), not "(empty)"', () => {
    render(<TranscriptParts parts={[{ kind: 'reasoning', text: '', unkept: true }]} ctx={ctx} tool={false} />);
    expect(screen.queryByTestId('tx-empty')).toBeNull();
    expect(screen.getByTestId('tx-reasoning').textContent).toContain('Reasoning not kept in the file (only its signature is)');
  });

  it('a message with nothing at all still reads "(empty)"', () => {
    render(<TranscriptParts parts={[{ kind: 'reasoning', text: '' }, { kind: 'text', text: ' ' }]} ctx={ctx} tool={false} />);
    expect(screen.getByTestId('tx-empty').textContent).toBe('(empty)');
  });
});
