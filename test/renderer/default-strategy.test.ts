import { describe, expect, it } from 'vitest';
import { defaultStrategy, requestOverhead } from '../../app/renderer/store/window.js';

const usage = (at: number[], values: Array<{ input?: number; model?: string }>) => ({ at, values });

describe("an agent session's default window is the agent's own", () => {
  it('auto-compact at the model window, with the system prompt and tools the first call reported beyond the messages', () => {
    // Messages 0 and 1 (4,000 characters, about 1,000 tokens) came before the first call, which reported 7,000 in.
    const sk = { swarms: false, format: 'claude-code', usage: usage([2, 5], [{ input: 7000, model: 'claude-sonnet-4-5' }, { input: 9000 }]), lengths: [3000, 1000, 50, 50, 50, 50] };
    expect(requestOverhead(sk)).toBe(6000);
    expect(defaultStrategy(sk)).toEqual({ id: 'auto-compact', params: { contextWindowTokens: 200_000, compactAt: '0.92', fixedTokens: 6000 } });
  });

  it('no reported call: no overhead assumed; other formats truncate', () => {
    expect(requestOverhead({ usage: usage([], []) })).toBe(0);
    expect(defaultStrategy({ swarms: false, format: 'openai-chat', usage: usage([], []) })).toEqual({ id: 'truncate' });
  });
});
