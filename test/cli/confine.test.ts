import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';

// The real bin: a folder it walks (ls, search, scan, export of DIR) with links that lead out of it.
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const cli = (state: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, XDG_STATE_HOME: state } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const MARK = 'OUTSIDEMARK';
const TITLE = 'Zanzibar outside prompt';
const leaks = (text: string) => text.includes(MARK) || text.includes('Zanzibar');

/** Every file's text under a folder (the transcripts an export wrote). */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((n) => join(dir, n))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

function folderWithLinksOut(): { dir: string; out: string } {
  const base = tempDir();
  const dir = join(base, 'opened');
  const out = join(base, 'elsewhere');
  mkdirSync(join(dir, 'proj'), { recursive: true });
  mkdirSync(join(out, 'sub'), { recursive: true });
  const conversation = JSON.stringify([{ role: 'user', content: `${TITLE} ${MARK} token=AKIAIOSFODNN7EXAMPLE` }, { role: 'assistant', content: `${MARK} answered` }]);
  writeFileSync(join(out, 'secret.json'), conversation);
  writeFileSync(join(out, 'sub', 'nested.jsonl'), JSON.stringify({ role: 'user', content: `${MARK} nested` }) + '\n');
  writeFileSync(join(dir, 'inside.json'), JSON.stringify([{ role: 'user', content: 'plain inside words' }]));
  symlinkSync('inside.json', join(dir, 'inlink.json'));
  symlinkSync(join(out, 'secret.json'), join(dir, 'abs.json'));
  symlinkSync('../../elsewhere/secret.json', join(dir, 'proj', 'rel.json'));
  symlinkSync('abs.json', join(dir, 'chain.json'));
  symlinkSync(join(out, 'sub'), join(dir, '.claude'));
  symlinkSync('../elsewhere', join(dir, 'outdir'));
  return { dir, out };
}

describe('the CLI walks a folder without reading what its links lead to outside it', () => {
  it('ls names each link out as such, with a note; --json lists them apart', () => {
    const { dir } = folderWithLinksOut();
    const state = tempDir();
    const r = cli(state, 'ls', dir);
    expect(r.code, r.stderr).toBe(0);
    expect(leaks(r.stdout + r.stderr)).toBe(false);
    for (const p of ['abs.json', 'proj/rel.json', 'chain.json', '.claude/', 'outdir/']) expect(r.stdout).toMatch(new RegExp(`^link outside\\s+${p.replace('.', '\\.')}$`, 'm'));
    expect(r.stdout).toMatch(/^swarms-json\s+1\s+1\s.*\sinlink\.json$/m);
    expect(r.stderr).toContain('note: 5 symbolic links lead outside');
    const json = cli(state, 'ls', dir, '--json');
    expect(leaks(json.stdout)).toBe(false);
    const listed = JSON.parse(json.stdout) as { files: Array<{ path: string }>; outside: Array<{ path: string; folder: boolean }> };
    expect(listed.files.map((f) => f.path).sort()).toEqual(['inlink.json', 'inside.json']);
    expect(listed.outside).toEqual([
      { path: '.claude', folder: true },
      { path: 'abs.json', folder: false },
      { path: 'chain.json', folder: false },
      { path: 'outdir', folder: true },
      { path: 'proj/rel.json', folder: false },
    ]);
  }, 180_000);

  it('search finds nothing out of the folder (text, regex, --json) and says why', () => {
    const { dir } = folderWithLinksOut();
    const state = tempDir();
    for (const args of [[MARK], ['Zanzibar'], ['OUTSIDE.*', '--regex'], [MARK, '--json']]) {
      const r = cli(state, 'search', dir, ...args);
      expect(r.code, r.stderr).toBe(0);
      const said = args.includes('--json') ? JSON.stringify((JSON.parse(r.stdout) as { hits: unknown }).hits) : r.stdout;
      expect(leaks(said), `${args.join(' ')}: ${said}`).toBe(false);
    }
    const r = cli(state, 'search', dir, 'plain inside');
    expect(r.stdout).toContain('inlink.json');
    expect(r.stderr).toContain('symbolic links lead outside');
  }, 180_000);

  it('export of the folder (md and html, redacted or not) and scan leave the links out', () => {
    const { dir } = folderWithLinksOut();
    const state = tempDir();
    for (const args of [['--to', 'md'], ['--to', 'html'], ['--to', 'md', '--no-redact']]) {
      const to = join(tempDir(), 'out');
      const r = cli(state, 'export', dir, ...args, '-o', to);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('symbolic links lead outside');
      const written = allText(to);
      expect(leaks(written), args.join(' ')).toBe(false);
      expect(written).toContain('plain inside words');
    }
    const scan = cli(state, 'scan', dir, '--json');
    const found = JSON.parse(scan.stdout) as { scanned: number; files: unknown[]; outside: string[] };
    expect(found.scanned).toBe(2);
    expect(found.files).toEqual([]);
    expect(found.outside).toHaveLength(5);
  }, 180_000);
});
