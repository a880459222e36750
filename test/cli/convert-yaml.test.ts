import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConversationFile } from '../../src/core/formats/index.js';
import { ROOT, SWARMS, tempDir } from '../helpers.js';
import { pyyamlLoad, pyyamlMissing } from '../support/pyyaml.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const missing = pyyamlMissing();
if (missing) console.log(`convert → PyYAML tests skipped: ${missing}`);
const withPy = missing ? it.skip : it;

const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: tempDir() });
const EXAMPLES = join(ROOT, 'examples');
const files = [
  ...readdirSync(SWARMS).filter((f) => f.endsWith('.json')).map((f) => join(SWARMS, f)),
  ...readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).map((f) => join(EXAMPLES, f)),
];

/** What a message list is once it has crossed JSON (Python's json.loads sees the same). */
const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('convert --to yaml, read by PyYAML (the real bin)', () => {
  withPy('every fixture and example converts to YAML that PyYAML reads as exactly the same conversation', () => {
    const outputs = files.map((f) => {
      const r = cli('convert', f, '--to', 'yaml');
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    });
    const { pure } = pyyamlLoad(outputs);
    files.forEach((f, i) => {
      const original = JSON.parse(readFileSync(f, 'utf8')) as unknown;
      expect(pure[i], f).toEqual({ ok: true, value: viaJson(original) });
    });
  });

  withPy('the texts that changed in the last round come through unchanged: leading newlines and spaces, numbers-as-text, NEL, LS', () => {
    const dir = tempDir();
    const file = join(dir, 'tricky.json');
    const messages = [
      { role: 'system', content: '\n    You are a careful assistant.\n    Answer briefly.\n' },
      { role: 'user', content: '  leading spaces\nline2' },
      { role: 'user', content: '1e3' },
      { role: 'assistant', content: 'next\u0085line\u2028and\u2029more\ttab\x07bell' },
      { role: 'user', content: 'yes' },
      { role: 'tool', content: { result: '0777', ok: 'on', t: '2026-01-15 10:00:05' } },
    ];
    spawnSync('sh', ['-c', `cat > '${file}'`], { input: JSON.stringify(messages) });
    const r = cli('convert', file, '--to', 'yaml');
    expect(r.status, r.stderr).toBe(0);
    expect(pyyamlLoad([r.stdout]).pure[0]).toEqual({ ok: true, value: messages });
    const back = cli('convert', '-', '--to', 'json');
    expect(back.status).not.toBe(0); // stdin is not a file: said plainly, nothing written
    const out = join(dir, 'tricky.yaml');
    expect(cli('convert', file, '--to', 'yaml', '-o', out).status).toBe(0);
    expect(readConversationFile(out).messages).toEqual(messages);
  });
});
