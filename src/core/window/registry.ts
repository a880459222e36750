import { dynamicWindow } from './strategies/dynamic-window.js';
import { lastN } from './strategies/last-n.js';
import { nullStrategy } from './strategies/null.js';
import { slidingWindow } from './strategies/sliding-window.js';
import { summarizing } from './strategies/summarizing.js';
import { truncate } from './strategies/truncate.js';
import { autoCompact } from './strategies/auto-compact.js';
import type { WindowPlan, WindowSkeleton, WindowStrategy } from './types.js';

export const BUILTIN_STRATEGIES: readonly WindowStrategy[] = [
  dynamicWindow as unknown as WindowStrategy,
  truncate as unknown as WindowStrategy,
  lastN as unknown as WindowStrategy,
  slidingWindow as unknown as WindowStrategy,
  summarizing as unknown as WindowStrategy,
  autoCompact,
  nullStrategy,
];

/**
 * The strategies the inspector lists and plans with. User-defined ones ("writing your own" in the managers
 * spec) register here and are then planned, listed and applied exactly like the built-in ones.
 */
export class StrategyRegistry {
  private readonly byId = new Map<string, WindowStrategy>();

  constructor(strategies: readonly WindowStrategy[] = BUILTIN_STRATEGIES) {
    for (const s of strategies) this.byId.set(s.id, s);
  }

  register(strategy: WindowStrategy): void {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(strategy.id)) throw new Error(`strategy id "${strategy.id}" must be lowercase letters, digits and dashes`);
    if (BUILTIN_STRATEGIES.some((s) => s.id === strategy.id)) throw new Error(`"${strategy.id}" is a built-in strategy`);
    this.byId.set(strategy.id, strategy);
  }

  unregister(id: string): boolean {
    return !BUILTIN_STRATEGIES.some((s) => s.id === id) && this.byId.delete(id);
  }

  get(id: string): WindowStrategy | undefined {
    return this.byId.get(id);
  }

  list(): WindowStrategy[] {
    return [...this.byId.values()];
  }

  plan(id: string, skeleton: WindowSkeleton, params: Record<string, unknown> = {}): WindowPlan {
    const strategy = this.byId.get(id);
    if (!strategy) throw new Error(`unknown strategy "${id}"; known: ${[...this.byId.keys()].join(', ')}`);
    return strategy.plan(skeleton, params);
  }
}

export const strategies = new StrategyRegistry();
