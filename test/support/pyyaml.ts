import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

const SCRIPT = join(ROOT, 'test', 'support', 'pyyaml.py');

/** Why PyYAML cannot be used here, or undefined when `python3 -c 'import yaml'` works. */
export function pyyamlMissing(): string | undefined {
  const r = spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' });
  if (r.error) return `python3 is not installed (${r.error.message})`;
  if (r.status !== 0) return 'PyYAML is not installed (apt-get install python3-yaml)';
  return undefined;
}

function run<T>(request: unknown): T {
  const out = execFileSync('python3', [SCRIPT], { input: JSON.stringify(request), maxBuffer: 1024 * 1024 * 1024, encoding: 'utf8' });
  return JSON.parse(out) as T;
}

export type Loaded = { ok: true; value: unknown } | { ok: false; error: string };

/** Each text loaded by PyYAML's pure-Python SafeLoader and, when present, by libyaml's CSafeLoader. */
export function pyyamlLoad(texts: string[]): { pure: Loaded[]; libyaml: Loaded[] | null } {
  return run({ mode: 'load', texts });
}

/** Each value dumped by PyYAML the way swarms does (`indent=4, sort_keys=False`). */
export function pyyamlDump(items: Array<{ value: unknown; allow_unicode: boolean; width: number }>): string[] {
  return run({ mode: 'dump', items });
}
