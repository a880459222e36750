// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Skeleton } from '../../app/shared/contract.js';
import { CHART_H, CHART_W, compact, CumulativeChart, logY, TICK_CLEAR } from '../../app/renderer/features/window/CumulativeChart.js';
import { PlanCharts } from '../../app/renderer/features/window/PlanCharts.js';
import { strategies } from '../../src/core/window/registry.js';
import { FATES, type WindowSkeleton } from '../../src/core/window/types.js';

afterEach(cleanup);

const ROLES = ['System', 'user', 'assistant', 'tool'];
const CATEGORIES = ['input', 'output'];

function histories() {
  return fc.array(fc.record({ role: fc.nat({ max: 3 }), category: fc.integer({ min: -1, max: 1 }), tokens: fc.nat({ max: 400 }), isStatic: fc.boolean() }), { minLength: 1, maxLength: 400 });
}

function build(rows: Array<{ role: number; category: number; tokens: number; isStatic: boolean }>) {
  const n = rows.length;
  const skeleton = { count: n, roles: ROLES, roleOf: rows.map((r) => r.role), categories: CATEGORIES, categoryOf: rows.map((r) => r.category) } as unknown as Skeleton;
  const plan: WindowSkeleton = {
    messages: rows.map((r, i) => ({ role: ROLES[r.role], tokens: r.tokens, renderedTokens: r.tokens + 3, length: 40, toolCallIds: [], toolLike: false, isStatic: r.isStatic && rows.slice(0, i).every((p) => p.isStatic), contentIsString: true })),
  };
  return { skeleton, plan, tokens: rows.map((r) => r.tokens) };
}

/** The by-role or by-category table as the user reads it: name, before, after. */
function tableRows(table: Element): string[][] {
  return [...table.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.replace(/^→ /, '').replace(/,/g, '')));
}

describe('the plan charts, computed apart from what a slider step changes', () => {
  it('a history whose records have no categories (a session, not a swarms history) shows no table of them', () => {
    const { skeleton, plan: input, tokens } = build([{ role: 1, category: -1, tokens: 20, isStatic: false }, { role: 2, category: -1, tokens: 30, isStatic: false }]);
    const plain = { ...skeleton, categories: [] } as Skeleton;
    const plan = strategies.get('truncate')!.plan(input, { contextLength: 1000 });
    const view = render(<PlanCharts plan={plan} skeleton={plain} counts={{ tokens, renderedTokens: tokens }} onSelect={() => {}} />);
    expect(view.container.querySelectorAll('table.totals')).toHaveLength(1);
    expect(view.container.textContent).not.toMatch(/By category|\(none\)/);
    cleanup();
    const named = render(<PlanCharts plan={plan} skeleton={skeleton} counts={{ tokens, renderedTokens: tokens }} onSelect={() => {}} />);
    expect(named.container.querySelectorAll('table.totals')).toHaveLength(2);
  });

  it('every bar, role and category total equals a sum over the messages, for any strategy and budget', () => {
    fc.assert(
      fc.property(histories(), fc.constantFrom('dynamic-context-window', 'truncate', 'last-n', 'sliding-window'), fc.nat({ max: 20_000 }), (rows, id, budget) => {
        const { skeleton, plan: input, tokens: contents } = build(rows);
        const strategy = strategies.get(id)!;
        const key = id === 'sliding-window' || id === 'last-n' ? (id === 'last-n' ? 'n' : 'windowSize') : 'contextLength';
        const plan = strategy.plan(input, { [key]: id === 'sliding-window' || id === 'last-n' ? budget % 50 : budget });
        const rendered = input.messages.map((m) => m.renderedTokens);
        const view = render(<PlanCharts plan={plan} skeleton={skeleton} counts={{ tokens: contents, renderedTokens: rendered }} onSelect={() => {}} />);
        // The basis the plan measures (the dynamic window: the rendered history).
        const tokens = plan.unit === 'rendered' ? rendered : contents;
        const [byRole, byCategory] = view.container.querySelectorAll('table.totals');
        const expected = (names: string[], of: number[], none?: string) => {
          const out: string[][] = [];
          const keys = names.map((_, k) => k).concat(none !== undefined && of.some((k) => k < 0) ? [-1] : []);
          for (const k of keys) {
            let before = 0;
            let after = 0;
            of.forEach((c, i) => {
              if (c !== k) return;
              before += tokens[i];
              after += plan.tokensAfter[i];
            });
            out.push([k < 0 ? none! : names[k], String(before), String(after)]);
          }
          return out.sort((a, b) => Number(b[1]) - Number(a[1]));
        };
        const roleRows = tableRows(byRole);
        // One basis: the roles' "before" adds up to the plan's own total before, whatever its unit.
        expect(roleRows.reduce((a, r) => a + Number(r[1]), 0)).toBe(plan.totalBefore);
        expect(roleRows.map((r) => r.slice(1))).toEqual(expected(ROLES, skeleton.roleOf).map((r) => r.slice(1)));
        expect(tableRows(byCategory)).toEqual(expected(CATEGORIES, skeleton.categoryOf, '(none)'));
        // A bar per bin: its message is the bin's tallest, its fate that message's.
        const bars = [...view.container.querySelectorAll('.bar')];
        const per = Math.max(1, Math.ceil(rows.length / 100));
        bars.forEach((bar, b) => {
          const bin = tokens.slice(b * per, (b + 1) * per);
          const at = b * per + bin.indexOf(Math.max(...bin));
          expect(bar.getAttribute('aria-label')).toBe(`message ${at}: ${tokens[at]} tokens, ${FATES[plan.fates[at]]}`);
        });
        cleanup();
      }),
      { numRuns: 60 },
    );
  });

  it('axis values read short: 950, 1.2k, 12k, 3.1M', () => {
    expect([950, 1200, 12_400, 100_000, 3_100_000, 20_000_000].map(compact)).toEqual(['950', '1.2k', '12k', '100k', '3.1M', '20M']);
  });

  it('the cut chart: tokens from each column to the end on a log scale, the budget across, the kept columns shaded', () => {
    fc.assert(
      fc.property(histories(), fc.nat({ max: 20_000 }), fc.constantFrom('truncate', 'dynamic-context-window', 'last-n'), (rows, budget, id) => {
        const { plan: input, tokens: contents } = build(rows);
        const plan = strategies.get(id)!.plan(input, id === 'last-n' ? { limit: budget % 30 } : { contextLength: budget });
        const tokens = plan.unit === 'rendered' ? input.messages.map((m) => m.renderedTokens) : contents;
        const shown = id === 'last-n' ? undefined : budget;
        const view = render(<CumulativeChart plan={plan} tokens={tokens} budget={shown} onSelect={() => {}} />);
        const total = tokens.reduce((a, b) => a + b, 0);
        const top = Math.max(total, shown ?? 0, 10);
        const curve = (id: string) => view.getByTestId(id).getAttribute('points')!.split(' ').map((p) => p.split(',').map(Number));
        const before = curve('curve-before');
        const after = curve('curve-after');
        expect(before).toHaveLength(CHART_W + 1);
        // At the left edge all of the history; at the right edge nothing; never rising.
        expect(before[0][1]).toBeCloseTo(logY(total, top), 1);
        expect(before[CHART_W][1]).toBeCloseTo(logY(0, top), 1);
        for (let c = 1; c <= CHART_W; c++) expect(before[c][1]).toBeGreaterThanOrEqual(before[c - 1][1] - 1e-9);
        expect(after[0][1]).toBeCloseTo(logY(plan.tokensAfter.reduce((a, b) => a + b, 0), top), 1);
        if (shown !== undefined) expect(Number(view.getByTestId('budget-line').getAttribute('y1'))).toBeCloseTo(logY(shown, top), 5);
        // The axes: the budget's value where its line is, powers of ten at their heights, the last message's number.
        if (shown !== undefined) {
          expect(view.getByTestId('axis-budget').textContent).toBe(compact(shown));
          expect(parseFloat(view.getByTestId('axis-budget').style.top)).toBeCloseTo((100 * logY(shown, top)) / CHART_H, 5);
        }
        for (const tick of view.queryAllByTestId('axis-y-tick')) {
          const v = [10, 100, 1e3, 1e4, 1e5, 1e6, 1e7].find((p) => compact(p) === tick.textContent)!;
          expect(v).toBeLessThanOrEqual(top);
          expect(parseFloat(tick.style.top)).toBeCloseTo((100 * logY(v, top)) / CHART_H, 5);
          // Never under the budget's value, which is written at its line.
          if (shown !== undefined) expect(Math.abs(logY(v, top) - logY(shown, top))).toBeGreaterThanOrEqual(TICK_CLEAR);
        }
        expect(view.getByTestId('axis-x').textContent).toContain(`#${(rows.length - 1).toLocaleString('en-US')}`);
        const firstKept = [...plan.fates].findIndex((f) => FATES[f] === 'kept' || FATES[f] === 'cut');
        if (firstKept > 0) expect(view.getByTestId('axis-x').querySelector('.cut')!.textContent).toBe(`#${firstKept.toLocaleString('en-US')}`);
        // A column is shaded exactly when it holds a kept or cut message.
        const shaded = new Set<number>();
        for (const r of view.queryAllByTestId('kept-band')) for (let c = Number(r.getAttribute('x')); c < Number(r.getAttribute('x')) + Number(r.getAttribute('width')); c++) shaded.add(c);
        const n = rows.length;
        for (let c = 0; c < CHART_W; c++) {
          const from = Math.floor((c * n) / CHART_W);
          const to = Math.max(from + 1, Math.floor(((c + 1) * n) / CHART_W));
          const holds = [...plan.fates.slice(from, Math.min(n, to))].some((f) => FATES[f] === 'kept' || FATES[f] === 'cut');
          expect(shaded.has(c), `column ${c}`).toBe(holds);
        }
        cleanup();
      }),
      { numRuns: 80 },
    );
  });
});
