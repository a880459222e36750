import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { priceRowOf } from '../../src/core/pricing/prices.js';
import { REALFILES, ROOT, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const STATE = tempDir();
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: STATE } });

/**
 * An independent reading of a rollout's usage, in Python: each token_count event with info is one call,
 * unless its running total repeats the one before; the call's usage is its last_token_usage (or, without
 * one, what the total grew by); the model is the turn_context's before it.
 */
const PY = String.raw`
import json, sys
calls = []; prev = None; before = None; model = None; final = None
for line in open(sys.argv[1], encoding='utf-8'):
    try: v = json.loads(line)
    except ValueError: continue
    if not isinstance(v, dict): continue
    p = v.get('payload') if isinstance(v.get('payload'), dict) else {}
    if v.get('type') == 'turn_context' and isinstance(p.get('model'), str): model = p['model']
    if v.get('type') != 'event_msg' or p.get('type') != 'token_count' or not isinstance(p.get('info'), dict): continue
    total = p['info'].get('total_token_usage')
    key = json.dumps(total, sort_keys=True) if total is not None else None
    if key is not None and key == prev: continue
    prev = key
    last = p['info'].get('last_token_usage')
    if last is None and total is not None:
        last = {k: total[k] - (before or {}).get(k, 0) for k in total}
    if total is not None: before = total; final = total
    if last is not None: calls.append((model, last))
out = {'calls': len(calls), 'final': final, 'byModel': {}}
for m, u in calls:
    t = out['byModel'].setdefault(m, {'calls': 0, 'input': 0, 'cacheRead': 0, 'cacheWrite': 0, 'output': 0, 'reasoning': 0})
    t['calls'] += 1
    t['input'] += u.get('input_tokens', 0); t['cacheRead'] += u.get('cached_input_tokens', 0); t['cacheWrite'] += u.get('cache_write_input_tokens', 0)
    t['output'] += u.get('output_tokens', 0); t['reasoning'] += u.get('reasoning_output_tokens', 0)
for k in ('input', 'cacheRead', 'output', 'reasoning'): out[k] = sum(t[k] for t in out['byModel'].values())
print(json.dumps(out))
`;

interface PySum {
  calls: number;
  input: number;
  cacheRead: number;
  output: number;
  reasoning: number;
  final: Record<string, number> | null;
  byModel: Record<string, { calls: number; input: number; cacheRead: number; cacheWrite: number; output: number; reasoning: number }>;
}

function pythonSum(file: string): PySum {
  const r = spawnSync('python3', ['-c', PY, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as PySum;
}

const python = spawnSync('python3', ['--version']).status === 0;

function rollouts(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? rollouts(p) : /^rollout-.*\.jsonl$/.test(n) ? [p] : [];
  });
}

/** What the list prices make of the Python sums (uncached input, cached input, cache writes, output), per model. */
function listCost(sum: PySum): number {
  let usd = 0;
  for (const [model, t] of Object.entries(sum.byModel)) {
    const p = priceRowOf(model)!;
    usd += ((t.input - t.cacheRead - t.cacheWrite) * p.input + t.cacheRead * p.cacheRead + t.cacheWrite * (p.cacheWrite ?? p.input) + t.output * p.output) / 1e6;
  }
  return usd;
}

const REAL = REALFILES ? rollouts(join(REALFILES, 'codex')).filter((f) => pythonSum(f).calls > 0) : [];
if (!REALFILES) console.log('skipped: shared/realfiles is not beside this checkout (no real Codex rollouts to read)');
if (!python) console.log('skipped: python3 is not on this machine (the independent sum is written in it)');

describe('Codex usage per call, as the bin reports it', () => {
  it.skipIf(!REALFILES || !python).each(REAL.map((f) => [f.slice(f.indexOf('codex/')), f]))('%s: tokens --json adds up what an independent reading does, and that is the final running total', (_name, file) => {
    const sum = pythonSum(file);
    const r = cli('tokens', file, '--whole', '--json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.reported).toMatchObject({ calls: sum.calls, input: sum.input, cacheRead: sum.cacheRead, output: sum.output, reasoning: sum.reasoning });
    // Every call once: the calls' usage adds up to what Codex's running total says at the end.
    if (sum.final) expect([sum.input, sum.cacheRead, sum.output, sum.reasoning]).toEqual([sum.final.input_tokens, sum.final.cached_input_tokens, sum.final.output_tokens, sum.final.reasoning_output_tokens]);
    for (const [model, t] of Object.entries(sum.byModel)) expect(out.reported.byModel[model], model).toMatchObject({ calls: t.calls, input: t.input, cacheRead: t.cacheRead, output: t.output });
    // Counted for the session's model (OpenAI's: its own tokenizer, no estimate), and priced at its own row.
    const [model] = Object.keys(sum.byModel);
    expect([out.model, out.approximate, out.modelSource]).toEqual([model, false, 'session']);
    expect(out.reported.cost.unpriced).toEqual([]);
    expect(out.reported.cost.usd).toBeCloseTo(listCost(sum), 5);
  }, 120_000);

  it.skipIf(!python)('a call that wrote nothing of its own, a repeated total and totals alone (older Codex) are each read once', () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`;
    const usage = (input: number, cached: number, output: number, reasoning: number) => ({ input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output });
    const add = (a: ReturnType<typeof usage>, b: ReturnType<typeof usage>) => usage(a.input_tokens + b.input_tokens, a.cached_input_tokens + b.cached_input_tokens, a.output_tokens + b.output_tokens, a.reasoning_output_tokens + b.reasoning_output_tokens);
    const c1 = usage(1000, 0, 50, 10);
    const c2 = usage(1200, 900, 40, 0);
    const c3 = usage(1300, 1100, 30, 5);
    const t1 = c1;
    const t2 = add(t1, c2);
    const t3 = add(t2, c3);
    const lines = [
      { timestamp: at(0), type: 'session_meta', payload: { id: 'x', cwd: '/tmp/p', cli_version: '0.99.0' } },
      { timestamp: at(1), type: 'turn_context', payload: { model: 'gpt-5.1-codex', cwd: '/tmp/p' } },
      { timestamp: at(2), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list the files' }] } },
      { timestamp: at(3), type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' } },
      { timestamp: at(4), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: t1, last_token_usage: c1 } } },
      // The same totals again: not a second call.
      { timestamp: at(5), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: t1, last_token_usage: c1 } } },
      { timestamp: at(6), type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'a.txt' } },
      // A call that wrote no item (the turn was cut short), then one that answered.
      { timestamp: at(7), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: t2, last_token_usage: c2 } } },
      { timestamp: at(8), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a.txt' }] } },
      // Older Codex: the running total alone.
      { timestamp: at(9), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: t3 } } },
    ];
    const file = join(tempDir(), 'rollout-2026-01-01T00-00-00-0199a0b1-0000-7000-8000-000000000001.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const sum = pythonSum(file);
    expect(sum.calls).toBe(3);
    const out = JSON.parse(cli('tokens', file, '--whole', '--json').stdout);
    expect(out.reported).toMatchObject({ calls: 3, input: sum.input, cacheRead: sum.cacheRead, output: sum.output, reasoning: sum.reasoning });
    expect([sum.input, sum.output]).toEqual([t3.input_tokens, t3.output_tokens]);
  }, 120_000);
});
