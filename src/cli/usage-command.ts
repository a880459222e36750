import { sessionCostText } from '../core/catalog/session-cost.js';
import { relative } from 'node:path';
import type { SessionRow, UsageBy } from '../core/catalog/index.js';
import { PRICES_DATED } from '../core/pricing/prices.js';
import { formatUsd } from '../core/usage.js';
import { freshCatalog } from './catalog.js';
import { printJson, table } from './output.js';
import { cutToWidth } from './text-width.js';
import { summariseNotListed } from '../core/catalog/not-listed.js';
import { notListedText } from '../core/catalog/not-listed-words.js';
import { folderArg, InputError, UsageError } from './usage.js';

const BY: readonly UsageBy[] = ['day', 'project', 'model', 'tool'];
const n = (x: number) => x.toLocaleString('en');



/** `usage [DIR] [--by day|project|model|tool]`: reported usage and cost added up over every session under DIR. */
export async function usageCommand(dir: string, opts: { by?: string; json: boolean }): Promise<void> {
  const by = (opts.by ?? 'day') as UsageBy;
  if (!BY.includes(by)) throw new UsageError(`--by takes ${BY.join(', ')}, not "${opts.by}"`, { brief: true });
  const path = folderArg(dir, 'usage');
  // Usage is whole from each file's usage lines: the whole reads (for search) are left to the next search.
  const kept = await freshCatalog(path, { upTo: 'listed' });
  if (!kept) throw new InputError('usage needs the catalog, which could not be opened (see the note above)');
  try {
    const rows = kept.catalog.usage(by, [path]);
    const expensive = kept.catalog.sessions({ under: [path], sort: 'cost', limit: 5 }).filter((s) => (s.costUsd ?? 0) > 0);
    const total = rows.reduce((t, r) => ({ calls: t.calls + r.calls, input: t.input + r.input, output: t.output + r.output, cacheRead: t.cacheRead + r.cacheRead, cacheWrite: t.cacheWrite + r.cacheWrite, costUsd: t.costUsd + r.costUsd, unpricedCalls: t.unpricedCalls + r.unpricedCalls, inputCalls: t.inputCalls + r.inputCalls }), { calls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0, unpricedCalls: 0, inputCalls: 0 });
    if (opts.json) {
      // A row none of whose calls has a price costs nothing known: null, as the text says "no price", not $0.
      const priced = <T extends { calls: number; unpricedCalls: number; costUsd: number }>(r: T) => ({ ...r, costUsd: r.calls > 0 && r.unpricedCalls === r.calls ? null : r.costUsd });
      printJson({ directory: path, by, prices: PRICES_DATED, rows: rows.map(priced), total: priced(total), expensive: expensive.map((s) => ({ path: s.path, conversation: s.conversation, title: s.title, costUsd: s.costUsd })) });
      return;
    }
    if (rows.length === 0) {
      process.stdout.write(`No reported usage in ${path} (no session under it records what its model calls used)\n`);
      return;
    }
    const head = by === 'day' ? 'DAY' : by.toUpperCase();
    const label = (k: string) => (k === '' ? (by === 'day' ? '(no time)' : by === 'model' ? '(model not recorded)' : '(unknown)') : by === 'project' ? k : k);
    // A model with no list price is counted, not priced: said so, never $0.00.
    // Calls that do not record their input are priced by what they record: the cost is at least that.
    const cost = (r: { calls: number; unpricedCalls: number; costUsd: number; inputCalls: number }) => (r.unpricedCalls === r.calls ? 'no price' : `${r.unpricedCalls > 0 || r.inputCalls < r.calls ? '≥ ' : ''}${formatUsd(r.costUsd)}`);
    // Input no call recorded is said so, never 0; recorded by some calls only, it is at least what they say.
    const input = (r: { calls: number; inputCalls: number; input: number }) => (r.inputCalls === 0 ? 'not recorded' : `${r.inputCalls < r.calls ? '≥ ' : ''}${n(r.input)}`);
    const body = rows.map((r) => [label(r.key), r.sessions, r.calls, input(r), n(r.output), n(r.cacheRead), n(r.cacheWrite), cost(r)]);
    body.push(['total', '', total.calls, input(total), n(total.output), n(total.cacheRead), n(total.cacheWrite), cost(total)]);
    process.stdout.write(table([head, 'SESSIONS & SUB-AGENTS', 'CALLS', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'COST'], body) + '\n');
    process.stdout.write(`\ninput counts every prompt token, the cached ones among them; cost at list prices of ${PRICES_DATED} (calls of a model without a price add nothing)\n`);
    if (expensive.length > 0) {
      process.stdout.write('\nmost expensive sessions:\n');
      for (const s of expensive) process.stdout.write(`  ${formatUsd(s.costUsd ?? 0).padStart(8)}  ${relative(path, s.path)}${s.title ? `  ${s.title}` : ''}\n`);
    }
  } finally {
    kept.catalog.close();
  }
}

/** The TITLE column's width: a longer title is cut with "…" at a word. */
const TITLE_COLUMNS = 60;

/** `sessions [DIR]`: every session under DIR, newest first, with its figures and cost. */
export async function sessionsCommand(dir: string, opts: { json: boolean }): Promise<void> {
  const path = folderArg(dir, 'sessions');
  const kept = await freshCatalog(path);
  if (!kept) throw new InputError('sessions needs the catalog, which could not be opened (see the note above)');
  try {
    const rows = kept.catalog.sessions({ under: [path] });
    // What the folder holds that is no session here (another tool's database, a prompt log): said, not left out in silence.
    const notListed = summariseNotListed(kept.catalog.notListed([path]), (p) => relative(path, p));
    if (opts.json) {
      printJson({ directory: path, sessions: rows.map(({ id: _id, ...s }) => ({ ...s, path: relative(path, s.path) })), ...(notListed ? { notListed } : {}) });
      return;
    }
    const note = notListed && notListedText(notListed, 'note: not listed: ');
    if (note) process.stderr.write(`${note} (ls ${dir} shows each with why)\n`);
    if (rows.length === 0) {
      process.stdout.write(`No sessions in ${path}\n`);
      return;
    }
    // A file of several sessions (Crush's database, a dataset): which one, as `show --conversation N` picks it.
    const perPath = new Map<string, number>();
    for (const r of rows) perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
    const where = (s: SessionRow) => `${relative(path, s.path)}${(perPath.get(s.path) ?? 0) > 1 ? ` #${s.conversation}` : ''}`;
    const body = nested(rows).map(({ s, under }) => [(s.lastAt ?? '').replace('T', ' ').slice(0, 16), under ? `  ↳ ${s.tool ?? ''}` : s.kind === 'subagent' ? `sub-agent · ${s.tool ?? ''}` : (s.tool ?? s.format ?? ''), cutToWidth(s.title ?? '', TITLE_COLUMNS), s.messages, s.calls ? s.output : '', sessionCostText(s), where(s)]);
    process.stdout.write(table(['LAST', 'TOOL', 'TITLE', 'MESSAGES', 'OUTPUT', 'COST', 'PATH'], body) + '\n');
  } finally {
    kept.catalog.close();
  }
}

/**
 * Sessions newest first, each followed by its sub-agents (`under`, newest first), as the app's list nests them; a
 * sub-agent whose session is not among them stays in its place, said to be one.
 */
export function nested(rows: readonly SessionRow[]): Array<{ s: SessionRow; under: boolean }> {
  const listed = new Set(rows.filter((r) => r.kind !== 'subagent').map((r) => r.path));
  const agents = new Map<string, SessionRow[]>();
  for (const r of rows) {
    if (r.kind !== 'subagent' || !r.parentFile || !listed.has(r.parentFile)) continue;
    const list = agents.get(r.parentFile);
    if (list) list.push(r);
    else agents.set(r.parentFile, [r]);
  }
  const out: Array<{ s: SessionRow; under: boolean }> = [];
  for (const r of rows) {
    if (r.kind === 'subagent' && r.parentFile && listed.has(r.parentFile)) continue;
    out.push({ s: r, under: false });
    // A file of several sessions lists its sub-agents after its first.
    if (r.kind !== 'subagent' && agents.has(r.path)) {
      for (const a of agents.get(r.path)!) out.push({ s: a, under: true });
      agents.delete(r.path);
    }
  }
  return out;
}
