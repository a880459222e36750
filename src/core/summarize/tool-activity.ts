import type { SummaryItem } from './summary-items.js';

interface Use {
  name: string;
  calls: number;
  /** Results seen for its calls, and how many of them report a failure. */
  answered: number;
  failed: number;
  first: number;
}

/**
 * The tools a range of messages called, with how often and how many of their results reported a failure.
 * A result answers the call its id names; without ids, the oldest call still unanswered.
 */
export function toolActivity(items: readonly SummaryItem[]): Use[] {
  const uses = new Map<string, Use>();
  const byId = new Map<string, string>();
  const open: string[] = [];
  items.forEach((item, i) => {
    for (const c of item.calls) {
      const use = uses.get(c.name) ?? { name: c.name, calls: 0, answered: 0, failed: 0, first: i };
      use.calls++;
      uses.set(c.name, use);
      if (c.id) byId.set(c.id, c.name);
      else open.push(c.name);
    }
    if (item.kind !== 'result') return;
    const name = (item.answers !== undefined ? byId.get(item.answers) : undefined) ?? open.shift();
    let use = name === undefined ? undefined : uses.get(name);
    // A result with no call on record but naming its tool: the call happened where the file does not show it.
    if (!use && item.tool) {
      use = uses.get(item.tool) ?? { name: item.tool, calls: 0, answered: 0, failed: 0, first: i };
      use.calls++;
      uses.set(item.tool, use);
    }
    if (!use) return;
    use.answered++;
    if (item.failed) use.failed++;
  });
  // Most used first; ties in the order they were first used.
  return [...uses.values()].sort((a, b) => b.calls - a.calls || a.first - b.first);
}

/** "Tools: read_file ×12 (2 failed), grep ×3 (ok)" — the most used ones, and how many others. */
export function toolLine(uses: readonly Use[], max: number): string {
  if (uses.length === 0) return '';
  const outcome = (u: Use) => (u.failed ? ` (${u.failed} failed)` : u.answered ? ' (ok)' : '');
  const shown = uses.slice(0, max).map((u) => `${u.name} ×${u.calls}${outcome(u)}`);
  const rest = uses.length - shown.length;
  return `Tools: ${shown.join(', ')}${rest > 0 ? `, and ${rest} more` : ''}.`;
}
