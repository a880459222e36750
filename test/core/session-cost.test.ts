import { describe, expect, it } from 'vitest';
import { sessionCostText } from '../../src/core/catalog/session-cost.js';

describe("a session's cost as the lists say it", () => {
  it('tells a session of no call from one of no price, and a floor from a sum', () => {
    expect(sessionCostText({ calls: 0, inputCalls: 0, unpriced: [] })).toBe('');
    expect(sessionCostText({ calls: 3, inputCalls: 3, unpriced: ['unsloth/qwen3-coder-next'] })).toBe('no price');
    expect(sessionCostText({ calls: 3, inputCalls: 3, costUsd: 0.2837, unpriced: [] })).toBe('$0.28');
    expect(sessionCostText({ calls: 3, inputCalls: 3, costUsd: 0.2837, unpriced: ['router-x'] })).toBe('≥ $0.28');
    // Calls that record their output alone cost at least what is known.
    expect(sessionCostText({ calls: 3, inputCalls: 1, costUsd: 0.035, unpriced: [] })).toBe('≥ $0.035');
  });
});
