// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { subjectOf, TranscriptParts } from '../../app/renderer/features/transcript/TranscriptParts.js';

afterEach(cleanup);

const ctx = { at: 2, query: '', callName: () => undefined, resultOf: () => undefined, callOf: () => undefined, onGo: () => undefined };
const sizes = () => screen.getAllByTestId('tx-reasoning-size').map((e) => e.textContent?.trim());
const heads = () => screen.getAllByTestId('tx-reasoning-fold').map((e) => e.textContent);

describe('the transcript and a message of several thoughts (Gemini CLI keeps each with its subject)', () => {
  it('says the reasoning tokens once, as all the thoughts’ tokens, and each thought by its subject and size', () => {
    const first = '**Analyzing Deployment Setup**\n\nI am looking at the workflow.';
    const second = '**Reviewing Configuration Discrepancies**\n\nThe ids differ.';
    render(<TranscriptParts parts={[{ kind: 'reasoning', text: first }, { kind: 'reasoning', text: second }, { kind: 'text', text: 'Done.' }]} ctx={{ ...ctx, reasoningTokens: 153 }} tool={false} />);
    expect(sizes()).toEqual([`· ${first.length} characters · 153 tokens in all 2, counted apart`, `· ${second.length} characters`]);
    expect(heads()[0]).toContain('Reasoning 1 of 2');
    expect(heads()[0]).toContain('Analyzing Deployment Setup');
    expect(heads()[0]).not.toContain('**');
    expect(heads()[1]).toContain('Reasoning 2 of 2');
    expect(heads()[1]).toContain('Reviewing Configuration Discrepancies');
  });

  it('a thought’s subject: Gemini CLI’s before its colon, a bold line, else the start of its first line', () => {
    expect(subjectOf('Analyzing Deployment Setup: I am focused on the deployment stage.')).toBe('Analyzing Deployment Setup');
    expect(subjectOf('**Reviewing Files**\n\nThe ids differ.')).toBe('Reviewing Files');
    expect(subjectOf('x'.repeat(150))).toBe(`${'x'.repeat(100)}…`);
    expect(subjectOf(`${'y'.repeat(90)}: and more`)).toBe(`${'y'.repeat(90)}: and more`);
  });

  it('one thought carries the message’s reasoning tokens, as before', () => {
    render(<TranscriptParts parts={[{ kind: 'reasoning', text: 'Thinking it over.' }, { kind: 'reasoning', text: 'x', encrypted: true }]} ctx={{ ...ctx, reasoningTokens: 12 }} tool={false} />);
    expect(sizes()).toEqual(['· 12 tokens, counted apart']);
    expect(heads()[0]).not.toContain(' of ');
  });
});
