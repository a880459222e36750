import { describe, expect, it } from 'vitest';
import { servedEstimate, turnFigures } from '../../app/renderer/features/transcript/figures.js';

const SONNET = 'claude-sonnet-4-5-20250929';
const inputsOf = (values: object[]) => ({
  skeleton: { usage: { at: values.map((_, i) => i), values }, model: SONNET, count: values.length, flags: new Uint32Array(values.length) as never },
  turns: { turnOf: Int32Array.from(values.map((_, i) => i)), first: values.map((_, i) => i), last: values.map((_, i) => i) },
});

describe("a transcript turn's margin", () => {
  it('is a floor where its call recorded its output alone (Copilot CLI: the input is in the run’s total), said so in its title', () => {
    const inputs = inputsOf([
      { key: 'a', output: 302, model: SONNET },
      { key: 'b', input: 1000, output: 50, model: SONNET },
    ]) as never;
    const floor = turnFigures(inputs, 0)!;
    expect(floor).toMatchObject({ kind: 'reported', input: undefined, output: 302, atLeast: true });
    expect(floor.usd).toBeCloseTo((302 * 15) / 1e6, 8);
    expect(floor.title).toMatch(/its input not counted: at least this$/);
    const whole = turnFigures(inputs, 1)!;
    expect(whole.atLeast).toBeUndefined();
    expect(whole.title).not.toMatch(/at least/);
  });

  it('an estimate reads as the turn strip has it (the service’s, its resent prompt counted as cached), a report as reported', () => {
    const own = { kind: 'estimated' as const, input: 48_000, output: 0, usd: 0.084, title: 'own' };
    const served = { first: 35, last: 35, input: 48_000, output: 12, cacheRead: 40_000, usd: 0.032, model: 'gpt-5-codex', estimated: true };
    const shown = servedEstimate(own, served)!;
    expect(shown).toMatchObject({ kind: 'estimated', input: 48_000, output: 12, usd: 0.032 });
    expect(shown.title).toMatch(/40,000 of them sent by the call before it \(cached by the provider, priced so\)/);
    // No answer from the service yet, or a turn it reports: as the transcript made it.
    expect(servedEstimate(own, undefined)).toBe(own);
    const reported = { kind: 'reported' as const, input: 10, output: 2, usd: 0.001, title: 'r' };
    expect(servedEstimate(reported, { ...served, estimated: false })).toBe(reported);
  });
});
