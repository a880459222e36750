import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, SWARMS, tempDir } from '../helpers.js';

// `npm start` as a user (or a process manager) runs it: npm, its shell, scripts/start.mjs and the server it starts.
const linux = existsSync('/proc/self/stat');
if (!linux) console.log('start-script tests skipped: they find the processes of a group through /proc (Linux only)');

/** The processes of a group still alive (zombies are not). */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so fields count from the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) out.push(Number(name));
  }
  return out;
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const answers = (url: string) => fetch(url).then((r) => r.status === 200, () => false);

let group = 0;
afterEach(() => {
  if (group) for (const pid of groupMembers(group)) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  group = 0;
});

/** `npm start -- DIR` in a group of its own, up to its "Serving … at URL" line. */
async function npmStart(): Promise<{ npm: number; url: string }> {
  const state = tempDir();
  // No Electron here (ELECTRON_PATH names none), so browser mode, whatever the machine has.
  const env = { ...process.env, ELECTRON_PATH: join(state, 'no-electron'), XDG_STATE_HOME: state, XDG_CONFIG_HOME: state };
  const child = spawn('npm', ['start', '--', SWARMS], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  group = child.pid!;
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  await until('the server', () => /Serving .* at (http\S+)/.test(out), 60_000);
  const url = /Serving .* at (http\S+)/.exec(out)![1];
  expect(await answers(url)).toBe(true);
  return { npm: child.pid!, url };
}

describe.skipIf(!linux)('npm start ends with what started it', () => {
  it('a SIGTERM to npm stops the start script and its server (npm\'s shell does not pass the signal on)', async () => {
    const { npm, url } = await npmStart();
    process.kill(npm, 'SIGTERM');
    await until('the page to stop answering', async () => !(await answers(url)));
    await until('every process of the group to end', () => groupMembers(group).length === 0);
  }, 90_000);

  it('the server stops when the start script is killed outright (SIGKILL, nothing to pass on)', async () => {
    const { url } = await npmStart();
    const start = groupMembers(group).find((pid) => /scripts\/start\.mjs/.test(commandOf(pid)));
    expect(start).toBeDefined();
    const server = groupMembers(group).find((pid) => parentOf(pid) === start);
    expect(server).toBeDefined();
    process.kill(start!, 'SIGKILL');
    await until('the page to stop answering', async () => !(await answers(url)));
    await until('the server to end', () => !groupMembers(group).includes(server!));
  }, 90_000);
});
