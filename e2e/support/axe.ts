import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's WCAG 2 A/AA checks on what the page shows now: the serious and critical violations, each with
 * the elements it names. Evaluated through the DevTools protocol, which the app's CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(`${AXE_SOURCE}\n;0`);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 40).map((n) => `${n.target.join(" ")} ${JSON.stringify((n as unknown as { any: Array<{ data?: unknown }> }).any?.[0]?.data ?? "")}`) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
