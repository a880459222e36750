import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';
import fc from 'fast-check';
import { PLANTED } from '../support/planted-secrets.js';

// The real bin as a child process: `scan` and `export`, with a state folder of the test's own (dismissals).
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const cli = (state: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, XDG_STATE_HOME: state } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const LEAK = join(ROOT, 'examples', 'agents', 'claude-code', 'deploy-db-timeout.jsonl');
/** What the example session leaks, as its lines hold them. */
const SECRETS = (() => {
  const text = readFileSync(LEAK, 'utf8');
  return [/ghp_[A-Za-z0-9]{36}/, /sk_live_[A-Za-z0-9]{24}/, /Tr0ub4dor-[a-z0-9]{6}/, /sk-proj-[A-Za-z0-9_-]{40,}/, /maria\.keller@shop-mail\.de/].map((re) => text.match(re)![0]);
})();

describe('scan and export through the real bin', () => {
  it('scan --json names every file with findings, the rule, where and a masked excerpt (never the value)', () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    // A secret of every rule planted into a plain OpenAI message list, one per message.
    const planted = Object.values(PLANTED).map((arb, i) => fc.sample(arb, { numRuns: 1, seed: 4242 + i })[0]);
    writeFileSync(join(dir, 'planted.json'), JSON.stringify(planted.map((p) => ({ role: 'user', content: `in a line of text: ${p.text} and more` })), null, 2));
    const r = cli(tempDir(), 'scan', dir, '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { scanned: number; files: Array<{ path: string; findings: Array<{ rule: string; where: { index: number }; excerpt: string }> }> };
    expect(out.scanned).toBeGreaterThan(10);
    const leak = out.files.find((f) => f.path.endsWith('deploy-db-timeout.jsonl'))!;
    expect(new Set(leak.findings.map((f) => f.rule))).toEqual(new Set(['aws', 'openai', 'stripe', 'connection-string', 'aws-access-key-id', 'assigned-password', 'email', 'phone-number', 'ip-address', 'github', 'jwt', 'home-path']));
    const mine = out.files.find((f) => f.path === 'planted.json')!;
    for (const [i, p] of planted.entries()) expect(mine.findings.some((f) => f.where.index === i && f.rule === p.rule), `${p.rule} in message ${i}`).toBe(true);
    // What is printed never holds a secret whole.
    for (const s of [...SECRETS, ...planted.map((p) => p.secret)]) expect(r.stdout).not.toContain(s);
    const text = cli(tempDir(), 'scan', LEAK);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/findings? in 1 of 1 file scanned/);
  });

  it('export is redacted by default with its report beside; --no-redact keeps the text; a folder gives an index', () => {
    const out = tempDir();
    const state = tempDir();
    const html = join(out, 'deploy.html');
    const r = cli(state, 'export', LEAK, '--to', 'html', '-o', html);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('deploy.html.redactions.txt');
    const page = readFileSync(html, 'utf8');
    for (const s of SECRETS) expect(page).not.toContain(s);
    expect(page).toContain('[REDACTED:github]');
    expect(page).not.toMatch(/<script/i);
    const report = readFileSync(`${html}.redactions.txt`, 'utf8');
    for (const s of SECRETS) expect(report).not.toContain(s);
    expect(report).toMatch(/GitHub token/);
    // Markdown to stdout, the report on stderr.
    const md = cli(state, 'export', LEAK, '--to', 'md');
    expect(md.code).toBe(0);
    for (const s of SECRETS) expect(md.stdout + md.stderr).not.toContain(s);
    const raw = cli(state, 'export', LEAK, '--to', 'md', '--no-redact');
    expect(raw.code).toBe(0);
    for (const s of SECRETS) expect(raw.stdout).toContain(s);
    // A folder: a transcript per file, an index, one report.
    const folder = tempDir();
    const all = cli(state, 'export', join(ROOT, 'examples', 'agents'), '--to', 'html', '-o', folder);
    expect(all.code, all.stderr).toBe(0);
    expect(existsSync(join(folder, 'index.html'))).toBe(true);
    expect(existsSync(join(folder, 'claude-code', 'deploy-db-timeout.html'))).toBe(true);
    const every = readdirSync(folder, { recursive: true }).map(String).filter((f) => f.endsWith('.html'));
    for (const f of every) for (const s of SECRETS) expect(readFileSync(join(folder, f), 'utf8'), f).not.toContain(s);
  });

  it('a file no reader takes is said with its line and still looked into as text; the scan then exits 1', () => {
    const dir = tempDir();
    const token = `ghp_${'Qw3'.repeat(12)}`;
    writeFileSync(join(dir, 'ok.json'), JSON.stringify([{ role: 'user', content: 'hello' }]));
    writeFileSync(join(dir, 'broken.json'), `[{"role": "user", "content": "my token ${token}"},\n  {"role": `);
    const r = cli(tempDir(), 'scan', dir, '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { scanned: number; files: Array<{ path: string; findings: Array<{ rule: string; where: { line?: number } }> }>; errors: Array<{ path: string; message: string; line?: number }> };
    expect(out.scanned).toBe(2);
    expect(out.errors).toEqual([expect.objectContaining({ path: 'broken.json', line: 2 })]);
    expect(out.errors[0].message).toMatch(/invalid JSON/);
    expect(out.files).toEqual([{ path: 'broken.json', findings: [expect.objectContaining({ rule: 'github', where: expect.objectContaining({ line: 1 }) })] }]);
    expect(r.stdout).not.toContain(token);
    const text = cli(tempDir(), 'scan', dir);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^broken\.json:2:\d+: not read \(invalid JSON/);
  });

  it('bad input is one line: no --to, a missing file, a thread that does not exist', () => {
    const state = tempDir();
    for (const args of [['export', LEAK], ['export', '/no/such/file.jsonl', '--to', 'md'], ['export', LEAK, '--to', 'md', '--thread', 'nope'], ['scan', '/no/such/dir']]) {
      const r = cli(state, ...args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n').length, r.stderr).toBe(1);
      expect(r.stderr).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/);
    }
  });
});
