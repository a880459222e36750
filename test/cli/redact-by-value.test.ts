import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';
import { leftIn, SECRET, USER_NAME, writeKnownSecretFolder } from '../support/known-secret-session.js';

// The real bin: a secret recognised once, and a user's home folder, in every output `export` makes.
const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const cli = (state: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, XDG_STATE_HOME: state } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** Every file under a folder, with its path (its name can say too much as well). */
function everything(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((n) => join(dir, n))
    .map((f) => `${relative(dir, f)}\n${statSync(f).isFile() ? readFileSync(f, 'utf8') : ''}`)
    .join('\n');
}

describe('export redacts a value found once wherever it stands, and user names in paths', () => {
  it('one file: Markdown, HTML and --thread all hold neither the secret nor the user name; the report says where', () => {
    const dir = tempDir();
    const { session } = writeKnownSecretFolder(dir);
    const state = tempDir();
    // The file holds both, and unredacted the transcript shows them (so the test can fail).
    const raw = cli(state, 'export', session, '--to', 'md', '--no-redact');
    expect(raw.stdout).toContain(SECRET);
    expect(raw.stdout).toContain(`/home/${USER_NAME}`);
    const md = cli(state, 'export', session, '--to', 'md');
    expect(md.code, md.stderr).toBe(0);
    expect(leftIn(md.stdout)).toEqual([]);
    expect(md.stdout).toContain('[REDACTED:');
    expect(md.stdout).toContain('/home/<user>/shop');
    expect(md.stderr).toMatch(/the same value as found elsewhere/);
    expect(leftIn(md.stderr)).toEqual([]);
    const out = tempDir();
    const html = cli(state, 'export', session, '--to', 'html', '-o', join(out, 's.html'));
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync(join(out, 's.html'), 'utf8');
    expect(leftIn(page)).toEqual([]);
    expect(page).toContain('/home/&lt;user&gt;/shop');
    expect(leftIn(readFileSync(join(out, 's.html.redactions.txt'), 'utf8'))).toEqual([]);
    const all = cli(state, 'export', session, '--to', 'md', '--thread', 'all');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('Check the CI settings for [REDACTED:');
    expect(leftIn(all.stdout)).toEqual([]);
  }, 180_000);

  it('a folder: every transcript, the index and the names of the files written (a file before the one the value was found in too)', () => {
    const dir = tempDir();
    writeKnownSecretFolder(dir);
    const state = tempDir();
    for (const to of ['md', 'html']) {
      const out = join(tempDir(), 'out');
      const r = cli(state, 'export', dir, '--to', to, '-o', out);
      expect(r.code, r.stderr).toBe(0);
      const written = everything(out);
      expect(leftIn(written), to).toEqual([]);
      expect(existsSync(join(out, `-aaa-notes.${to}`))).toBe(true);
      expect(readFileSync(join(out, `-aaa-notes.${to}`), 'utf8')).toContain('[REDACTED:');
      expect(readdirSync(out)).toContain('-home-user-shop');
    }
  }, 180_000);

  it('--keep-paths keeps the home folder (the secret still goes)', () => {
    const dir = tempDir();
    const { session } = writeKnownSecretFolder(dir);
    const md = cli(tempDir(), 'export', session, '--to', 'md', '--keep-paths');
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(`/home/${USER_NAME}/shop`);
    expect(md.stdout).not.toContain(SECRET);
  }, 180_000);
});

/**
 * Real sessions other tools wrote (/work/shared/realfiles, read where they are): exported redacted, no home
 * folder of anyone is left, in any transcript, the index or the names of the files written.
 */
// Beside the checkout (CI, the lead's) or beside the worktrees' folder (a helper's).
const REALFILES = [join(ROOT, '..', 'shared', 'realfiles'), join(ROOT, '..', '..', 'shared', 'realfiles')].find((d) => existsSync(d)) ?? join(ROOT, '..', 'shared', 'realfiles');
const HOME = /(?:\/home\/|\/Users\/|[A-Za-z]:\\{1,2}Users\\{1,2}|(?:^|[\\/\s"'=])(?:[A-Za-z]-)?-(?:home|Users)-)(?!&lt;user&gt;|<user>|user\b)([A-Za-z0-9_][A-Za-z0-9._-]*)/gm;
/** Names a home folder holds that are no one's (as the rule leaves them). */
const NO_ONE = /^(?:shared|public|default|runner|root|admin|user|username|guest|test|example)$/i;

describe('real sessions: after a redacted export, no home folder names anyone', () => {
  const present = existsSync(REALFILES);
  if (!present) console.log(`realfiles check skipped: ${REALFILES} is missing`);
  it.runIf(present)('the sessions of every tool, in Markdown and HTML: transcripts, index and file names', () => {
    // The user names the sessions themselves give (their cwd), looked for as words too.
    const names = new Set<string>();
    for (const f of readdirSync(REALFILES, { recursive: true, encoding: 'utf8' })) {
      const file = join(REALFILES, f);
      if (!statSync(file).isFile() || statSync(file).size > 8 * 1024 * 1024) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/"cwd"\s*:\s*"(?:\/home\/|\/Users\/|[A-Za-z]:\\\\Users\\\\)([A-Za-z0-9_.-]+)/g)) names.add(m[1]);
    }
    expect(names.size).toBeGreaterThan(3);
    // The corpus's own folders are named after where each file came from (`deder-2.1.81`): not the sessions' text.
    const corpus = readdirSync(REALFILES).flatMap((tool) => (statSync(join(REALFILES, tool)).isDirectory() ? readdirSync(join(REALFILES, tool)) : []));
    for (const to of ['md', 'html']) {
      const out = join(tempDir(), 'out');
      const r = cli(tempDir(), 'export', REALFILES, '--to', to, '-o', out);
      expect(r.code, r.stderr).toBe(0);
      let written = everything(out);
      for (const c of corpus) written = written.replaceAll(c, '');
      const homes = [...written.matchAll(HOME)].map((m) => m[1]).filter((n) => !NO_ONE.test(n));
      expect(homes, to).toEqual([]);
      for (const n of names) expect(new RegExp(`(?<![A-Za-z0-9_])${n.replace(/\./g, '\\.')}(?![A-Za-z0-9_])`).test(written), `${n} in ${to}`).toBe(false);
    }
  }, 900_000);
});
