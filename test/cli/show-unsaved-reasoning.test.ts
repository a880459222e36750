import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../paths.js';

// The real bin (`npm test` builds first; by hand, `node scripts/build.mjs --cli-only`).
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const dir = mkdtempSync(join(tmpdir(), 'ci-show-thinking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('show says what a row of thinking kept only by its signature is, as the app does', () => {
  it('a Claude Code reply of nothing but signed thinking reads "[reasoning not kept in the file …]", not a blank', () => {
    const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: 's-1', version: '2.1.0' };
    const lines = [
      { ...base, parentUuid: null, type: 'user', uuid: 'u-1', timestamp: '2026-06-01T10:00:00Z', message: { role: 'user', content: 'Why is the build red?' } },
      { ...base, parentUuid: 'u-1', type: 'assistant', uuid: 'a-1', timestamp: '2026-06-01T10:00:02Z', requestId: 'req_1', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'thinking', thinking: '', signature: 'EqQBCkYIBxgCKkA' }], usage: { input_tokens: 10, output_tokens: 3 } } },
      { ...base, parentUuid: 'a-1', type: 'assistant', uuid: 'a-2', timestamp: '2026-06-01T10:00:03Z', requestId: 'req_1', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'A test times out.' }], usage: { input_tokens: 10, output_tokens: 9 } } },
    ];
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = spawnSync(process.execPath, [BIN, 'show', file], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') } });
    expect(r.status, r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => /^1 /.test(l));
    expect(row).toMatch(/\[reasoning not kept in the file \(only its signature is\)\]$/);
    expect(r.stdout.split('\n').find((l) => /^2 /.test(l))).toMatch(/A test times out\.$/);
  });

  it('a Codex reasoning summary reads as the app’s row does: its text, the stars of its bold heading off', () => {
    const r = spawnSync(process.execPath, [BIN, 'show', join(ROOT, 'examples', 'agents', 'codex', 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl'), '--whole'], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n').find((l) => /^2 /.test(l))).toMatch(/reasoning .*\[reasoning, \d+ tok\] Checking the version flag I'll look/);
  });
});
